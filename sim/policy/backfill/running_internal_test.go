package backfill

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// TestRunningEnds_Profile starts, ends and moves 200,000 random jobs
// (many with equal ends, many of them still running past their planned
// ends, up to a few hundred at once) and checks every answer of
// runningEnds against a sim.Profile holding each running job from now to
// its planned end, advanced as time passes: the shadow time of a random
// width, for random durations, and what is free now and at a later time.
// With link, it also takes out the jobs whose planned ends have passed
// (takeEnded) and puts them back later, as corrections do, and checks
// that each end lists exactly its jobs.
func TestRunningEnds_Profile(t *testing.T) {
	for _, link := range []bool{false, true} {
		t.Run(fmt.Sprintf("link=%v", link), func(t *testing.T) { testRunningEnds(t, link) })
	}
}

func testRunningEnds(t *testing.T, link bool) {
	const size, n = 1000, 200000
	rng := rand.New(rand.NewPCG(5, 6))
	var r runningEnds
	r.reset(n, link)
	prof := sim.NewProfile(size, 0)
	tasks := make([]sim.Task, n)
	var running []*sim.Task
	busy, next := 0, 0
	now := sim.Time(0)
	// place puts tk into the profile from now to end, or takes it out
	// (nothing when end has passed: the profile has forgotten it).
	place := func(tk *sim.Task, end sim.Time, in bool) {
		t.Helper()
		if end <= now {
			return
		}
		var err error
		if in {
			err = prof.Reserve(now, end-now, tk.Procs)
		} else {
			err = prof.Release(now, end-now, tk.Procs)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	fronts, taken := 0, 0
	var ended []int
	for step := 0; next < n; step++ {
		if link && rng.IntN(4) == 0 {
			// The jobs whose planned ends have passed: exactly those
			// with a planned end at or before now.
			ended = r.takeEnded(now, ended[:0])
			want := 0
			for _, tk := range running {
				if r.planned[tk.Index] <= now {
					want++
				}
			}
			if len(ended) != want {
				t.Fatalf("step %d: takeEnded gave %d jobs, %d have ended by %d", step, len(ended), want, now)
			}
			for _, i := range ended {
				tk := &tasks[i]
				if r.planned[i] > now || tk.Procs == 0 {
					t.Fatalf("step %d: takeEnded gave job %d, planned end %d, now %d", step, i, r.planned[i], now)
				}
				end := now + sim.Time(1+rng.IntN(30))*10
				r.add(tk, end)
				place(tk, end, true)
				taken++
			}
		}
		switch k := rng.IntN(10); {
		case k < 4 && busy < size: // start
			tk := &tasks[next]
			tk.Index, tk.Procs = next, 1+rng.IntN(min(4, size-busy))
			next++
			end := now + sim.Time(1+rng.IntN(50))*10 // equal ends are common
			r.add(tk, end)
			place(tk, end, true)
			running = append(running, tk)
			busy += tk.Procs
		case k < 6 && len(running) > 0: // end
			j := rng.IntN(len(running))
			tk := running[j]
			if r.planned[tk.Index] <= now+10 {
				fronts++
			}
			place(tk, r.planned[tk.Index], false)
			r.remove(tk)
			running[j] = running[len(running)-1]
			running = running[:len(running)-1]
			busy -= tk.Procs
		case k < 8 && len(running) > 0: // a correction: the end moves later
			tk := running[rng.IntN(len(running))]
			old := r.planned[tk.Index]
			end := max(old, now) + sim.Time(1+rng.IntN(30))*10
			place(tk, old, false)
			r.move(tk, end)
			place(tk, end, true)
		default: // time passes
			now += sim.Time(rng.IntN(25))
			prof.Advance(now)
		}
		if step%7 != 0 {
			continue
		}
		if link && step%70 == 0 {
			checkLinks(t, &r, tasks, running)
		}
		procs := 1 + rng.IntN(size)
		at, atShadow, atNow := r.shadow(now, size-busy, procs)
		for _, dur := range []sim.Time{1, 1 + sim.Time(rng.IntN(1000)), sim.Never / 4} {
			if want := prof.EarliestStart(now, procs, dur); at != want {
				t.Fatalf("step %d: shadow of %d processors for %d s at %d, profile %d (%v)", step, procs, dur, at, want, prof)
			}
		}
		if want := prof.FreeAt(at); atShadow != want {
			t.Fatalf("step %d: %d free at the shadow time %d, profile %d", step, atShadow, at, want)
		}
		if want := prof.FreeAt(now); atNow != want {
			t.Fatalf("step %d: %d free now, profile %d", step, atNow, want)
		}
		later := now + sim.Time(rng.IntN(600))
		if a, b := r.freeAt(now, later, size-busy); a != prof.FreeAt(now) || b != prof.FreeAt(later) {
			t.Fatalf("step %d: %d free now and %d at %d, profile %d and %d", step, a, b, later, prof.FreeAt(now), prof.FreeAt(later))
		}
	}
	if link && taken < 10000 {
		t.Fatalf("only %d jobs taken out by takeEnded", taken)
	}
	if fronts < 1000 {
		t.Fatalf("only %d jobs ended near the front: the test does not reach removals at the front of the slice", fronts)
	}
}

// checkLinks checks that each of r's ends lists exactly the running jobs
// planned to end then, each once.
func checkLinks(t *testing.T, r *runningEnds, tasks []sim.Task, running []*sim.Task) {
	t.Helper()
	seen := make(map[int]bool, len(running))
	for _, s := range r.steps[r.lo:] {
		procs := 0
		for j := s.jobs; j != 0; j = r.next[j-1] {
			i := int(j - 1)
			if seen[i] || r.planned[i] != s.end {
				t.Fatalf("end %d lists job %d (planned end %d, listed before: %v)", s.end, i, r.planned[i], seen[i])
			}
			seen[i] = true
			if p := r.prev[i]; p != 0 && r.next[p-1] != j {
				t.Fatalf("job %d: its previous job %d does not link to it", i, p-1)
			}
			procs += tasks[i].Procs
		}
		if procs != int(s.free) {
			t.Fatalf("end %d frees %d processors, its jobs hold %d", s.end, s.free, procs)
		}
	}
	if len(seen) != len(running) {
		t.Fatalf("the ends list %d jobs, %d run", len(seen), len(running))
	}
}
