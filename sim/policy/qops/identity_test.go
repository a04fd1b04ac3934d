package qops

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
	"github.com/schedfarm/schedfarm/sim/simcheck"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestQoPS_PointNIsConservative: with infinite deadlines and insertion
// point N only, every job is placed at its earliest fit without moving
// the others, and compressed in start order after early ends: that is
// conservative backfilling, start for start.
func TestQoPS_PointNIsConservative(t *testing.T) {
	count := 2000
	if testing.Short() {
		count = 500
	}
	traces := map[string]string{
		"ctc": "CTC-SP2-1996-3.1-cln.swf.gz", "sdsc": "SDSC-SP2-1998-4.2-cln.swf.gz",
		"kth": "KTH-SP2-1996-2.1-cln.swf.gz", "sdsc-par": "SDSC-Par-1996-3.1-cln.swf.gz",
	}
	for name, file := range traces {
		tr, err := workload.Read(filepath.Join("..", "..", "..", "traces", file), 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, est := range []workload.EstimateModel{workload.EstimateAccurate, workload.EstimateTrace} {
			wl, err := tr.Build(workload.Options{Estimates: est, Skip: 500, Count: count})
			if err != nil {
				t.Fatal(err)
			}
			cons, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, backfill.NewConservative(), sim.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cfg := DefaultConfig()
			cfg.pointNOnly = true
			cfg.Deadlines = make(map[int64]sim.Time, len(wl.Jobs))
			for _, j := range wl.Jobs {
				cfg.Deadlines[j.ID] = sim.Never
			}
			p, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{Segments: true})
			if err != nil {
				t.Fatal(err)
			}
			if err := simcheck.Check(wl.Jobs, res); err != nil {
				t.Fatalf("%s/%v: invariants: %v", name, est, err)
			}
			diff := 0
			for i := range res.Tasks {
				a, b := &res.Tasks[i], &cons.Tasks[i]
				if a.FirstStart != b.FirstStart {
					if diff == 0 {
						t.Errorf("%s/%v: job %d starts at %d under qops, %d under conservative", name, est, a.ID, a.FirstStart, b.FirstStart)
					}
					diff++
				}
			}
			if diff > 0 {
				t.Errorf("%s/%v: %d of %d starts differ", name, est, diff, len(res.Tasks))
			}
		}
	}
}
