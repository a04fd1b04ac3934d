package moldable

import (
	"errors"
	"fmt"
	"math"

	"github.com/schedfarm/schedfarm/sim"
)

// ErrInvalidConfig is wrapped by the errors of [Config.Validate].
var ErrInvalidConfig = errors.New("invalid moldable configuration")

// ErrRigidWorkload is returned by Init when a job has no moldable
// annotation.
var ErrRigidWorkload = errors.New("needs a moldable workload: give the workload sigma and range_factor")

// Defaults of [Config].
const (
	DefaultWeightFactor     = 1
	DefaultGap              = 0.9
	DefaultChoices          = 12
	DefaultXFactorThreshold = 4
)

// Config holds the parameters of the moldable policies.
type Config struct {
	// FairShare limits a job's size by its share of the total weight;
	// false lets every job take up to its maximum (Cirne's greedy).
	FairShare bool
	// WeightFactor is WF (> 0) and Gap the largest fraction of the machine
	// one job may take (in (0, 1]).
	WeightFactor, Gap float64
	// Choices is the number of candidate sizes (>= 2), or 0 for one per
	// profile step.
	Choices int
	// SqrtWeights weighs jobs by sqrt(est_work) instead of est_work;
	// ParallelOnly sums weights over jobs with max > 1 only.
	SqrtWeights, ParallelOnly bool
	// CategoryReservations and XFactorReservations add reservations in
	// the schedule-time pass ([Schedule] only); XFactorThreshold (>= 1) is
	// the xfactor above which a job gets one.
	CategoryReservations, XFactorReservations bool
	XFactorThreshold                          float64
	// KeepReservations keeps a reservation of [Schedule] from pass to
	// pass: every later pass respects it, and its job starts no later and
	// on no other size unless a fresh choice ends sooner (false, the
	// default of [DefaultConfig]: every pass plans afresh).
	KeepReservations bool
	// Weights is the effective sequential run time weighed in the
	// fair-share sum: [EstWork] (the default, [DefaultConfig]) or [Work].
	Weights Base
	// XFactorBase is the xfactor's divisor, its ESRT: [EstWork] (the
	// default), [Work] or [Estimate].
	XFactorBase Base
}

// Base names a job's time used as a weight or as the xfactor's divisor.
type Base uint8

// The values of [Base].
const (
	// EstWork is the estimated sequential run time est_work = estimate x
	// S(trace size): the "sequential wall-clock limit" of section 4.3 (the
	// default weight and the xfactor's default divisor).
	EstWork Base = iota
	// Work is the sequential work L = runtime x S(trace size): the
	// "effective sequential run time" as section 2.2 defines it, from the
	// actual runtime (a real scheduler would not know it; the paper's
	// simulation defines it so).
	Work
	// Estimate is the job's estimate on its trace size (its wall-clock
	// limit), not scaled to one processor; for the xfactor only.
	Estimate
)

// of returns the job's time named by b.
func (b Base) of(a *sim.Moldable) float64 {
	switch b {
	case Work:
		return a.Work
	case Estimate:
		return float64(a.BaseEstimate)
	}
	return a.EstWork
}

// DefaultConfig returns the paper's base strategy under the readings of
// the package doc: fair share by est_work with WF 1, 12 choices,
// reservations recomputed every pass.
func DefaultConfig() Config {
	return Config{FairShare: true, WeightFactor: DefaultWeightFactor, Gap: DefaultGap, Choices: DefaultChoices,
		XFactorThreshold: DefaultXFactorThreshold, Weights: EstWork, KeepReservations: false}
}

// Validate checks the configuration; errors wrap [ErrInvalidConfig].
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, a ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrInvalidConfig}, a...)...))
	}
	if !(c.WeightFactor > 0) || math.IsInf(c.WeightFactor, 0) {
		bad("weight_factor must be > 0, got %v", c.WeightFactor)
	}
	if !(c.Gap > 0 && c.Gap <= 1) {
		bad("gap must be in (0,1], got %v", c.Gap)
	}
	if c.Choices < 0 || c.Choices == 1 {
		bad("choices must be 0 or >= 2, got %d", c.Choices)
	}
	if !(c.XFactorThreshold >= 1) || math.IsInf(c.XFactorThreshold, 0) {
		bad("xfactor_threshold must be >= 1, got %v", c.XFactorThreshold)
	}
	if c.Weights > Work {
		bad("weights must be est_work or work, got %d", c.Weights)
	}
	if c.XFactorBase > Estimate {
		bad("xfactor_base must be est_work, work or estimate, got %d", c.XFactorBase)
	}
	return errors.Join(errs...)
}

// chooser picks job sizes: it keeps the sum of weights of the running and
// queued jobs for the fair-share limit.
type chooser struct {
	cfg  Config
	size int
	sumW float64
}

// own returns a job's weight, whether it counts in the sum or not.
func (c *chooser) own(a *sim.Moldable) float64 {
	w := c.cfg.Weights.of(a)
	if c.cfg.SqrtWeights {
		return math.Sqrt(w)
	}
	return w
}

// weight returns a job's weight in the fair-share sum (0 when it does not
// count).
func (c *chooser) weight(a *sim.Moldable) float64 {
	if c.cfg.ParallelOnly && a.Max <= 1 {
		return 0
	}
	return c.own(a)
}

// overXFactor reports whether a job that has waited w seconds has an
// xfactor (w + ESRT) / ESRT above the threshold.
func (c *chooser) overXFactor(a *sim.Moldable, w sim.Time) bool {
	base := c.cfg.XFactorBase.of(a)
	return float64(w)+base > float64(c.cfg.XFactorThreshold*base)
}

// add and remove keep the sum over running and queued jobs.
func (c *chooser) add(t *sim.Task)    { c.sumW += c.weight(t.Mold) }
func (c *chooser) remove(t *sim.Task) { c.sumW -= c.weight(t.Mold) }

// limit returns the job's fair-share limit lim_i (its max without fair share).
func (c *chooser) limit(a *sim.Moldable) int {
	if !c.cfg.FairShare {
		return a.Max
	}
	w := c.own(a)
	share := c.cfg.Gap
	if c.sumW > 0 {
		share = math.Min(share, float64(c.cfg.WeightFactor*w)/c.sumW)
	}
	lim := int(math.Floor(float64(float64(c.size) * share)))
	return max(a.Min, min(a.Max, lim))
}

// choice is a candidate: k processors from s for e seconds (estimated).
type choice struct {
	k    int
	s, e sim.Time
}

// better reports whether x beats y: earlier completion, then fewer
// processors, then earlier start.
func (x choice) better(y choice) bool {
	if x.s+x.e != y.s+y.e {
		return x.s+x.e < y.s+y.e
	}
	if x.k != y.k {
		return x.k < y.k
	}
	return x.s < y.s
}

// best returns the best candidate of a job with limit lim against prof
// (origin now).
func (c *chooser) best(prof *sim.Profile, a *sim.Moldable, lim int, now sim.Time) choice {
	b := choice{s: sim.Never}
	try := func(k int, from sim.Time) {
		e := a.E(k)
		x := choice{k: k, s: prof.EarliestStart(from, k, e), e: e}
		if b.s == sim.Never || x.better(b) {
			b = x
		}
	}
	lo := a.Min
	if n := c.cfg.Choices; n > 0 {
		prev := 0
		for j := range n {
			// round_half_up(j (lim-lo) / (n-1)) in integers.
			k := lo + (2*j*(lim-lo)+(n-1))/(2*(n-1))
			if k != prev {
				try(k, now)
				prev = k
			}
		}
		return b
	}
	for i := 0; i < prof.Len(); i++ {
		at, free := prof.Step(i)
		at = max(at, now)
		if b.s != sim.Never && at > b.s+b.e {
			break
		}
		if free < lo {
			continue
		}
		try(min(free, lim), at)
	}
	if b.s == sim.Never { // every step is narrower than min: not possible in a valid profile
		try(lo, now)
	}
	return b
}

// category returns the weight10 category (0..9) of a job's trace size x
// estimate.
func category(a *sim.Moldable) int {
	v := float64(a.BaseProcs) * float64(a.BaseEstimate)
	b := 1024.0
	for j := range 9 {
		if v <= b {
			return j
		}
		b *= 4
	}
	return 9
}

// checkMoldable returns [ErrRigidWorkload] when a job of m is not moldable.
func checkMoldable(m *sim.Machine, name string) error {
	for i := range m.NumTasks() {
		if t := m.Task(i); t.Mold == nil {
			return fmt.Errorf("%s: job %d: %w", name, t.ID, ErrRigidWorkload)
		}
	}
	return nil
}
