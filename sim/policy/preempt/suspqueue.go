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
	items []qentry // the heap
	slots []qslot
	free  []int32 // slots not in use
	// job holds, by task index, the job's slot (-1: not in the heap), its
	// last bound (restore puts it back with it) and the (up to two) jobs
	// it watches, which it keeps out of the heap.
	job []qjob
	// watch lists, by task index of a job holding processors, the
	// suspended jobs whose bound may drop when it leaves them. A job w in
	// job[i].crit is always in watch[w]; watch may also hold stale
	// entries, which crit tells apart.
	watch [][]int32
	// lists holds emptied watch lists for reuse.
	lists [][]int32
	procs int
}

// qentry is a job in the heap: its bound and index beside its slot.
type qentry struct {
	at   sim.Time
	idx  int32
	slot int32
}

// qjob is a job's record in [suspQueue], by task index.
type qjob struct {
	at   sim.Time
	slot int32
	crit [2]int32
}

// qslot is a job in the heap, as a bound reads it: see [who].
type qslot struct {
	t   *sim.Task
	w   who
	pos int32 // position in items
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
	q.items = q.items[:0]
	q.procs = procs
	q.job = make([]qjob, n)
	for i := range q.job {
		q.job[i] = qjob{slot: -1, crit: [2]int32{-1, -1}}
	}
	q.watch = make([][]int32, n)
	clear(q.lists)
	q.lists = q.lists[:0]
	for i := range q.slots {
		q.slots[i].t = nil
	}
	q.slots = q.slots[:0]
	q.free = q.free[:0]
}

func (q *suspQueue) Len() int { return len(q.items) }

// less orders the heap: earlier bound, then earlier arrival.
func (q *suspQueue) less(i, j int) bool {
	x, y := q.items[i], q.items[j]
	if x.at != y.at {
		return x.at < y.at
	}
	return x.idx < y.idx
}

func (q *suspQueue) swap(i, j int) {
	q.items[i], q.items[j] = q.items[j], q.items[i]
	q.slots[q.items[i].slot].pos = int32(i)
	q.slots[q.items[j].slot].pos = int32(j)
}

func (q *suspQueue) up(j int) {
	for j > 0 {
		i := (j - 1) / 2
		if !q.less(j, i) {
			break
		}
		q.swap(i, j)
		j = i
	}
}

// down sifts item i down and reports whether it moved.
func (q *suspQueue) down(i0 int) bool {
	i, n := i0, len(q.items)
	for {
		j := 2*i + 1
		if j >= n {
			break
		}
		if j2 := j + 1; j2 < n && q.less(j2, j) {
			j = j2
		}
		if !q.less(j, i) {
			break
		}
		q.swap(i, j)
		i = j
	}
	return i > i0
}

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
	}
	sl := &q.slots[s]
	set := sl.w.set
	set.SetDiff(t.Set, sim.ProcSet{})
	sl.t = t
	sl.w = who{idx: int32(t.Index), set: set, base: t.Submit + t.Work - t.Estimate, est: t.Estimate}
	sl.pos = int32(len(q.items))
	j := &q.job[t.Index]
	j.slot = s
	q.items = append(q.items, qentry{j.at, int32(t.Index), s})
	q.up(len(q.items) - 1)
}

// pop takes the first job out of the heap and gives its slot back.
func (q *suspQueue) pop() *sim.Task {
	n := len(q.items) - 1
	q.swap(0, n)
	e := q.items[n]
	q.items = q.items[:n]
	if n > 0 {
		q.down(0)
	}
	return q.leave(e)
}

// leave gives back the slot of e, out of the heap, and returns its job.
func (q *suspQueue) leave(e qentry) *sim.Task {
	sl := &q.slots[e.slot]
	t := sl.t
	sl.t = nil
	q.job[e.idx].slot = -1
	q.free = append(q.free, e.slot)
	return t
}

// set gives t the bound at and the jobs to watch (-1: none), adding t to
// the heap if it is not there.
func (q *suspQueue) set(t *sim.Task, at sim.Time, w1, w2 int32) {
	i := t.Index
	j := &q.job[i]
	j.at = at
	old := j.crit
	j.crit = [2]int32{w1, w2}
	for _, w := range j.crit {
		if w >= 0 && w != old[0] && w != old[1] {
			l := q.watch[w]
			if l == nil && len(q.lists) > 0 {
				l = q.lists[len(q.lists)-1]
				q.lists[len(q.lists)-1] = nil
				q.lists = q.lists[:len(q.lists)-1]
			}
			q.watch[w] = append(l, int32(i))
		}
	}
	if j.slot < 0 {
		q.enter(t)
		return
	}
	k := int(q.slots[j.slot].pos)
	q.items[k].at = at
	if !q.down(k) {
		q.up(k)
	}
}

// slotOf returns the slot of t, which is in the heap.
func (q *suspQueue) slotOf(t *sim.Task) *qslot { return &q.slots[q.job[t.Index].slot] }

// due removes and returns the jobs whose bound is at most now.
func (q *suspQueue) due(now sim.Time, out []*sim.Task) []*sim.Task {
	for len(q.items) > 0 && q.items[0].at <= now {
		out = append(out, q.pop())
	}
	return out
}

// all removes and returns every job.
func (q *suspQueue) all(out []*sim.Task) []*sim.Task {
	for _, e := range q.items {
		out = append(out, q.leave(e))
	}
	q.items = q.items[:0]
	return out
}

// restore puts t back with the bound it had.
func (q *suspQueue) restore(t *sim.Task) {
	if q.job[t.Index].slot < 0 {
		q.enter(t)
	}
}

// next returns the smallest bound, or sim.Never when the heap is empty.
func (q *suspQueue) next() sim.Time {
	if len(q.items) == 0 {
		return sim.Never
	}
	return q.items[0].at
}

// orphans drops the watches on job j, which no longer holds its
// processors (or is out of its overhead), and appends to out the jobs of
// the heap that watched it: their bounds may be too late now. It leaves
// their bounds as they were; the caller gives each a new one with set.
func (q *suspQueue) orphans(j *sim.Task, out []*sim.Task) []*sim.Task {
	w := q.watch[j.Index]
	for _, i := range w {
		r := &q.job[i]
		if r.crit[0] != int32(j.Index) && r.crit[1] != int32(j.Index) {
			continue // stale entry
		}
		r.crit = [2]int32{-1, -1}
		if r.slot >= 0 {
			out = append(out, q.slots[r.slot].t)
		}
	}
	q.watch[j.Index] = nil
	if cap(w) > 0 {
		q.lists = append(q.lists, w[:0])
	}
	return out
}
