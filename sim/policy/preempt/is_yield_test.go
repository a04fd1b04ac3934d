package preempt

import (
	"testing"

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
			compareISReference(t, wl, cfg)
		})
	}
}
