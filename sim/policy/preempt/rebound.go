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
	for _, t := range p.stale {
		switch {
		case t.State != sim.Suspended:
			p.susp.set(t, 0, -1, -1)
		case p.canResume(t):
			p.susp.set(t, now, -1, -1)
		default:
			p.prio[t.Index] = xfactor(t, now)
			at, w1, w2 := p.bound(t, now)
			p.susp.set(t, at, w1, w2)
		}
	}
	clear(p.stale)
	p.stale = p.stale[:0]
}
