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

// TestEASY_IndexAgainstPlain runs EASY with its wait index and with the
// plain scan of every waiting job on long stretches of all four traces,
// with the users' estimates at loads 1.0 and 1.6, where queues of hundreds
// to thousands of jobs build up: every job must start at the same time.
func TestEASY_IndexAgainstPlain(t *testing.T) {
	files := map[string]string{
		"ctc": "CTC-SP2-1996-3.1-cln.swf.gz", "sdsc": "SDSC-SP2-1998-4.2-cln.swf.gz",
		"kth": "KTH-SP2-1996-2.1-cln.swf.gz", "sdsc-par": "SDSC-Par-1996-3.1-cln.swf.gz",
	}
	count := 15000
	if testing.Short() {
		count = 4000
	}
	for _, name := range []string{"ctc", "sdsc", "kth", "sdsc-par"} {
		tr, err := workload.Read(filepath.Join("..", "..", "..", "traces", files[name]), 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, load := range []float64{1, 1.6} {
			t.Run(fmt.Sprintf("%s/load%g", name, load), func(t *testing.T) {
				wl, err := tr.Build(workload.Options{Estimates: workload.EstimateTrace, Count: count, Load: load})
				if err != nil {
					t.Fatal(err)
				}
				plain := backfill.NewEASY()
				backfill.PlainEASY(plain)
				a, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, backfill.NewEASY(), sim.Options{})
				if err != nil {
					t.Fatal(err)
				}
				b, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, plain, sim.Options{})
				if err != nil {
					t.Fatal(err)
				}
				for i := range a.Tasks {
					if a.Tasks[i].FirstStart != b.Tasks[i].FirstStart {
						t.Fatalf("job %d starts at %d, plain scan at %d", a.Tasks[i].ID, a.Tasks[i].FirstStart, b.Tasks[i].FirstStart)
					}
				}
				t.Logf("longest queue %d", a.MaxQueue)
				if load > 1.5 && a.MaxQueue < 100 {
					t.Errorf("longest queue %d: too short to test the index", a.MaxQueue)
				}
			})
		}
	}
}
