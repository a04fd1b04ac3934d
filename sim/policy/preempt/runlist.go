package preempt

import (
	"cmp"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// runList keeps SS's running jobs in ascending priority (then earlier
// first start, then earlier arrival) from pass to pass. A running job's
// priority is constant, so a job is placed once per run segment (by binary
// search) instead of the running jobs being sorted at every pass.
type runList struct {
	jobs []*sim.Task
	key  []float64  // by task index: priority of a listed job
	seg  []sim.Time // by task index: Since of the run segment listed; -1: not listed
	// added is set when a job is listed; the caller clears it.
	added bool
}

func (l *runList) init(n int) {
	clear(l.jobs)
	l.jobs = l.jobs[:0]
	l.key = make([]float64, n)
	l.seg = make([]sim.Time, n)
	for i := range l.seg {
		l.seg[i] = -1
	}
	l.added = false
}

// less orders listed jobs a and b.
func (l *runList) cmp(a, b *sim.Task) int {
	if c := cmp.Compare(l.key[a.Index], l.key[b.Index]); c != 0 {
		return c
	}
	if a.FirstStart != b.FirstStart {
		return cmp.Compare(a.FirstStart, b.FirstStart)
	}
	return a.Index - b.Index
}

// sync brings the list up to the machine's running jobs at now: it drops
// the jobs that no longer run or run a new segment, and places the others.
func (l *runList) sync(m *sim.Machine, now sim.Time) {
	l.jobs = slices.DeleteFunc(l.jobs, func(r *sim.Task) bool {
		if r.State == sim.Running && r.Since == l.seg[r.Index] {
			return false
		}
		l.seg[r.Index] = -1
		return true
	})
	for _, r := range m.Active() {
		if r.State != sim.Running || r.Since == l.seg[r.Index] {
			continue
		}
		l.key[r.Index] = xfactor(r, now)
		l.seg[r.Index] = r.Since
		i, _ := slices.BinarySearchFunc(l.jobs, r, l.cmp)
		l.jobs = slices.Insert(l.jobs, i, r)
		l.added = true
	}
}
