package lsf

import (
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// countJobs fills p.counts, the jobs present (holding processors or
// suspended on them) on each processor, and p.crowded, the processors
// holding MaxJobsPerProc of them or more: from the jobs holding processors
// and the suspended list, not from every job in the system. The counts
// are runs of processors (runmap.Map) counted from the runs of the jobs'
// sets, so a decision costs the runs of the jobs present, not the
// machine size.
func (p *Policy) countJobs() {
	p.counts.Reset(0)
	for _, t := range p.m.Active() {
		switch t.State {
		case sim.Running, sim.Resuming, sim.Suspending:
			p.countOn(t.Set, nil)
		}
	}
	for _, e := range p.q.susp {
		p.countOn(e.t.Set, nil)
	}
	p.findCrowded()
}

// countOn counts one more job on the processors of set, calling each, if
// not nil, with every run of set and its new count.
func (p *Policy) countOn(set sim.ProcSet, each func(lo, hi, v int32)) {
	set.EachRun(func(lo, hi int) { p.counts.Update(int32(lo), int32(hi), plusOne, each) })
}

func plusOne(v int32) int32 { return v + 1 }

// findCrowded sets p.crowded to the processors whose count is at least
// MaxJobsPerProc (>= 1, so never the processors of no job).
func (p *Policy) findCrowded() {
	p.crowded = sim.NewProcSet(p.m.Size())
	for _, r := range p.counts.Runs() {
		if int(r.V) >= p.cfg.MaxJobsPerProc {
			p.crowded.AddRange(int(r.Lo), int(r.Hi))
		}
	}
}

// roomy returns the processors of from holding fewer than MaxJobsPerProc jobs.
func (p *Policy) roomy(from sim.ProcSet) sim.ProcSet {
	out := from.Clone()
	out.Subtract(p.crowded)
	return out
}

// addCounts counts one more job on the processors of set.
func (p *Policy) addCounts(set sim.ProcSet) {
	p.countOn(set, func(lo, hi, v int32) {
		if int(v) >= p.cfg.MaxJobsPerProc {
			p.crowded.AddRange(int(lo), int(hi))
		}
	})
}

// preempt is LSF-PREEMPT, on the queue index (see preemptPlain for the
// same decision over every job in the system).
func (p *Policy) preempt() {
	q := &p.q
	defer q.flush()
	p.countJobs()
	// Fill free processors as LSF-RTC: suspended jobs only on their own
	// processors, first (FillResumeFirst) or in LSF-RTC's order with the
	// pending jobs (arrival, so suspended jobs before younger pending
	// ones; with demand knowledge by remaining demand, SPT). Marked jobs
	// have been (re)started by this decision.
	p.mark()
	if p.m.Free() > 0 {
		p.fill()
	}
	// Then let waiting jobs preempt running ones, highest key first. The
	// queued jobs' keys do not change during the decision.
	running := p.preemptible()
	defer func() { clear(running); p.run = running[:0] }()
	if len(running) == 0 || !q.queued() {
		return // nothing to preempt, or no job to preempt with
	}
	p.byKey(running)
	slices.Reverse(running)
	rule := p.preemptRule()
	for _, r := range running {
		best, found := p.preemptor(r, rule)
		if !found {
			continue
		}
		if !p.preemptWith(r, best) {
			return
		}
	}
}

// preemptible collects, in p.run's buffer, the running jobs that are not
// protected (criterion (3)). The caller hands the buffer back to p.run.
func (p *Policy) preemptible() []*sim.Task {
	running := p.run[:0]
	for _, t := range p.m.Active() {
		if t.State == sim.Running && !p.protected(t) {
			running = append(running, t)
		}
	}
	return running
}

// keyRule is LSF-PREEMPT's criterion (2) for one decision: a candidate
// preempts a running job only when its key is below ratio times the
// running job's key, or with total its whole demand below ratio times the
// running job's whole demand.
type keyRule struct {
	ratio float64 // AcquiredRatio, or DemandRatio with demand knowledge
	total bool    // demand knowledge with PreemptDemand total
}

// preemptRule returns the decision's criterion (2).
func (p *Policy) preemptRule() keyRule {
	// Candidates preempt by key: least acquired processor time, or
	// shortest remaining demand.
	ratio := p.cfg.AcquiredRatio
	if p.cfg.KnowDemand {
		ratio = p.cfg.DemandRatio
	}
	total := p.cfg.KnowDemand && p.cfg.PreemptDemand == DemandTotal
	return keyRule{ratio: ratio, total: total}
}

// limit returns what a candidate's key (its demand with total) must be
// below to preempt the running job r.
func (c keyRule) limit(p *Policy, r *sim.Task) float64 {
	limit := c.ratio * p.Key(r)
	if c.total {
		limit = c.ratio * r.Elastic.Work
	}
	return limit
}

// below reports whether a candidate's key (its demand with total) is
// below limit.
func (c keyRule) below(e keyed, limit float64) bool {
	if c.total {
		return e.t.Elastic.Work < limit
	}
	return e.k < limit
}

// preemptor returns the queued job that preempts the running job r under
// criteria (1), (2) and (4) of the package doc, and whether there is one:
// the first candidate in key order, a job suspended on r's processors or
// a pending job of r's size when r's processors have room for one more
// job.
func (p *Policy) preemptor(r *sim.Task, rule keyRule) (best keyed, found bool) {
	limit := rule.limit(p, r)
	best, found = p.suspendedPreemptor(r, rule, limit)
	if e, ok := p.pendingPreemptor(r, rule, limit, best, found); ok {
		best, found = e, true
	}
	return best, found
}

// suspendedPreemptor returns the first suspended job in key order whose
// key is below limit and that is suspended on r's processor set, and
// whether there is one.
func (p *Policy) suspendedPreemptor(r *sim.Task, rule keyRule, limit float64) (keyed, bool) {
	for _, e := range p.q.susp {
		if rule.below(e, limit) && sameSet(e.t.Set, r.Set) {
			return e, true
		}
	}
	return keyed{}, false
}

// pendingPreemptor returns the first pending job of r's size in key order
// whose key is below limit, when it comes before best (if found) and r's
// processors have room for one more job, and whether it does.
func (p *Policy) pendingPreemptor(r *sim.Task, rule keyRule, limit float64, best keyed, found bool) (keyed, bool) {
	for _, e := range p.q.bucket(r.Procs) {
		if found && !before(e, best) {
			break
		}
		if !rule.below(e, limit) {
			if rule.total {
				continue
			}
			break // the rest of the bucket has larger keys
		}
		// The first candidate below the limit decides: the others
		// would take the same processors.
		if p.roomy(r.Set).Len() == r.Procs {
			return e, true
		}
		break
	}
	return keyed{}, false
}

// preemptWith suspends the running job r and runs best on its processors:
// a suspended job resumes, a pending one starts on r's set. It reports
// false when r's suspension is refused, which ends the decision.
func (p *Policy) preemptWith(r *sim.Task, best keyed) bool {
	q := &p.q
	c := best.t
	set := r.Set.Clone()
	if p.m.Suspend(r, 0) != nil {
		return false
	}
	q.suspended(r, p.Key(r))
	if c.State == sim.Suspended {
		_ = p.m.Resume(c, 0) // a refused call ends the run (sim.ErrPolicy)
		q.resumed(best)
	} else {
		q.removePending(best)
		_ = p.dispatchOn(c, set)
		p.addCounts(set)
	}
	p.setMark(c)
	return true
}

// fill is LSF-PREEMPT's filling of free processors: with FillResumeFirst
// the suspended jobs whose processors are all free resume first, then the
// pending jobs are placed in LSF-RTC's order; with FillRTCOrder the queued
// jobs that can start are visited in LSF-RTC's order. A pending job
// starts when the roomy free processors are at least its size, and those
// only shrink during the fill, so each bucket's first job is its next
// candidate and buckets of larger sizes are skipped; with in_order the
// first job that does not start ends the fill, so every bucket is looked at.
func (p *Policy) fill() {
	susp := p.suspendedInFillOrder()
	defer func() { clear(susp); p.keyBuf = susp[:0] }()
	si := 0
	if p.cfg.Fill == FillResumeFirst {
		for _, e := range susp {
			p.resumeIfFree(e)
		}
		si = len(susp) // the scan below places pending jobs only
	}
	var room sim.ProcSet // roomy free processors, valid while roomOK
	roomOK := false
	for {
		if !roomOK {
			room, roomOK = p.roomy(p.m.FreeSet()), true
		}
		w, wok := p.nextPending(room)
		sok := si < len(susp)
		if !wok && !sok {
			return
		}
		started := false
		if sok && (!wok || p.fillBefore(susp[si], w)) {
			e := susp[si]
			si++
			if p.resumeIfFree(e) {
				roomOK = false
				started = true
			}
		} else {
			set, ok := room.TakeLowest(p.desired[w.t.Index])
			if !ok {
				return // in_order: the first job that does not fit ends the scan
			}
			roomOK = false
			started = p.startPending(w, set)
		}
		if p.cfg.Scan.stops(started) {
			return
		}
	}
}

// fillBefore is LSF-RTC's order: arrival, or key with demand knowledge.
func (p *Policy) fillBefore(a, b keyed) bool {
	if p.cfg.KnowDemand {
		return before(a, b)
	}
	return a.t.Index < b.t.Index
}

// suspendedInFillOrder returns the suspended jobs in LSF-RTC's order
// (fillBefore), copied into p.keyBuf's buffer. The caller hands the buffer
// back to p.keyBuf.
func (p *Policy) suspendedInFillOrder() []keyed {
	susp := append(p.keyBuf[:0], p.q.susp...)
	if !p.cfg.KnowDemand {
		slices.SortFunc(susp, func(a, b keyed) int { return a.t.Index - b.t.Index })
	}
	return susp
}

// nextPending returns the fill's next pending candidate, the first in
// LSF-RTC's order among the heads of the buckets no larger than room (the
// roomy free processors; with in_order, of every bucket), and whether
// there is one.
func (p *Policy) nextPending(room sim.ProcSet) (w keyed, ok bool) {
	limit := room.Len()
	if p.cfg.Scan == ScanInOrder {
		limit = p.m.Size()
	}
	for _, s := range p.q.sizes {
		if s > limit {
			break
		}
		if e := p.q.bucket(s)[0]; !ok || p.fillBefore(e, w) {
			w, ok = e, true
		}
	}
	return w, ok
}

// resumeIfFree resumes the suspended job e when its processors are all
// free, marks it, and reports whether it did.
func (p *Policy) resumeIfFree(e keyed) bool {
	if !p.m.CanResume(e.t) {
		return false
	}
	_ = p.m.Resume(e.t, 0) // a refused call ends the run (sim.ErrPolicy)
	p.q.resumed(e)
	p.setMark(e.t)
	return true
}

// startPending takes the pending job w out of its bucket and starts it on
// set; when it starts, it counts it on set, marks it and reports true.
func (p *Policy) startPending(w keyed, set sim.ProcSet) bool {
	p.q.removePending(w)
	if p.dispatchOn(w.t, set) != nil {
		return false
	}
	p.addCounts(set)
	p.setMark(w.t)
	return true
}

func sameSet(a, b sim.ProcSet) bool { return a.Contains(b) && b.Contains(a) }

// preemptAD is LSF-PREEMPT-AD (the matrix discipline), on the queue index
// (see preemptADPlain for the same decision over every job in the system).
func (p *Policy) preemptAD() {
	q := &p.q
	defer q.flush()
	if !q.queued() {
		return
	}
	p.countJobs()
	size := p.m.Size()
	// The running jobs in arrival order, as the plain decision has them.
	var running, protected []*sim.Task
	for _, t := range p.m.Active() {
		if t.State == sim.Running || t.State == sim.Resuming {
			running = append(running, t)
		}
	}
	slices.SortFunc(running, func(a, b *sim.Task) int { return a.Index - b.Index })
	for _, t := range running {
		if p.protected(t) {
			protected = append(protected, t)
		}
	}
	// Rows: 0 = running jobs; stopped jobs (in key order) first fit into
	// rows 1.. by set.
	stopped := make([]*sim.Task, len(q.susp))
	for i, e := range q.susp {
		stopped[i] = e.t
	}
	rows, rowSets := matrixRows(running, stopped, q.npend > 0, size)
	// The jobs of the matrix by key; a row's plan merges them with the
	// pending buckets.
	others := make([]keyed, 0, len(running)+len(stopped))
	for _, t := range running {
		others = append(others, keyed{p.Key(t), t})
	}
	others = append(others, q.susp...)
	slices.SortFunc(others, cmpKeyed)
	roomAll := p.roomy(sim.FullProcSet(size))
	best := bestRow(rows, rowSets, protected, func(row []*sim.Task) *rowPlan {
		return p.planRow(protected, row, others, roomAll)
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
			if p.m.Suspend(t, 0) == nil {
				q.suspended(t, p.Key(t))
			}
		}
	}
	for _, e := range slices.Clone(q.susp) {
		if p.marked(e.t) && p.m.CanResume(e.t) {
			_ = p.m.Resume(e.t, 0) // a refused call ends the run (sim.ErrPolicy)
			q.resumed(e)
		}
	}
	for _, a := range best.started {
		if p.m.FreeSet().Contains(a.set) {
			q.removePending(keyed{p.Key(a.t), a.t})
			_ = p.dispatchOn(a.t, a.set)
		}
	}
}

// rowPlan is what running one row of the matrix would do.
type rowPlan struct {
	committed []*sim.Task
	started   []alloc     // pending jobs to start, with their sets
	key       float64     // smallest key of the unprotected jobs it runs
	n         int         // unprotected jobs it runs
	set       sim.ProcSet // the committed jobs' processors
}

// planRow commits the protected jobs and the row's jobs, then fills by
// key from others (the running and stopped jobs, in key order) and the
// pending jobs: pending jobs at their minimum on uncommitted processors
// of roomAll (those with room for one more job), jobs of other rows when
// their whole set is uncommitted; leftover units go to the started
// pending jobs. A pending job is taken when the room is at least its
// minimum, and the room only shrinks, so the pending jobs a plan takes
// are the first ones of their buckets and buckets of larger minimums are
// skipped.
func (p *Policy) planRow(protected, row []*sim.Task, others []keyed, roomAll sim.ProcSet) *rowPlan {
	q := &p.q
	pl := p.commitRow(protected, row)
	// taken[i] is how many pending jobs of bucket q.sizes[i] the plan took.
	taken := make([]int, len(q.sizes))
	var room sim.ProcSet
	room.SetDiff(roomAll, pl.set)
	oi := 0
	for {
		for oi < len(others) && p.marked(others[oi].t) {
			oi++
		}
		var w keyed
		wi := -1
		limit := room.Len()
		for i, s := range q.sizes {
			if s > limit {
				break
			}
			if b := q.bucket(s); taken[i] < len(b) && (wi < 0 || before(b[taken[i]], w)) {
				w, wi = b[taken[i]], i
			}
		}
		if oi == len(others) && wi < 0 {
			break
		}
		if oi < len(others) && (wi < 0 || before(others[oi], w)) {
			t := others[oi].t
			oi++
			if !pl.set.Overlaps(t.Set) {
				p.take(pl, t, t.Set)
				room.SetDiff(roomAll, pl.set)
			}
			continue
		}
		taken[wi]++
		set, ok := room.TakeLowest(w.t.Elastic.Min)
		if !ok {
			continue // not reached: the room holds at least the minimum
		}
		pl.started = append(pl.started, alloc{t: w.t, k: w.t.Elastic.Min, grow: true, set: set})
		p.take(pl, w.t, set)
		room.SetDiff(roomAll, pl.set)
	}
	p.growStarted(pl, roomAll)
	return pl
}

// matrixRows is LSF-PREEMPT-AD's matrix: row 0 holds the running jobs,
// the stopped jobs (in key order) go first-fit into rows 1.. by processor
// set, and an empty row follows for the pending jobs when there are any.
// rowSets[r-1] is the processors of row r.
func matrixRows(running, stopped []*sim.Task, pending bool, size int) (rows [][]*sim.Task, rowSets []sim.ProcSet) {
	rows = [][]*sim.Task{running}
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
	if pending {
		rows = append(rows, nil) // a new row for pending jobs
		rowSets = append(rowSets, sim.NewProcSet(size))
	}
	return rows, rowSets
}

// bestRow plans every row that no protected job overlaps (row 0, the
// running jobs, always) and returns the plan with the smallest key, or
// nil when no plan runs an unprotected job.
func bestRow(rows [][]*sim.Task, rowSets []sim.ProcSet, protected []*sim.Task, plan func(row []*sim.Task) *rowPlan) *rowPlan {
	var best *rowPlan
	for r, row := range rows {
		if r > 0 && slices.ContainsFunc(protected, func(pt *sim.Task) bool { return rowSets[r-1].Overlaps(pt.Set) }) {
			continue
		}
		pl := plan(row)
		if pl.n > 0 && (best == nil || pl.key < best.key) {
			best = pl
		}
	}
	return best
}

// commitRow begins a row's plan: it marks and commits the protected jobs,
// then the row's jobs.
func (p *Policy) commitRow(protected, row []*sim.Task) *rowPlan {
	pl := &rowPlan{set: sim.NewProcSet(p.m.Size())}
	p.mark()
	for _, t := range protected {
		p.take(pl, t, t.Set)
	}
	for _, t := range row {
		if !p.marked(t) {
			p.take(pl, t, t.Set)
		}
	}
	return pl
}

// take commits t on set to the plan: it marks t, adds set to the
// committed processors and counts t in the plan's key unless protected.
func (p *Policy) take(pl *rowPlan, t *sim.Task, set sim.ProcSet) {
	p.setMark(t)
	pl.committed = append(pl.committed, t)
	pl.set.Union(set)
	if !p.protected(t) {
		k := p.Key(t)
		if pl.n == 0 || k < pl.key {
			pl.key = k
		}
		pl.n++
	}
}

// growStarted ends a plan: the processors of roomAll left uncommitted go,
// as leftover units, to the pending jobs it starts.
func (p *Policy) growStarted(pl *rowPlan, roomAll sim.ProcSet) {
	var room sim.ProcSet
	room.SetDiff(roomAll, pl.set)
	p.spread(pl.started, room.Len())
	for i := range pl.started {
		a := &pl.started[i]
		if extra := a.k - a.t.Elastic.Min; extra > 0 {
			if more, ok := room.TakeLowest(extra); ok {
				a.set.Union(more)
			}
		}
	}
}
