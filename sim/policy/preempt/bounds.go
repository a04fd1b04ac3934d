package preempt

import "github.com/schedfarm/schedfarm/sim"

// bounds keeps SS's suspended jobs in a min-heap by the earliest time each
// may act (its bound), and remembers which running jobs fix those bounds,
// so that a pass only looks at the suspended jobs whose bound has come or
// whose blocking job has left. A bound is a lower bound: the job cannot
// act earlier unless a job it watches leaves.
type bounds struct {
	items []entry // the heap
	// job holds, by task index, what the heap knows of each job: kept
	// in one record so that a bound's update reads one cache line of an
	// array over every job instead of one line of each of four.
	job []jobBound
	// watch lists, by task index of a job holding processors, the
	// suspended jobs whose bound may drop when it leaves them. A job w in
	// job[i].crit is always in watch[w]; watch may also hold stale
	// entries, which crit tells apart.
	watch [][]int32
	// lists holds emptied watch lists for reuse: a job's list is emptied
	// when it leaves its processors, and most jobs never hold processors
	// again, so their lists would otherwise stay allocated to the end of
	// the run.
	lists [][]int32
	// orphaned is left's scratch list of the jobs that watched a job.
	orphaned []*sim.Task
}

// jobBound is a job's record in [bounds].
type jobBound struct {
	t    *sim.Task // the job, once set
	at   sim.Time  // the bound
	pos  int32     // position in items, -1 when absent
	crit [2]int32  // the (up to two) jobs it watches, -1 for none
}

// entry is a job in the heap, with its bound beside it.
type entry struct {
	at  sim.Time
	idx int32
}

func (b *bounds) init(n int) {
	b.items = b.items[:0]
	b.job = make([]jobBound, n)
	for i := range b.job {
		b.job[i] = jobBound{pos: -1, crit: [2]int32{-1, -1}}
	}
	b.watch = make([][]int32, n)
	clear(b.lists)
	b.lists = b.lists[:0]
}

func (b *bounds) Len() int { return len(b.items) }

// less orders the heap: earlier bound, then earlier arrival.
func (b *bounds) less(i, j int) bool {
	x, y := b.items[i], b.items[j]
	if x.at != y.at {
		return x.at < y.at
	}
	return x.idx < y.idx
}

func (b *bounds) swap(i, j int) {
	b.items[i], b.items[j] = b.items[j], b.items[i]
	b.job[b.items[i].idx].pos = int32(i)
	b.job[b.items[j].idx].pos = int32(j)
}

func (b *bounds) up(j int) {
	for j > 0 {
		i := (j - 1) / 2
		if !b.less(j, i) {
			break
		}
		b.swap(i, j)
		j = i
	}
}

// down sifts item i down and reports whether it moved.
func (b *bounds) down(i0 int) bool {
	i, n := i0, len(b.items)
	for {
		j := 2*i + 1
		if j >= n {
			break
		}
		if j2 := j + 1; j2 < n && b.less(j2, j) {
			j = j2
		}
		if !b.less(j, i) {
			break
		}
		b.swap(i, j)
		i = j
	}
	return i > i0
}

// push adds job i with its bound.
func (b *bounds) push(i int) {
	b.job[i].pos = int32(len(b.items))
	b.items = append(b.items, entry{b.job[i].at, int32(i)})
	b.up(len(b.items) - 1)
}

func (b *bounds) pop() *sim.Task {
	n := len(b.items) - 1
	b.swap(0, n)
	i := b.items[n].idx
	b.items = b.items[:n]
	b.job[i].pos = -1
	if n > 0 {
		b.down(0)
	}
	return b.job[i].t
}

// update moves job i, in the heap, to its bound.
func (b *bounds) update(i int) {
	k := int(b.job[i].pos)
	b.items[k].at = b.job[i].at
	if !b.down(k) {
		b.up(k)
	}
}

// set gives t the bound at and the jobs to watch (-1: none), adding t to
// the heap if it is not there.
func (b *bounds) set(t *sim.Task, at sim.Time, w1, w2 int32) {
	i := t.Index
	j := &b.job[i]
	j.at = at
	old := j.crit
	j.crit = [2]int32{w1, w2}
	for _, w := range j.crit {
		if w >= 0 && w != old[0] && w != old[1] {
			l := b.watch[w]
			if l == nil && len(b.lists) > 0 {
				l = b.lists[len(b.lists)-1]
				b.lists[len(b.lists)-1] = nil
				b.lists = b.lists[:len(b.lists)-1]
			}
			b.watch[w] = append(l, int32(i))
		}
	}
	j.t = t
	if j.pos < 0 {
		b.push(i)
	} else {
		b.update(i)
	}
}

// due removes and returns the jobs whose bound is at most now.
func (b *bounds) due(now sim.Time, out []*sim.Task) []*sim.Task {
	for len(b.items) > 0 && b.items[0].at <= now {
		out = append(out, b.pop())
	}
	return out
}

// all removes and returns every job.
func (b *bounds) all(out []*sim.Task) []*sim.Task {
	for _, e := range b.items {
		b.job[e.idx].pos = -1
		out = append(out, b.job[e.idx].t)
	}
	b.items = b.items[:0]
	return out
}

// restore puts t back with the bound it had.
func (b *bounds) restore(t *sim.Task) {
	if b.job[t.Index].pos < 0 {
		b.push(t.Index)
	}
}

// next returns the smallest bound, or sim.Never when the heap is empty.
func (b *bounds) next() sim.Time {
	if len(b.items) == 0 {
		return sim.Never
	}
	return b.items[0].at
}

// orphans drops the watches on job j, which no longer holds its
// processors (or is out of its overhead), and appends to out the jobs of
// the heap that watched it: their bounds may be too late now. Unlike
// [bounds.left] it leaves their bounds as they were; the caller gives each
// a new one with set.
func (b *bounds) orphans(j *sim.Task, out []*sim.Task) []*sim.Task {
	w := b.watch[j.Index]
	for _, i := range w {
		r := &b.job[i]
		if r.crit[0] != int32(j.Index) && r.crit[1] != int32(j.Index) {
			continue // stale entry
		}
		r.crit = [2]int32{-1, -1}
		if r.pos >= 0 {
			out = append(out, r.t)
		}
	}
	b.watch[j.Index] = nil
	if cap(w) > 0 {
		b.lists = append(b.lists, w[:0])
	}
	return out
}

// left tells the heap that job j no longer holds its processors (or is
// out of its overhead): the jobs watching it are due at once.
func (b *bounds) left(j *sim.Task) {
	b.orphaned = b.orphans(j, b.orphaned[:0])
	for _, t := range b.orphaned {
		b.job[t.Index].at = 0
		b.update(t.Index)
	}
}
