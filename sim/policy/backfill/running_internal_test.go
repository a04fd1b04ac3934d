package backfill

import (
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
func TestRunningEnds_Profile(t *testing.T) {
	const size, n = 1000, 200000
	rng := rand.New(rand.NewPCG(5, 6))
	var r runningEnds
	r.reset(n)
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
	fronts := 0
	for step := 0; next < n; step++ {
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
	if fronts < 1000 {
		t.Fatalf("only %d jobs ended near the front: the test does not reach removals at the front of the slice", fronts)
	}
}
