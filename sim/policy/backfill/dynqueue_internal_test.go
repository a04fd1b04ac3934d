package backfill

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// TestDynQueue_Model checks dynQueue against a list searched job by job:
// random arrivals (many with equal keys: equal submit, estimate and size)
// and removals, and after each step each chunk's bound against its keys,
// the smallest key of all jobs and of those passing a random backfill
// test, and whether first tells the job with the smallest key from
// another, for the three dynamic ranks.
func TestDynQueue_Model(t *testing.T) {
	for _, r := range []Rank{RankWFP3, RankUNICEP, RankXFactor} {
		t.Run(r.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(r)))
			var q dynQueue
			q.reset(r)
			var model []dynEntry // in arrival order
			tasks := make([]sim.Task, 20000)
			var now sim.Time
			next := 0
			for step := 0; step < 20000; step++ {
				now += sim.Time(rng.IntN(3)) // often the same instant
				switch {
				case next < len(tasks) && (len(model) < 10 || rng.IntN(2) == 0):
					tk := &tasks[next]
					*tk = sim.Task{Index: next, Job: sim.Job{Submit: now, Procs: 1 + rng.IntN(4), Estimate: sim.Time(1 + rng.IntN(3)*rng.IntN(50))}}
					next++
					d := newDynJob(r, tk, tk.Estimate)
					q.add(tk, d)
					model = append(model, dynEntry{dynJob: d, idx: tk.Index})
				case len(model) > 0:
					k := rng.IntN(len(model))
					q.remove(model[k].idx)
					model = slices.Delete(model, k, k+1)
				}
				if q.n != len(model) {
					t.Fatalf("step %d: %d jobs held, want %d", step, q.n, len(model))
				}
				// Each chunk's bound is below each of its keys.
				for k, c := range q.chunks {
					lb := q.bound(c, float64(now))
					for i := range c.e {
						if key := c.e[i].key(r, float64(now)); lb > key {
							t.Fatalf("step %d: chunk %d's bound %v is above job %d's key %v", step, k, lb, c.e[i].idx, key)
						}
					}
				}
				fits := []fit{{all: true, now: now}}
				for range 3 {
					f := fit{now: now, ifShort: rng.IntN(5), shadow: now + sim.Time(rng.IntN(60))}
					f.always = rng.IntN(f.ifShort + 1)
					if len(model) > 0 && rng.IntN(2) == 0 {
						f.skip = []int{model[rng.IntN(len(model))].idx}
					}
					fits = append(fits, f)
				}
				wantAll := -1 // the smallest key of all jobs
				for _, f := range fits {
					got, want := q.min(&f), -1
					best := 0.0
					for i := range model {
						e := &model[i]
						if !f.all && e.procs > f.always && (e.procs > f.ifShort || f.now+e.est > f.shadow) {
							continue
						}
						if slices.Contains(f.skip, e.idx) {
							continue
						}
						if k := e.key(r, float64(now)); want < 0 || k < best {
							best, want = k, e.idx
						}
					}
					if got != want {
						t.Fatalf("step %d, %+v: job %d, want %d", step, f, got, want)
					}
					if f.all {
						wantAll = want
					}
				}
				if len(model) > 0 {
					for _, h := range []int{wantAll, model[rng.IntN(len(model))].idx} {
						if got := q.first(h, now); got != (h == wantAll) {
							t.Fatalf("step %d: first(%d) = %v, the smallest key is job %d's", step, h, got, wantAll)
						}
					}
				}
			}
			// Neighbours are merged when both fit in half a chunk.
			if len(q.chunks) > 4*q.n/dynChunkCap+1 {
				t.Errorf("%d chunks for %d jobs: neighbours not merged", len(q.chunks), q.n)
			}
		})
	}
}

// TestQueueDrop checks queue.drop against removeStarted.
func TestQueueDrop(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	tasks := make([]sim.Task, 200)
	var q queue
	for i := range tasks {
		tasks[i] = sim.Task{Index: i, State: sim.Waiting}
		q = append(q, &tasks[i])
	}
	var pos []int
	byIndex := func(a, b *sim.Task) int { return a.Index - b.Index }
	for len(q) > 0 {
		var started []*sim.Task
		for range rng.IntN(min(len(q), 6)) + 1 {
			t := q[rng.IntN(len(q))]
			if t.State == sim.Waiting {
				t.State = sim.Running
				started = append(started, t)
			}
		}
		started = append(started, &sim.Task{Index: len(tasks)}) // not held: ignored
		want := slices.Clone(q).removeStarted()
		q, pos = q.drop(started, byIndex, pos)
		if !slices.Equal(q, want) {
			t.Fatalf("drop: %d jobs left, want %d", len(q), len(want))
		}
	}
}

// TestDynQueue_RoundedTie checks that a search finds the earlier of two
// jobs with equal keys when the later one has the larger a*w as floats
// compute them: under xfactor, job 0 (estimate 49, waited 49 s) and job 1
// (estimate 2, waited 2 s) both have the key -2, but 1/49*49 rounds below
// 1 while 1/2*2 is 1.
func TestDynQueue_RoundedTie(t *testing.T) {
	tasks := []sim.Task{
		{Index: 0, Job: sim.Job{Submit: 0, Procs: 1, Estimate: 49}},
		{Index: 1, Job: sim.Job{Submit: 47, Procs: 1, Estimate: 2}},
	}
	var q dynQueue
	q.reset(RankXFactor)
	for i := range tasks {
		q.add(&tasks[i], newDynJob(RankXFactor, &tasks[i], tasks[i].Estimate))
	}
	const now = 49
	e := q.chunks[0].e
	if v0, v1 := e[0].a*(now-e[0].submit), e[1].a*(now-e[1].submit); !(v0 < v1) {
		t.Fatalf("a*w: %v and %v, want the first below the second (the case this test is for)", v0, v1)
	}
	if k0, k1 := e[0].key(RankXFactor, now), e[1].key(RankXFactor, now); k0 != k1 {
		t.Fatalf("keys %v and %v, want equal", k0, k1)
	}
	if got := q.min(&fit{all: true, now: now}); got != 0 {
		t.Errorf("min = job %d, want job 0 (equal keys, earlier arrival)", got)
	}
	if !q.first(0, now) || q.first(1, now) {
		t.Errorf("first(0) = %v, first(1) = %v, want true, false", q.first(0, now), q.first(1, now))
	}
}
