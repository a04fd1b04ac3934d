package policy

import (
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/priority"
)

func init() {
	entries = append(entries, Entry{
		Name: "priority", Family: "priority",
		Doc: "multifactor priority (age, fair-share 2^(-usage/shares) with usage decayed by a half-life, job size), " +
			"as Slurm's priority/multifactor plugin, then EASY backfilling",
		Params: []Param{
			{Name: "weight_age", Kind: Float, Default: 1000.0, Min: 0, Max: none, Doc: "weight of the age factor min(wait / max_age, 1)"},
			{Name: "weight_fairshare", Kind: Float, Default: 10000.0, Min: 0, Max: none, Doc: "weight of the fair-share factor 2^(-U/S)"},
			{Name: "weight_size", Kind: Float, Default: 100.0, Min: 0, Max: none, Doc: "weight of the job size factor"},
			{Name: "max_age", Kind: Int, Default: int64(7 * 24 * 3600), Min: 1, Max: none, Doc: "wait (s) at which the age factor reaches 1 (Slurm's PriorityMaxAge)"},
			{Name: "half_life", Kind: Int, Default: int64(7 * 24 * 3600), Min: 1, Max: none, Doc: "half-life (s) of the usage's decay (Slurm's PriorityDecayHalfLife)"},
			{Name: "favor_small", Kind: Bool, Default: false, Doc: "size factor favours small jobs (Slurm's PriorityFavorSmall)"},
			{Name: "backfill_order", Kind: String, Default: "queue", Choices: []string{"queue", "sjf"}, Doc: "order of the backfill candidates: queue (priority) or sjf"},
		},
		Predicts: true,
		Build: func(v Values, env Env) (sim.Policy, error) {
			return priority.New(priority.Config{
				WeightAge: v.Float("weight_age"), WeightFairShare: v.Float("weight_fairshare"), WeightSize: v.Float("weight_size"),
				MaxAge: sim.Time(v.Int("max_age")), HalfLife: sim.Time(v.Int("half_life")),
				FavorSmall: v.Bool("favor_small"), BackfillSJF: v.String("backfill_order") == "sjf", Predict: env.Predict,
			}), nil
		},
	})
}
