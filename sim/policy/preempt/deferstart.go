package preempt

import (
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// deferred reports whether, under [SSConfig.DeferStart], a Waiting job
// that suspends the first k of its n candidates (largest first) to make
// room is left waiting instead of starting. Section 4.3's suspend_jobs_1
// loop reaches "schedule the idle job" only at a candidate it need not
// suspend: when every candidate is needed (k == n), the last suspension
// ends the loop and the job is not scheduled in that run of the routine.
// It starts at the next pass (the next event or multiple of the interval)
// if its processors are still free; in the meantime the rest of the pass
// sees them free, as after any suspension.
func (p *SS) deferred(k, n int) bool {
	return p.cfg.DeferStart && k == n
}

// backfill is [SSConfig.DeferBackfill]'s pass after a routine that left a
// job waiting: every Waiting job, in descending priority, starts if it fits
// on the processors free to it now, as a job that fits does in the routine.
// It suspends nothing. Bounds set in the routine stay lower bounds: a job
// started here only holds processors longer than the bounds assumed, and
// the wait bounds are made after it.
func (p *SS) backfill(now sim.Time) {
	act := p.act[:0]
	for _, t := range p.waitq {
		if t.State == sim.Waiting && !p.pending[t.Index] {
			p.prio[t.Index] = xfactor(t, now)
			act = append(act, t)
		}
	}
	slices.SortFunc(act, p.before)
	for _, t := range act {
		if p.avail() == 0 {
			break
		}
		p.startFree(t)
	}
	clear(act)
	p.act = act[:0]
}
