package policy

import (
	"errors"
	"fmt"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
	"github.com/schedfarm/schedfarm/sim/policy/moldable"
)

func init() {
	entries = append(entries,
		Entry{
			Name: "moldable-submit", Family: "moldable", Moldable: true,
			Doc: "moldable conservative backfilling (Srinivasan et al. 2003, section 3): a job's size is chosen at arrival " +
				"(earliest estimated completion within its fair-share limit), then reserved and kept; fair_share=false is Cirne's greedy",
			Params:   moldableParams(false),
			Validate: validateMoldable,
			Build: func(v Values, _ Env) (sim.Policy, error) {
				o, err := backfill.ParseOrder(v.String("compress"))
				if err != nil {
					return nil, err
				}
				return buildMoldable(v, func(c moldable.Config) (sim.Policy, error) {
					p, err := moldable.NewSubmit(c)
					if err != nil {
						return nil, err
					}
					p.Order = o
					return p, nil
				})
			},
		},
		Entry{
			Name: "moldable-schedule", Family: "moldable", Moldable: true,
			Doc: "moldable aggressive backfilling (Srinivasan et al. 2003, sections 3-4): sizes chosen at start, reservations " +
				"recomputed every pass; the defaults are the paper's base strategy",
			Params:   moldableParams(true),
			Validate: validateMoldable,
			Build: func(v Values, _ Env) (sim.Policy, error) {
				return buildMoldable(v, func(c moldable.Config) (sim.Policy, error) { return moldable.NewSchedule(c) })
			},
		},
		Entry{
			Name: "moldable-combined", Family: "moldable", Moldable: true,
			Doc: "the combined scheme of Srinivasan et al. 2003 (section 5): moldable-schedule with sqrt_weights, parallel_only, " +
				"category_reservations and xfactor_reservations on",
			Params:   combinedParams(),
			Validate: validateMoldable,
			Build: func(v Values, _ Env) (sim.Policy, error) {
				return buildMoldable(v, func(c moldable.Config) (sim.Policy, error) { return moldable.NewSchedule(c) })
			},
		})
}

// moldableParams returns the parameters of moldable-submit (schedule
// false) or moldable-schedule.
func moldableParams(schedule bool) []Param {
	ps := []Param{
		{Name: "fair_share", Kind: Bool, Default: true,
			Doc: "limit a job's size to floor(n x min(gap, WF x w / sum of w over running and queued jobs)); false: up to its max"},
		{Name: "weight_factor", Kind: Float, Default: float64(moldable.DefaultWeightFactor), Min: 0, Max: none,
			Doc: "WF (> 0) of the fair-share limit (the paper's Figs 1-3 use 2)"},
		{Name: "gap", Kind: Float, Default: moldable.DefaultGap, Min: 0, Max: 1,
			Doc: "largest fraction of the machine one job may take under fair share, in (0,1]"},
		{Name: "choices", Kind: Int, Default: int64(moldable.DefaultChoices), Min: 0, Max: 100000,
			Doc: "candidate sizes spread evenly from min to the limit (>= 2), or 0 for one per profile step"},
		{Name: "sqrt_weights", Kind: Bool, Default: false,
			Doc: "weigh jobs by the square root of their weight (section 4.2)"},
		{Name: "parallel_only", Kind: Bool, Default: false,
			Doc: "sum weights over jobs with max > 1 only (section 4.2)"},
		{Name: "weights", Kind: String, Default: "est_work", Choices: []string{"est_work", "work"},
			Doc: "the effective sequential run time weighed by fair share: est_work (estimate x S(trace size)) or work (L = runtime x S(trace size), section 2.2's definition; clairvoyant)"},
	}
	if !schedule {
		ps = append(ps, Param{Name: "compress", Kind: String, Default: backfill.StartOrder.String(), Choices: backfill.OrderNames(),
			Doc: "order in which compression re-places reservations, as conservative's: start_order or queue_order (by arrival, as Mu'alem & Feitelson 2001)"})
	}
	if schedule {
		ps = append(ps,
			Param{Name: "category_reservations", Kind: Bool, Default: false,
				Doc: "reserve for the first job of each weight10 category (trace size x estimate) that cannot start (section 4.3)"},
			Param{Name: "xfactor_reservations", Kind: Bool, Default: false,
				Doc: "reserve for every job whose xfactor (waited + est_work) / est_work exceeds xfactor_threshold (section 4.3)"},
			Param{Name: "xfactor_threshold", Kind: Float, Default: float64(moldable.DefaultXFactorThreshold), Min: 1, Max: none,
				Doc: "xfactor above which a job gets a reservation"},
			Param{Name: "keep_reservations", Kind: Bool, Default: false,
				Doc: "keep a reservation from pass to pass (later passes respect it; its job may only move to an earlier completion) instead of planning every pass afresh"},
			Param{Name: "xfactor_base", Kind: String, Default: "est_work", Choices: []string{"est_work", "work", "estimate"},
				Doc: "the xfactor's ESRT: est_work (the sequential wall-clock limit, section 4.3), work (L from the runtime; clairvoyant) or estimate (the wall-clock limit on the trace size, not scaled to one processor)"})
	}
	return ps
}

// combinedParams are moldable-schedule's with the section 5 defaults.
func combinedParams() []Param {
	ps := moldableParams(true)
	for i := range ps {
		switch ps[i].Name {
		case "sqrt_weights", "parallel_only", "category_reservations", "xfactor_reservations":
			ps[i].Default = true
		}
	}
	return ps
}

// validateMoldable checks the strict bounds the registry's inclusive
// ranges cannot say.
func validateMoldable(v Values) error {
	var errs []error
	if wf := v.Float("weight_factor"); wf <= 0 {
		errs = append(errs, &ParamError{Param: "weight_factor", Msg: fmt.Sprintf("must be > 0, got %g", wf)})
	}
	if g := v.Float("gap"); g <= 0 {
		errs = append(errs, &ParamError{Param: "gap", Msg: fmt.Sprintf("must be in (0,1], got %g", g)})
	}
	if c := v.Int("choices"); c == 1 {
		errs = append(errs, &ParamError{Param: "choices", Msg: "must be 0 (every profile step) or >= 2, got 1"})
	}
	return errors.Join(errs...)
}

// bases maps the values of weights and xfactor_base.
var bases = map[string]moldable.Base{"est_work": moldable.EstWork, "work": moldable.Work, "estimate": moldable.Estimate}

func buildMoldable(v Values, mk func(moldable.Config) (sim.Policy, error)) (sim.Policy, error) {
	cfg := moldable.Config{
		FairShare:    v.Bool("fair_share"),
		WeightFactor: v.Float("weight_factor"),
		Gap:          v.Float("gap"),
		Choices:      int(v.Int("choices")),
		SqrtWeights:  v.Bool("sqrt_weights"),
		ParallelOnly: v.Bool("parallel_only"),
		Weights:      bases[v.String("weights")],
	}
	if _, ok := v["xfactor_threshold"]; ok {
		cfg.CategoryReservations = v.Bool("category_reservations")
		cfg.XFactorReservations = v.Bool("xfactor_reservations")
		cfg.XFactorThreshold = v.Float("xfactor_threshold")
		cfg.XFactorBase = bases[v.String("xfactor_base")]
		cfg.KeepReservations = v.Bool("keep_reservations")
	} else {
		cfg.XFactorThreshold = moldable.DefaultXFactorThreshold
	}
	p, err := mk(cfg)
	if err != nil {
		if errors.Is(err, moldable.ErrInvalidConfig) {
			return nil, fmt.Errorf("%w: %w", ErrBadParam, err)
		}
		return nil, err
	}
	return p, nil
}
