package backfill_test

import (
	"fmt"
	"testing"

	"github.com/schedfarm/schedfarm/sim/policy/backfill"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestEASY_IndexAgainstPlain runs EASY with its wait index and with the
// plain scan of every waiting job on long stretches of all four traces,
// with the users' estimates at loads 1.0 and 1.6, where queues of hundreds
// to thousands of jobs build up: every job must start at the same time.
func TestEASY_IndexAgainstPlain(t *testing.T) {
	count := 15000
	if testing.Short() {
		count = 4000
	}
	for _, name := range traceNames {
		tr := readTrace(t, name)
		for _, load := range []float64{1, 1.6} {
			t.Run(fmt.Sprintf("%s/load%g", name, load), func(t *testing.T) {
				wl, err := tr.Build(workload.Options{Estimates: workload.EstimateTrace, Count: count, Load: load})
				if err != nil {
					t.Fatal(err)
				}
				plain := backfill.NewEASY()
				backfill.PlainEASY(plain)
				a := sameStarts(t, wl, backfill.NewEASY(), plain, "plain scan")
				t.Logf("longest queue %d", a.MaxQueue)
				if load > 1.5 && a.MaxQueue < 100 {
					t.Errorf("longest queue %d: too short to test the index", a.MaxQueue)
				}
			})
		}
	}
}
