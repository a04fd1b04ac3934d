package backfill

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// TestDynQueue_Model checks dynQueue against a list searched job by job:
// random arrivals (many with equal keys: equal submit, estimate and size)
// and removals, and after each step the smallest key of all jobs and of
// those passing a random backfill test, and whether first tells the job
// with the smallest key from another, for the three dynamic ranks.
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
