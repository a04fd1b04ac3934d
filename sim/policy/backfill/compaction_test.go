package backfill_test

import (
	"fmt"
	"testing"

	"github.com/schedfarm/schedfarm/sim/policy/backfill"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestCompactionFilter compares conservative backfilling, both
// compression orders, with and without the Compaction's filter (which
// skips reservations that cannot move) on longer subsets of the four
// traces than the reference comparison affords, with trace estimates at
// loads 1.0 to 1.6: the starts must be identical.
func TestCompactionFilter(t *testing.T) {
	count := 3000
	if testing.Short() {
		count = 1000
	}
	for _, name := range traceNames {
		tr := readTrace(t, name)
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
					sameStarts(t, wl, fast, full, "without the filter")
				})
			}
		}
	}
}
