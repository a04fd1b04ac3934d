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
//     scheduling instant and recorded with [sim.Machine.Promise]. The
//     waiting jobs are kept in an index by arrival with the least width
//     and estimate of each range (sim/policy/internal/waitindex), so the
//     backfill pass skips ranges of jobs too wide to start and goes to
//     the next that may, instead of testing every waiting job.
//   - Conservative gives every job, at arrival, a reservation at the
//     earliest time (its "anchor point") it fits in the profile of running
//     jobs and earlier reservations. When a job ends before its estimate,
//     the schedule is compressed: the waiting jobs whose reservation lies
//     in the future are taken one at a time; each one's reservation is
//     released and re-made at the earliest time it fits in the profile of
//     the running jobs and every other reservation as it is at that moment
//     (those already re-placed at their new times, the others at their old
//     ones). That time is never later than before, since the job's own old
//     place is free again, so no reservation is ever delayed. Every early
//     end of an instant is given back first and the schedule is compressed
//     once, before the jobs arriving at that instant are placed. A job
//     starts when its reservation time comes. The compression skips, with
//     an exact O(1) test, the jobs that cannot move ([sim.Compaction]);
//     the schedule is the one of re-placing every job. The order of the
//     compression is the parameter compress:
//   - compress: start_order (the default) takes the jobs in order of their
//     reservations' start times, ties by arrival: "in the order of
//     increasing reservation start time guarantees" (Kettimuthu et al.
//     2005, section 2.1.1). The papers reproduced here were produced with
//     it.
//   - compress: queue_order takes them in queue (arrival, that is submit)
//     order, as Mu'alem & Feitelson 2001 and simulators that follow them
//     do. A job that arrived early but holds a late reservation is
//     re-placed before later jobs with earlier reservations have moved, so
//     it may stay behind a reservation that moves away right after (see
//     the compress-order scenario in the policy package's testdata). With
//     accurate estimates no job ends early and the two orders give the
//     same schedule.
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
