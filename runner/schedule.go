package runner

import (
	"context"
	"fmt"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/workload"
	"github.com/schedfarm/schedfarm/sweep"
)

// Schedule runs task t as [Cache.Execute] does, on the trace file at
// tracePath, with every interval in which a job held processors recorded
// ([sim.Options.Segments]), and returns the simulator's result. The
// simulator is deterministic, so the schedule is the one behind the
// task's rows in a sweep's outputs (for Gantt charts: the outputs keep
// per-job start and end, not the segments of suspended or restarted
// jobs).
func (c *Cache) Schedule(ctx context.Context, t *sweep.Task, tracePath string) (*sim.Result, error) {
	var (
		w       *workload.Workload
		simOpts sim.Options
		err     error
	)
	if t.Workload.Synthetic != "" {
		w, simOpts, err = Synthetic(t)
	} else {
		var opts workload.Options
		if opts, err = Options(t); err == nil {
			w, err = c.WorkloadContext(ctx, tracePath, t.Workload.TraceSHA256, opts)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("task %d: load workload: %w", t.Index, err)
	}
	p, err := policy.Build(t.Policy, t.Params, policy.Env{Procs: w.Procs, Jobs: w.Jobs, Seed: t.Seed, Predict: w.Estimates == workload.EstimatePredicted})
	if err != nil {
		return nil, fmt.Errorf("task %d: build policy: %w", t.Index, err)
	}
	simOpts.Segments = true
	simOpts.SeriesStep = sim.Time(t.SeriesStep)
	res, err := sim.Run(ctx, w.Procs, w.Jobs, p, simOpts)
	if err != nil {
		return nil, fmt.Errorf("task %d: simulate: %w", t.Index, err)
	}
	return res, nil
}
