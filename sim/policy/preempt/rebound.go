package preempt

import "github.com/schedfarm/schedfarm/sim"

// leave notes that job j no longer holds its processors (it ended, was
// suspended, or its suspension overhead ended): the suspended jobs whose
// bound it fixed are listed for [SS.rebound].
func (p *SS) leave(j *sim.Task) { p.stale = p.susp.orphans(j, p.stale) }

// rebound gives a new bound to each suspended job listed by leave, against
// the jobs holding its processors now ([SS.bound]: from the first one it
// may not suspend), instead of making it due at once: most such jobs would
// only find, at the next pass, that another holder still keeps them out.
// A job that may resume or suspend its holders now is due now. The new bound is a lower bound for the same reason as a
// bound set in a pass: holders that arrive later only make it later, and
// the jobs it watches are told to it when they leave. Calls come between
// passes (a job ends or finishes suspending) and in a pass after each
// examined job, when its suspensions and claim are in place.
func (p *SS) rebound() {
	if len(p.stale) == 0 {
		return
	}
	now := p.m.Now()
	// First, for every listed job, what its state and processors allow
	// now, and its priority: these are the first reads of each job's
	// record and processor set, and made back to back, with nothing
	// between them that depends on them, they overlap in memory instead
	// of waiting one after the other. Nothing either loop does changes
	// a job's state or the free processors.
	// The job's set and priority come from its slot in the heap (every
	// listed job is in it), not from the job.
	due := p.staleDue[:0]
	free := p.m.FreeSet()
	for _, t := range p.stale {
		d := staleCount
		if t.State != sim.Suspended {
			d = staleNow
		} else if w := &p.susp.slotOf(t).w; free.Contains(w.set) && (len(p.claims) == 0 || !p.claimed.Overlaps(w.set)) {
			d = staleResume // as canResume
		} else {
			p.prio[t.Index] = w.prio(now)
		}
		due = append(due, d)
	}
	for k, t := range p.stale {
		switch due[k] {
		case staleNow:
			p.susp.set(t, 0, -1, -1)
		case staleResume:
			p.susp.set(t, now, -1, -1)
		default:
			w := p.susp.slotOf(t).w
			at, w1, w2 := p.bound(t, &w, now)
			p.susp.set(t, at, w1, w2)
		}
	}
	p.staleDue = due[:0]
	clear(p.stale)
	p.stale = p.stale[:0]
}

// What [SS.rebound] does with a listed job.
const (
	staleCount  uint8 = iota // count its holders for a new bound
	staleNow                 // not Suspended: due at once
	staleResume              // its processors are free: due now
)
