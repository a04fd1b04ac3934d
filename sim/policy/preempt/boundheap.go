package preempt

import "github.com/schedfarm/schedfarm/sim"

// boundHeap is the min-heap of suspended jobs by bound that IS ([bounds])
// and SS ([suspQueue]) keep: ordered by bound, then by task index, a total
// order, so jobs leave it in the same order whatever its layout. Each
// entry has a key (IS: the task index, SS: the job's slot) and pos[key]
// follows the entry's place in items through every move, -1 once it has
// left.
type boundHeap struct {
	items []hentry
	pos   []int32 // by key: position in items, -1 when absent
}

// hentry is a job in the heap, with its bound beside it.
type hentry struct {
	at  sim.Time
	idx int32 // task index
	key int32
}

// reset empties the heap and makes room for keys below n, all absent.
func (h *boundHeap) reset(n int) {
	h.items = h.items[:0]
	h.pos = h.pos[:0]
	h.grow(n)
}

// grow makes room for keys below n; new keys are absent.
func (h *boundHeap) grow(n int) {
	for len(h.pos) < n {
		h.pos = append(h.pos, -1)
	}
}

// Len returns the number of jobs in the heap.
func (h *boundHeap) Len() int { return len(h.items) }

// has reports whether key is in the heap.
func (h *boundHeap) has(key int32) bool { return h.pos[key] >= 0 }

func (h *boundHeap) less(i, j int) bool {
	x, y := h.items[i], h.items[j]
	if x.at != y.at {
		return x.at < y.at
	}
	return x.idx < y.idx
}

func (h *boundHeap) swap(i, j int) {
	h.items[i], h.items[j] = h.items[j], h.items[i]
	h.pos[h.items[i].key] = int32(i)
	h.pos[h.items[j].key] = int32(j)
}

func (h *boundHeap) up(j int) {
	for j > 0 {
		i := (j - 1) / 2
		if !h.less(j, i) {
			break
		}
		h.swap(i, j)
		j = i
	}
}

// down sifts item i down and reports whether it moved.
func (h *boundHeap) down(i0 int) bool {
	i, n := i0, len(h.items)
	for {
		j := 2*i + 1
		if j >= n {
			break
		}
		if j2 := j + 1; j2 < n && h.less(j2, j) {
			j = j2
		}
		if !h.less(j, i) {
			break
		}
		h.swap(i, j)
		i = j
	}
	return i > i0
}

// push adds e, whose key is absent and below the room made.
func (h *boundHeap) push(e hentry) {
	h.pos[e.key] = int32(len(h.items))
	h.items = append(h.items, e)
	h.up(len(h.items) - 1)
}

// pop takes the first entry out of the heap.
func (h *boundHeap) pop() hentry {
	n := len(h.items) - 1
	h.swap(0, n)
	e := h.items[n]
	h.items = h.items[:n]
	h.pos[e.key] = -1
	if n > 0 {
		h.down(0)
	}
	return e
}

// move gives the entry of key, which is in the heap, the bound at.
func (h *boundHeap) move(key int32, at sim.Time) {
	k := int(h.pos[key])
	h.items[k].at = at
	if !h.down(k) {
		h.up(k)
	}
}

// due reports whether the first bound is at most now.
func (h *boundHeap) due(now sim.Time) bool { return len(h.items) > 0 && h.items[0].at <= now }

// next returns the smallest bound, or sim.Never when the heap is empty.
func (h *boundHeap) next() sim.Time {
	if len(h.items) == 0 {
		return sim.Never
	}
	return h.items[0].at
}

// watches lists, by task index of a job holding processors, the suspended
// jobs whose bound may drop when it leaves them (IS and SS keep one each
// beside their heap). A job watches at most two jobs, recorded in its
// crit; a job w in crit is always in the list of w, which may also hold
// stale entries, which crit tells apart.
type watches struct {
	of [][]int32
	// lists holds emptied lists for reuse: a job's list is emptied when
	// it leaves its processors, and most jobs never hold processors
	// again, so their lists would otherwise stay allocated to the end of
	// the run.
	lists [][]int32
}

// reset makes room for n jobs, none watched.
func (w *watches) reset(n int) {
	w.of = make([][]int32, n)
	clear(w.lists)
	w.lists = w.lists[:0]
}

// add records that job i now watches the jobs in crit (-1: none), having
// watched those in old: it joins the lists of the new ones.
func (w *watches) add(i int32, old, crit [2]int32) {
	for _, x := range crit {
		if x >= 0 && x != old[0] && x != old[1] {
			l := w.of[x]
			if l == nil && len(w.lists) > 0 {
				l = w.lists[len(w.lists)-1]
				w.lists[len(w.lists)-1] = nil
				w.lists = w.lists[:len(w.lists)-1]
			}
			w.of[x] = append(l, i)
		}
	}
}

// drop empties job j's list, keeping its memory for another; read the
// list before.
func (w *watches) drop(j int) {
	l := w.of[j]
	w.of[j] = nil
	if cap(l) > 0 {
		w.lists = append(w.lists, l[:0])
	}
}
