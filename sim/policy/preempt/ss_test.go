package preempt

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/workload"
)

var (
	traceMu sync.Mutex
	traces  = map[string]*workload.Trace{}
)

// loadTrace returns count jobs of a shipped trace after skip, on procs
// processors (0: the trace's own size).
func loadTrace(tb testing.TB, file string, procs int, est workload.EstimateModel, skip, count int) *workload.Workload {
	tb.Helper()
	return loadTraceOpts(tb, file, procs, workload.Options{Estimates: est, Skip: skip, Count: count})
}

// loadTraceOpts builds a workload of a shipped trace on procs processors
// (0: the trace's own size).
func loadTraceOpts(tb testing.TB, file string, procs int, opts workload.Options) *workload.Workload {
	tb.Helper()
	key := fmt.Sprint(file, procs)
	traceMu.Lock()
	tr, ok := traces[key]
	if !ok {
		var err error
		tr, err = workload.Read(filepath.Join("..", "..", "..", "traces", file), procs)
		if err != nil {
			traceMu.Unlock()
			tb.Fatal(err)
		}
		traces[key] = tr
	}
	traceMu.Unlock()
	wl, err := tr.Build(opts)
	if err != nil {
		tb.Fatal(err)
	}
	return wl
}

// TestSS_Reference runs the fast SS pass and the reference pass (every
// idle job examined at every multiple of the interval) on real trace
// subsets and requires the same schedule, job by job. Both runs also check
// every count of a suspended job's holders through the processor index
// against a scan of all jobs holding processors, and every bound from the
// first job it may not suspend (SS.bound) against the full count. TSS runs under both
// readings of its rule, some at loads where many running jobs are
// protected.
func TestSS_Reference(t *testing.T) {
	count := 3000
	if testing.Short() {
		count = 1000
	}
	const (
		ctc  = "CTC-SP2-1996-3.1-cln.swf.gz"
		sdsc = "SDSC-SP2-1998-4.2-cln.swf.gz"
	)
	formula := func(c *SSConfig) { c.Tunable, c.TSSProtectVictim = true, false }
	cases := []struct {
		name  string
		file  string
		procs int
		est   workload.EstimateModel
		cfg   func(*SSConfig)
		load  float64 // arrival scaling; 0: none
	}{
		{"ctc430/tss", ctc, 430, workload.EstimateAccurate, func(c *SSConfig) { c.Tunable = true }, 0},
		{"ctc/tss/formula", ctc, 0, workload.EstimateAccurate, formula, 0},
		{"ctc430/tss/load1.5", ctc, 430, workload.EstimateAccurate, func(c *SSConfig) { c.Tunable = true }, 1.5},
		{"ctc430/tss/formula/load1.5", ctc, 430, workload.EstimateAccurate, formula, 1.5},
		{"sdsc/tss/trace/load1.3", sdsc, 0, workload.EstimateTrace, func(c *SSConfig) { c.Tunable = true }, 1.3},
		{"sdsc/tss/formula/trace/load1.3", sdsc, 0, workload.EstimateTrace, formula, 1.3},
		{"ctc430/tss/sf1.5/overhead/load1.3", ctc, 430, workload.EstimateTrace, func(c *SSConfig) {
			c.Tunable, c.SuspensionFactor = true, 1.5
			c.Overhead = DefaultOverhead(11)
		}, 1.3},
		{"sdsc/tss/formula/overhead", sdsc, 0, workload.EstimateAccurate, func(c *SSConfig) {
			formula(c)
			c.Overhead = DefaultOverhead(13)
		}, 0},
		{"kth/tss1/sf1/width1", "KTH-SP2-1996-2.1-cln.swf.gz", 0, workload.EstimateAccurate, func(c *SSConfig) {
			c.Tunable, c.TSSLimit = true, 1
			c.SuspensionFactor, c.WidthRatio, c.Interval = 1, 1, 300
		}, 0},
		{"ctc430/hold/load1.5", ctc, 430, workload.EstimateAccurate, func(c *SSConfig) { c.HoldRemembered = true }, 1.5},
		{"sdsc/tss/hold/trace/load1.3", sdsc, 0, workload.EstimateTrace, func(c *SSConfig) { c.Tunable, c.HoldRemembered = true, true }, 1.3},
		{"ctc430/tss/formula/hold/overhead/load1.3", ctc, 430, workload.EstimateTrace, func(c *SSConfig) {
			formula(c)
			c.HoldRemembered = true
			c.Overhead = DefaultOverhead(11)
		}, 1.3},
		{"sdsc/hold/backfill/load1.3", sdsc, 128, workload.EstimateAccurate, func(c *SSConfig) { c.HoldRemembered, c.HoldBackfill = true, true }, 1.3},
		{"ctc430/tss/hold/backfill/trace/load1.6", ctc, 430, workload.EstimateTrace, func(c *SSConfig) {
			c.Tunable, c.HoldRemembered, c.HoldBackfill = true, true, true
		}, 1.6},
		{"sdsc/tss/formula/hold/backfill/overhead", sdsc, 0, workload.EstimateTrace, func(c *SSConfig) {
			formula(c)
			c.HoldRemembered, c.HoldBackfill = true, true
			c.Overhead = DefaultOverhead(17)
		}, 0},
		{"ctc/accurate", ctc, 0, workload.EstimateAccurate, func(*SSConfig) {}, 0},
		{"ctc/trace/load1.4", ctc, 0, workload.EstimateTrace, func(*SSConfig) {}, 1.4},
		{"kth/overhead/load1.4", "KTH-SP2-1996-2.1-cln.swf.gz", 0, workload.EstimateTrace, func(c *SSConfig) { c.Overhead = DefaultOverhead(19) }, 1.4},
		{"sdsc-par/tss/load1.4", "SDSC-Par-1996-3.1-cln.swf.gz", 0, workload.EstimateTrace, func(c *SSConfig) { c.Tunable = true }, 1.4},
		{"ctc/trace/sf1.5", ctc, 0, workload.EstimateTrace, func(c *SSConfig) { c.SuspensionFactor = 1.5 }, 0},
		{"ctc430/tss3", ctc, 430, workload.EstimateAccurate, func(c *SSConfig) { c.Tunable, c.TSSLimit = true, 3 }, 0},
		{"ctc430/tss3/formula", ctc, 430, workload.EstimateAccurate, func(c *SSConfig) { formula(c); c.TSSLimit = 3 }, 0},
		{"sdsc/overhead", sdsc, 0, workload.EstimateAccurate, func(c *SSConfig) { c.Overhead = DefaultOverhead(7) }, 0},
		{"ctc/sf1.5/overhead", ctc, 0, workload.EstimateAccurate, func(c *SSConfig) {
			c.SuspensionFactor = 1.5
			c.Overhead = DefaultOverhead(5)
		}, 0},
		{"kth/tss/overhead", "KTH-SP2-1996-2.1-cln.swf.gz", 0, workload.EstimateTrace, func(c *SSConfig) {
			c.Tunable = true
			c.Overhead = DefaultOverhead(3)
		}, 0},
		{"kth/tss/formula/overhead", "KTH-SP2-1996-2.1-cln.swf.gz", 0, workload.EstimateTrace, func(c *SSConfig) {
			formula(c)
			c.Overhead = DefaultOverhead(3)
		}, 0},
		{"ctc430/stopscan", ctc, 430, workload.EstimateAccurate, func(c *SSConfig) { c.StopScan = true }, 0},
		{"sdsc/tss/stopscan/trace/load1.3", sdsc, 0, workload.EstimateTrace, func(c *SSConfig) { c.Tunable, c.StopScan = true, true }, 1.3},
		{"ctc430/tss/stopscan/hold/backfill/load1.6", ctc, 430, workload.EstimateAccurate, func(c *SSConfig) {
			c.Tunable, c.StopScan, c.HoldRemembered, c.HoldBackfill = true, true, true, true
		}, 1.6},
		{"sdsc/tss/formula/stopscan/overhead", sdsc, 0, workload.EstimateAccurate, func(c *SSConfig) {
			formula(c)
			c.StopScan = true
			c.Overhead = DefaultOverhead(23)
		}, 0},
		{"sdsc-par/sf1/width1", "SDSC-Par-1996-3.1-cln.swf.gz", 0, workload.EstimateAccurate, func(c *SSConfig) {
			c.SuspensionFactor = 1
			c.WidthRatio = 1
			c.Interval = 300
		}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wl := loadTraceOpts(t, tc.file, tc.procs, workload.Options{
				Estimates: tc.est, Skip: 1000, Count: count, Load: tc.load, LoadMode: workload.LoadArrival})
			cfg := DefaultSSConfig()
			tc.cfg(&cfg)
			var res [2]*sim.Result
			checked := 0
			for i := range res {
				p, err := NewSS(cfg, wl.Procs, wl.Jobs)
				if err != nil {
					t.Fatal(err)
				}
				p.reference = i == 1
				p.checkHolders = true
				if res[i], err = sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{}); err != nil {
					t.Fatal(err)
				}
				if p.holdersErr != nil {
					t.Fatalf("reference %v: processor index: %v", p.reference, p.holdersErr)
				}
				checked += p.holdersChecked
			}
			susp := sameJobs(t, res[0], res[1])
			if susp == 0 && !testing.Short() {
				t.Errorf("no suspensions: the comparison proves little")
			}
			if checked == 0 && susp > 0 {
				t.Errorf("suspensions, but no holders call was checked against the scan")
			}
			t.Logf("%d suspensions; %d instants fast, %d reference", susp, res[0].Instants, res[1].Instants)
		})
	}
}
