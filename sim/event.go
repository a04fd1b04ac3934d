package sim

import "container/heap"

// eventKind orders events of the same instant: lower kinds are applied first.
type eventKind uint8

const (
	evCompletion eventKind = iota
	evOverheadEnd
	evArrival
	evTimer
)

type event struct {
	at   Time
	kind eventKind
	seq  uint64
	task *Task // completion, overhead end, arrival
	tag  int   // timer
	idx  int   // position in the heap, -1 when not queued
}

// eventQueue is a min-heap of events by (at, kind, seq).
type eventQueue []*event

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	a, b := q[i], q[j]
	if a.at != b.at {
		return a.at < b.at
	}
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	return a.seq < b.seq
}
func (q eventQueue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].idx = i
	q[j].idx = j
}
func (q *eventQueue) Push(x any) {
	e := x.(*event)
	e.idx = len(*q)
	*q = append(*q, e)
}
func (q *eventQueue) Pop() any {
	old := *q
	n := len(old)
	e := old[n-1]
	old[n-1] = nil
	e.idx = -1
	*q = old[:n-1]
	return e
}

func (q *eventQueue) push(e *event) { heap.Push(q, e) }
func (q *eventQueue) pop() *event   { return heap.Pop(q).(*event) }
func (q *eventQueue) remove(e *event) {
	if e.idx >= 0 {
		heap.Remove(q, e.idx)
	}
}
func (q eventQueue) peek() *event { return q[0] }
