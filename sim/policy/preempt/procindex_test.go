package preempt

import (
	"context"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestProcIndex_RunsSameSchedule runs SS, TSS (with hold_remembered and
// overhead) and IS on 3,000 CTC jobs with the processor index as arrays
// and as runs (denseIndexMax 0): every job must start, end and hold the
// same processors in both.
func TestProcIndex_RunsSameSchedule(t *testing.T) {
	wl := loadTrace(t, "CTC-SP2-1996-3.1-cln.swf.gz", 0, workload.EstimateAccurate, 0, 3000)
	tss := DefaultSSConfig()
	tss.Tunable, tss.HoldRemembered, tss.Overhead = true, true, DefaultOverhead(1)
	for _, c := range []struct {
		name string
		make func() (sim.Policy, error)
	}{
		{"ss", func() (sim.Policy, error) { return NewSS(DefaultSSConfig(), wl.Procs, wl.Jobs) }},
		{"tss-hold-overhead", func() (sim.Policy, error) { return NewSS(tss, wl.Procs, wl.Jobs) }},
		{"is", func() (sim.Policy, error) { return NewIS(DefaultISConfig()) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			run := func(dense int) *sim.Result {
				old := denseIndexMax
				denseIndexMax = dense
				defer func() { denseIndexMax = old }()
				p, err := c.make()
				if err != nil {
					t.Fatal(err)
				}
				res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{CheckEvery: 200})
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			a, b := run(denseIndexMax), run(0)
			susp := 0
			for i := range a.Tasks {
				x, y := &a.Tasks[i], &b.Tasks[i]
				if x.ID != y.ID || x.FirstStart != y.FirstStart || x.End != y.End || x.Set.String() != y.Set.String() || x.Suspensions != y.Suspensions {
					t.Fatalf("job %d: arrays start %d end %d on %v (%d suspensions), runs start %d end %d on %v (%d)",
						x.ID, x.FirstStart, x.End, x.Set, x.Suspensions, y.FirstStart, y.End, y.Set, y.Suspensions)
				}
				susp += x.Suspensions
			}
			if susp == 0 {
				t.Fatal("no job was suspended: the index was not exercised")
			}
		})
	}
}
