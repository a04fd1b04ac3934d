package sim_test

import (
	"context"
	"errors"
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
