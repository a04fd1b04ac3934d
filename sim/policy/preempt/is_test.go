package preempt

import (
	"context"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/simcheck"
)

// TestIS_ResumeReadings runs the two readings of IS on the jobs of the
// is-reclaim scenario (sim/policy/testdata/scenarios): job 2 arrives at
// 1000 and suspends job 1. When suspended jobs only resume on free
// processors, job 2 runs to its end (1000-4000); when they compete by
// instantaneous xfactor, the two alternate every timeslice and job 2
// ends at 6400 (the scenario's comment derives every swap). Job 1 ends at
// 10200 either way.
func TestIS_ResumeReadings(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 7200, Estimate: 7200, Procs: 4},
		{ID: 2, Submit: 1000, Runtime: 3000, Estimate: 3000, Procs: 4},
	}
	for _, tc := range []struct {
		resume      bool
		end2, susp1 int
	}{{false, 4000, 1}, {true, 6400, 5}} {
		cfg := DefaultISConfig()
		cfg.ResumePreempt = tc.resume
		p, err := NewIS(cfg)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(context.Background(), 4, jobs, p, sim.Options{Segments: true, CheckEvery: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := simcheck.Check(jobs, res); err != nil {
			t.Fatalf("resume_preempt=%v: invariants: %v", tc.resume, err)
		}
		j1, j2 := &res.Tasks[0], &res.Tasks[1]
		if j1.End != 10200 || j2.End != sim.Time(tc.end2) || j1.Suspensions != tc.susp1 {
			t.Errorf("resume_preempt=%v: job 1 end %d (%d suspensions), job 2 end %d; want 10200 (%d), %d",
				tc.resume, j1.End, j1.Suspensions, j2.End, tc.susp1, tc.end2)
		}
	}
}
