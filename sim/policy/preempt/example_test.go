package preempt_test

import (
	"context"
	"fmt"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/preempt"
)

// Job 2 suspends job 1 once its xfactor is twice job 1's; job 3 later
// suspends job 1 again under SS. Under TSS (default reading) job 1, which
// resumed with xfactor 1.6 above its limit 1.5 x 1 (its category never
// waits under EASY), is protected from the second suspension. Under the
// formula reading job 2, whose xfactor passed that limit before it
// reached twice job 1's, may not suspend job 1 at all.
func ExampleNewSS() {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 1000, Estimate: 1000, Procs: 4},
		{ID: 2, Submit: 100, Runtime: 600, Estimate: 600, Procs: 4},
		{ID: 3, Submit: 1300, Runtime: 60, Estimate: 60, Procs: 4},
	}
	for _, c := range []struct {
		name             string
		tunable, protect bool
	}{{"SS", false, true}, {"TSS", true, true}, {"TSS formula", true, false}} {
		cfg := preempt.DefaultSSConfig()
		cfg.Tunable, cfg.TSSProtectVictim = c.tunable, c.protect
		p, err := preempt.NewSS(cfg, 4, jobs)
		if err != nil {
			panic(err)
		}
		res, err := sim.Run(context.Background(), 4, jobs, p, sim.Options{})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s baseline=%v\n", c.name, p.Baseline())
		for _, t := range res.Tasks {
			fmt.Printf("  job %d: %d-%d, %d suspension(s)\n", t.ID, t.FirstStart, t.End, t.Suspensions)
		}
	}
	// Output:
	// SS baseline=map[]
	//   job 1: 0-1660, 2 suspension(s)
	//   job 2: 720-1320, 0 suspension(s)
	//   job 3: 1440-1500, 0 suspension(s)
	// TSS baseline=map[S N:1 VS N:4.25]
	//   job 1: 0-1600, 1 suspension(s)
	//   job 2: 720-1320, 0 suspension(s)
	//   job 3: 1600-1660, 0 suspension(s)
	// TSS formula baseline=map[S N:1 VS N:4.25]
	//   job 1: 0-1000, 0 suspension(s)
	//   job 2: 1000-1660, 1 suspension(s)
	//   job 3: 1560-1620, 0 suspension(s)
}
