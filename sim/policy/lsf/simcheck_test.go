package lsf_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/lsf"
	"github.com/schedfarm/schedfarm/sim/simcheck"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestSimcheck runs the generic observer (simcheck: every job done once,
// working time = runtime, no processor held twice, allocations within
// bounds, local preemption on one set, served work in [D, D+S(k_last)))
// on every discipline, knowledge case and dispatch delay, on workloads of
// only tagged jobs (no horizon, so every job must finish) at the
// calibrated rate (mean gap 300 s: load 1.0), at load 1.4 and at twice
// the calibrated rate.
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
						for _, gap := range []float64{300, 300 / 1.4, 150} {
							if err := simcheckRun(d, kc.demand, kc.speedup, delay, genWorkload(t, seed, gap, 0)); err != nil {
								t.Fatalf("seed %d, mean gap %.0f s: %v", seed, gap, err)
							}
						}
					}
				})
			}
		}
	}
}

// simcheckRun runs discipline d with the given knowledge and dispatch
// delay on w and checks the run with simcheck.
func simcheckRun(d lsf.Discipline, demand, speedup bool, delay sim.Time, w *workload.Workload) error {
	cfg := lsf.DefaultConfig(d)
	cfg.KnowDemand, cfg.KnowSpeedup, cfg.DispatchDelay = demand, speedup, delay
	p, err := lsf.New(cfg)
	if err != nil {
		return err
	}
	res, err := sim.Run(context.Background(), w.Procs, w.Jobs, p, sim.Options{Segments: true})
	if err != nil {
		return err
	}
	return simcheck.Check(w.Jobs, res)
}
