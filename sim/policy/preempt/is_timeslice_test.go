package preempt

import (
	"fmt"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// TestIS_TimeslicePreemptible checks the reading in which a later arrival
// may interrupt a job's immediate timeslice. On 4 processors, job 1 (4
// processors, 7200 s) starts at 0; job 2 (4 processors, 300 s) arrives at
// 100, while job 1 is in its timeslice. Protected, job 1 runs until its
// timeslice ends at 600; job 2 then suspends it and runs 600-900, and job
// 1 resumes on its free processors and ends at 900 + 6600 = 7500.
// Preemptible, job 2 suspends job 1 at once and runs 100-400; job 1 ends
// at 400 + 7100 = 7500. Job 1 is suspended once either way.
func TestIS_TimeslicePreemptible(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 7200, Estimate: 7200, Procs: 4},
		{ID: 2, Submit: 100, Runtime: 300, Estimate: 300, Procs: 4},
	}
	for _, tc := range []struct {
		preemptible  bool
		start2, end2 sim.Time
	}{{false, 600, 900}, {true, 100, 400}} {
		cfg := DefaultISConfig()
		cfg.TimeslicePreemptible = tc.preemptible
		res := runIS(t, 4, jobs, cfg, fmt.Sprintf("preemptible=%v", tc.preemptible))
		j1, j2 := &res.Tasks[0], &res.Tasks[1]
		if j2.FirstStart != tc.start2 || j2.End != tc.end2 || j1.End != 7500 || j1.Suspensions != 1 {
			t.Errorf("preemptible=%v: job 2 %d-%d, job 1 end %d (%d suspensions); want %d-%d, 7500 (1)",
				tc.preemptible, j2.FirstStart, j2.End, j1.End, j1.Suspensions, tc.start2, tc.end2)
		}
	}
}

// TestIS_TimesliceYield checks the reading in which an arriving job's
// immediate timeslice ends as a timeslice. On 4 processors, job 1 (4
// processors, 7200 s) starts at 0; job 2 (4 processors, 3000 s) arrives at
// 1000 and suspends it (job 1 is past its own timeslice). Without the
// reading, job 2 runs to its end (1000-4000) and job 1 resumes and ends at
// 4000 + 6200 = 10200. With it, job 2 yields at the end of its timeslice,
// 1600, as job 1 still waits for its processors; job 1 resumes at once and
// ends at 1600 + 6200 = 7800, and job 2 (suspended, resuming on free
// processors) ends at 7800 + 2400 = 10200. Each job is suspended once.
func TestIS_TimesliceYield(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 7200, Estimate: 7200, Procs: 4},
		{ID: 2, Submit: 1000, Runtime: 3000, Estimate: 3000, Procs: 4},
	}
	for _, tc := range []struct {
		yield      bool
		end1, end2 sim.Time
		susp2      int
	}{{false, 10200, 4000, 0}, {true, 7800, 10200, 1}} {
		cfg := DefaultISConfig()
		cfg.TimesliceYield = tc.yield
		res := runIS(t, 4, jobs, cfg, fmt.Sprintf("yield=%v", tc.yield))
		j1, j2 := &res.Tasks[0], &res.Tasks[1]
		if j1.End != tc.end1 || j2.End != tc.end2 || j1.Suspensions != 1 || j2.Suspensions != tc.susp2 {
			t.Errorf("yield=%v: job 1 end %d (%d suspensions), job 2 end %d (%d); want %d (1), %d (%d)",
				tc.yield, j1.End, j1.Suspensions, j2.End, j2.Suspensions, tc.end1, tc.end2, tc.susp2)
		}
	}
}
