package policy

import (
	"errors"
	"fmt"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/multiqueue"
)

func init() {
	entries = append(entries, Entry{
		Name: "multiqueue", Family: "multiqueue",
		Doc: "self-adapting multiple-queue backfilling (Lawson, Smirni and Puiu 2002): four queues by estimate, " +
			"a reservation for each queue's head, optional adaptive delay of extra-long jobs",
		Params:   multiqueueParams,
		Validate: validateMultiqueue,
		Build: func(v Values, _ Env) (sim.Policy, error) {
			p, err := multiqueue.New(multiqueueConfig(v))
			if err != nil {
				return nil, fmt.Errorf("%w: %w", ErrBadParam, err)
			}
			return p, nil
		},
	})
}

var multiqueueParams = []Param{
	{Name: "class_bound_1", Kind: Int, Default: int64(multiqueue.DefaultBound1), Min: 1, Max: none,
		Doc: "upper estimate bound of class 1 (queue 1), seconds"},
	{Name: "class_bound_2", Kind: Int, Default: int64(multiqueue.DefaultBound2), Min: 1, Max: none,
		Doc: "upper estimate bound of class 2, seconds (>= class_bound_1)"},
	{Name: "class_bound_3", Kind: Int, Default: int64(multiqueue.DefaultBound3), Min: 1, Max: none,
		Doc: "upper estimate bound of class 3, seconds (>= class_bound_2); longer estimates are class 4"},
	{Name: "delay", Kind: Bool, Default: false,
		Doc: "hold class-4 jobs back by the global delay D from their submission (section 4.2)"},
	{Name: "initial_delay", Kind: Int, Default: int64(multiqueue.DefaultInitialDelay), Min: 0, Max: 1e7,
		Doc: "D_1, seconds"},
	{Name: "adaptive_delay", Kind: Bool, Default: true,
		Doc: "adapt D once per batch of completions from the queue-1 mean slowdown"},
	{Name: "delay_batch", Kind: Int, Default: int64(multiqueue.DefaultDelayBatch), Min: 1, Max: 1e6,
		Doc: "completions per batch"},
	{Name: "delay_threshold", Kind: Float, Default: multiqueue.DefaultDelayThreshold, Min: 0, Max: 1,
		Doc: "D changes only when abs(delta_k) exceeds it"},
	{Name: "delta1_unit", Kind: Bool, Default: false,
		Doc: "delta_1 = 1 instead of the printed delta_1 = s_1 (which is not a proportion)"},
}

// validateMultiqueue checks that the class bounds do not decrease.
func validateMultiqueue(v Values) error {
	var errs []error
	for i := 2; i <= 3; i++ {
		prev, cur := fmt.Sprintf("class_bound_%d", i-1), fmt.Sprintf("class_bound_%d", i)
		if v.Int(cur) < v.Int(prev) {
			errs = append(errs, &ParamError{Param: cur, Msg: fmt.Sprintf("must be >= %s (%d), got %d", prev, v.Int(prev), v.Int(cur))})
		}
	}
	return errors.Join(errs...)
}

func multiqueueConfig(v Values) multiqueue.Config {
	return multiqueue.Config{
		ClassBounds:    [3]sim.Time{sim.Time(v.Int("class_bound_1")), sim.Time(v.Int("class_bound_2")), sim.Time(v.Int("class_bound_3"))},
		Delay:          v.Bool("delay"),
		InitialDelay:   float64(v.Int("initial_delay")),
		AdaptiveDelay:  v.Bool("adaptive_delay"),
		DelayBatch:     int(v.Int("delay_batch")),
		DelayThreshold: v.Float("delay_threshold"),
		Delta1Unit:     v.Bool("delta1_unit"),
	}
}
