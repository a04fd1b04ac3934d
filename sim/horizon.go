package sim

import "fmt"

// MaxJobTime is the largest submit time, runtime or estimate of a job
// [Run] accepts (2^53 - 1 seconds).
const MaxJobTime Time = 1<<53 - 1

// MaxHorizon bounds the latest submit time plus the sum of all runtimes
// (2^61 seconds). Every time a schedule reaches stays below it, so policies
// may add a timeslice, an interval or an estimate to the current time
// without overflowing [Time].
const MaxHorizon Time = 1 << 61

// horizon accumulates the latest submit time and the sum of runtimes of
// the jobs given to Run, failing before either can overflow.
type horizon struct{ submit, work Time }

func (h *horizon) add(j Job) error {
	if j.Submit > MaxJobTime || j.Runtime > MaxJobTime || j.Estimate > MaxJobTime {
		return fmt.Errorf("%w: job %d: submit %d, runtime %d, estimate %d; times must not exceed %d", ErrInput, j.ID, j.Submit, j.Runtime, j.Estimate, MaxJobTime)
	}
	h.submit = max(h.submit, j.Submit)
	h.work += j.Runtime // both terms <= 2^53 and the sum is checked: no overflow
	if h.submit+h.work > MaxHorizon {
		return fmt.Errorf("%w: the latest submit time plus the sum of runtimes exceeds %d s at job %d: times could overflow", ErrInput, MaxHorizon, j.ID)
	}
	return nil
}

// FloorTime returns floor(f) seconds as a Time, saturated to
// [-MaxHorizon, MaxHorizon] (NaN gives MaxHorizon): a conversion from a
// float that cannot overflow when added to a time of a schedule.
func FloorTime(f float64) Time {
	switch {
	case f != f || f >= float64(MaxHorizon):
		return MaxHorizon
	case f <= -float64(MaxHorizon):
		return -MaxHorizon
	}
	t := Time(f)
	if float64(t) > f {
		t--
	}
	return t
}
