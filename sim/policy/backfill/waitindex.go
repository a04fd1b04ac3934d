package backfill

import (
	"math"

	"github.com/schedfarm/schedfarm/sim"
)

// waitIndex holds the waiting jobs by arrival index in a tree of minima
// (least width and least estimate of each subtree), so that EASY finds
// the next waiting job that may backfill without looking at every job in
// between: O(log n) per job found when whole subtrees can be skipped.
type waitIndex struct {
	leaves int        // a power of two >= the number of jobs
	procs  []int32    // node i: least width below it (math.MaxInt32: none)
	est    []sim.Time // node i: least estimate below it (sim.Never: none)
	n      int        // jobs held
}

// reset empties the index for jobs 0..n-1.
func (w *waitIndex) reset(n int) {
	w.leaves = 1
	for w.leaves < n {
		w.leaves *= 2
	}
	w.procs = make([]int32, 2*w.leaves)
	w.est = make([]sim.Time, 2*w.leaves)
	for i := range w.procs {
		w.procs[i], w.est[i] = math.MaxInt32, sim.Never
	}
	w.n = 0
}

// set puts job i with its width and estimate in, or takes it out (procs
// math.MaxInt32, est sim.Never), and updates the minima above it.
func (w *waitIndex) set(i int, procs int32, est sim.Time) {
	k := w.leaves + i
	w.procs[k], w.est[k] = procs, est
	for k > 1 {
		k /= 2
		w.procs[k] = min(w.procs[2*k], w.procs[2*k+1])
		w.est[k] = min(w.est[2*k], w.est[2*k+1])
	}
}

// add puts t in.
func (w *waitIndex) add(t *sim.Task) {
	w.set(t.Index, int32(t.Procs), t.Estimate)
	w.n++
}

// remove takes t out.
func (w *waitIndex) remove(t *sim.Task) {
	w.set(t.Index, math.MaxInt32, sim.Never)
	w.n--
}

// next returns the least arrival index >= from of a held job with width
// at most always, or with width at most ifShort and estimate at most dur;
// -1 when there is none.
func (w *waitIndex) next(from int, always, ifShort int32, dur sim.Time) int {
	return w.find(1, 0, w.leaves, from, always, ifShort, dur)
}

// find is next within node k, which covers leaves [lo, hi).
func (w *waitIndex) find(k, lo, hi, from int, always, ifShort int32, dur sim.Time) int {
	if hi <= from || !(w.procs[k] <= always || (w.procs[k] <= ifShort && w.est[k] <= dur)) {
		return -1 // a leaf below fits only if the minima do
	}
	if hi-lo == 1 {
		return lo
	}
	mid := (lo + hi) / 2
	if i := w.find(2*k, lo, mid, from, always, ifShort, dur); i >= 0 {
		return i
	}
	return w.find(2*k+1, mid, hi, from, always, ifShort, dur)
}

// first returns the least arrival index >= from of a held job, or -1.
func (w *waitIndex) first(from int) int {
	return w.next(from, math.MaxInt32-1, 0, 0)
}
