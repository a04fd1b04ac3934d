// Package backfill holds the non-preemptive space-sharing policies: FCFS,
// EASY (aggressive) backfilling and conservative backfilling.
//
// By default all three keep the waiting jobs in arrival order (see Queue
// orders below for the others) and plan with the jobs' estimates:
// conservative through a [sim.Profile], EASY through the running jobs'
// planned ends, all it reads of a profile (see runningEnds). They require
// estimate >= runtime for every job (the workload package guarantees it:
// the trace model takes max(requested time, runtime)); with that, no
// reservation is ever broken.
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
//
// # Queue orders
//
// The parameter order (a [Rank]) sets the order of the waiting queue for
// all three policies; the default, fcfs, is arrival order and gives the
// schedules described above. Each order is a key computed by one small
// function in rank.go; the queue is in increasing key, ties by arrival.
// With e the job's estimate, n its processors, s its submit time and
// w = now - s its wait so far:
//
//	fcfs     s                                  arrival
//	sjf      e                                  shortest job first
//	ljf      -e                                 longest job first
//	saf      e*n                                smallest area first
//	laf      -e*n                               largest area first
//	wfp3     -(w/e)^3 * n                       Tang et al. 2009
//	unicep   -w / (log2(n) * e)                 Tang et al. 2009 (UNICEF)
//	f1       log10(e)*n + 870*log10(s)          Carastan-Santos & de Camargo 2017
//	xfactor  -(w + e) / e                       highest expansion factor first
//
// Two choices where a formula is undefined: unicep takes log2(n) as 1
// for n = 1 (a serial job ranks as a two-processor one instead of
// dividing by zero), and f1 takes s as 1 when it is below 1 (the first
// second of a trace). wfp3, unicep and xfactor change as jobs wait: the
// order is taken again at every scheduling instant, exactly as a sort of
// the whole queue would give it. FCFS sorts its queue then (O(q log q) for
// q waiting jobs); EASY does not: it keeps the waiting jobs in arrival
// order in chunks, each with a bound on its jobs' keys (the key grows
// with the wait, no job of a chunk has waited longer than its first, and
// each scan of a whole chunk records its jobs' largest slope times wait),
// and looks only at the chunks that can hold the job it needs, the
// smallest key of all or of those that may backfill (see dynQueue). The
// other orders keep the queue sorted as jobs arrive.
//
//   - FCFS starts jobs in the order while the first one fits.
//   - EASY starts jobs in the order while they fit and reserves for the
//     first that does not; the parameter backfill_order says in which
//     order the jobs behind it are tried: queue (the order) or sjf
//     (shortest estimate first, ties by arrival: EASY-SJBF, as in
//     Srinivasan et al. 2002 and pyss). Under an order other than fcfs
//     the head's reservation is not promised (recorded with
//     [sim.Machine.Promise]): a job arriving later, or one whose key
//     grows, may take the head's place and push its start back, so it
//     is not a guarantee. The reservation is recomputed at every
//     scheduling instant.
//   - Conservative gives each job its reservation at arrival whatever
//     the order (reservations are guarantees and are never delayed); the
//     order is the order of compression: when a job ends early, the
//     waiting jobs are re-placed one at a time in the order at that
//     instant, each at the earliest time it fits (with every reservation
//     re-placed, [sim.Profile.Compress]; the compress parameter must
//     then keep its default). With accurate estimates no job ends early,
//     so conservative's schedule does not depend on the order.
//
// # Runtime predictions
//
// With the workload's estimate model predicted, FCFS and EASY plan with
// runtime predictions instead of the users' estimates, as EASY++ does
// (Tsafrir, Etsion & Feitelson 2007; EASY with backfill_order sjf is
// their EASY++ proper, which also tries the backfill candidates shortest
// predicted first). A job's prediction is made when it arrives, from
// what is known at that instant: the mean actual runtime of the two
// jobs of the same user (SWF field 12) that completed most recently
// (rounded up; the one job's runtime when the user has completed only
// one), at most the user's estimate; the user's estimate itself when the
// user has completed none or is unknown. When a running job reaches its
// predicted end, its prediction grows by the next of 1 min, 5 min, 15
// min, 30 min, 1 h, 2 h, 5 h, 10 h, 20 h, 50 h and 100 h (the last one
// repeated), never beyond the user's estimate, and EASY's plan with it
// (Tsafrir et al. compare ways to correct an underprediction; these
// steps are this package's choice among the incremental ones). The user's
// estimate stays the job's kill limit (the workload makes it at least the
// runtime, so no job is killed). Orders use the predictions too. Under
// predictions EASY promises no reservation: a running job that outlives
// its prediction pushes the head's shadow time back. A correction is an
// instant at which EASY schedules again, as at an arrival or a
// completion: the head's shadow time may have moved and let a job
// backfill, and under a dynamic order the order itself changes with
// time. EASY does only the work such an instant needs, and the tests
// compare every start with a pass over the whole queue at every instant:
// nothing while fewer processors are free than any waiting job needs
// (the job's next corrections then make no instants of their own until
// a job arrives or completes, and are all made then); nothing when the
// corrections since the last pass all end by the head's shadow time and,
// under a dynamic order, the head still comes first; and after arrivals
// alone, only the jobs that arrived are tried (under a static order a job
// joins the queue only once a pass has tried it and it did not start).
// Under a static order the corrections that could only find nothing to
// do make no instants at all: each job's corrections follow from its
// start, so after each pass one timer is set at the first correction
// that moves a planned end past the head's shadow time, none while too
// few processors are free, and the corrections before it are made at the
// next pass (correctionAlarm). A running job's next correction comes at
// its planned end, so the profile, whose ends list their jobs, is also
// the list of corrections to come: those due are the jobs whose planned
// ends have passed.
// Conservative backfilling, whose reservations are guarantees, refuses
// predictions. The double estimate model (twice the user's estimate)
// needs nothing of the policies.
package backfill

import (
	"fmt"
	"slices"

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

// drop removes the jobs of started that q holds, keeping order; q is in
// cmp's order, in which each job compares equal only to itself, so each is
// found by a binary search. pos is scratch, returned for reuse.
func (q queue) drop(started []*sim.Task, cmp func(a, b *sim.Task) int, pos []int) (queue, []int) {
	pos = pos[:0]
	for _, t := range started {
		if i, ok := slices.BinarySearchFunc(q, t, cmp); ok {
			pos = append(pos, i)
		}
	}
	slices.Sort(pos)
	return q.removeAt(pos), pos
}

// removeAt removes the jobs at the places pos (increasing), keeping
// order.
func (q queue) removeAt(pos []int) queue {
	if len(pos) == 0 {
		return q
	}
	k := pos[0]
	for j, i := range pos {
		end := len(q)
		if j+1 < len(pos) {
			end = pos[j+1]
		}
		k += copy(q[k:], q[i+1:end])
	}
	clear(q[k:])
	return q[:k]
}

// sizeCount counts the waiting jobs by size and keeps the least size, so
// that a pass can tell in O(1) whether any waiting job can fit. It holds
// one entry per distinct size waiting, in increasing order, so its memory
// and the cost of add and remove follow the queue, not the machine: a
// trace has tens to a few hundred distinct sizes, a machine may have 2^20
// processors.
type sizeCount struct {
	size []int   // the distinct sizes waiting, increasing
	n    []int32 // n[i] jobs of size[i]
	min  int     // size[0], or max+1 when no job waits
	none int     // max+1: min when no job waits
}

// reset makes c empty for sizes up to max.
func (c *sizeCount) reset(max int) {
	c.size, c.n = c.size[:0], c.n[:0]
	c.none = max + 1
	c.min = c.none
}

// add counts a job of size procs.
func (c *sizeCount) add(procs int) {
	i, found := slices.BinarySearch(c.size, procs)
	if found {
		c.n[i]++
		return
	}
	c.size = slices.Insert(c.size, i, procs)
	c.n = slices.Insert(c.n, i, 1)
	c.min = c.size[0]
}

// remove uncounts a job of size procs, which must have been counted.
func (c *sizeCount) remove(procs int) {
	i, found := slices.BinarySearch(c.size, procs)
	if !found {
		return // never counted: nothing to uncount
	}
	if c.n[i]--; c.n[i] > 0 {
		return
	}
	c.size = slices.Delete(c.size, i, i+1)
	c.n = slices.Delete(c.n, i, i+1)
	c.min = c.none
	if len(c.size) > 0 {
		c.min = c.size[0]
	}
}
