package sim

// eventKind orders events of the same instant: lower kinds are applied first.
type eventKind uint8

const (
	evCompletion eventKind = iota
	evOverheadEnd
	evArrival
	evTimer
)

// seqBits is the width of an event's sequence number in its order key;
// the kind sits above it. 2^56 events is beyond any run.
const seqBits = 56

type event struct {
	at   Time
	ord  uint64 // kind<<seqBits | seq: the order among events of one instant
	task *Task  // completion, overhead end, arrival
	tag  int    // timer
	idx  int    // position in the heap, -1 when not queued, idxHeld when held by its task
	next *event // the next timer held by the same task
}

// idxHeld marks a timer held by its task instead of queued (see
// [Machine.SetTaskTimer]).
const idxHeld = -2

func (e *event) kind() eventKind { return eventKind(e.ord >> seqBits) }

// heapEntry is one place of the event heap: the event's order, copied so
// that comparisons read the heap's own memory, and the event.
type heapEntry struct {
	at  Time
	ord uint64
	e   *event
}

func (a *heapEntry) less(b *heapEntry) bool {
	return a.at < b.at || a.at == b.at && a.ord < b.ord
}

// eventQueue is a binary min-heap of events by (at, kind, seq), a total
// order (seq is unique), so events leave it in the same order whatever
// the heap's layout. Events that left the queue are kept for reuse: a
// run allocates about as many as are pending at once, not one per event.
type eventQueue struct {
	h    []heapEntry
	free []*event
}

func (q *eventQueue) len() int { return len(q.h) }

// peek returns the first event; the queue must not be empty.
func (q *eventQueue) peek() *event { return q.h[0].e }

// peekAt returns the time of the first event; the queue must not be empty.
func (q *eventQueue) peekAt() Time { return q.h[0].at }

// newEvent returns an unqueued event with the given fields, reused when
// one is free.
func (q *eventQueue) newEvent(at Time, ord uint64, t *Task, tag int) *event {
	if n := len(q.free); n > 0 {
		e := q.free[n-1]
		q.free[n-1] = nil
		q.free = q.free[:n-1]
		*e = event{at: at, ord: ord, task: t, tag: tag, idx: -1}
		return e
	}
	return &event{at: at, ord: ord, task: t, tag: tag, idx: -1}
}

// recycle makes e, which is not queued and no longer referred to, free
// for reuse.
func (q *eventQueue) recycle(e *event) {
	e.task, e.next, e.idx = nil, nil, -1
	q.free = append(q.free, e)
}

func (q *eventQueue) push(e *event) {
	q.h = append(q.h, heapEntry{e.at, e.ord, e})
	q.up(len(q.h) - 1)
}

// pop removes and returns the first event; the queue must not be empty.
func (q *eventQueue) pop() *event {
	e := q.h[0].e
	q.removeAt(0)
	return e
}

// remove takes e out of the queue if it is there.
func (q *eventQueue) remove(e *event) {
	if e != nil && e.idx >= 0 {
		q.removeAt(e.idx)
	}
}

func (q *eventQueue) removeAt(i int) {
	h := q.h
	n := len(h) - 1
	h[i].e.idx = -1
	if i != n {
		h[i] = h[n]
		h[i].e.idx = i
	}
	h[n] = heapEntry{}
	q.h = h[:n]
	if i < n {
		if !q.down(i) {
			q.up(i)
		}
	}
}

// up moves the entry at i toward the root to its place.
func (q *eventQueue) up(i int) {
	h := q.h
	x := h[i]
	for i > 0 {
		p := (i - 1) / 2
		if !x.less(&h[p]) {
			break
		}
		h[i] = h[p]
		h[i].e.idx = i
		i = p
	}
	h[i] = x
	x.e.idx = i
}

// down moves the entry at i toward the leaves to its place and reports
// whether it moved.
func (q *eventQueue) down(i0 int) bool {
	h := q.h
	n := len(h)
	i := i0
	x := h[i]
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && h[r].less(&h[c]) {
			c = r
		}
		if !h[c].less(&x) {
			break
		}
		h[i] = h[c]
		h[i].e.idx = i
		i = c
	}
	h[i] = x
	x.e.idx = i
	return i > i0
}
