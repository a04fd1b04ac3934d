package preempt

import (
	"context"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/simcheck"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestIS_ResumePreemptReference runs IS with resumption by priority with
// its suspended jobs' bounds and with the plain algorithm (every suspended
// job tried at every pass, the routine run every minute while jobs are
// suspended) on real trace subsets of all four traces, with and without
// suspension overhead, at loads 1.0 and 1.4, with resume factors 1 and 2
// (the Kettimuthu et al. specs' setting) and with hold_remembered, and
// requires the same schedule, job by job, and the invariants.
func TestIS_ResumePreemptReference(t *testing.T) {
	count := 2000
	if testing.Short() {
		count = 600
	}
	cases := []struct {
		name  string
		file  string
		procs int
		est   workload.EstimateModel
		over  bool
		load  float64
		// factor is the resume factor (0: the default, 1); hold sets
		// HoldRemembered.
		factor float64
		hold   bool
	}{
		{"ctc430", "CTC-SP2-1996-3.1-cln.swf.gz", 430, workload.EstimateAccurate, false, 0, 0, false},
		{"ctc/trace/load1.4", "CTC-SP2-1996-3.1-cln.swf.gz", 0, workload.EstimateTrace, false, 1.4, 0, false},
		{"ctc430/overhead/load1.4", "CTC-SP2-1996-3.1-cln.swf.gz", 430, workload.EstimateAccurate, true, 1.4, 0, false},
		{"sdsc/trace", "SDSC-SP2-1998-4.2-cln.swf.gz", 0, workload.EstimateTrace, false, 0, 0, false},
		{"sdsc/overhead/load1.4", "SDSC-SP2-1998-4.2-cln.swf.gz", 0, workload.EstimateAccurate, true, 1.4, 0, false},
		{"kth/load1.4", "KTH-SP2-1996-2.1-cln.swf.gz", 0, workload.EstimateTrace, false, 1.4, 0, false},
		{"kth/overhead", "KTH-SP2-1996-2.1-cln.swf.gz", 0, workload.EstimateTrace, true, 0, 0, false},
		{"sdsc-par/load1.4", "SDSC-Par-1996-3.1-cln.swf.gz", 0, workload.EstimateAccurate, false, 1.4, 0, false},
		{"sdsc-par/overhead", "SDSC-Par-1996-3.1-cln.swf.gz", 0, workload.EstimateTrace, true, 0, 0, false},
		{"ctc430/factor2/load1.4", "CTC-SP2-1996-3.1-cln.swf.gz", 430, workload.EstimateAccurate, false, 1.4, 2, false},
		{"sdsc/factor2/overhead", "SDSC-SP2-1998-4.2-cln.swf.gz", 0, workload.EstimateTrace, true, 0, 2, false},
		{"sdsc/factor1.5/load1.4", "SDSC-SP2-1998-4.2-cln.swf.gz", 0, workload.EstimateAccurate, false, 1.4, 1.5, false},
		{"ctc430/factor2/hold", "CTC-SP2-1996-3.1-cln.swf.gz", 430, workload.EstimateAccurate, false, 0, 2, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wl := loadTraceOpts(t, tc.file, tc.procs, workload.Options{
				Estimates: tc.est, Skip: 1000, Count: count, Load: tc.load, LoadMode: workload.LoadArrival})
			cfg := DefaultISConfig()
			cfg.ResumePreempt = true
			cfg.ResumeFactor = tc.factor
			cfg.HoldRemembered = tc.hold
			if tc.over {
				cfg.Overhead = DefaultOverhead(9)
			}
			res := compareISReference(t, wl, cfg)
			t.Logf("%d instants bounded, %d reference", res[0].Instants, res[1].Instants)
		})
	}
}

// isTraceCase is one real-trace setting of an IS reference test: the
// first jobs after the trace's first 1000 at a load (0: as recorded),
// with resumption by priority at a resume factor, with or without
// suspension overhead.
type isTraceCase struct {
	name, file string
	procs      int
	over       bool
	factor     float64
	load       float64
}

// compareISOnTraces runs compareISReference on each case with option
// set, 2000 jobs (600 with -short), in parallel subtests.
func compareISOnTraces(t *testing.T, cases []isTraceCase, option func(*ISConfig)) {
	count := 2000
	if testing.Short() {
		count = 600
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wl := loadTraceOpts(t, tc.file, tc.procs, workload.Options{
				Estimates: workload.EstimateAccurate, Skip: 1000, Count: count, Load: tc.load, LoadMode: workload.LoadArrival})
			cfg := DefaultISConfig()
			cfg.ResumePreempt, cfg.ResumeFactor = true, tc.factor
			option(&cfg)
			if tc.over {
				cfg.Overhead = DefaultOverhead(9)
			}
			compareISReference(t, wl, cfg)
		})
	}
}

// compareISReference runs IS with cfg on wl twice, with the suspended
// jobs' bounds and with the plain routine (every suspended job at every
// minute), checks the bounded schedule's invariants, and fails unless both
// give every job the same start, end, suspensions, suspended time and
// overhead, or if no job was suspended (the comparison would prove
// little). It returns the bounded and the reference results.
func compareISReference(t *testing.T, wl *workload.Workload, cfg ISConfig) [2]*sim.Result {
	t.Helper()
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
	susp := sameJobs(t, res[0], res[1])
	if susp == 0 {
		t.Errorf("no suspensions: the comparison proves little")
	}
	t.Logf("%d suspensions", susp)
	return res
}

// sameJobs fails the test at the first job whose first start, end,
// suspensions, suspended time or overhead differ between the fast run and
// the reference run of the same jobs, and returns the fast run's
// suspensions.
func sameJobs(t *testing.T, fast, ref *sim.Result) (susp int) {
	t.Helper()
	for i := range fast.Tasks {
		a, b := &fast.Tasks[i], &ref.Tasks[i]
		susp += a.Suspensions
		if a.FirstStart != b.FirstStart || a.End != b.End || a.Suspensions != b.Suspensions ||
			a.SuspendedTime != b.SuspendedTime || a.OverheadTime != b.OverheadTime {
			t.Fatalf("job %d: fast start %d end %d suspensions %d, reference start %d end %d suspensions %d",
				a.ID, a.FirstStart, a.End, a.Suspensions, b.FirstStart, b.End, b.Suspensions)
		}
	}
	return susp
}
