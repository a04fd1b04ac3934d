package preempt

import (
	"context"
	"errors"
	"fmt"
	"math"
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
		res := runIS(t, 4, jobs, cfg, fmt.Sprintf("resume_preempt=%v", tc.resume))
		j1, j2 := &res.Tasks[0], &res.Tasks[1]
		if j1.End != 10200 || j2.End != sim.Time(tc.end2) || j1.Suspensions != tc.susp1 {
			t.Errorf("resume_preempt=%v: job 1 end %d (%d suspensions), job 2 end %d; want 10200 (%d), %d",
				tc.resume, j1.End, j1.Suspensions, j2.End, tc.susp1, tc.end2)
		}
	}
}

// TestIS_ResumeFactor runs the jobs of TestIS_ResumeReadings with
// reclaims that need twice the holder's instantaneous xfactor. Job 2
// arrives at 1000 and suspends job 1 (1000 s of work). Suspended, job 1's
// instantaneous xfactor is t/1000 against running job 2's 1, so it first
// exceeds twice job 2's after 2000, at the routine's run at 2040: job 2
// (1040 s of work) is suspended. Job 2's is then (t-1000)/1040, job 1's
// (1040 + w)/w with w = t - 1040 its work; 2 x job 1's is first below job
// 2's at 3860 (2.750 against 2.738; at 3840, 2.731 against 2.743), so at
// the run at 3900 job 2 resumes, and job 1 (2860 s of work) is suspended.
// Job 1's is then t/2860 against job 2's (1860 + w)/w with w = t - 2860;
// at job 2's end, 3900 + 1960 = 5860, they are 2.05 and 1.62, so job 2
// ends there, job 1 resumes and ends at 5860 + 4340 = 10200. Job 1 is
// suspended twice, not five times as with the plain comparison.
func TestIS_ResumeFactor(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 7200, Estimate: 7200, Procs: 4},
		{ID: 2, Submit: 1000, Runtime: 3000, Estimate: 3000, Procs: 4},
	}
	cfg := DefaultISConfig()
	cfg.ResumePreempt = true
	cfg.ResumeFactor = 2
	res := runIS(t, 4, jobs, cfg, "IS")
	j1, j2 := &res.Tasks[0], &res.Tasks[1]
	if j1.End != 10200 || j2.End != 5860 || j1.Suspensions != 2 || j2.Suspensions != 1 {
		t.Errorf("job 1 end %d (%d suspensions), job 2 end %d (%d); want 10200 (2), 5860 (1)",
			j1.End, j1.Suspensions, j2.End, j2.Suspensions)
	}
	for _, f := range []float64{0.5, math.Inf(1), math.NaN()} {
		c := DefaultISConfig()
		c.ResumeFactor = f
		if _, err := NewIS(c); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("resume factor %g: err %v, want ErrInvalidConfig", f, err)
		}
	}
}

// TestIS_HoldRemembered: on 4 processors, jobs 1 and 2 (2 processors,
// 5000 s) start at 0 on {0,1} and {2,3}. Job 3 (2 processors, 300 s)
// arrives at 1000 and suspends job 1 (both have run 1000 s at
// instantaneous xfactor 1; the tie goes to the earlier job), taking
// {0,1}. At 1300 job 3 ends as job 4 (2 processors, 2000 s) arrives. On
// free processors, job 4 takes {0,1}, which job 1 remembers: job 1 waits
// until 3300 and ends at 7300, job 2 at 5000. With hold_remembered, job 4
// may not take them; it suspends job 2 (past its timeslice) and takes
// {2,3}, and job 1 resumes at once on {0,1} and ends at 5300; job 2
// resumes when job 4 ends at 3300 and ends at 7000.
func TestIS_HoldRemembered(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 5000, Estimate: 5000, Procs: 2},
		{ID: 2, Submit: 0, Runtime: 5000, Estimate: 5000, Procs: 2},
		{ID: 3, Submit: 1000, Runtime: 300, Estimate: 300, Procs: 2},
		{ID: 4, Submit: 1300, Runtime: 2000, Estimate: 2000, Procs: 2},
	}
	for _, tc := range []struct {
		hold         bool
		end1, end2   sim.Time
		susp1, susp2 int
	}{{false, 7300, 5000, 1, 0}, {true, 5300, 7000, 1, 1}} {
		cfg := DefaultISConfig()
		cfg.HoldRemembered = tc.hold
		res := runIS(t, 4, jobs, cfg, fmt.Sprintf("hold=%v", tc.hold))
		j1, j2, j4 := &res.Tasks[0], &res.Tasks[1], &res.Tasks[3]
		if j1.End != tc.end1 || j2.End != tc.end2 || j4.End != 3300 || j1.Suspensions != tc.susp1 || j2.Suspensions != tc.susp2 {
			t.Errorf("hold=%v: ends %d, %d, job 4 %d; suspensions %d, %d; want %d, %d, 3300; %d, %d",
				tc.hold, j1.End, j2.End, j4.End, j1.Suspensions, j2.Suspensions, tc.end1, tc.end2, tc.susp1, tc.susp2)
		}
	}
}

// runIS runs IS with cfg on jobs over procs processors, with segments and
// the engine's per-event checks, and fails the test (naming label) unless
// the schedule passes every simcheck invariant.
func runIS(t *testing.T, procs int, jobs []sim.Job, cfg ISConfig, label string) *sim.Result {
	t.Helper()
	p, err := NewIS(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return runISPolicy(t, procs, jobs, p, label)
}

// runISPolicy runs p on jobs, as runIS does.
func runISPolicy(t *testing.T, procs int, jobs []sim.Job, p *IS, label string) *sim.Result {
	t.Helper()
	res, err := sim.Run(context.Background(), procs, jobs, p, sim.Options{Segments: true, CheckEvery: 1})
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	if err := simcheck.Check(jobs, res); err != nil {
		t.Fatalf("%s: invariants: %v", label, err)
	}
	return res
}
