package sim

import "fmt"

// NoDeadline is the deadline of a job admitted without one.
const NoDeadline Time = -1

// Decision is one admission decision as the engine recorded it (see
// [Result.Decisions]): an independent log for invariant checks.
type Decision struct {
	// Task is the job's index in [Result.Tasks].
	Task int
	// At is when the decision was made.
	At Time
	// Admitted is false for a rejection.
	Admitted bool
	// Deadline is the guaranteed completion time of an admitted job, or
	// [NoDeadline].
	Deadline Time
}

// decidable checks that t may be admitted or rejected now: it arrived at
// this instant, is Waiting and was not decided before.
func (m *Machine) decidable(op string, t *Task) error {
	switch {
	case t.Decided >= 0:
		return m.fail(fmt.Errorf("%s job %d: already decided at %d", op, t.ID, t.Decided))
	case t.State != Waiting || t.FirstStart >= 0:
		return m.fail(fmt.Errorf("%s job %d: job is %v", op, t.ID, t.State))
	case t.Submit != m.now:
		return m.fail(fmt.Errorf("%s job %d: it arrived at %d, decisions are taken at arrival", op, t.ID, t.Submit))
	}
	return nil
}

// Admit accepts a job that arrived at this instant, with a guaranteed
// completion time deadline (>= now), or [NoDeadline]. The deadline is set
// once: a job is admitted or rejected at most once, and only at its
// arrival instant. Policies without admission control need not call it:
// a job never decided counts as admitted. The engine records the promise;
// keeping it is the policy's business (invariant checks verify it).
func (m *Machine) Admit(t *Task, deadline Time) error {
	if err := m.decidable("admit", t); err != nil {
		return err
	}
	if deadline != NoDeadline && deadline < m.now {
		return m.fail(fmt.Errorf("admit job %d: deadline %d before now", t.ID, deadline))
	}
	t.Decided = m.now
	t.Deadline = deadline
	m.logDecision(t, true)
	return nil
}

// Reject refuses a job that arrived at this instant and has not been
// decided: it goes to the final state [Rejected], never holds processors
// and is left out of waits, slowdowns and utilization.
func (m *Machine) Reject(t *Task) error {
	if err := m.decidable("reject", t); err != nil {
		return err
	}
	t.Decided = m.now
	t.State = Rejected
	t.Since = m.now
	m.done++ // out of the queue for good
	m.logDecision(t, false)
	return nil
}

func (m *Machine) logDecision(t *Task, admitted bool) {
	if m.opts.Segments {
		m.decs = append(m.decs, Decision{Task: t.Index, At: m.now, Admitted: admitted, Deadline: t.Deadline})
	}
}
