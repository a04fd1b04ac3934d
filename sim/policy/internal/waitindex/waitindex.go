// Package waitindex holds a scheduler's waiting jobs by arrival index in
// a tree of minima (the least width and the least estimate of each range
// of indices), so that a backfill pass finds the next waiting job that
// may start without looking at every job in between. Under load most
// waiting jobs cannot start at a given instant, and whole ranges of them
// are skipped at once.
package waitindex

import (
	"math"

	"github.com/schedfarm/schedfarm/sim"
)

// Index is the set of waiting jobs of a run, by arrival index
// ([sim.Task.Index]). Add, Remove and a Next that returns at once are
// O(log n); a Next costs O(log n) per range of the tree it cannot rule
// out. The zero value is empty and holds no jobs; call Reset first.
type Index struct {
	leaves int        // a power of two >= the number of jobs
	procs  []int32    // node k: least width below it (math.MaxInt32: none)
	est    []sim.Time // node k: least estimate below it (sim.Never: none)
	n      int        // jobs held
}

// Reset empties the index for jobs 0..n-1.
func (x *Index) Reset(n int) {
	x.leaves = 1
	for x.leaves < n {
		x.leaves *= 2
	}
	x.procs = make([]int32, 2*x.leaves)
	x.est = make([]sim.Time, 2*x.leaves)
	for k := range x.procs {
		x.procs[k], x.est[k] = math.MaxInt32, sim.Never
	}
	x.n = 0
}

// Len returns the number of jobs held.
func (x *Index) Len() int { return x.n }

// set stores job i's width and estimate (math.MaxInt32 and sim.Never:
// not held) and updates the minima above it.
func (x *Index) set(i int, procs int32, est sim.Time) {
	k := x.leaves + i
	x.procs[k], x.est[k] = procs, est
	for k > 1 {
		k /= 2
		x.procs[k] = min(x.procs[2*k], x.procs[2*k+1])
		x.est[k] = min(x.est[2*k], x.est[2*k+1])
	}
}

// Add puts t in; it must not be held already.
func (x *Index) Add(t *sim.Task) {
	x.set(t.Index, int32(t.Procs), t.Estimate)
	x.n++
}

// Remove takes t out; it must be held.
func (x *Index) Remove(t *sim.Task) {
	x.set(t.Index, math.MaxInt32, sim.Never)
	x.n--
}

// First returns the least arrival index >= from of a held job, or -1.
func (x *Index) First(from int) int {
	return x.Next(from, func(int32, sim.Time) bool { return true })
}

// Next returns the least arrival index >= from of a held job whose width
// and estimate satisfy may, or -1. may is also asked of whole ranges,
// with their least width and least estimate, and a range is skipped
// when it says no. So may must say yes for (p, e) whenever it says yes
// for some (p', e') with p' >= p and e' >= e: it must be monotone, true
// for narrower and shorter jobs than any it accepts.
func (x *Index) Next(from int, may func(procs int32, est sim.Time) bool) int {
	if from < 0 {
		from = 0
	}
	return x.find(1, 0, x.leaves, from, may)
}

// find is Next within node k, which covers indices [lo, hi).
func (x *Index) find(k, lo, hi, from int, may func(int32, sim.Time) bool) int {
	if hi <= from || x.procs[k] == math.MaxInt32 || !may(x.procs[k], x.est[k]) {
		return -1
	}
	if hi-lo == 1 {
		return lo
	}
	mid := (lo + hi) / 2
	if i := x.find(2*k, lo, mid, from, may); i >= 0 {
		return i
	}
	return x.find(2*k+1, mid, hi, from, may)
}
