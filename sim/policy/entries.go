package policy

import (
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
)

// entries is the table of every policy, in the order --help lists them.
var entries = []Entry{
	{
		Name: "fcfs", Family: "backfill",
		Doc:   "first come first served, no backfilling",
		Build: func(Values, Env) (sim.Policy, error) { return backfill.NewFCFS(), nil },
	},
	{
		Name: "easy", Family: "backfill",
		Doc:   "aggressive (EASY) backfilling: a reservation for the head job only",
		Build: func(Values, Env) (sim.Policy, error) { return backfill.NewEASY(), nil },
	},
	{
		Name: "conservative", Family: "backfill",
		Doc:   "conservative backfilling: every job gets a reservation at arrival; the schedule is compressed when a job ends early",
		Build: func(Values, Env) (sim.Policy, error) { return backfill.NewConservative(), nil },
	},
}
