package lsf

import (
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// before is the order of the key sorts (byKey): ascending key, ties by
// arrival.
func before(a, b keyed) bool {
	if a.k != b.k {
		return a.k < b.k
	}
	return a.t.Index < b.t.Index
}

// cmpKeyed is before as a comparison.
func cmpKeyed(a, b keyed) int {
	switch {
	case before(a, b):
		return -1
	case before(b, a):
		return 1
	}
	return 0
}

// queue indexes the queued jobs of the simple-preemption disciplines (and
// the pending jobs of LSF-RTC's first fit, fillRTC), so that a decision
// costs what it starts and preempts rather than the length of the queue. A job's key changes only while it runs (acquired
// processor-seconds, served work), so a queued job keeps the key it had
// when it was queued:
//
//   - pending jobs wait in buckets by size (their desired size for
//     lsf-preempt, their minimum for lsf-preempt-ad), each in key order
//     (ties: arrival). Pending jobs of these disciplines have never run
//     (they neither checkpoint nor kill), so without demand knowledge
//     every pending key is 0 and a bucket's key order is arrival order.
//   - suspended jobs, at most MaxJobsPerProc per processor, wait in one
//     list in key order. A job suspended during a decision joins it when
//     the decision ends ([queue.flush]): the decision's queued jobs are
//     those queued when it began.
type queue struct {
	size func(*sim.Task) int
	// pend holds the buckets by size: a bucket's jobs are b.jobs[b.head:].
	// A map, not a slice by size, so that the index costs the sizes
	// queued, not the machine (2^20 sizes on a 2^20-processor machine).
	pend  map[int]*bucket
	sizes []int     // sizes of the non-empty buckets, ascending
	spare []*bucket // emptied buckets, kept for reuse
	npend int
	susp  []keyed
	added []keyed // suspended during the current decision
}

// bucket is the pending jobs of one size, jobs[head:], in key order.
type bucket struct {
	jobs []keyed
	head int
}

// init readies the queue; size gives a pending job's bucket.
func (q *queue) init(size func(*sim.Task) int) {
	q.size = size
	q.pend = make(map[int]*bucket)
}

// bucket returns the pending jobs of size s, in key order.
func (q *queue) bucket(s int) []keyed {
	b := q.pend[s]
	if b == nil {
		return nil
	}
	return b.jobs[b.head:]
}

// addPending queues a pending job with key k.
func (q *queue) addPending(t *sim.Task, k float64) {
	e := keyed{k, t}
	s := q.size(t)
	bk := q.pend[s]
	if bk == nil {
		if n := len(q.spare); n > 0 {
			bk, q.spare = q.spare[n-1], q.spare[:n-1]
		} else {
			bk = &bucket{}
		}
		q.pend[s] = bk
	}
	b := bk.jobs
	if len(b) == bk.head {
		bk.jobs, bk.head = b[:0], 0
		i, _ := slices.BinarySearch(q.sizes, s)
		q.sizes = slices.Insert(q.sizes, i, s)
		b = bk.jobs
	}
	if n := len(b); n == bk.head || before(b[n-1], e) {
		bk.jobs = append(b, e)
	} else {
		i, _ := slices.BinarySearchFunc(b[bk.head:], e, cmpKeyed)
		bk.jobs = slices.Insert(b, bk.head+i, e)
	}
	q.npend++
}

// removePending takes e (a pending job with its key) out of its bucket.
func (q *queue) removePending(e keyed) {
	s := q.size(e.t)
	bk := q.pend[s]
	if bk == nil {
		return
	}
	b, h := bk.jobs, bk.head
	i, found := slices.BinarySearchFunc(b[h:], e, cmpKeyed)
	if !found {
		return
	}
	if i == 0 {
		b[h] = keyed{}
		bk.head++
	} else {
		bk.jobs = slices.Delete(b, h+i, h+i+1)
	}
	q.npend--
	switch b, h = bk.jobs, bk.head; {
	case h == len(b):
		// Empty: the bucket leaves the index for the spares, so the
		// index holds the sizes queued now.
		clear(b)
		bk.jobs, bk.head = b[:0], 0
		delete(q.pend, s)
		q.spare = append(q.spare, bk)
		i, _ := slices.BinarySearch(q.sizes, s)
		q.sizes = slices.Delete(q.sizes, i, i+1)
	case h >= 64 && 2*h >= len(b):
		n := copy(b, b[h:])
		clear(b[n:])
		bk.jobs, bk.head = b[:n], 0
	}
}

// suspended notes that t was suspended by the current decision (with key
// k after its suspension); it joins the suspended list at flush.
func (q *queue) suspended(t *sim.Task, k float64) { q.added = append(q.added, keyed{k, t}) }

// flush ends a decision: the jobs it suspended join the suspended list.
func (q *queue) flush() {
	for _, e := range q.added {
		i, _ := slices.BinarySearchFunc(q.susp, e, cmpKeyed)
		q.susp = slices.Insert(q.susp, i, e)
	}
	clear(q.added)
	q.added = q.added[:0]
}

// resumed takes e out of the suspended list.
func (q *queue) resumed(e keyed) {
	if i, found := slices.BinarySearchFunc(q.susp, e, cmpKeyed); found {
		q.susp = slices.Delete(q.susp, i, i+1)
	}
}

// queued reports whether any job is pending or suspended (flushed).
func (q *queue) queued() bool { return q.npend > 0 || len(q.susp) > 0 }
