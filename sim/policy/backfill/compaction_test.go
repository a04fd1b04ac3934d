package backfill_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestCompactionFilter compares conservative backfilling, both
// compression orders, with and without the Compaction's filter (which
// skips reservations that cannot move) on longer subsets of the four
// traces than the reference comparison affords, with trace estimates at
// loads 1.0 to 1.6: the starts must be identical.
func TestCompactionFilter(t *testing.T) {
	files := map[string]string{
		"ctc": "CTC-SP2-1996-3.1-cln.swf.gz", "sdsc": "SDSC-SP2-1998-4.2-cln.swf.gz",
		"kth": "KTH-SP2-1996-2.1-cln.swf.gz", "sdsc-par": "SDSC-Par-1996-3.1-cln.swf.gz",
	}
	count := 3000
	if testing.Short() {
		count = 1000
	}
	for _, name := range []string{"ctc", "sdsc", "kth", "sdsc-par"} {
		tr, err := workload.Read(filepath.Join("..", "..", "..", "traces", files[name]), 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, load := range []float64{1, 1.4, 1.6} {
			wl, err := tr.Build(workload.Options{Estimates: workload.EstimateTrace, Skip: 2000, Count: count, Load: load})
			if err != nil {
				t.Fatal(err)
			}
			for _, order := range []backfill.Order{backfill.StartOrder, backfill.QueueOrder} {
				t.Run(fmt.Sprintf("%s/%s/load%g", name, order, load), func(t *testing.T) {
					fast := backfill.NewConservative()
					fast.Order = order
					full := backfill.NewConservative()
					full.Order = order
					backfill.FullCompress(full)
					a, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, fast, sim.Options{})
					if err != nil {
						t.Fatal(err)
					}
					b, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, full, sim.Options{})
					if err != nil {
						t.Fatal(err)
					}
					for i := range a.Tasks {
						if a.Tasks[i].FirstStart != b.Tasks[i].FirstStart {
							t.Fatalf("job %d starts at %d, without the filter at %d", a.Tasks[i].ID, a.Tasks[i].FirstStart, b.Tasks[i].FirstStart)
						}
					}
				})
			}
		}
	}
}
