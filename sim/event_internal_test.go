package sim

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
	"time"
)

// TestEventQueue_Model pushes, removes and pops 20,000 random events (many
// at equal times, kinds mixed) and checks every pop against a sorted
// model of the pending events, by (at, kind, seq), and each event's place
// in the heap after every operation batch; removed and popped events are
// reused, as the engine reuses them.
func TestEventQueue_Model(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var q eventQueue
	var model []*event // pending, in no order
	var seq uint64
	byOrder := func(a, b *event) int {
		if c := cmp.Compare(a.at, b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.ord, b.ord)
	}
	checkPlaces := func() {
		t.Helper()
		if q.len() != len(model) {
			t.Fatalf("queue holds %d events, model %d", q.len(), len(model))
		}
		for i, h := range q.h {
			if h.e.idx != i || h.at != h.e.at || h.ord != h.e.ord {
				t.Fatalf("heap place %d: event says %d, at %d/%d ord %d/%d", i, h.e.idx, h.at, h.e.at, h.ord, h.e.ord)
			}
			if i > 0 && h.less(&q.h[(i-1)/2]) {
				t.Fatalf("heap place %d is before its parent", i)
			}
		}
	}
	now := Time(0)
	for step := range 20000 {
		switch r := rng.IntN(10); {
		case r < 5: // push
			seq++
			kind := eventKind(rng.IntN(4))
			e := q.newEvent(now+Time(rng.IntN(20)), uint64(kind)<<seqBits|seq, nil, step)
			q.push(e)
			model = append(model, e)
		case r < 7 && len(model) > 0: // remove a random pending event
			k := rng.IntN(len(model))
			e := model[k]
			q.remove(e)
			if e.idx != -1 {
				t.Fatalf("removed event still placed at %d", e.idx)
			}
			model = slices.Delete(model, k, k+1)
			q.recycle(e)
		case len(model) > 0: // pop
			want := slices.MinFunc(model, byOrder)
			if q.peek() != want || q.peekAt() != want.at {
				t.Fatalf("step %d: peek at %d ord %x, want at %d ord %x", step, q.peek().at, q.peek().ord, want.at, want.ord)
			}
			e := q.pop()
			if e != want {
				t.Fatalf("step %d: popped at %d ord %x, want at %d ord %x", step, e.at, e.ord, want.at, want.ord)
			}
			now = e.at
			model = slices.DeleteFunc(model, func(x *event) bool { return x == e })
			q.recycle(e)
		}
		if step%97 == 0 {
			checkPlaces()
		}
	}
	checkPlaces()
	if len(q.free) == 0 {
		t.Fatal("no event was kept for reuse")
	}
}

// BenchmarkEventQueue: the engine's pattern under EASY with predictions
// (a few hundred pending events: completions and corrections): each
// operation pops the first event and pushes one later, a third of the
// time also removing a recently pushed one and pushing another. It
// reports the CPU time per operation (cpu-ns/op).
func BenchmarkEventQueue(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	var q eventQueue
	var seq uint64
	var recent [64]Timer
	add := func(now Time) {
		seq++
		e := q.newEvent(now+1+Time(rng.IntN(20000)), uint64(rng.IntN(4))<<seqBits|seq, nil, 0)
		q.push(e)
		recent[seq%64] = Timer{e, e.ord}
	}
	for range 300 {
		add(0)
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	for range b.N {
		e := q.pop()
		now := e.at
		q.recycle(e)
		add(now)
		if rng.IntN(3) == 0 {
			if r := recent[rng.IntN(64)]; r.e.ord == r.ord && r.e.idx >= 0 {
				q.remove(r.e)
				q.recycle(r.e)
				add(now)
			}
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(q.len()), "pending")
}

// cpuTime returns the process's CPU time (user and system), steadier
// than the wall time on a shared machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
