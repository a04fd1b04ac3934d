package preempt

import "github.com/schedfarm/schedfarm/sim"

// bounds keeps IS's suspended jobs in a min-heap by the earliest time each
// may act (its bound), and remembers which running jobs fix those bounds,
// so that a pass only looks at the suspended jobs whose bound has come or
// whose blocking job has left. A bound is a lower bound: the job cannot
// act earlier unless a job it watches leaves.
type bounds struct {
	heap boundHeap // keyed by task index
	// job holds, by task index, what the heap knows of each job.
	job   []jobBound
	watch watches
	// orphaned is left's scratch list of the jobs that watched a job.
	orphaned []*sim.Task
}

// jobBound is a job's record in [bounds].
type jobBound struct {
	t    *sim.Task // the job, once set
	at   sim.Time  // the bound
	crit [2]int32  // the (up to two) jobs it watches, -1 for none
}

func (b *bounds) init(n int) {
	b.heap.reset(n)
	b.job = make([]jobBound, n)
	for i := range b.job {
		b.job[i] = jobBound{crit: [2]int32{-1, -1}}
	}
	b.watch.reset(n)
}

// Len returns the number of jobs in the heap.
func (b *bounds) Len() int { return b.heap.Len() }

// set gives t the bound at and the jobs to watch (-1: none), adding t to
// the heap if it is not there.
func (b *bounds) set(t *sim.Task, at sim.Time, w1, w2 int32) {
	i := int32(t.Index)
	j := &b.job[i]
	j.at = at
	old := j.crit
	j.crit = [2]int32{w1, w2}
	b.watch.add(i, old, j.crit)
	j.t = t
	if b.heap.has(i) {
		b.heap.move(i, at)
	} else {
		b.heap.push(hentry{at, i, i})
	}
}

// due removes and returns the jobs whose bound is at most now.
func (b *bounds) due(now sim.Time, out []*sim.Task) []*sim.Task {
	for b.heap.due(now) {
		out = append(out, b.job[b.heap.pop().idx].t)
	}
	return out
}

// restore puts t back with the bound it had.
func (b *bounds) restore(t *sim.Task) {
	if i := int32(t.Index); !b.heap.has(i) {
		b.heap.push(hentry{b.job[i].at, i, i})
	}
}

// next returns the smallest bound, or sim.Never when the heap is empty.
func (b *bounds) next() sim.Time { return b.heap.next() }

// orphans drops the watches on job j, which no longer holds its
// processors (or is out of its overhead), and appends to out the jobs of
// the heap that watched it: their bounds may be too late now. Unlike
// [bounds.left] it leaves their bounds as they were; the caller gives each
// a new one with set.
func (b *bounds) orphans(j *sim.Task, out []*sim.Task) []*sim.Task {
	for _, i := range b.watch.of[j.Index] {
		r := &b.job[i]
		if r.crit[0] != int32(j.Index) && r.crit[1] != int32(j.Index) {
			continue // stale entry
		}
		r.crit = [2]int32{-1, -1}
		if b.heap.has(i) {
			out = append(out, r.t)
		}
	}
	b.watch.drop(j.Index)
	return out
}

// left tells the heap that job j no longer holds its processors (or is
// out of its overhead): the jobs watching it are due at once.
func (b *bounds) left(j *sim.Task) {
	b.orphaned = b.orphans(j, b.orphaned[:0])
	for _, t := range b.orphaned {
		b.job[t.Index].at = 0
		b.heap.move(int32(t.Index), 0)
	}
}
