package sim

import "fmt"

// ResumeOn restarts a Suspended job on set, free processors as many as the
// job has, which need not be the ones it had: the job migrates (as on a
// shared-memory machine, where a suspended job may continue on any
// processors). [Machine.Resume] is ResumeOn with the job's own set. With
// overhead > 0 the job holds set, doing no work, for that long (Resuming)
// before it runs again. A move to other processors counts in
// [Flex.Migrations].
func (m *Machine) ResumeOn(t *Task, set ProcSet, overhead Time) error {
	if t.State != Suspended {
		return m.fail(fmt.Errorf("resume job %d: job is %v", t.ID, t.State))
	}
	if n := set.Len(); n != t.Procs || !m.free.Contains(set) {
		return m.fail(fmt.Errorf("resume job %d on %v: want %d free processors", t.ID, set, t.Procs))
	}
	if !(set.Contains(t.Set) && t.Set.Contains(set)) {
		t.Flex.Migrations++
		t.Set = set.Clone()
	}
	return m.Resume(t, overhead)
}
