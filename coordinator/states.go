package coordinator

import (
	"iter"
	"time"
)

// taskStates holds the states of a run's finished tasks by task ID, in a
// slice by the task's position rather than a map, each in a compact form
// (stateSlot: the worker, simulator version, build and verifier as
// numbers in a table of the distinct names, which are few; the ID is
// the run's, read through id): 80 bytes a state, 8 MB for 100,000 (14 MB
// as TaskState values, about 24 MB in a map). A state of an ID that is
// not one of the run's tasks (none, while a resumed run's spec is
// unchanged) is kept aside.
type taskStates struct {
	byID  map[string]int     // task ID -> position, shared with the run
	id    func(i int) string // the ID of the task at position i
	st    []stateSlot
	n     int
	extra map[string]TaskState
	// names holds each distinct name once (names[0] is ""), nameIx its
	// number.
	names  []string
	nameIx map[string]uint32
}

// stateSlot is a TaskState in the form the run keeps it.
type stateSlot struct {
	at                                  time.Time
	wall                                time.Duration
	err                                 string
	index                               int
	worker, simVersion, build, verified uint32 // numbers in names
	cached, have                        bool
}

// newTaskStates returns an empty set of states of the n tasks of byID,
// the task at position i having the ID id(i).
func newTaskStates(byID map[string]int, id func(i int) string, n int) *taskStates {
	return &taskStates{byID: byID, id: id, st: make([]stateSlot, n),
		names: []string{""}, nameIx: map[string]uint32{"": 0}}
}

// name returns the number of name s, adding it to the table if new.
func (s *taskStates) name(v string) uint32 {
	if i, ok := s.nameIx[v]; ok {
		return i
	}
	i := uint32(len(s.names))
	s.names = append(s.names, v)
	s.nameIx[v] = i
	return i
}

// state returns the TaskState of slot i.
func (s *taskStates) state(i int) TaskState {
	sl := &s.st[i]
	return TaskState{Index: sl.index, Cached: sl.cached, Err: sl.err, Worker: s.names[sl.worker],
		WallTime: sl.wall, SimVersion: s.names[sl.simVersion], Build: s.names[sl.build],
		Verified: s.names[sl.verified], At: sl.at}
}

// lookup returns the state of task id and whether it has one.
func (s *taskStates) lookup(id string) (TaskState, bool) {
	i, ok := s.byID[id]
	if !ok {
		st, ok := s.extra[id]
		return st, ok
	}
	if !s.st[i].have {
		return TaskState{}, false
	}
	return s.state(i), true
}

// at returns the state of task id (the zero state if it has none).
func (s *taskStates) at(id string) TaskState {
	st, _ := s.lookup(id)
	return st
}

// has reports whether task id has a state.
func (s *taskStates) has(id string) bool {
	if i, ok := s.byID[id]; ok {
		return s.st[i].have
	}
	_, ok := s.extra[id]
	return ok
}

// set sets the state of task id.
func (s *taskStates) set(id string, st TaskState) {
	i, ok := s.byID[id]
	if !ok {
		if s.extra == nil {
			s.extra = map[string]TaskState{}
		}
		if _, had := s.extra[id]; !had {
			s.n++
		}
		s.extra[id] = st
		return
	}
	if !s.st[i].have {
		s.n++
	}
	s.st[i] = stateSlot{at: st.At, wall: st.WallTime, err: st.Err, index: st.Index,
		worker: s.name(st.Worker), simVersion: s.name(st.SimVersion), build: s.name(st.Build),
		verified: s.name(st.Verified), cached: st.Cached, have: true}
}

// del removes the state of task id.
func (s *taskStates) del(id string) {
	i, ok := s.byID[id]
	if !ok {
		if _, had := s.extra[id]; had {
			s.n--
			delete(s.extra, id)
		}
		return
	}
	if s.st[i].have {
		s.n--
	}
	s.st[i] = stateSlot{}
}

// len returns the number of tasks with a state.
func (s *taskStates) len() int { return s.n }

// all yields every task's ID and state, by task position, then those
// kept aside.
func (s *taskStates) all() iter.Seq2[string, TaskState] {
	return func(yield func(string, TaskState) bool) {
		for i := range s.st {
			if s.st[i].have && !yield(s.id(i), s.state(i)) {
				return
			}
		}
		for id, st := range s.extra {
			if !yield(id, st) {
				return
			}
		}
	}
}
