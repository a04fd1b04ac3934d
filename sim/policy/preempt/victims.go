package preempt

import (
	"cmp"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// fresh starts a Waiting job, or suspends running jobs for it (section
// 4.3): candidates in ascending priority until enough processors would be
// free, then victims among them largest first.
func (p *SS) fresh(t *sim.Task) {
	tau := p.prio[t.Index]
	free, narrowed, base := p.freeFor(t, tau)
	// The set is only built when needed: most idle jobs examined in a pass
	// start nothing.
	freeSet := func() sim.ProcSet {
		if narrowed {
			return free
		}
		return p.availSet()
	}
	avail := base
	if t.Procs <= avail {
		p.startOnFree(t, free, narrowed)
		return
	}
	if tau < p.cfg.SuspensionFactor*p.lowest() || !p.mayPreempt(p.m.Now()) {
		return
	}
	cand := p.cand[:0]
	for _, r := range p.ranked() {
		if r.State != sim.Running {
			continue // suspended earlier in this pass
		}
		if tau < p.cfg.SuspensionFactor*p.prio[r.Index] {
			break
		}
		if float64(r.Procs) > p.cfg.WidthRatio*float64(t.Procs) || !p.may(tau, r) {
			if p.cfg.StopScan {
				break
			}
			continue
		}
		if !p.mayTake(t, tau, r.Set) {
			continue
		}
		cand = append(cand, r)
		if avail += r.Procs; avail >= t.Procs {
			break
		}
	}
	p.cand = cand
	if avail < t.Procs {
		return
	}
	slices.SortFunc(cand, func(a, b *sim.Task) int {
		if a.Procs != b.Procs {
			return b.Procs - a.Procs
		}
		if c := cmp.Compare(p.prio[a.Index], p.prio[b.Index]); c != 0 {
			return c
		}
		if a.FirstStart != b.FirstStart {
			return cmp.Compare(a.FirstStart, b.FirstStart)
		}
		return a.Index - b.Index
	})
	avail = base
	k, sum := 0, 0
	for k < len(cand) && avail+sum < t.Procs {
		sum += cand[k].Procs
		k++
	}
	victims := cand[:k]
	if p.deferred(k, len(cand)) {
		p.suspendAll(victims)
		p.left = p.left || p.over == nil
		p.backfillDue = p.cfg.DeferBackfill
		return
	}
	set := p.claimSetFrom(t, victims, freeSet())
	p.suspendAll(victims)
	p.left = p.left || (sum > t.Procs && p.over == nil)
	p.commit(t, set, victims)
}

// startFree starts Waiting job t on the processors free to it ([SS.freeFor])
// if it fits there.
func (p *SS) startFree(t *sim.Task) {
	if free, narrowed, n := p.freeFor(t, p.prio[t.Index]); t.Procs <= n {
		p.startOnFree(t, free, narrowed)
	}
}

// startOnFree starts t on processors of free, the set [SS.freeFor]
// returned, or of every free unclaimed processor when it did not narrow
// them; the caller has checked that enough are free.
func (p *SS) startOnFree(t *sim.Task, free sim.ProcSet, narrowed bool) {
	a := free
	if !narrowed {
		a = p.availScratch()
	}
	if set, ok := p.pick(a, t.Procs); ok {
		p.startOn(t, set)
	}
}

// freeFor returns the number of free unclaimed processors a job t that
// never ran may take: all of them, or with [SSConfig.HoldRemembered]
// those that no suspended job t could not suspend remembers. Only in the
// second case (narrowed) does it build and return the set; otherwise the
// set is [core.availSet], left to the caller to build if it needs it.
func (p *SS) freeFor(t *sim.Task, tau float64) (set sim.ProcSet, narrowed bool, n int) {
	if !p.cfg.HoldRemembered {
		return sim.ProcSet{}, false, p.avail()
	}
	a := p.availSet()
	if !a.Overlaps(p.held) {
		return a, true, a.Len()
	}
	now := p.m.Now()
	for _, s := range p.rem {
		if s.Set.Overlaps(a) && !p.mayPass(t, tau, s, now) && !p.mayBackfill(t, s, now) {
			a.Subtract(s.Set)
		}
	}
	return a, true, a.Len()
}

// mayBackfill reports whether, under [SSConfig.HoldBackfill], a job t
// starting now ends by its estimate before suspended job s could resume
// (see resumeBound), and so may use the free processors s remembers.
func (p *SS) mayBackfill(t *sim.Task, s *sim.Task, now sim.Time) bool {
	return p.cfg.HoldBackfill && now+t.Estimate <= p.resumeBound(s, now)
}

// resumeBound returns a lower bound on when suspended job s can resume:
// the latest, over the running jobs holding its processors, of the
// earlier of each one's end by its estimate and the time s's priority
// reaches SF times that job's (never, if TSS forbids s to suspend it).
// It is now if s is not Suspended, if one of its processors is held by a
// job in overhead or claimed, or if all are free.
func (p *SS) resumeBound(s *sim.Task, now sim.Time) sim.Time {
	if s.State != sim.Suspended {
		return now
	}
	for _, c := range p.claims {
		if c.set.Overlaps(s.Set) {
			return now
		}
	}
	tau := xfactor(s, now)
	at := now
	for _, h := range p.m.Active() {
		if !h.Set.Overlaps(s.Set) {
			continue
		}
		if h.State != sim.Running {
			return now
		}
		at = max(at, min(h.EstimatedEnd(now), p.passAt(s, tau, h, now)))
	}
	return at
}

// passAt returns a lower bound on the first time at which suspended job s,
// of priority tau now, may suspend running job h by priority and TSS, or
// sim.Never.
func (p *SS) passAt(s *sim.Task, tau float64, h *sim.Task, now sim.Time) sim.Time {
	x := xfactor(h, now)
	need := p.cfg.SuspensionFactor * x
	switch {
	case p.protected(h, x):
		return sim.Never
	case p.limit != nil && !p.guard && max(tau, need) > p.limit[h.Index]:
		return sim.Never
	case tau >= need:
		return now
	}
	// tau grows by 1/estimate per second while s is suspended; one second
	// early is safe.
	return now + sim.FloorTime((need-tau)*float64(s.Estimate)) - 1
}

// mayTake reports whether t (of priority tau) may take the processors of
// set under [SSConfig.HoldRemembered].
func (p *SS) mayTake(t *sim.Task, tau float64, set sim.ProcSet) bool {
	if !p.cfg.HoldRemembered || !set.Overlaps(p.held) {
		return true
	}
	now := p.m.Now()
	for _, s := range p.rem {
		if s.Set.Overlaps(set) && !p.mayPass(t, tau, s, now) {
			return false
		}
	}
	return true
}

// mayPass reports whether t, of priority tau, could suspend suspended job
// s were it running: t may take the processors s remembers.
func (p *SS) mayPass(t *sim.Task, tau float64, s *sim.Task, now sim.Time) bool {
	x := xfactor(s, now)
	if tau < p.cfg.SuspensionFactor*x || float64(s.Procs) > p.cfg.WidthRatio*float64(t.Procs) {
		return false
	}
	switch {
	case p.limit == nil:
		return true
	case p.guard:
		return !p.protected(s, x)
	}
	return tau <= p.limit[s.Index]
}

// suspendAll suspends victims; they wait for the next pass.
func (p *SS) suspendAll(victims []*sim.Task) {
	for _, v := range victims {
		p.suspend(v)
		p.leave(v)
		p.lowStale = true
		p.victims = append(p.victims, v)
	}
}

// reenter resumes a Suspended job on its own processors, suspending the
// running jobs that hold any of them if it may suspend every one, and
// otherwise records when it might next.
func (p *SS) reenter(t *sim.Task, now sim.Time) {
	if p.canResume(t) {
		p.start(t)
		return
	}
	if !p.mayPreempt(now) {
		p.waitMark(t, now)
		return
	}
	w := whoOf(t)
	victims, at, w1, w2 := p.count(t, &w, now, true, true)
	if at > now {
		p.susp.set(t, at, w1, w2)
		return
	}
	byIndex(victims)
	u := sim.NewProcSet(p.m.Size())
	for _, v := range victims {
		u.Union(v.Set)
	}
	p.suspendAll(victims)
	p.left = p.left || (!t.Set.Contains(u) && p.over == nil)
	p.commit(t, t.Set, victims)
}
