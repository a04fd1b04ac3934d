package preempt

import "github.com/schedfarm/schedfarm/sim"

// mayPreempt reports whether the routine may suspend running jobs at now:
// always, or with [SSConfig.MarksOnly] only at a multiple of the interval.
func (p *SS) mayPreempt(now sim.Time) bool {
	return !p.cfg.MarksOnly || now%p.cfg.Interval == 0
}

// waitMark gives suspended job t, which could not resume on free
// processors between multiples of the interval ([SSConfig.MarksOnly]), the
// bound now+1: it is examined at every later event, where it resumes if
// its processors are free, as in the plain routine, and the timer is set
// for the next multiple of the interval, where it may suspend their
// holders.
func (p *SS) waitMark(t *sim.Task, now sim.Time) {
	p.susp.set(t, now+1, -1, -1)
}
