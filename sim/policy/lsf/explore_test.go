package lsf_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/lsf"
	"github.com/schedfarm/schedfarm/sim/workload"
)

func TestExplore(t *testing.T) {
	if os.Getenv("LSFEXP") == "" {
		t.Skip()
	}
	for seed := uint64(1); seed <= 3; seed++ {
		g := workload.NewParsons1997()
		g.MeanInterarrival = 300
		g.Seed = seed
		w, _ := g.Generate()
		for _, d := range lsf.Disciplines() {
			for _, kd := range []bool{false, true} {
				cfg := lsf.DefaultConfig(d)
				cfg.KnowDemand = kd
				p, _ := lsf.New(cfg)
				st := time.Now()
				res, err := sim.Run(context.Background(), w.Procs, w.Jobs, p, sim.Options{Horizon: 259200})
				if err != nil {
					t.Fatal(err)
				}
				sum, n, mk, unf := 0.0, 0, sim.Time(0), 0
				for _, tk := range res.Tasks {
					if !tk.Elastic.Tagged {
						continue
					}
					end := tk.End
					if tk.State != sim.Done {
						end = res.End
						unf++
					}
					sum += float64(end - tk.Submit)
					n++
					mk = max(mk, end)
				}
				t.Logf("seed %d %-18s kd=%v mrt %8.0f makespan %7d unfinished %d maxq %d  (%v)", seed, d, kd, sum/float64(n), mk, unf, res.MaxQueue, time.Since(st).Round(time.Millisecond))
			}
		}
	}
}
