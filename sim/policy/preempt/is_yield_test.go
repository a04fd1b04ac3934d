package preempt

import (
	"context"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/simcheck"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestIS_TimesliceYieldReference runs IS with TimesliceYield and
// resumption by priority (factor 2, as the Kettimuthu et al. specs) on
// real traces, with the suspended jobs' bounds and with the plain routine
// (every suspended job at every minute), and requires the same schedule
// job by job: jobs that yield join the suspended jobs the bounds follow.
func TestIS_TimesliceYieldReference(t *testing.T) {
	count := 2000
	if testing.Short() {
		count = 600
	}
	for _, tc := range []struct {
		name, file string
		procs      int
		over       bool
	}{
		{"ctc430", "CTC-SP2-1996-3.1-cln.swf.gz", 430, false},
		{"sdsc/overhead", "SDSC-SP2-1998-4.2-cln.swf.gz", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wl := loadTraceOpts(t, tc.file, tc.procs, workload.Options{
				Estimates: workload.EstimateAccurate, Skip: 1000, Count: count, Load: 1.2, LoadMode: workload.LoadArrival})
			cfg := DefaultISConfig()
			cfg.ResumePreempt = true
			cfg.ResumeFactor = 2
			cfg.TimesliceYield = true
			if tc.over {
				cfg.Overhead = DefaultOverhead(9)
			}
			var res [2]*sim.Result
			for i := range res {
				p, err := NewIS(cfg)
				if err != nil {
					t.Fatal(err)
				}
				p.reference = i == 1
				if res[i], err = sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{Segments: i == 0}); err != nil {
					t.Fatal(err)
				}
			}
			if err := simcheck.Check(wl.Jobs, res[0]); err != nil {
				t.Fatalf("invariants: %v", err)
			}
			susp := 0
			for i := range res[0].Tasks {
				a, b := &res[0].Tasks[i], &res[1].Tasks[i]
				susp += a.Suspensions
				if a.FirstStart != b.FirstStart || a.End != b.End || a.Suspensions != b.Suspensions || a.SuspendedTime != b.SuspendedTime {
					t.Fatalf("job %d: bounded start %d end %d suspensions %d, reference start %d end %d suspensions %d",
						a.ID, a.FirstStart, a.End, a.Suspensions, b.FirstStart, b.End, b.Suspensions)
				}
			}
			if susp == 0 {
				t.Errorf("no suspensions: the comparison proves little")
			}
		})
	}
}
