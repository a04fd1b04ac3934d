package preempt

import "github.com/schedfarm/schedfarm/sim"

// suspQueue is SS's heap of suspended jobs by bound, as [bounds] is IS's,
// with what a new bound reads of each job in the heap kept in a slot of a
// compact array: a copy of its processor set, the terms of its priority,
// its bound and its place in the heap. A job gets a slot when it enters
// the heap and gives it back when it leaves, so there are as many slots
// as jobs ever in the heap at once (hundreds on the CTC trace), not one
// per job of the workload: counting a job's holders when the job it
// watches leaves, which happens millions of times per run with
// overhead, then reads one or two nearby cache lines of the job instead
// of its record in the engine, its processor set and four arrays over
// every job.
//
// A job's processor set and work stay fixed while it is in the heap: it
// is Suspending or Suspended, and only SS's pass resumes it, after taking
// it out.
type suspQueue struct {
	heap  boundHeap // keyed by slot
	slots []qslot
	free  []int32 // slots not in use
	// job holds, by task index, the job's slot (-1: not in the heap), its
	// last bound (restore puts it back with it) and the (up to two) jobs
	// it watches, which it keeps out of the heap.
	job   []qjob
	watch watches
	procs int
}

// qjob is a job's record in [suspQueue], by task index.
type qjob struct {
	at   sim.Time
	slot int32
	crit [2]int32
}

// qslot is a job in the heap, as a bound reads it: see [who].
type qslot struct {
	t *sim.Task
	w who
}

// who is what a count of a suspended job's holders ([SS.count]) reads of
// the job: its processor set, which it remembers, and the terms of its
// priority, which grows while it does not run.
type who struct {
	idx  int32
	set  sim.ProcSet
	base sim.Time // submit + work - estimate: the priority at time x is (x - base) / estimate
	est  sim.Time
}

// whoOf returns what a count reads of job t, from the job itself.
func whoOf(t *sim.Task) who {
	return who{idx: int32(t.Index), set: t.Set, base: t.Submit + t.Work - t.Estimate, est: t.Estimate}
}

// prio returns the priority at now of a job that does not run: xfactor's
// value, computed from the same integers.
func (w *who) prio(now sim.Time) float64 {
	return float64(now-w.base) / float64(w.est)
}

// reach returns a time, never before now+1, by which the priority of a job
// that does not run reaches x: (y - base) / estimate = x at y = base +
// x*estimate; one second early is safe.
func (w *who) reach(x float64, now sim.Time) sim.Time {
	return max(w.base+sim.FloorTime(x*float64(w.est))-1, now+1)
}

func (q *suspQueue) init(n, procs int) {
	q.heap.reset(len(q.slots))
	q.procs = procs
	q.job = make([]qjob, n)
	for i := range q.job {
		q.job[i] = qjob{slot: -1, crit: [2]int32{-1, -1}}
	}
	q.watch.reset(n)
}

// Len returns the number of jobs in the heap.
func (q *suspQueue) Len() int { return q.heap.Len() }

// enter gives t, not in the heap, a slot and puts it in the heap with its
// bound q.job[t.Index].at.
func (q *suspQueue) enter(t *sim.Task) {
	var s int32
	if k := len(q.free); k > 0 {
		s = q.free[k-1]
		q.free = q.free[:k-1]
	} else {
		s = int32(len(q.slots))
		q.slots = append(q.slots, qslot{w: who{set: sim.NewProcSet(q.procs)}})
		q.heap.grow(len(q.slots))
	}
	sl := &q.slots[s]
	set := sl.w.set
	set.SetDiff(t.Set, sim.ProcSet{})
	sl.t = t
	sl.w = who{idx: int32(t.Index), set: set, base: t.Submit + t.Work - t.Estimate, est: t.Estimate}
	j := &q.job[t.Index]
	j.slot = s
	q.heap.push(hentry{j.at, int32(t.Index), s})
}

// leave gives back the slot of e, out of the heap, and returns its job.
func (q *suspQueue) leave(e hentry) *sim.Task {
	sl := &q.slots[e.key]
	t := sl.t
	sl.t = nil
	q.job[e.idx].slot = -1
	q.free = append(q.free, e.key)
	return t
}

// set gives t the bound at and the jobs to watch (-1: none), adding t to
// the heap if it is not there.
func (q *suspQueue) set(t *sim.Task, at sim.Time, w1, w2 int32) {
	i := int32(t.Index)
	j := &q.job[i]
	j.at = at
	old := j.crit
	j.crit = [2]int32{w1, w2}
	q.watch.add(i, old, j.crit)
	if j.slot < 0 {
		q.enter(t)
		return
	}
	q.heap.move(j.slot, at)
}

// slotOf returns the slot of t, which is in the heap.
func (q *suspQueue) slotOf(t *sim.Task) *qslot { return &q.slots[q.job[t.Index].slot] }

// due removes and returns the jobs whose bound is at most now.
func (q *suspQueue) due(now sim.Time, out []*sim.Task) []*sim.Task {
	for q.heap.due(now) {
		out = append(out, q.leave(q.heap.pop()))
	}
	return out
}

// all removes and returns every job, in the order of the heap's array.
func (q *suspQueue) all(out []*sim.Task) []*sim.Task {
	for _, e := range q.heap.items {
		q.heap.pos[e.key] = -1
		out = append(out, q.leave(e))
	}
	q.heap.items = q.heap.items[:0]
	return out
}

// restore puts t back with the bound it had.
func (q *suspQueue) restore(t *sim.Task) {
	if q.job[t.Index].slot < 0 {
		q.enter(t)
	}
}

// next returns the smallest bound, or sim.Never when the heap is empty.
func (q *suspQueue) next() sim.Time { return q.heap.next() }

// orphans drops the watches on job j, which no longer holds its
// processors (or is out of its overhead), and appends to out the jobs of
// the heap that watched it: their bounds may be too late now. It leaves
// their bounds as they were; the caller gives each a new one with set.
func (q *suspQueue) orphans(j *sim.Task, out []*sim.Task) []*sim.Task {
	for _, i := range q.watch.of[j.Index] {
		r := &q.job[i]
		if r.crit[0] != int32(j.Index) && r.crit[1] != int32(j.Index) {
			continue // stale entry
		}
		r.crit = [2]int32{-1, -1}
		if r.slot >= 0 {
			out = append(out, q.slots[r.slot].t)
		}
	}
	q.watch.drop(j.Index)
	return out
}
