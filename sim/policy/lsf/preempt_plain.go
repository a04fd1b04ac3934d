package lsf

import (
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// The plain simple-preemption decisions, kept to test the queue index
// against ([Policy] with reference set uses them): they collect the queued
// jobs from every job in the system and sort them at every decision, which
// costs O(n log n) per decision for n jobs in the system.

// countJobsPlain is countJobs from every job in the system: it fills
// p.counts, the jobs present (holding processors or suspended on them) on
// each processor, and p.crowded, the processors holding MaxJobsPerProc of
// them or more.
func (p *Policy) countJobsPlain() {
	p.counts.Reset(0)
	for _, t := range p.jobs {
		switch t.State {
		case sim.Running, sim.Resuming, sim.Suspending, sim.Suspended:
			p.countOn(t.Set, nil)
		}
	}
	p.findCrowded()
}

// preemptPlain is LSF-PREEMPT as the package doc states it, from the jobs
// in the system: every decision collects and sorts the queued jobs.
func (p *Policy) preemptPlain() {
	p.countJobsPlain()
	queued := p.pend[:0]
	for _, t := range p.jobs {
		if t.State == sim.Waiting || t.State == sim.Suspended {
			queued = append(queued, t)
		}
	}
	defer func() { clear(queued); p.pend = queued[:0] }()
	// Fill free processors as LSF-RTC: suspended jobs only on their own
	// processors, first (FillResumeFirst) or in LSF-RTC's order with the
	// pending jobs (arrival, so suspended jobs before younger pending
	// ones; with demand knowledge by remaining demand, SPT). Marked jobs
	// have been (re)started by this decision.
	if p.cfg.KnowDemand {
		p.byKey(queued)
	}
	p.mark()
	resumeFirst := p.cfg.Fill == FillResumeFirst
	if resumeFirst {
		// Suspended jobs whose processors are all free resume before any
		// pending job is placed.
		for _, t := range queued {
			if t.State == sim.Suspended && p.m.CanResume(t) {
				_ = p.m.Resume(t, 0)
				p.setMark(t)
			}
		}
	}
	var room sim.ProcSet // roomy free processors, valid while roomOK
	roomOK := false
	for _, t := range queued {
		if resumeFirst && t.State != sim.Waiting {
			continue // resumed above, or its processors are not all free
		}
		started := false
		switch t.State {
		case sim.Suspended:
			if p.m.CanResume(t) {
				_ = p.m.Resume(t, 0) // a refused call ends the run (sim.ErrPolicy)
				p.setMark(t)
				roomOK = false
				started = true
			}
		case sim.Waiting:
			if !roomOK {
				room, roomOK = p.roomy(p.m.FreeSet()), true
			}
			if set, ok := room.TakeLowest(p.desired[t.Index]); ok {
				roomOK = false
				if p.dispatchOn(t, set) == nil {
					p.addCounts(set)
					p.setMark(t)
					started = true
				}
			}
		}
		if p.cfg.Scan.stops(started) {
			break
		}
	}
	// Then let waiting jobs preempt running ones, highest key first. The
	// queued jobs' keys do not change during the decision.
	running := p.run[:0]
	for _, t := range p.jobs {
		if t.State == sim.Running && !p.protected(t) {
			running = append(running, t)
		}
	}
	defer func() { clear(running); p.run = running[:0] }()
	if len(running) == 0 || !slices.ContainsFunc(queued, func(c *sim.Task) bool { return !p.marked(c) }) {
		return // nothing to preempt, or no job to preempt with
	}
	p.byKey(running)
	slices.Reverse(running)
	// Candidates preempt by key: least acquired processor time, or
	// shortest remaining demand.
	if !p.cfg.KnowDemand {
		p.byKey(queued)
	}
	keys := p.keys[:0]
	for _, c := range queued {
		keys = append(keys, p.Key(c))
	}
	p.keys = keys
	ratio := p.cfg.AcquiredRatio
	if p.cfg.KnowDemand {
		ratio = p.cfg.DemandRatio
	}
	total := p.cfg.KnowDemand && p.cfg.PreemptDemand == DemandTotal
	for _, r := range running {
		limit := ratio * p.Key(r)
		if total {
			limit = ratio * r.Elastic.Work
		}
		roomChecked, fits := false, false
		for i, c := range queued {
			k := keys[i]
			if total {
				k = c.Elastic.Work
			}
			if k >= limit || p.marked(c) {
				continue
			}
			if c.State == sim.Suspended && !sameSet(c.Set, r.Set) {
				continue
			}
			if c.State == sim.Waiting {
				if p.desired[c.Index] != r.Procs {
					continue
				}
				if !roomChecked {
					roomChecked, fits = true, p.roomy(r.Set).Len() == r.Procs
				}
				if !fits {
					continue
				}
			}
			set := r.Set.Clone()
			if p.m.Suspend(r, 0) != nil {
				return
			}
			if c.State == sim.Suspended {
				_ = p.m.Resume(c, 0) // a refused call ends the run (sim.ErrPolicy)
			} else {
				_ = p.dispatchOn(c, set)
				p.addCounts(set)
			}
			p.setMark(c)
			break
		}
	}
}

// preemptADPlain is LSF-PREEMPT-AD as the package doc states it, from the
// jobs in the system: every row's plan walks every job in key order.
func (p *Policy) preemptADPlain() {
	p.countJobsPlain()
	size := p.m.Size()
	var running, pending, stopped []*sim.Task
	var protected []*sim.Task
	for _, t := range p.jobs {
		switch t.State {
		case sim.Running, sim.Resuming:
			running = append(running, t)
			if p.protected(t) {
				protected = append(protected, t)
			}
		case sim.Waiting:
			pending = append(pending, t)
		case sim.Suspended:
			stopped = append(stopped, t)
		}
	}
	if len(pending) == 0 && len(stopped) == 0 {
		return
	}
	p.byKey(stopped)
	// Rows: 0 = running jobs; stopped jobs first fit into rows 1.. by set.
	rows, rowSets := matrixRows(running, stopped, len(pending) > 0, size)
	// Every job of the matrix and the pending ones, by key: a row's plan
	// fills from the jobs of the other rows and the pending ones in this
	// order (its own jobs are committed first, so they are skipped).
	all := make([]*sim.Task, 0, len(running)+len(stopped)+len(pending))
	all = append(append(append(all, running...), stopped...), pending...)
	p.byKey(all)
	roomAll := p.roomy(sim.FullProcSet(size))
	// Plan every feasible row; run the one with the smallest key.
	best := bestRow(rows, rowSets, protected, func(row []*sim.Task) *rowPlan {
		return p.planRowPlain(protected, row, all, roomAll)
	})
	if best == nil {
		return
	}
	// Run the row: suspend running jobs not committed, resume committed
	// stopped jobs, start the pending ones.
	p.mark()
	for _, t := range best.committed {
		p.setMark(t)
	}
	for _, t := range running {
		if !p.marked(t) && t.State == sim.Running {
			_ = p.m.Suspend(t, 0) // a refused call ends the run (sim.ErrPolicy)
		}
	}
	for _, t := range stopped {
		if p.marked(t) && p.m.CanResume(t) {
			_ = p.m.Resume(t, 0) // a refused call ends the run (sim.ErrPolicy)
		}
	}
	for _, a := range best.started {
		if p.m.FreeSet().Contains(a.set) {
			_ = p.dispatchOn(a.t, a.set)
		}
	}
}

// planRowPlain commits the protected jobs and the row's jobs, then fills
// by key from cands (all jobs, in key order): pending jobs at their
// minimum on uncommitted processors of roomAll (those with room for one
// more job), jobs of other rows when their whole set is uncommitted;
// leftover units go to the started pending jobs.
func (p *Policy) planRowPlain(protected, row, cands []*sim.Task, roomAll sim.ProcSet) *rowPlan {
	pl := p.commitRow(protected, row)
	var room sim.ProcSet
	for _, t := range cands {
		if p.marked(t) {
			continue
		}
		if t.State == sim.Waiting {
			room.SetDiff(roomAll, pl.set)
			set, ok := room.TakeLowest(t.Elastic.Min)
			if !ok {
				continue
			}
			pl.started = append(pl.started, alloc{t: t, k: t.Elastic.Min, grow: true, set: set})
			p.take(pl, t, set)
			continue
		}
		if !pl.set.Overlaps(t.Set) {
			p.take(pl, t, t.Set)
		}
	}
	p.growStarted(pl, roomAll)
	return pl
}
