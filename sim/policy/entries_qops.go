package policy

import (
	"errors"
	"fmt"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/qops"
)

func init() {
	entries = append(entries, Entry{
		Name: "qops", Family: "qops",
		Doc: "QoPS (Islam et al. 2004): admission control with guaranteed deadlines from an EASY run, " +
			"feedback with user tolerance, artificial slack and kill-and-restart",
		Params: qopsParams,
		Build:  buildQoPS,
	})
}

var qopsParams = []Param{
	{Name: "stringency", Kind: Float, Default: qops.DefaultStringency, Min: 0, Max: 1,
		Doc: "S: requested deadline = submit + max(runtime, floor((1-S) x (EASY end - submit)))"},
	{Name: "k_factor", Kind: Int, Default: int64(qops.DefaultKFactor), Min: 0, Max: qops.MaxKFactor,
		Doc: "K: an insertion point fails after more than K deadline violations"},
	{Name: "retry_count", Kind: Int, Default: int64(qops.DefaultRetryCount), Min: 0, Max: qops.MaxRetryCount,
		Doc: "RETRY_COUNT: bisection steps of the feedback search for the earliest deadline"},
	{Name: "least_laxity", Kind: Bool, Default: false,
		Doc: "order the temporary list by deadline - estimate instead of by deadline"},
	{Name: "new_job_first", Kind: Bool, Default: false,
		Doc: "at insertion points after 0, place the new job first (section 2.1's prose)"},
	{Name: "tolerance", Kind: Float, Default: qops.DefaultTolerance, Min: 1, Max: none,
		Doc: "TF: a user accepts an offered deadline O if O - submit <= TF x (requested - submit)"},
	{Name: "tolerance_random", Kind: Bool, Default: false,
		Doc: "each job's TF is drawn from U[0, 2 x tolerance] (seeded by the task seed and job id)"},
	{Name: "slack", Kind: Float, Default: qops.DefaultSlack, Min: 1, Max: none,
		Doc: "SF: offered deadline = submit + ceil(SF x (earliest feasible - submit)); no offer unless TF > SF"},
	{Name: "kill_restart", Kind: Bool, Default: false,
		Doc: "before any offer, try to meet the requested deadline by killing and restarting one running job"},
	{Name: "deadline_fraction", Kind: Float, Default: qops.DefaultDeadlineFraction, Min: 0, Max: 1,
		Doc: "probability that an original job requests a deadline (copies follow it); the others get an artificial one"},
	{Name: "nodeadline_slack", Kind: Float, Default: qops.DefaultNodeadlineSlack, Min: 1, Max: none,
		Doc: "artificial deadline of a job without one: submit + ceil(slack x (earliest end - submit))"},
}

func buildQoPS(v Values, env Env) (sim.Policy, error) {
	cfg := qops.Config{
		Stringency:       v.Float("stringency"),
		KFactor:          int(v.Int("k_factor")),
		RetryCount:       int(v.Int("retry_count")),
		LeastLaxity:      v.Bool("least_laxity"),
		NewJobFirst:      v.Bool("new_job_first"),
		Tolerance:        v.Float("tolerance"),
		ToleranceRandom:  v.Bool("tolerance_random"),
		Slack:            v.Float("slack"),
		KillRestart:      v.Bool("kill_restart"),
		DeadlineFraction: v.Float("deadline_fraction"),
		NodeadlineSlack:  v.Float("nodeadline_slack"),
		Seed:             env.Seed,
		Deadlines:        env.Deadlines,
	}
	p, err := qops.New(cfg)
	if err != nil {
		if errors.Is(err, qops.ErrInvalidConfig) {
			return nil, fmt.Errorf("%w: %w", ErrBadParam, err)
		}
		return nil, err
	}
	return p, nil
}
