package lsf_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/lsf"
	"github.com/schedfarm/schedfarm/sim/simcheck"
)

// TestSimcheck runs the generic observer (simcheck: every job done once,
// working time = runtime, no processor held twice, allocations within
// bounds, local preemption on one set, served work in [D, D+S(k_last)))
// on every discipline, knowledge case and dispatch delay, on workloads of
// only tagged jobs (no horizon, so every job must finish) at twice the
// calibrated rate.
func TestSimcheck(t *testing.T) {
	seeds := []uint64{11, 12}
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, d := range lsf.Disciplines() {
		for _, kc := range cases {
			for _, delay := range []sim.Time{0, 30} {
				t.Run(fmt.Sprintf("%s/demand=%v/speedup=%v/delay=%d", d, kc.demand, kc.speedup, delay), func(t *testing.T) {
					for _, seed := range seeds {
						w := genWorkload(t, seed, 150, 0)
						cfg := lsf.DefaultConfig(d)
						cfg.KnowDemand, cfg.KnowSpeedup, cfg.DispatchDelay = kc.demand, kc.speedup, delay
						p, err := lsf.New(cfg)
						if err != nil {
							t.Fatal(err)
						}
						res, err := sim.Run(context.Background(), w.Procs, w.Jobs, p, sim.Options{Segments: true})
						if err != nil {
							t.Fatal(err)
						}
						if err := simcheck.Check(w.Jobs, res); err != nil {
							t.Fatalf("seed %d: %v", seed, err)
						}
					}
				})
			}
		}
	}
}
