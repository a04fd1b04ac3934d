package coordinator

import "iter"

// taskStates holds the states of a run's finished tasks by task ID, in a
// slice by the task's position rather than a map: 100,000 states take
// 13 MB instead of about 24. A state of an ID that is not one of the
// run's tasks (none, while a resumed run's spec is unchanged) is kept
// aside.
type taskStates struct {
	byID  map[string]int // task ID -> position, shared with the run
	ids   []string       // the ID of each position with a state
	st    []TaskState
	have  []bool
	n     int
	extra map[string]TaskState
}

// newTaskStates returns an empty set of states of the n tasks of byID.
func newTaskStates(byID map[string]int, n int) *taskStates {
	return &taskStates{byID: byID, ids: make([]string, n), st: make([]TaskState, n), have: make([]bool, n)}
}

// lookup returns the state of task id and whether it has one.
func (s *taskStates) lookup(id string) (TaskState, bool) {
	i, ok := s.byID[id]
	if !ok {
		st, ok := s.extra[id]
		return st, ok
	}
	return s.st[i], s.have[i]
}

// at returns the state of task id (the zero state if it has none).
func (s *taskStates) at(id string) TaskState {
	st, _ := s.lookup(id)
	return st
}

// has reports whether task id has a state.
func (s *taskStates) has(id string) bool {
	_, ok := s.lookup(id)
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
	if !s.have[i] {
		s.n++
	}
	s.ids[i], s.st[i], s.have[i] = id, st, true
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
	if s.have[i] {
		s.n--
	}
	s.ids[i], s.st[i], s.have[i] = "", TaskState{}, false
}

// len returns the number of tasks with a state.
func (s *taskStates) len() int { return s.n }

// all yields every task's ID and state, by task position, then those
// kept aside.
func (s *taskStates) all() iter.Seq2[string, TaskState] {
	return func(yield func(string, TaskState) bool) {
		for i, ok := range s.have {
			if ok && !yield(s.ids[i], s.st[i]) {
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
