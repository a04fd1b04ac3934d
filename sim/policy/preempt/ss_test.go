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
	wl, err := tr.Build(workload.Options{Estimates: est, Skip: skip, Count: count})
	if err != nil {
		tb.Fatal(err)
	}
	return wl
}

// TestSS_Reference runs the fast SS pass and the reference pass (every
// idle job examined at every multiple of the interval) on real trace
// subsets and requires the same schedule, job by job.
func TestSS_Reference(t *testing.T) {
	count := 3000
	if testing.Short() {
		count = 1000
	}
	cases := []struct {
		name  string
		file  string
		procs int
		est   workload.EstimateModel
		cfg   func(*SSConfig)
	}{
		{"ctc/accurate", "CTC-SP2-1996-3.1-cln.swf.gz", 0, workload.EstimateAccurate, func(*SSConfig) {}},
		{"ctc/trace/sf1.5", "CTC-SP2-1996-3.1-cln.swf.gz", 0, workload.EstimateTrace, func(c *SSConfig) { c.SuspensionFactor = 1.5 }},
		{"ctc430/tss3", "CTC-SP2-1996-3.1-cln.swf.gz", 430, workload.EstimateAccurate, func(c *SSConfig) { c.Tunable, c.TSSLimit = true, 3 }},
		{"sdsc/overhead", "SDSC-SP2-1998-4.2-cln.swf.gz", 0, workload.EstimateAccurate, func(c *SSConfig) { c.Overhead = DefaultOverhead(7) }},
		{"ctc/sf1.5/overhead", "CTC-SP2-1996-3.1-cln.swf.gz", 0, workload.EstimateAccurate, func(c *SSConfig) {
			c.SuspensionFactor = 1.5
			c.Overhead = DefaultOverhead(5)
		}},
		{"kth/tss/overhead", "KTH-SP2-1996-2.1-cln.swf.gz", 0, workload.EstimateTrace, func(c *SSConfig) {
			c.Tunable = true
			c.Overhead = DefaultOverhead(3)
		}},
		{"sdsc-par/sf1/width1", "SDSC-Par-1996-3.1-cln.swf.gz", 0, workload.EstimateAccurate, func(c *SSConfig) {
			c.SuspensionFactor = 1
			c.WidthRatio = 1
			c.Interval = 300
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wl := loadTrace(t, tc.file, tc.procs, tc.est, 1000, count)
			cfg := DefaultSSConfig()
			tc.cfg(&cfg)
			var res [2]*sim.Result
			for i := range res {
				p, err := NewSS(cfg, wl.Procs, wl.Jobs)
				if err != nil {
					t.Fatal(err)
				}
				p.reference = i == 1
				if res[i], err = sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{}); err != nil {
					t.Fatal(err)
				}
			}
			susp := 0
			for i := range res[0].Tasks {
				a, b := &res[0].Tasks[i], &res[1].Tasks[i]
				susp += a.Suspensions
				if a.FirstStart != b.FirstStart || a.End != b.End || a.Suspensions != b.Suspensions ||
					a.SuspendedTime != b.SuspendedTime || a.OverheadTime != b.OverheadTime {
					t.Fatalf("job %d: fast start %d end %d suspensions %d, reference start %d end %d suspensions %d",
						a.ID, a.FirstStart, a.End, a.Suspensions, b.FirstStart, b.End, b.Suspensions)
				}
			}
			if susp == 0 {
				t.Errorf("no suspensions: the comparison proves little")
			}
			t.Logf("%d suspensions; %d instants fast, %d reference", susp, res[0].Instants, res[1].Instants)
		})
	}
}
