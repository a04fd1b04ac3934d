package sim_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// TestMachine_Check checks that Check(nil) leaves the run alone and that
// a policy passing it a failed profile call ends the run with an error
// wrapping ErrPolicy and the profile's error.
func TestMachine_Check(t *testing.T) {
	jobs := []sim.Job{{ID: 1, Submit: 0, Runtime: 5, Estimate: 5, Procs: 2}}
	for _, over := range []bool{false, true} {
		prof := sim.NewProfile(2, 0)
		p := &funcPolicy{}
		p.arrive = func(m *sim.Machine, t *sim.Task) {
			m.Check(prof.Reserve(0, t.Estimate, t.Procs))
			if over {
				m.Check(prof.Reserve(0, t.Estimate, 1)) // no processor left
			}
		}
		p.schedule = func(m *sim.Machine) {
			if t := m.Task(0); t.State == sim.Waiting {
				m.Check(m.Start(t))
			}
		}
		res, err := sim.Run(context.Background(), 2, jobs, p, sim.Options{})
		switch {
		case !over && err != nil:
			t.Errorf("Run() with every Check(nil): %v", err)
		case !over && res.Tasks[0].End != 5:
			t.Errorf("job ends at %d, want 5", res.Tasks[0].End)
		case over && (!errors.Is(err, sim.ErrPolicy) || !errors.Is(err, sim.ErrProfile)):
			t.Errorf("Run() after an over-committed Reserve: error %v, want one wrapping ErrPolicy and ErrProfile", err)
		}
	}
}

// BenchmarkMachine_Check is the cost of passing a profile edit to
// Machine.Check, as the backfill, multiqueue, moldable and QoPS policies
// do after every Reserve and Release: one op is a release and a reserve
// of one of 200 reservations on a 338-processor profile (the profile of
// BenchmarkProfile_Mix), with both results checked ("checked") or
// discarded ("unchecked"). The difference is Check's cost.
func BenchmarkMachine_Check(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	type res struct {
		start, dur sim.Time
		procs      int
	}
	prof := sim.NewProfile(338, 0)
	rs := make([]res, 200)
	for i := range rs {
		r := res{dur: sim.Time(60 + rng.IntN(36000)), procs: 1 + rng.IntN(64)}
		r.start = prof.EarliestStart(0, r.procs, r.dur)
		if err := prof.Reserve(r.start, r.dur, r.procs); err != nil {
			b.Fatal(err)
		}
		rs[i] = r
	}
	jobs := []sim.Job{{ID: 1, Submit: 0, Runtime: 1, Estimate: 1, Procs: 1}}
	for _, checked := range []bool{false, true} {
		name := "unchecked"
		if checked {
			name = "checked"
		}
		b.Run(name, func(b *testing.B) {
			p := &funcPolicy{}
			p.arrive = func(m *sim.Machine, _ *sim.Task) {
				b.ResetTimer()
				if checked {
					for n := 0; n < b.N; n++ {
						r := &rs[n%len(rs)]
						m.Check(prof.Release(r.start, r.dur, r.procs))
						m.Check(prof.Reserve(r.start, r.dur, r.procs))
					}
				} else {
					for n := 0; n < b.N; n++ {
						r := &rs[n%len(rs)]
						_ = prof.Release(r.start, r.dur, r.procs)
						_ = prof.Reserve(r.start, r.dur, r.procs)
					}
				}
				b.StopTimer()
			}
			p.schedule = func(m *sim.Machine) {
				if t := m.Task(0); t.State == sim.Waiting {
					m.Check(m.Start(t))
				}
			}
			if _, err := sim.Run(context.Background(), 338, jobs, p, sim.Options{}); err != nil {
				b.Fatal(err)
			}
		})
	}
}
