package coordinator

import (
	"maps"
	"testing"
	"time"
)

// TestTaskStates_LikeMap checks the run's task states against a map
// through sets, resets, deletions and states of IDs that are not tasks
// of the run: the same lookups, count and states yielded, every field
// of a state as it was set (the names kept as numbers included).
func TestTaskStates_LikeMap(t *testing.T) {
	ids := []string{"a", "b", "c", "d"}
	byID := map[string]int{}
	for i, id := range ids {
		byID[id] = i
	}
	s := newTaskStates(byID, func(i int) string { return ids[i] }, len(ids))
	want := map[string]TaskState{}
	check := func(step string) {
		t.Helper()
		if s.len() != len(want) {
			t.Errorf("%s: len %d, want %d", step, s.len(), len(want))
		}
		got := maps.Collect(s.all())
		if !maps.Equal(got, want) {
			t.Errorf("%s: states %v, want %v", step, got, want)
		}
		for _, id := range append(ids, "x", "y") {
			st, ok := s.lookup(id)
			w, wok := want[id]
			if st != w || ok != wok || s.has(id) != wok || s.at(id) != w {
				t.Errorf("%s: lookup(%s) = %v, %v; want %v, %v", step, id, st, ok, w, wok)
			}
		}
	}
	check("empty")
	at := time.Now() // with its monotonic reading and location, kept as they are
	for _, op := range []struct {
		id  string
		del bool
		st  TaskState
	}{
		{id: "b", st: TaskState{Index: 1, Worker: "w1"}},
		{id: "d", st: TaskState{Index: 3, Err: "boom"}},
		{id: "b", st: TaskState{Index: 1, Worker: "w2", Cached: true}},
		{id: "c", st: TaskState{Index: 2, Worker: "w1", WallTime: 3 * time.Second, SimVersion: "0.15.0", Build: "b1", Verified: "w2", At: at}},
		{id: "a", st: TaskState{Index: 0, Err: "late", Worker: "w3", SimVersion: "0.15.0", Build: "b2", At: at.Add(time.Second)}},
		{id: "x", st: TaskState{Index: 9}},
		{id: "a", del: true},
		{id: "d", del: true},
		{id: "x", st: TaskState{Index: 10}},
		{id: "c", st: TaskState{Index: 2}},
		{id: "b", st: TaskState{Index: 1, Worker: "w3", Build: "b1", Verified: "w1", At: at.Add(time.Minute)}},
		{id: "x", del: true},
		{id: "y", del: true},
	} {
		if op.del {
			s.del(op.id)
			delete(want, op.id)
		} else {
			s.set(op.id, op.st)
			want[op.id] = op.st
		}
		check(op.id)
	}
}
