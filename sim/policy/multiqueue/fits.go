package multiqueue

import "github.com/schedfarm/schedfarm/sim"

// fitsNow answers Profile.Fits(now, dur, procs) for a profile whose origin
// is now in O(log k): the least free count from now to now+dur is the
// minimum of the steps that start before now+dur, a prefix minimum. The
// prefix minima are rebuilt (O(k)) after the profile changed, which in a
// pass happens only when a job starts; the pass asks once per waiting job.
type fitsNow struct {
	times []sim.Time
	mins  []int
	valid bool
}

// invalidate records that the profile changed.
func (f *fitsNow) invalidate() { f.valid = false }

// fits reports whether procs processors are free in prof during
// [origin, origin+dur).
func (f *fitsNow) fits(prof *sim.Profile, dur sim.Time, procs int) bool {
	if !f.valid {
		f.times, f.mins = f.times[:0], f.mins[:0]
		m := prof.Size()
		for i := 0; i < prof.Len(); i++ {
			at, free := prof.Step(i)
			m = min(m, free)
			f.times = append(f.times, at)
			f.mins = append(f.mins, m)
		}
		f.valid = true
	}
	end := f.times[0] + dur
	// Last step starting before end (step 0 always counts).
	lo, hi := 1, len(f.times)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if f.times[mid] < end {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return f.mins[lo-1] >= procs
}
