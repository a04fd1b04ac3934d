// Package backfill holds the non-preemptive space-sharing policies: FCFS,
// EASY (aggressive) backfilling and conservative backfilling.
//
// All three keep the waiting jobs in arrival order and plan with the jobs'
// estimates through a [sim.Profile]. They require estimate >= runtime for
// every job (the workload package guarantees it: the trace model takes
// max(requested time, runtime)); with that, no reservation is ever broken.
//
//   - FCFS starts jobs in arrival order while the head job fits; it never
//     lets a later job pass the head.
//   - EASY starts jobs in order while they fit; the first job that does not
//     fit gets a reservation at the earliest time enough processors will be
//     free (the shadow time). Every later waiting job, in arrival order,
//     starts now if it fits now and does not use processors the head job
//     needs at its shadow time: it ends by the shadow time, or it uses no
//     more than the extra processors. The reservation is recomputed at every
//     scheduling instant and recorded with [sim.Machine.Promise].
//   - Conservative gives every job, at arrival, a reservation at the
//     earliest time (its "anchor point") it fits in the profile of running
//     jobs and earlier reservations. When a job ends before its estimate,
//     the schedule is compressed (Kettimuthu et al. 2005, section 2.1.1):
//     reservations are released one by one in order of their start times
//     (ties by arrival) and each is re-placed at the earliest time it fits,
//     which is never later than before. Compression happens before the
//     jobs arriving at the same instant are placed. A job starts when its
//     reservation time comes.
package backfill

import (
	"fmt"

	"github.com/schedfarm/schedfarm/sim"
)

// checkEstimates rejects jobs whose estimate is below their runtime.
func checkEstimates(m *sim.Machine) error {
	for i := 0; i < m.NumTasks(); i++ {
		if t := m.Task(i); t.Estimate < t.Runtime {
			return fmt.Errorf("job %d: estimate %d below runtime %d: backfilling needs estimate >= runtime", t.ID, t.Estimate, t.Runtime)
		}
	}
	return nil
}

// queue is a list of waiting jobs in arrival order.
type queue []*sim.Task

// removeStarted drops the jobs that are no longer Waiting, keeping order.
func (q queue) removeStarted() queue {
	out := q[:0]
	for _, t := range q {
		if t.State == sim.Waiting {
			out = append(out, t)
		}
	}
	clear(q[len(out):])
	return out
}
