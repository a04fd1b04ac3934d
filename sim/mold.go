package sim

import (
	"errors"
	"fmt"
	"math"
)

// ErrMold is wrapped by errors of [NewMoldable] for an annotation that
// breaks its rules.
var ErrMold = errors.New("invalid moldable annotation")

// Speedup is a speedup model: At(k) is how many times faster a job runs on
// k processors than on one (At(1) = 1, non-decreasing).
type Speedup interface {
	At(k int) float64
}

// Downey is Downey's speedup model with average parallelism A and
// variance of parallelism Sigma (the moldable paper's model, with the
// errata of its printed formula applied).
type Downey struct {
	A, Sigma float64
}

// At implements [Speedup]; see [DowneySpeedup].
func (d Downey) At(k int) float64 { return DowneySpeedup(float64(k), d.A, d.Sigma) }

// DowneySpeedup returns Downey's speedup S(k) of a job of average
// parallelism a and variance sigma on k processors. Low variance (sigma
// <= 1):
//
//	S = a k / (a + sigma (k-1)/2)              for 1 <= k <= a
//	S = a k / (sigma (a - 1/2) + k (1 - sigma/2)) for a <= k <= 2a - 1
//	S = a                                      for k >= 2a - 1
//
// High variance (sigma >= 1):
//
//	S = k a (sigma+1) / (sigma (k + a - 1) + a) for 1 <= k <= a + a sigma - sigma
//	S = a                                       beyond
//
// Both branches agree at sigma = 1. Every product is rounded on its own
// (no fused multiply-add), so results are the same on every platform.
func DowneySpeedup(k, a, sigma float64) float64 {
	if k < 1 {
		return k
	}
	if sigma <= 1 {
		switch {
		case k <= a:
			return float64(a*k) / (a + float64(sigma*(k-1))/2)
		case k <= 2*a-1:
			return float64(a*k) / (float64(sigma*(a-0.5)) + float64(k*(1-sigma/2)))
		}
		return a
	}
	if k <= a+float64(a*sigma)-sigma {
		return float64(float64(k*a)*(sigma+1)) / (float64(sigma*(k+a-1)) + a)
	}
	return a
}

// Moldable is the annotation of a moldable job: the scheduler picks its
// size k in [Min, Max] with [Machine.Mold] before it starts, and its
// runtime and estimate follow the job's speedup model. The job's Procs,
// Runtime and Estimate start as the trace's values (size BaseProcs); Mold
// changes them. A Moldable is shared, never changed after construction.
type Moldable struct {
	// Min and Max bound the size (1 <= Min <= BaseProcs <= Max).
	Min, Max int
	// BaseProcs, BaseRuntime and BaseEstimate are the trace's size,
	// runtime and estimate.
	BaseProcs                 int
	BaseRuntime, BaseEstimate Time
	// Speedup is the job's speedup model.
	Speedup Speedup
	// Work is the job's sequential work L = BaseRuntime x S(BaseProcs);
	// EstWork is EstWork = BaseEstimate x S(BaseProcs), the estimated
	// sequential run time.
	Work, EstWork float64
}

// NewMoldable returns the annotation of a job of the trace's size p,
// runtime r and estimate e, moldable within [lo, hi] under speedup s.
func NewMoldable(p int, r, e Time, lo, hi int, s Speedup) (*Moldable, error) {
	if s == nil || lo < 1 || lo > p || hi < p || r < 1 || e < 1 {
		return nil, fmt.Errorf("%w: size %d in [%d,%d], runtime %d, estimate %d", ErrMold, p, lo, hi, r, e)
	}
	sp := s.At(p)
	if !(sp > 0) || math.IsInf(sp, 0) {
		return nil, fmt.Errorf("%w: speedup %v on %d processors", ErrMold, sp, p)
	}
	return &Moldable{
		Min: lo, Max: hi, BaseProcs: p, BaseRuntime: r, BaseEstimate: e, Speedup: s,
		Work: float64(float64(r) * sp), EstWork: float64(float64(e) * sp),
	}, nil
}

// scaled returns max(1, ceil(w / S(k) - 1e-6)), base for k = BaseProcs.
func (m *Moldable) scaled(w float64, base Time, k int) Time {
	if k == m.BaseProcs {
		return base
	}
	return workTime(w, m.Speedup.At(k))
}

// workTime returns max(1, ceil(w/s − 1e-6)): the whole seconds that w
// seconds of sequential work take at speedup s. Moldable and elastic jobs
// both use it.
func workTime(w, s float64) Time {
	v := math.Ceil(w/s - 1e-6)
	if v < 1 {
		return 1
	}
	return Time(v)
}

// T returns the runtime on k processors: the trace's runtime for its own
// size, else max(1, ceil(Work / S(k) - 1e-6)).
func (m *Moldable) T(k int) Time { return m.scaled(m.Work, m.BaseRuntime, k) }

// E returns the estimate on k processors: the trace's estimate for its
// own size, else max(1, ceil(EstWork / S(k) - 1e-6)). An estimate at least
// the runtime on the trace's size stays so on every size.
func (m *Moldable) E(k int) Time { return m.scaled(m.EstWork, m.BaseEstimate, k) }

// Mold sets the size of a job that is about to (re)start to k processors:
// the one resizing mechanism of the engine, for both kinds of resizable
// job. A policy may mold a job again and again until it (re)starts it;
// rigid policies never call it.
//
//   - A Waiting moldable job ([Job.Mold]), Min <= k <= Max: Procs, Runtime
//     and Estimate become k, T(k) and E(k).
//   - A Waiting or Stopped elastic job ([Job.Elastic]), k a multiple of
//     Unit in [Min, Max]: Procs becomes k and Runtime the time worked so
//     far plus the working time its remaining work needs on k processors.
//     Estimate stays the job's (its desired size's) estimate. A Stopped job
//     molded to its last size migrates when it restarts, else it is
//     reconfigured ([Flex]).
//
// The job then starts with [Machine.Start], [Machine.StartOn] or (with a
// dispatch delay, and for a Stopped job) [Machine.Dispatch].
func (m *Machine) Mold(t *Task, k int) error {
	a, e := t.Mold, t.Elastic
	switch {
	case a == nil && e == nil:
		return m.fail(fmt.Errorf("mold job %d: the job is not moldable", t.ID))
	case t.State != Waiting && (e == nil || t.State != Stopped):
		return m.fail(fmt.Errorf("mold job %d: job is %v", t.ID, t.State))
	}
	lo, hi, unit := 0, 0, 1
	if a != nil {
		lo, hi = a.Min, a.Max
	} else {
		lo, hi, unit = e.Min, e.Max, e.Unit
	}
	if k < lo || k > hi || k > m.size {
		return m.fail(fmt.Errorf("mold job %d to %d processors: outside [%d,%d]", t.ID, k, lo, min(hi, m.size)))
	}
	if k%unit != 0 {
		return m.fail(fmt.Errorf("mold job %d to %d processors: not a multiple of its unit %d", t.ID, k, unit))
	}
	t.Procs = k
	if a != nil {
		t.Runtime = a.T(k)
		t.Estimate = a.E(k)
		return nil
	}
	t.Runtime = t.Work + e.Duration(t.Flex.Rem, k)
	return nil
}
