package workload

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// Workload is what the simulator replays: jobs sorted by submit time
// (ties in input order), the first submitting at 0, on a machine of Procs
// processors.
type Workload struct {
	// Name is the trace's name.
	Name string
	// Procs is the machine size; every job fits (1 <= Procs of a job <= Procs).
	Procs int
	// Jobs are the jobs in submit order; ids are unique.
	Jobs []sim.Job
	// Drops are the jobs the trace lost when it was read (whole trace, not
	// only the subset).
	Drops DropReport
	// SHA256 is the trace file's sha256 ([Trace.SHA256]).
	SHA256 string
	// Estimates is the estimate model the jobs' estimates come from;
	// with [EstimatePredicted] the policy must make runtime predictions.
	Estimates EstimateModel
}

// Options says how [Trace.Build] makes a workload from a trace. The zero
// value takes every job with trace estimates and no load change.
type Options struct {
	// Procs is the machine size; 0 takes the trace's. [Load] reads the
	// trace with it; [Trace.Build] accepts only 0 or the trace's own size.
	Procs int
	// Estimates is the estimate model; default [EstimateTrace].
	Estimates EstimateModel
	// Skip is the number of valid jobs (after dropping, in submit order)
	// to leave out before the subset; >= 0, default 0.
	Skip int
	// Count is the number of valid jobs to take after Skip; 0 takes all
	// the rest. Asking for more jobs than remain is an error.
	Count int
	// Load is the load factor; 0 and 1 leave the load unchanged. Otherwise
	// it must be in [MinLoad, MaxLoad], and at least 1 for LoadDuplicate.
	Load float64
	// LoadMode is how Load is applied; ignored when Load is 0 or 1.
	LoadMode LoadMode
	// Moldable, when not nil, makes every job moldable ([Annotate]), after
	// the load transform.
	Moldable *Moldability
	// Seed seeds the generator of LoadDuplicate (math/rand/v2 PCG with
	// Seed as its first word and a fixed second word), which draws one
	// number per job in submit order when frac(Load-1) > 0. The same trace,
	// options and seed give the same workload on every machine.
	Seed uint64
}

// Validate checks the options on their own (not against a trace). Errors
// wrap [ErrInvalidOption] and name the field and the value received.
func (o Options) Validate() error {
	if err := checkProcs(o.Procs); err != nil {
		return fmt.Errorf("Procs: %w", err)
	}
	if err := o.Estimates.validate(); err != nil {
		//lint:ignore ST1005 the message starts with the name of the Options field that is wrong, spelled as in Go
		return fmt.Errorf("Estimates: %w", err)
	}
	if err := o.LoadMode.validate(); err != nil {
		return fmt.Errorf("LoadMode: %w", err)
	}
	if o.Skip < 0 {
		return fmt.Errorf("%w: Skip = %d, want >= 0", ErrInvalidOption, o.Skip)
	}
	if o.Count < 0 {
		return fmt.Errorf("%w: Count = %d, want >= 0 (0 = all)", ErrInvalidOption, o.Count)
	}
	if o.Moldable != nil {
		if err := o.Moldable.Validate(); err != nil {
			//lint:ignore ST1005 the message starts with the name of the Options field that is wrong, spelled as in Go
			return fmt.Errorf("Moldable: %w", err)
		}
	}
	if o.Load == 0 || o.Load == 1 {
		return nil
	}
	if math.IsNaN(o.Load) || o.Load < MinLoad || o.Load > MaxLoad {
		return fmt.Errorf("%w: Load = %v, want 0 (none) or %v..%v", ErrInvalidOption, o.Load, MinLoad, MaxLoad)
	}
	if o.LoadMode == LoadDuplicate && o.Load < 1 {
		return fmt.Errorf("%w: Load = %v with LoadMode duplicate, want >= 1 (copies can only add load)", ErrInvalidOption, o.Load)
	}
	return nil
}

// Load reads the SWF file at path with machine size opts.Procs and builds
// a workload from it; see [Read] and [Trace.Build].
func Load(path string, opts Options) (*Workload, error) {
	return LoadContext(context.Background(), path, opts, Limits{})
}

// LoadContext is [Load] with a context and limits, as [ReadContext].
func LoadContext(ctx context.Context, path string, opts Options, lim Limits) (*Workload, error) {
	if err := opts.Validate(); err != nil {
		return nil, fmt.Errorf("load %s: %w", path, err)
	}
	t, err := ReadContext(ctx, path, opts.Procs, lim)
	if err != nil {
		return nil, err
	}
	return t.Build(opts)
}

// Build makes a workload from t: order, subset, re-basing, estimates and
// load, as the package documentation describes. It does not change t.
// Errors wrap [ErrInvalidOption] (bad options), [ErrNotEnoughJobs] (subset
// too large) or [ErrInvalidTrace] (a hand-made trace breaking the rules);
// on error the workload is nil.
func (t *Trace) Build(opts Options) (*Workload, error) {
	w, err := t.build(opts)
	if err != nil {
		name := "<nil>"
		if t != nil {
			name = t.Name
		}
		return nil, fmt.Errorf("build workload %s: %w", name, err)
	}
	return w, nil
}

func (t *Trace) build(opts Options) (*Workload, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if t == nil {
		return nil, fmt.Errorf("%w: nil trace", ErrInvalidTrace)
	}
	if opts.Procs != 0 && opts.Procs != t.Procs {
		return nil, fmt.Errorf("%w: Procs = %d, but the trace was read for %d processors (pass the size to Read)", ErrInvalidOption, opts.Procs, t.Procs)
	}
	if err := t.check(); err != nil {
		return nil, err
	}

	recs := t.Records
	bySubmit := func(a, b Record) int { return cmp.Compare(a.Submit, b.Submit) }
	if !slices.IsSortedFunc(recs, bySubmit) {
		recs = slices.Clone(recs)
		slices.SortStableFunc(recs, bySubmit)
	}

	n := len(recs)
	if opts.Skip >= n || opts.Count > n-opts.Skip {
		want := "at least one job"
		if opts.Count > 0 {
			want = fmt.Sprintf("%d jobs", opts.Count)
		}
		return nil, fmt.Errorf("%w: skip %d then take %s, but the trace has %d valid jobs (%d dropped)",
			ErrNotEnoughJobs, opts.Skip, want, n, t.Drops.Total())
	}
	end := n
	if opts.Count > 0 {
		end = opts.Skip + opts.Count
	}
	recs = recs[opts.Skip:end]

	base := recs[0].Submit
	jobs := make([]sim.Job, len(recs))
	for i := range recs {
		r := &recs[i]
		jobs[i] = sim.Job{
			ID:       r.ID,
			Submit:   r.Submit - base,
			Runtime:  r.Runtime,
			Estimate: opts.Estimates.estimate(r),
			Procs:    r.Procs(),
			Info:     r.Info(),
		}
	}

	if opts.Load != 0 && opts.Load != 1 {
		switch opts.LoadMode {
		case LoadArrival:
			scaleArrivals(jobs, opts.Load)
		case LoadDuplicate:
			if math.Ceil(opts.Load)*float64(len(jobs)) > DefaultMaxJobs {
				return nil, fmt.Errorf("%w: load %g duplicates %d jobs into more than %d", ErrInvalidOption, opts.Load, len(jobs), DefaultMaxJobs)
			}
			var maxID int64
			for i, r := range t.Records {
				if i == 0 || r.ID > maxID {
					maxID = r.ID
				}
			}
			jobs = duplicate(jobs, opts.Load, opts.Seed, maxID+1)
		}
	}
	if opts.Moldable != nil {
		if err := Annotate(jobs, t.Procs, *opts.Moldable); err != nil {
			return nil, err
		}
	}
	return &Workload{Name: t.Name, Procs: t.Procs, Jobs: jobs, Drops: t.Drops, SHA256: t.SHA256, Estimates: opts.Estimates}, nil
}

// check verifies what Read guarantees, so that Build can trust it.
func (t *Trace) check() error {
	if t.Procs < 1 || t.Procs > MaxMachine {
		return fmt.Errorf("%w: machine size %d, want 1..%d", ErrInvalidTrace, t.Procs, MaxMachine)
	}
	for i := range t.Records {
		r := &t.Records[i]
		if r.Submit < 0 || r.Runtime <= 0 || r.Procs() <= 0 || r.Procs() > t.Procs ||
			r.Submit > MaxValue || r.Runtime > MaxValue || r.ReqTime > MaxValue ||
			r.ID > MaxValue || r.ID < -MaxValue {
			return fmt.Errorf("%w: record %d (line %d, job %d) has submit %d, runtime %d, procs %d on a %d-processor machine",
				ErrInvalidTrace, i, r.Line, r.ID, r.Submit, r.Runtime, r.Procs(), t.Procs)
		}
	}
	return nil
}
