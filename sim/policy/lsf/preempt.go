package lsf

import (
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// countJobs fills p.counts: the jobs present (holding processors or
// suspended on them) on each processor.
func (p *Policy) countJobs() {
	clear(p.counts)
	for _, t := range p.jobs {
		switch t.State {
		case sim.Running, sim.Resuming, sim.Suspending, sim.Suspended:
			t.Set.Each(func(i int) { p.counts[i]++ })
		}
	}
}

// roomy returns the processors of from holding fewer than MaxJobsPerProc jobs.
func (p *Policy) roomy(from sim.ProcSet) sim.ProcSet {
	out := sim.NewProcSet(p.m.Size())
	from.Each(func(i int) {
		if p.counts[i] < p.cfg.MaxJobsPerProc {
			out.Add(i)
		}
	})
	return out
}

func (p *Policy) addCounts(set sim.ProcSet) { set.Each(func(i int) { p.counts[i]++ }) }

// preempt is LSF-PREEMPT.
func (p *Policy) preempt() {
	p.countJobs()
	var queued []*sim.Task
	for _, t := range p.jobs {
		if t.State == sim.Waiting || t.State == sim.Suspended {
			queued = append(queued, t)
		}
	}
	p.byKey(queued)
	// Fill free processors as LSF-RTC; suspended jobs only on their own
	// processors.
	used := make(map[*sim.Task]bool)
	for _, t := range queued {
		switch t.State {
		case sim.Suspended:
			if p.m.CanResume(t) {
				_ = p.m.Resume(t, 0)
				used[t] = true
			}
		case sim.Waiting:
			room := p.roomy(p.m.FreeSet())
			if set, ok := room.TakeLowest(p.desired[t.Index]); ok {
				if p.dispatchOn(t, set) == nil {
					p.addCounts(set)
					used[t] = true
				}
			}
		}
	}
	// Then let waiting jobs preempt running ones, highest key first.
	var running []*sim.Task
	for _, t := range p.jobs {
		if t.State == sim.Running {
			running = append(running, t)
		}
	}
	p.byKey(running)
	slices.Reverse(running)
	ratio := p.cfg.AcquiredRatio
	if p.cfg.KnowDemand {
		ratio = p.cfg.DemandRatio
	}
	for _, r := range running {
		if p.protected(r) {
			continue
		}
		limit := ratio * p.Key(r)
		for _, c := range queued {
			if used[c] || p.Key(c) >= limit {
				continue
			}
			if c.State == sim.Suspended && !sameSet(c.Set, r.Set) {
				continue
			}
			if c.State == sim.Waiting {
				if p.desired[c.Index] != r.Procs || p.roomy(r.Set).Len() != r.Procs {
					continue
				}
			}
			set := r.Set.Clone()
			if p.m.Suspend(r, 0) != nil {
				return
			}
			if c.State == sim.Suspended {
				_ = p.m.Resume(c, 0)
			} else {
				_ = p.dispatchOn(c, set)
				p.addCounts(set)
			}
			used[c] = true
			break
		}
	}
}

func sameSet(a, b sim.ProcSet) bool { return a.Contains(b) && b.Contains(a) }

// preemptAD is LSF-PREEMPT-AD (the matrix discipline).
func (p *Policy) preemptAD() {
	p.countJobs()
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
	p.byKey(pending)
	// Rows: 0 = running jobs; stopped jobs first fit into rows 1.. by set.
	rows := [][]*sim.Task{running}
	var rowSets []sim.ProcSet
	for _, t := range stopped {
		placed := false
		for r := 1; r < len(rows); r++ {
			if !rowSets[r-1].Overlaps(t.Set) {
				rows[r] = append(rows[r], t)
				rowSets[r-1].Union(t.Set)
				placed = true
				break
			}
		}
		if !placed {
			rows = append(rows, []*sim.Task{t})
			rowSets = append(rowSets, t.Set.Clone())
		}
	}
	if len(pending) > 0 {
		rows = append(rows, nil) // a new row for pending jobs
		rowSets = append(rowSets, sim.NewProcSet(size))
	}
	var others [][]*sim.Task
	for r := range rows {
		var o []*sim.Task
		for r2, row := range rows {
			if r2 != r {
				o = append(o, row...)
			}
		}
		o = append(o, pending...)
		p.byKey(o)
		others = append(others, o)
	}
	// Plan every feasible row; run the one with the smallest key.
	var best *rowPlan
	for r, row := range rows {
		if r > 0 {
			blocked := false
			for _, pt := range protected {
				if rowSets[r-1].Overlaps(pt.Set) {
					blocked = true
					break
				}
			}
			if blocked {
				continue
			}
		}
		pl := p.planRow(protected, row, others[r])
		if pl.n > 0 && (best == nil || pl.key < best.key) {
			best = pl
		}
	}
	if best == nil {
		return
	}
	committed, started, sets := best.committed, best.started, best.sets
	// Run the row: suspend running jobs not committed, resume committed
	// stopped jobs, start the pending ones.
	for _, t := range running {
		if !committed[t] && t.State == sim.Running {
			_ = p.m.Suspend(t, 0)
		}
	}
	for _, t := range stopped {
		if committed[t] && p.m.CanResume(t) {
			_ = p.m.Resume(t, 0)
		}
	}
	for _, a := range started {
		set := sets[a.t]
		if p.m.FreeSet().Contains(set) {
			_ = p.dispatchOn(a.t, set)
		}
	}
}

// rowPlan is what running one row of the matrix would do.
type rowPlan struct {
	committed map[*sim.Task]bool
	started   []alloc // pending jobs to start
	sets      map[*sim.Task]sim.ProcSet
	key       float64 // smallest key of the unprotected jobs it runs
	n         int     // unprotected jobs it runs
}

// planRow commits the protected jobs and the row's jobs, then fills by
// key: pending jobs at their minimum on uncommitted processors with room,
// jobs of other rows when their whole set is uncommitted; leftover units
// go to the started pending jobs.
func (p *Policy) planRow(protected, row, others []*sim.Task) *rowPlan {
	pl := &rowPlan{committed: map[*sim.Task]bool{}, sets: map[*sim.Task]sim.ProcSet{}}
	committedSet := sim.NewProcSet(p.m.Size())
	isProt := map[*sim.Task]bool{}
	for _, t := range protected {
		isProt[t] = true
	}
	take := func(t *sim.Task, set sim.ProcSet) {
		pl.committed[t] = true
		committedSet.Union(set)
		if !isProt[t] {
			k := p.Key(t)
			if pl.n == 0 || k < pl.key {
				pl.key = k
			}
			pl.n++
		}
	}
	for _, t := range protected {
		take(t, t.Set)
	}
	for _, t := range row {
		if !pl.committed[t] {
			take(t, t.Set)
		}
	}
	for _, t := range others {
		if pl.committed[t] {
			continue
		}
		if t.State == sim.Waiting {
			room := p.uncommittedRoom(committedSet)
			set, ok := room.TakeLowest(t.Elastic.Min)
			if !ok {
				continue
			}
			pl.sets[t] = set
			pl.started = append(pl.started, alloc{t: t, k: t.Elastic.Min, grow: true})
			take(t, set)
			continue
		}
		if !committedSet.Overlaps(t.Set) {
			take(t, t.Set)
		}
	}
	room := p.uncommittedRoom(committedSet)
	p.spread(pl.started, room.Len())
	for _, a := range pl.started {
		if extra := a.k - a.t.Elastic.Min; extra > 0 {
			if more, ok := room.TakeLowest(extra); ok {
				s := pl.sets[a.t]
				s.Union(more)
				pl.sets[a.t] = s
			}
		}
	}
	return pl
}

// uncommittedRoom returns the processors outside committed holding fewer
// than MaxJobsPerProc jobs.
func (p *Policy) uncommittedRoom(committed sim.ProcSet) sim.ProcSet {
	all := sim.FullProcSet(p.m.Size())
	all.Subtract(committed)
	return p.roomy(all)
}
