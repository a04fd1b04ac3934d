package preempt

import (
	"cmp"
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// IS with [ISConfig.ResumePreempt] (and without ResumeAnywhere) keeps its
// suspended jobs in a heap by the earliest time each could act (its
// bound), as SS does, so that a pass examines only the suspended jobs whose
// bound has come and the routine's minute timer is set for the first
// minute at which one might act, instead of sorting and trying every
// suspended job every minute.
//
// A Suspended job t resumes when its processors are free and unclaimed and
// otherwise reclaims them when every job holding one is running, is past
// the protection of [ISConfig.ReclaimHold] and t's instantaneous xfactor
// exceeds [ISConfig.ResumeFactor] times its own. While t stays suspended its instantaneous xfactor
// (now - submit) / work grows, and that of a job that keeps running,
// (now - submit) / work done, does not grow: once t may suspend a holder it
// may until the holder stops. The bound is the latest, over t's holders, of
// the earliest time t may suspend each (for a job resuming, from the end
// of its overhead on; for a job being suspended, the end of its overhead;
// for a claimant that will start on t's processors, its claim's time plus
// what remains of its protection then). New holders only make it later; it can only come earlier
// when the holder that fixes it leaves t's processors (ends, or is
// suspended), which makes t due at once.

// resumeBounded is the second half of [IS.Schedule] under
// [IS.isBounded]: the suspended jobs whose bound has come, highest
// instantaneous xfactor first, resume or reclaim their processors. When a
// reclaim suspends jobs, the suspended jobs that became due (their bound's
// job was suspended) and come later in the order are examined in this
// pass as well, as in the plain loop over every suspended job.
func (p *IS) resumeBounded(now sim.Time) {
	ready := p.bnd.due(now, p.ready[:0])
	if len(ready) == 0 {
		p.ready = ready
		return
	}
	for _, t := range ready {
		p.ixf[t.Index] = instXfactor(t, now)
	}
	slices.SortFunc(ready, p.byIxf)
	floor := math.Inf(1)
	for _, r := range p.m.Active() {
		if r.State == sim.Running && p.reclaimable(r, now) {
			floor = min(floor, instXfactor(r, now))
		}
	}
	for i := 0; i < len(ready); i++ {
		t := ready[i]
		if p.pending[t.Index] {
			continue
		}
		if t.State != sim.Suspended { // Suspending: due when its overhead ends
			p.bnd.set(t, t.Since+p.overhead(t), -1, -1)
			continue
		}
		reclaimed := false
		switch {
		case p.canResume(t):
			p.start(t)
		case p.ixf[t.Index] > floor:
			p.reclaim(t, now)
			reclaimed = t.State != sim.Suspended || p.pending[t.Index]
		}
		if t.State == sim.Suspended && !p.pending[t.Index] {
			at, w := p.resumeBound(t, now)
			p.bnd.set(t, max(at, now+1), w, -1)
		}
		if !reclaimed {
			continue
		}
		rest := ready[i+1:]
		p.fired = p.bnd.due(now, p.fired[:0])
		for _, u := range p.fired {
			p.ixf[u.Index] = instXfactor(u, now)
			if p.byIxf(t, u) < 0 {
				rest = append(rest, u)
			} else {
				p.bnd.restore(u) // its turn in this pass is past: due at the next
			}
		}
		clear(p.fired)
		slices.SortFunc(rest, p.byIxf)
		ready = append(ready[:i+1], rest...)
	}
	clear(ready)
	p.ready = ready[:0]
}

// byIxf orders suspended jobs by descending instantaneous xfactor, then
// arrival.
func (p *IS) byIxf(a, b *sim.Task) int {
	if c := cmp.Compare(p.ixf[b.Index], p.ixf[a.Index]); c != 0 {
		return c
	}
	return a.Index - b.Index
}

// boundedTick returns when the routine must run next for the suspended
// jobs under [IS.isBounded]. The plain routine runs every minute while jobs
// are suspended; that also decides which of the timers set for jobs
// waiting for their timeslice fire, since each run replaces a pending
// timer later than its next minute. So while jobs wait this is the next
// minute, as there; otherwise it is the first minute at which a suspended
// job may act, and a pending timer that the plain routine would have
// replaced by its next minute is cancelled.
func (p *IS) boundedTick(now sim.Time) sim.Time {
	tick := now + DefaultInterval - now%DefaultInterval
	if len(p.waiting) > 0 {
		return tick
	}
	b := max(p.bnd.next(), now+1)
	next := (b + DefaultInterval - 1) / DefaultInterval * DefaultInterval
	if p.timerAt > tick && p.timerAt < next {
		p.m.CancelTimer(p.timer)
		p.timerAt = -1
	}
	return next
}

// isBounded reports whether the policy keeps suspended jobs' bounds.
func (p *IS) isBounded() bool {
	return p.cfg.ResumePreempt && !p.cfg.ResumeAnywhere && !p.reference
}

// suspendVictim suspends running job v. Under [IS.isBounded] it is due at
// next (0: in this pass), or when its suspension overhead ends; otherwise
// it joins the suspended jobs every pass looks at.
func (p *IS) suspendVictim(v *sim.Task, next sim.Time) {
	p.suspend(v)
	if !p.isBounded() {
		p.susp = append(p.susp, v)
		return
	}
	p.bnd.left(v)
	if o := p.overhead(v); o > 0 {
		next = p.m.Now() + o
	}
	p.bnd.set(v, next, -1, -1)
}

// Finish implements [sim.Policy]: a job that ends leaves its processors.
func (p *IS) Finish(t *sim.Task) {
	if p.isBounded() {
		p.bnd.left(t)
	}
}

// OverheadDone implements [sim.OverheadWatcher]: a job that finished
// suspending has left its processors.
func (p *IS) OverheadDone(t *sim.Task) {
	if p.isBounded() && t.State == sim.Suspended {
		p.bnd.left(t)
	}
}

// resumeBound returns a lower bound on the time Suspended job t could
// resume or reclaim its processors, and the job whose leaving may make it
// earlier (-1: none). It is now when t's processors are free and
// unclaimed.
func (p *IS) resumeBound(t *sim.Task, now sim.Time) (sim.Time, int32) {
	at, watch := now, int32(-1)
	raise := func(x sim.Time, w int32) {
		if x > at {
			at, watch = x, w
		}
	}
	for _, h := range p.m.Active() {
		if !h.Set.Overlaps(t.Set) {
			continue
		}
		switch h.State {
		case sim.Running:
			raise(p.passTime(t, h, h.SegStart, now), int32(h.Index))
		case sim.Resuming:
			raise(p.passTime(t, h, h.Since+p.overhead(h), now), int32(h.Index))
		default: // Suspending: its processors are free, or claimed, then
			raise(h.Since+p.overhead(h), -1)
		}
	}
	if len(p.claims) > 0 && p.claimed.Overlaps(t.Set) {
		for _, c := range p.claims {
			if c.set.Overlaps(t.Set) {
				raise(c.at+p.holdFrom(c.t.Work), int32(c.t.Index))
			}
		}
	}
	return at, watch
}

// holdFrom returns how long after it (re)starts a job that has done work
// before is protected from reclaims: a timeslice or, under
// [ReclaimHoldFirst], what remains of its first timeslice, at least the
// instant it (re)starts.
func (p *IS) holdFrom(work sim.Time) sim.Time {
	if p.cfg.ReclaimHold == ReclaimHoldFirst {
		return max(1, p.cfg.Timeslice-work)
	}
	return p.cfg.Timeslice
}

// passTime returns the earliest time, not before now, at which Suspended
// job t may suspend job h running from seg on (with the work it has now,
// or will have then): h is past its protection ([IS.holdFrom]) and t's
// instantaneous xfactor exceeds ResumeFactor times h's. Both sides of the comparison are monotone
// in time while neither changes state, so the time is where the
// comparison reclaim makes turns true: found near the root of the
// quadratic it amounts to, checked with that comparison, else by doubling
// then bisection.
func (p *IS) passTime(t, h *sim.Task, seg, now sim.Time) sim.Time {
	if t.Work <= 0 {
		return now
	}
	work := h.Work // work done before the segment
	f := p.cfg.ResumeFactor
	below := func(x sim.Time) bool {
		return f*(float64(x-h.Submit)/float64(work+x-seg)) < float64(x-t.Submit)/float64(t.Work)
	}
	lo := max(now, seg+p.holdFrom(work))
	if below(lo) {
		return lo
	}
	// f (x - h.Submit) / (x + c) < (x - t.Submit) / W with c = work - seg
	// and W = t.Work: x^2 + (c - t.Submit - f W) x + f W h.Submit -
	// t.Submit c > 0, true beyond the larger root.
	c, w := float64(work-seg), float64(t.Work)
	b := c - float64(t.Submit) - f*w
	d := b*b - 4*(f*w*float64(h.Submit)-float64(t.Submit)*c)
	if d >= 0 {
		if r := (-b + math.Sqrt(d)) / 2; r > float64(lo) && r < float64(sim.MaxHorizon/4) {
			x := max(lo+1, sim.Time(r))
			for range 8 {
				switch {
				case !below(x):
					x++
				case x-1 > lo && below(x-1):
					x--
				default:
					return x
				}
			}
		}
	}
	step := sim.Time(1)
	for !below(lo + step) {
		if step > sim.MaxHorizon/4 {
			return sim.Never
		}
		step *= 2
	}
	// below(lo + step) holds, below(lo + step/2) does not (or step is 1).
	a, z := lo+step/2, lo+step
	for z-a > 1 {
		m := a + (z-a)/2
		if below(m) {
			z = m
		} else {
			a = m
		}
	}
	return z
}
