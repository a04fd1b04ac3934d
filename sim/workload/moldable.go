package workload

import (
	"fmt"
	"math"

	"github.com/schedfarm/schedfarm/sim"
)

// Moldability asks [Trace.Build] to make every job moldable under
// Downey's speedup model (Srinivasan et al. 2003; see [Annotate]).
type Moldability struct {
	// Sigma is Downey's variance of parallelism (>= 0).
	Sigma float64
	// RangeFactor is RF (>= 1): how far a job's size may move from the
	// trace's size.
	RangeFactor float64
}

// Validate checks the values; errors wrap [ErrInvalidOption] and name the
// field and the value received.
func (m Moldability) Validate() error {
	if math.IsNaN(m.Sigma) || math.IsInf(m.Sigma, 0) || m.Sigma < 0 {
		return fmt.Errorf("%w: Sigma = %v, want >= 0", ErrInvalidOption, m.Sigma)
	}
	if math.IsNaN(m.RangeFactor) || math.IsInf(m.RangeFactor, 0) || m.RangeFactor < 1 {
		return fmt.Errorf("%w: RangeFactor = %v, want >= 1", ErrInvalidOption, m.RangeFactor)
	}
	return nil
}

// SizeRange returns the sizes a job of trace size p may take on a machine
// of n processors with range factor rf: [1,1] for a sequential job (it
// stays sequential), else min = floor((1-1/rf) p + 1) and max =
// floor((n-p)/rf + p), clamped to [1, n]. Always min <= p <= max.
func SizeRange(p, n int, rf float64) (lo, hi int) {
	if p <= 1 {
		return 1, 1
	}
	fp, fn := float64(p), float64(n)
	lo = int(math.Floor(float64((1-1/rf)*fp) + 1))
	hi = int(math.Floor((fn-fp)/rf + fp))
	return min(max(lo, 1), n), min(max(hi, 1), n)
}

// Annotate makes every job of jobs moldable on a machine of n processors:
// its size range comes from [SizeRange] and its speedup is Downey's with
// average parallelism A = max of the range and variance m.Sigma. The
// job's Procs, Runtime and Estimate stay the trace's. Jobs are changed in
// place.
func Annotate(jobs []sim.Job, n int, m Moldability) error {
	if err := m.Validate(); err != nil {
		return err
	}
	for i := range jobs {
		j := &jobs[i]
		lo, hi := SizeRange(j.Procs, n, m.RangeFactor)
		a, err := sim.NewMoldable(j.Procs, j.Runtime, j.Estimate, lo, hi, sim.Downey{A: float64(hi), Sigma: m.Sigma})
		if err != nil {
			return fmt.Errorf("job %d: %w", j.ID, err)
		}
		j.Mold = a
	}
	return nil
}
