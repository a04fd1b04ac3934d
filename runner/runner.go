// Package runner runs one sweep task: it loads the task's workload from a
// local trace file, builds the policy from the task's typed parameters
// (validated when the spec was read; policy.Build does not validate them
// again), runs the simulator and returns the per-job records and
// whole-run figures as a [results.TaskResult].
//
// Loaded workloads are cached in the process (see [Cache]), so the many
// tasks of a sweep that share a workload read and transform the trace
// once. Execute is safe for concurrent use.
package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/policy/external"
	"github.com/schedfarm/schedfarm/sim/workload"
	"github.com/schedfarm/schedfarm/sweep"
)

// ErrDeterministic is wrapped by [Execute] errors that will recur on every
// try of the task: a bad parameter, an unreadable or malformed trace, a
// workload the trace cannot provide, a simulator or policy error. A worker
// reports such a task as failed instead of retrying it.
var ErrDeterministic = errors.New("deterministic task failure")

// ErrTraceMismatch is wrapped by [Execute] errors when the trace file's
// sha256 is not the task's. It is not deterministic: the local copy may be
// corrupt, and fetching it again may fix it.
var ErrTraceMismatch = errors.New("trace file does not match the task's sha256")

// DefaultCache is the cache [Execute] uses.
var DefaultCache = NewCache(DefaultCacheSize)

// Execute runs task t on the trace file at tracePath (the file whose
// sha256 is t.Workload.TraceSHA256) and returns its result, with WallTime
// and SimVersion (this simulator's [sim.Version]) set and Worker empty.
// It returns ctx.Err() when ctx ends first, an error
// wrapping [ErrDeterministic] for failures that will recur, and an error
// wrapping [ErrTraceMismatch] when the file is not the task's trace.
func Execute(ctx context.Context, t *sweep.Task, tracePath string) (*results.TaskResult, error) {
	return DefaultCache.Execute(ctx, t, tracePath)
}

// Execute is [Execute] with the workloads cached in c.
func (c *Cache) Execute(ctx context.Context, t *sweep.Task, tracePath string) (*results.TaskResult, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var (
		w       *workload.Workload
		simOpts sim.Options
		err     error
	)
	if t.Workload.Synthetic != "" {
		w, simOpts, err = Synthetic(t)
		if err != nil {
			return nil, fmt.Errorf("task %d: %w: %w", t.Index, ErrDeterministic, err)
		}
	} else {
		opts, oerr := Options(t)
		if oerr != nil {
			return nil, fmt.Errorf("task %d: %w: %w", t.Index, ErrDeterministic, oerr)
		}
		w, err = c.WorkloadContext(ctx, tracePath, t.Workload.TraceSHA256, opts)
	}
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			// Another task's load of the same trace was cancelled: retry.
			return nil, fmt.Errorf("task %d: load workload: %w", t.Index, err)
		}
		if errors.Is(err, ErrTraceMismatch) {
			return nil, fmt.Errorf("task %d: %w", t.Index, err)
		}
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
			// The worker's local copy is missing: fetching it again may help.
			return nil, fmt.Errorf("task %d: load workload: %w", t.Index, err)
		}
		return nil, fmt.Errorf("task %d: %w: load workload: %w", t.Index, ErrDeterministic, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := policy.Build(t.Policy, t.Params, policy.Env{Procs: w.Procs, Jobs: w.Jobs, Seed: t.Seed, External: external.AccessFrom(ctx), Predict: w.Estimates == workload.EstimatePredicted, Command: t.Command})
	if err != nil {
		return nil, fmt.Errorf("task %d: %w: build policy: %w", t.Index, ErrDeterministic, err)
	}
	if cl, ok := p.(io.Closer); ok {
		defer cl.Close() // an external policy's process
	}
	simOpts.SeriesStep = sim.Time(t.SeriesStep)
	res, err := sim.Run(ctx, w.Procs, w.Jobs, p, simOpts)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
			return nil, ctxErr
		}
		return nil, fmt.Errorf("task %d: %w: simulate: %w", t.Index, ErrDeterministic, err)
	}
	recs := metrics.Records(res)
	stats := metrics.Stats(w.Procs, recs)
	stats.Elastic = metrics.ElasticStatsOf(res, recs)
	if a, ok := p.(metrics.Annotator); ok {
		a.Annotate(recs, &stats)
	}
	var baseline map[string]float64
	if b, ok := p.(interface{ Baseline() map[string]float64 }); ok {
		baseline = b.Baseline()
	}
	return &results.TaskResult{
		Baseline:   baseline,
		SimVersion: sim.Version,
		TaskID:     t.ID,
		Index:      t.Index,
		Stats:      stats,
		Drops:      results.Drops{Runtime: w.Drops.Runtime, Procs: w.Drops.Procs, TooBig: w.Drops.TooBig},
		Jobs:       recs,
		Series:     res.Series,
		WallTime:   time.Since(start),
	}, nil
}

// Synthetic generates a task's synthetic workload (from its seed) and
// returns the simulator options it needs (the generator's horizon).
func Synthetic(t *sweep.Task) (*workload.Workload, sim.Options, error) {
	gen := make(map[string]any, len(t.Workload.Gen))
	for k, v := range t.Workload.Gen {
		gen[k] = v
	}
	if t.Workload.Synthetic == workload.SyntheticLublin {
		w, err := workload.Synthetic(workload.SyntheticLublin, t.Workload.Procs, t.Workload.Load, gen, t.Seed)
		if err != nil {
			return nil, sim.Options{}, fmt.Errorf("synthetic %s: %w", t.Workload.Synthetic, err)
		}
		return w, sim.Options{}, nil
	}
	g, err := workload.ParseParsons1997(t.Workload.Procs, t.Workload.Load, gen)
	if err != nil {
		return nil, sim.Options{}, fmt.Errorf("synthetic %s: %w", t.Workload.Synthetic, err)
	}
	g.Seed = t.Seed
	w, err := g.Generate()
	if err != nil {
		return nil, sim.Options{}, err
	}
	return w, sim.Options{Horizon: g.Horizon}, nil
}

// Options returns the workload options of a task.
func Options(t *sweep.Task) (workload.Options, error) {
	est, err := workload.ParseEstimateModel(t.Workload.Estimates)
	if err != nil {
		return workload.Options{}, fmt.Errorf("estimates: %w", err)
	}
	mode, err := workload.ParseLoadMode(t.Workload.LoadMode)
	if err != nil {
		return workload.Options{}, fmt.Errorf("load_mode: %w", err)
	}
	opts := workload.Options{
		Procs:     t.Workload.Procs,
		Estimates: est,
		Skip:      t.Workload.Skip,
		Count:     t.Workload.Count,
		Load:      t.Workload.Load,
		LoadMode:  mode,
		Seed:      t.Seed,
		Moldable:  t.Workload.Moldability(),
	}
	if err := opts.Validate(); err != nil {
		return workload.Options{}, fmt.Errorf("workload options: %w", err)
	}
	return opts, nil
}
