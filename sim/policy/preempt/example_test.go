package preempt_test

import (
	"context"
	"fmt"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/preempt"
)

// A short job suspends a long one once its xfactor is twice the long
// job's; TSS refuses, as the long job's category never waits under EASY.
func ExampleNewSS() {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 10000, Estimate: 10000, Procs: 4},
		{ID: 2, Submit: 100, Runtime: 100, Estimate: 100, Procs: 4},
	}
	for _, tunable := range []bool{false, true} {
		cfg := preempt.DefaultSSConfig()
		cfg.Tunable = tunable
		p, err := preempt.NewSS(cfg, 4, jobs)
		if err != nil {
			panic(err)
		}
		res, err := sim.Run(context.Background(), 4, jobs, p, sim.Options{})
		if err != nil {
			panic(err)
		}
		fmt.Printf("tunable=%v baseline=%v\n", tunable, p.Baseline())
		for _, t := range res.Tasks {
			fmt.Printf("  job %d: %d-%d, %d suspension(s)\n", t.ID, t.FirstStart, t.End, t.Suspensions)
		}
	}
	// Output:
	// tunable=false baseline=map[]
	//   job 1: 0-10100, 1 suspension(s)
	//   job 2: 240-340, 0 suspension(s)
	// tunable=true baseline=map[L N:1 VS N:100]
	//   job 1: 0-10000, 0 suspension(s)
	//   job 2: 10000-10100, 0 suspension(s)
}
