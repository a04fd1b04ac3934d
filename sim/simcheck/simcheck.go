// Package simcheck verifies a simulation's outcome as an independent
// observer: from the jobs given to the engine and the processor segments it
// recorded ([sim.Options.Segments]), not from the engine's own bookkeeping.
// Tests of every policy run it.
package simcheck

import (
	"errors"
	"fmt"
	"sort"

	"github.com/schedfarm/schedfarm/sim"
)

// Check verifies, for a run of jobs on res.Procs processors made with
// segment recording on:
//
//   - every job completed exactly once, with End after its start and
//     FirstStart >= Submit;
//   - each job's working segments add up to exactly its runtime (plus the
//     work lost to kills: the segments after the last kill add up to the
//     runtime);
//   - no processor is held by two jobs at once, overhead included, and no
//     segment uses a processor outside the machine or the wrong count;
//   - a job that was suspended and resumed (not killed) ran on exactly the
//     same processors in every segment;
//   - elastic jobs ([sim.Job.Elastic]): every segment's allocation is a
//     multiple of the job's unit in [Min, Max] (not necessarily Procs);
//     only a job never checkpointed must keep one processor set; the
//     sequential work of its working segments, Σ length·S(allocation),
//     lies in [D, D+S(k_last)) (up to 1e-6 relative): no work lost or
//     done twice;
//   - no job started later than the last reservation the policy promised
//     it, and no promise was ever moved later;
//   - admission ([sim.Result.Decisions]): a rejected job never held
//     processors; every decision was taken at the job's arrival, at most
//     one per job, and matches the job's final state, so no deadline ever
//     changed; when the policy decided any job, it decided every job; and
//     every admitted job with a deadline ended by it.
func Check(jobs []sim.Job, res *sim.Result) error {
	var errs []error
	add := func(format string, a ...any) {
		if len(errs) < 20 {
			errs = append(errs, fmt.Errorf(format, a...))
		}
	}
	if len(res.Tasks) != len(jobs) {
		return fmt.Errorf("%d jobs in, %d out", len(jobs), len(res.Tasks))
	}
	checkJobs(jobs, res, add)
	checkDecisions(res, add)
	checkSegments(res, add)
	checkCapacity(res, add)
	return errors.Join(errs...)
}

// checkJobs verifies each job's final state, start, end, deadline and
// reservation, and that every job given came out exactly once.
func checkJobs(jobs []sim.Job, res *sim.Result, add func(string, ...any)) {
	seen := make(map[int64]int, len(jobs))
	for _, j := range jobs {
		seen[j.ID]++
	}
	for i := range res.Tasks {
		t := &res.Tasks[i]
		seen[t.ID]--
		if t.State == sim.Rejected {
			if t.FirstStart >= 0 || t.End >= 0 || t.Work > 0 {
				add("rejected job %d ran (start %d, end %d)", t.ID, t.FirstStart, t.End)
			}
			continue
		}
		if t.State != sim.Done || t.End < 0 {
			add("job %d did not complete (%v)", t.ID, t.State)
		}
		if t.Deadline >= 0 && t.End > t.Deadline {
			add("job %d ended at %d, after its deadline %d", t.ID, t.End, t.Deadline)
		}
		if t.FirstStart < t.Submit {
			add("job %d started at %d before its arrival at %d", t.ID, t.FirstStart, t.Submit)
		}
		if t.Promise >= 0 && t.FirstStart > t.Promise {
			add("job %d started at %d, later than its reservation at %d", t.ID, t.FirstStart, t.Promise)
		}
		if t.PromiseRaised {
			add("job %d had its reservation moved later", t.ID)
		}
	}
	for id, n := range seen {
		if n != 0 {
			add("job %d appears %+d times too often in the output", id, -n)
		}
	}
}

// checkSegments verifies each segment's job, length and allocation, the
// processor identity of jobs that were only suspended, and per job the
// work its working segments add up to.
func checkSegments(res *sim.Result, add func(string, ...any)) {
	type jobSegs struct {
		work      sim.Time
		first     sim.ProcSet
		set       bool
		lastStart sim.Time
		// elastic jobs: sequential work served, allocation of the last
		// working segment
		served        float64
		lastWorkStart sim.Time
		lastK         int
	}
	per := make([]jobSegs, len(res.Tasks))
	segs := res.Segments
	for _, s := range segs {
		t := &res.Tasks[s.Task]
		if t.State == sim.Rejected {
			add("rejected job %d held processors %v during [%d,%d)", t.ID, s.Set, s.Start, s.End)
			continue
		}
		if s.End <= s.Start {
			add("job %d: empty segment [%d,%d)", t.ID, s.Start, s.End)
		}
		if e := t.Elastic; e != nil {
			if k := s.Set.Len(); k < e.Min || k > e.Max || k%e.Unit != 0 {
				add("job %d: segment [%d,%d) on %d processors, needs a multiple of %d in [%d,%d]", t.ID, s.Start, s.End, k, e.Unit, e.Min, e.Max)
			}
		} else if s.Set.Len() != t.Procs {
			add("job %d: segment [%d,%d) on %d processors, needs %d", t.ID, s.Start, s.End, s.Set.Len(), t.Procs)
		}
		if s.Start < t.FirstStart || s.End > t.End {
			add("job %d: segment [%d,%d) outside its life [%d,%d]", t.ID, s.Start, s.End, t.FirstStart, t.End)
		}
		p := &per[s.Task]
		if t.Kills == 0 && t.Flex.Checkpoints == 0 && t.Flex.Migrations == 0 {
			if !p.set {
				p.first, p.set = s.Set, true
			} else if !sameSet(p.first, s.Set) {
				add("job %d resumed on %v, had %v", t.ID, s.Set, p.first)
			}
		}
		if s.Working {
			p.work += s.End - s.Start
			if e := t.Elastic; e != nil {
				p.served += float64(s.End-s.Start) * e.Speedup(s.Set.Len())
				if s.Start >= p.lastWorkStart {
					p.lastWorkStart, p.lastK = s.Start, s.Set.Len()
				}
			}
		}
		p.lastStart = max(p.lastStart, s.Start)
	}
	for i := range res.Tasks {
		t := &res.Tasks[i]
		if t.State == sim.Rejected {
			continue
		}
		w := per[i].work
		if t.Kills == 0 && w != t.Runtime {
			add("job %d did %d s of work, runtime is %d", t.ID, w, t.Runtime)
		}
		if t.Kills > 0 && w < t.Runtime {
			add("job %d did %d s of work in all, less than its runtime %d", t.ID, w, t.Runtime)
		}
		if e := t.Elastic; e != nil && t.State == sim.Done && t.Kills == 0 {
			d, got := e.Work, per[i].served
			tol := 1e-6 * max(1, d)
			if got < d-tol || (per[i].lastK > 0 && got >= d+e.Speedup(per[i].lastK)+tol) {
				add("job %d served %.6f s of sequential work, demand %.6f (last allocation %d)", t.ID, got, d, per[i].lastK)
			}
		}
	}
}

// checkCapacity sweeps over segment ends and starts: at each point the
// live segments' sets must be disjoint and inside the machine.
func checkCapacity(res *sim.Result, add func(string, ...any)) {
	type point struct {
		at    sim.Time
		start bool
		i     int
	}
	segs := res.Segments
	pts := make([]point, 0, 2*len(segs))
	for i, s := range segs {
		pts = append(pts, point{s.Start, true, i}, point{s.End, false, i})
	}
	sort.Slice(pts, func(a, b int) bool {
		if pts[a].at != pts[b].at {
			return pts[a].at < pts[b].at
		}
		return !pts[a].start && pts[b].start // ends before starts
	})
	owner := make([]int, res.Procs)
	for i := range owner {
		owner[i] = -1
	}
	for _, pt := range pts {
		s := segs[pt.i]
		s.Set.Each(func(p int) {
			if p >= res.Procs {
				add("job %d uses processor %d of a %d-processor machine", res.Tasks[s.Task].ID, p, res.Procs)
				return
			}
			switch {
			case !pt.start && owner[p] == pt.i:
				owner[p] = -1
			case pt.start && owner[p] == -1:
				owner[p] = pt.i
			case pt.start:
				add("processor %d held by job %d and job %d at %d", p, res.Tasks[segs[owner[p]].Task].ID, res.Tasks[s.Task].ID, pt.at)
			}
		})
	}
}

// checkDecisions verifies the admission log against the jobs' final states.
func checkDecisions(res *sim.Result, add func(string, ...any)) {
	if len(res.Decisions) == 0 {
		for i := range res.Tasks {
			if t := &res.Tasks[i]; t.Decided >= 0 || t.State == sim.Rejected {
				add("job %d was decided (%v at %d) but no decision was logged (segment recording off?)", t.ID, t.State, t.Decided)
				return
			}
		}
		return
	}
	got := make([]int, len(res.Tasks))
	for _, d := range res.Decisions {
		if d.Task < 0 || d.Task >= len(res.Tasks) {
			add("decision for job index %d of %d", d.Task, len(res.Tasks))
			continue
		}
		t := &res.Tasks[d.Task]
		got[d.Task]++
		if got[d.Task] > 1 {
			add("job %d decided %d times (last at %d): its deadline could change", t.ID, got[d.Task], d.At)
		}
		if d.At != t.Submit {
			add("job %d decided at %d, it arrived at %d", t.ID, d.At, t.Submit)
		}
		if d.Admitted == (t.State == sim.Rejected) {
			add("job %d decided admitted=%v, ended %v", t.ID, d.Admitted, t.State)
		}
		if d.Admitted && d.Deadline != t.Deadline {
			add("job %d admitted with deadline %d, ended with deadline %d", t.ID, d.Deadline, t.Deadline)
		}
	}
	for i, n := range got {
		if n == 0 {
			add("job %d was never decided (the policy decided others)", res.Tasks[i].ID)
			return
		}
	}
}

func sameSet(a, b sim.ProcSet) bool { return a.Contains(b) && b.Contains(a) }
