package preempt

import (
	"fmt"
	"math"

	"github.com/schedfarm/schedfarm/sim"
)

// holderAcc gathers, for [SS.holders], what the jobs on a suspended job's
// processors allow.
type holderAcc struct {
	hi, lo             float64 // highest SF times priority; lowest TSS limit (formula reading)
	hiJob, loJob, prot int32   // the jobs of hi and lo, and a protected one (-1: none)
	earliest           sim.Time
}

// holders returns the jobs holding processors of Suspended job t and the
// earliest time t may suspend them all: now if it may now; else a lower
// bound, with the (up to two, -1 for none) jobs whose leaving may make it
// earlier. The bound is sim.Never when t may not before one of those
// leaves (TSS forbids it for good: one is protected or, under the formula
// reading, t's priority exceeds one's limit now or will when it reaches SF
// times the highest priority among them), else when t's priority will
// reach SF times the highest of theirs, and not before each is running
// and suspendable. A job resuming, or a claimant that will start on some
// of t's processors, counts with the priority it will have when it runs.
// A job being suspended counts only until its overhead ends: its
// processors then become free or go to the claimant that suspended it,
// which counts as such.
//
// The jobs are found through the processor index ([core.holderOf]), so a
// call costs t's width, not the number of jobs holding processors. With
// collect false it does not list the victims (nil), and leaves p.cand
// alone.
func (p *SS) holders(t *sim.Task, now sim.Time, collect bool) (victims []*sim.Task, at sim.Time, w1, w2 int32) {
	w := whoOf(t)
	return p.count(t, &w, now, collect, false)
}

// bound returns a bound for Suspended job t, whose priority p.prio holds,
// and the jobs to watch, as [SS.holders] without the victims, except that
// it stops at the first job that t may not suspend by priority now among
// the claimants on t's processors and the running or resuming jobs
// holding them: it returns the time t's priority reaches SF times that
// job's (for a claimant or a resuming job, the priority it will have when
// it runs), watching it. That is a lower bound: t can neither resume nor
// suspend that job before then while the job holds (or is to hold) its
// processors, and [SS.holders]'s bound is no earlier (it takes the highest
// such priority, and more conditions). It saves counting the other
// holders: on the whole CTC trace almost every bound given when a watched
// job leaves is never reached, the new watched job leaving first.
// The job's set and priority terms are read from w (see [who]).
func (p *SS) bound(t *sim.Task, w *who, now sim.Time) (at sim.Time, w1, w2 int32) {
	_, at, w1, w2 = p.count(t, w, now, false, true)
	return at, w1, w2
}

// count is [SS.holders], or [SS.bound] when first, for job t as w gives
// it (t itself is read only by the checks of tests and in errors).
func (p *SS) count(t *sim.Task, w *who, now sim.Time, collect, first bool) (victims []*sim.Task, at sim.Time, w1, w2 int32) {
	a := holderAcc{lo: math.Inf(1), hiJob: -1, loJob: -1, prot: -1, earliest: now}
	if collect {
		victims = p.cand[:0]
	}
	if first {
		for _, c := range p.claims {
			if !c.set.Overlaps(w.set) {
				continue
			}
			from := c.at
			if c.t.State == sim.Suspended {
				from += p.overhead(c.t)
			}
			if at, ok := p.blocker(t, w, now, c.t, from); ok {
				return nil, at, int32(c.t.Index), -1
			}
		}
	}
	// Every processor of t that is not free is held by a job; each job
	// found takes all its processors out of the walk.
	rem := &p.holdRem
	rem.SetDiff(w.set, p.m.FreeSet())
	n := 0
	for i := rem.Next(0); i >= 0; i = rem.Next(i + 1) {
		r := p.holderOf(i)
		if r == nil {
			// The index is out of step (a start it did not see): count
			// the jobs by the plain scan instead.
			return p.holdersScan(t, w, now, collect)
		}
		rem.Subtract(r.Set)
		n++
		if first && r.State != sim.Suspending {
			from := now
			if r.State == sim.Resuming {
				from = r.Since + p.overhead(r)
			}
			if at, ok := p.blocker(t, w, now, r, from); ok {
				return nil, at, int32(r.Index), -1
			}
		}
		if p.holder(&a, r, now) && collect {
			victims = append(victims, r)
		}
	}
	if p.checkHolders {
		p.verifyHolders(t, w, now, a, n)
	}
	return p.holdersEnd(w, now, &a, victims, collect)
}

// holder counts job r, which holds processors of a suspended job, into a
// at now, and reports whether r is running (a victim if the job may
// suspend it now).
func (p *SS) holder(a *holderAcc, r *sim.Task, now sim.Time) bool {
	switch r.State {
	case sim.Running:
		p.holderAt(a, r, now-1, xfactor(r, now), now)
		if r.Since == now {
			a.earliest = max(a.earliest, now+1)
		}
		return true
	case sim.Resuming:
		end := r.Since + p.overhead(r)
		p.holderAt(a, r, end, xfactor(r, end), now)
	default: // Suspending: its processors are free, or claimed, at the end of its overhead
		a.earliest = max(a.earliest, r.Since+p.overhead(r))
	}
	return false
}

// holderAt counts into a a job r that runs from time from with priority x.
func (p *SS) holderAt(a *holderAcc, r *sim.Task, from sim.Time, x float64, now sim.Time) {
	if from > now {
		a.earliest = max(a.earliest, from+1)
	}
	if p.guard {
		if a.prot < 0 && p.protected(r, x) {
			a.prot = int32(r.Index)
		}
	} else if p.limit != nil && p.limit[r.Index] < a.lo {
		a.lo, a.loJob = p.limit[r.Index], int32(r.Index)
	}
	if x = p.cfg.SuspensionFactor * x; x > a.hi || a.hiJob < 0 {
		a.hi, a.hiJob = x, int32(r.Index)
	}
}

// holdersEnd counts the claimants on the processors of w's job into a
// and returns what [SS.holders] returns.
func (p *SS) holdersEnd(w *who, now sim.Time, a *holderAcc, victims []*sim.Task, collect bool) ([]*sim.Task, sim.Time, int32, int32) {
	for _, c := range p.claims {
		if c.set.Overlaps(w.set) {
			from := c.at
			if c.t.State == sim.Suspended {
				from += p.overhead(c.t)
			}
			p.holderAt(a, c.t, from, xfactor(c.t, from), now)
		}
	}
	if collect {
		p.cand = victims
	}
	tau := p.prio[w.idx]
	switch {
	case a.prot >= 0:
		return nil, sim.Never, a.prot, -1
	case tau > a.lo:
		return nil, sim.Never, a.loJob, -1
	case a.hi > a.lo:
		return nil, sim.Never, a.hiJob, a.loJob
	case tau >= a.hi:
		if a.earliest > now {
			return nil, a.earliest, -1, -1
		}
		return victims, now, -1, -1
	}
	// tau(x) = (x - submit - work + estimate) / estimate reaches hi at
	// x = submit + work - estimate + hi*estimate; one second early is safe.
	x := w.base + sim.FloorTime(a.hi*float64(w.est)) - 1
	return nil, max(x, a.earliest, now+1), a.hiJob, -1
}

// holdersScan is [SS.holders] by a scan of every job holding processors.
func (p *SS) holdersScan(t *sim.Task, w *who, now sim.Time, collect bool) ([]*sim.Task, sim.Time, int32, int32) {
	if p.checkHolders && p.holdersErr == nil {
		p.holdersErr = fmt.Errorf("job %d at %d: a processor of %v is held by no job the index knows", t.ID, now, t.Set)
	}
	a := holderAcc{lo: math.Inf(1), hiJob: -1, loJob: -1, prot: -1, earliest: now}
	var victims []*sim.Task
	if collect {
		victims = p.cand[:0]
	}
	for _, r := range p.m.Active() {
		if r.Set.Overlaps(w.set) && p.holder(&a, r, now) && collect {
			victims = append(victims, r)
		}
	}
	return p.holdersEnd(w, now, &a, victims, collect)
}

// verifyHolders counts the jobs on t's processors again by a scan of every
// job holding processors, and records in p.holdersErr the first call whose
// count differs from a's, the na jobs found by the processor index: for
// tests.
func (p *SS) verifyHolders(t *sim.Task, w *who, now sim.Time, a holderAcc, na int) {
	p.holdersChecked++
	b := holderAcc{lo: math.Inf(1), hiJob: -1, loJob: -1, prot: -1, earliest: now}
	nb := 0
	for _, r := range p.m.Active() {
		if r.Set.Overlaps(w.set) {
			nb++
			p.holder(&b, r, now)
		}
	}
	if p.holdersErr == nil && (na != nb || a.hi != b.hi || a.lo != b.lo || a.earliest != b.earliest || (a.prot < 0) != (b.prot < 0)) {
		p.holdersErr = fmt.Errorf("job %d at %d: index found %d of %d holders (hi %v/%v, lo %v/%v, earliest %d/%d, protected %v/%v)",
			t.ID, now, na, nb, a.hi, b.hi, a.lo, b.lo, a.earliest, b.earliest, a.prot >= 0, b.prot >= 0)
	}
}

// blocker reports whether suspended job t may not suspend job r, which
// holds or is about to hold processors of t and runs from time from, by
// priority now, and if so returns the time t's priority reaches SF times
// r's (never before now+1): see [SS.bound].
func (p *SS) blocker(t *sim.Task, w *who, now sim.Time, r *sim.Task, from sim.Time) (sim.Time, bool) {
	x := p.cfg.SuspensionFactor * xfactor(r, from)
	if x <= p.prio[w.idx] {
		return 0, false
	}
	at := w.reach(x, now)
	if p.checkHolders {
		p.verifyBound(t, now, at)
	}
	return at, true
}

// verifyBound checks a bound of [SS.bound] from the first job t may not
// suspend against the bound of [SS.holders], which must not be earlier,
// and records in p.holdersErr the first that is: for tests.
func (p *SS) verifyBound(t *sim.Task, now, at sim.Time) {
	_, exact, _, _ := p.holders(t, now, false)
	if p.holdersErr == nil && exact < at {
		p.holdersErr = fmt.Errorf("job %d at %d: bound %d from the first job it may not suspend is after the counted bound %d", t.ID, now, at, exact)
	}
}
