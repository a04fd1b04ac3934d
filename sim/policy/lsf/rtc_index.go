package lsf

import "github.com/schedfarm/schedfarm/sim"

// fillRTC is LSF-RTC's first-fit decision on the queue index: pending
// jobs wait in buckets by desired size, each in key order, and a
// run-to-completion job never runs before it starts, so its key is the
// one it was queued with. First fit in key order starts, among the jobs
// no larger than what is free, the one with the smallest key, and again
// with what is left: a job it passed was too large then and stays too
// large, since free processors only shrink during the decision. So the
// decision looks at the heads of the buckets that fit, once per job it
// starts, instead of at every pending job.
func (p *Policy) fillRTC() {
	free := p.m.Free()
	var failed []keyed
	for {
		best, found := keyed{}, false
		for _, s := range p.q.sizes {
			if s > free {
				break
			}
			if b := p.q.bucket(s); len(b) > 0 && (!found || before(b[0], best)) {
				best, found = b[0], true
			}
		}
		if !found {
			break
		}
		p.q.removePending(best)
		k := p.desired[best.t.Index]
		p.dispatch(best.t, k)
		free -= k // as the plain decision does, started or not
		if best.t.State == sim.Waiting {
			failed = append(failed, best)
		}
	}
	for _, e := range failed {
		p.q.addPending(e.t, e.k)
	}
}
