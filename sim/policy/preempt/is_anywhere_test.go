package preempt

import (
	"fmt"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// TestIS_ResumeAnywhere checks the migrating reading of IS by hand, on 4
// processors. Jobs 1 and 2 (2 processors each) start at 0 on {0,1} and
// {2,3}. Job 3 arrives at 700 and suspends job 1 (both past their
// timeslice with instantaneous xfactor 1: the earlier arrival goes), on
// {0,1} until 1700. Job 4 arrives at 1400 and suspends job 2 (xfactor 1,
// like job 3, which arrived later), on {2,3} until 1500. At 1500 job 1
// (xfactor (800+700)/700 = 2.14) comes before job 2 (1500/1400 = 1.07).
// On its own processors only, job 1 waits for job 3 (resumes at 1700, ends
// 1700+4300 = 6000) and job 2 resumes at 1500 (ends 1500+3600 = 5100).
// Anywhere, job 1 resumes at 1500 on {2,3} (ends 5800) and job 2 at 1700
// on {0,1} (ends 5300).
func TestIS_ResumeAnywhere(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 5000, Estimate: 5000, Procs: 2},
		{ID: 2, Submit: 0, Runtime: 5000, Estimate: 5000, Procs: 2},
		{ID: 3, Submit: 700, Runtime: 1000, Estimate: 1000, Procs: 2},
		{ID: 4, Submit: 1400, Runtime: 100, Estimate: 100, Procs: 2},
	}
	for _, tc := range []struct {
		anywhere   bool
		end1, end2 sim.Time
		set1       string
	}{{false, 6000, 5100, "{0-1}"}, {true, 5800, 5300, "{2-3}"}} {
		cfg := DefaultISConfig()
		cfg.ResumeAnywhere = tc.anywhere
		res := runIS(t, 4, jobs, cfg, fmt.Sprintf("resume_anywhere=%v", tc.anywhere))
		j1, j2 := &res.Tasks[0], &res.Tasks[1]
		if j1.End != tc.end1 || j2.End != tc.end2 || j1.Set.String() != tc.set1 {
			t.Errorf("resume_anywhere=%v: job 1 ends %d on %v, job 2 ends %d; want %d on %s, %d",
				tc.anywhere, j1.End, j1.Set, j2.End, tc.end1, tc.set1, tc.end2)
		}
		if e3, e4 := res.Tasks[2].End, res.Tasks[3].End; e3 != 1700 || e4 != 1500 {
			t.Errorf("resume_anywhere=%v: jobs 3 and 4 end %d and %d, want 1700 and 1500", tc.anywhere, e3, e4)
		}
	}
}
