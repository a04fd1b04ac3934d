package preempt

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// DefaultTimeslice is IS's immediate timeslice: 10 minutes.
const DefaultTimeslice = sim.Time(600)

// ISConfig configures immediate service.
type ISConfig struct {
	// Timeslice (>= 1 s, default 600) is the work an arriving job is
	// given at once and during which it cannot be suspended.
	Timeslice sim.Time
	// ResumePreempt lets a suspended job whose processors are not all
	// free suspend the running jobs that hold them, when its
	// instantaneous xfactor exceeds each of theirs and none of them is
	// protected by ReclaimHold (by default: each has run at least
	// Timeslice since it last (re)started). Without it a suspended job
	// resumes only when all its processors are free.
	ResumePreempt bool
	// ReclaimHold says which running jobs a suspended job may not take its
	// processors back from under ResumePreempt (and ResumeAnywhere):
	// [ReclaimHoldTimeslice] (the zero value) or [ReclaimHoldFirst].
	ReclaimHold ReclaimHold
	// ResumeAnywhere lets a suspended job resume on any free processors,
	// as many as it had, rather than only on its own: it migrates, as on
	// the shared-memory machines of Chiang and Vernon. With ResumePreempt
	// as well, one that does not fit suspends, anywhere, running jobs of
	// lower instantaneous xfactor that ReclaimHold does not protect,
	// lowest first, until it fits.
	ResumeAnywhere bool
	// ResumeFactor (>= 1; 0 means 1) is the suspension factor of a
	// reclaim under ResumePreempt: a suspended job may suspend a running
	// job only if its instantaneous xfactor exceeds ResumeFactor times
	// that job's, as SS's suspension factor does for xfactors. 1 is the
	// plain priority comparison.
	ResumeFactor float64
	// HoldRemembered keeps the free processors a suspended job remembers
	// from jobs that never ran: an arriving job that does not fit on the
	// other free processors suspends running jobs (as if those processors
	// were busy) or, if that would not make room, waits. Suspensions then
	// come from arrivals only, and a suspended job gets its processors
	// back as their users leave.
	HoldRemembered bool
	// TimeslicePreemptible lets an arriving job suspend a job that is
	// still in its own immediate timeslice (but not one (re)started at
	// this instant). Without it the timeslice is not interrupted.
	TimeslicePreemptible bool
	// TimesliceYield ends an arriving job's immediate timeslice as a
	// timeslice: when the job has done Timeslice of work while a job it
	// suspended to start is still suspended on processors it holds, it is
	// suspended in turn (once), and comes back as suspended jobs do.
	TimesliceYield bool
	// Overhead is the suspend/resume cost model; the zero value is none.
	Overhead Overhead
}

// ReclaimHold is the protection of running jobs from reclaims, the
// suspensions a suspended job makes to take its processors back under
// [ISConfig.ResumePreempt].
type ReclaimHold string

const (
	// ReclaimHoldTimeslice protects a job until it has run a timeslice
	// since it last (re)started: after its arrival, after a resumption
	// and after a reclaim alike. "" means it.
	ReclaimHoldTimeslice ReclaimHold = "timeslice"
	// ReclaimHoldFirst protects only the immediate timeslice section 2.3
	// gives an arriving job: a job that has done Timeslice of work in all
	// may be suspended by a reclaim at any time after the instant it
	// (re)started, as by an arrival.
	ReclaimHoldFirst ReclaimHold = "first"
)

// ReclaimHolds returns the valid [ReclaimHold] values, the default first.
func ReclaimHolds() []string {
	return []string{string(ReclaimHoldTimeslice), string(ReclaimHoldFirst)}
}

// DefaultISConfig returns the IS settings of Chiang and Vernon, without
// overhead; suspended jobs resume on free processors only (the
// Kettimuthu et al. specs set [ISConfig.ResumePreempt]).
func DefaultISConfig() ISConfig { return ISConfig{Timeslice: DefaultTimeslice} }

// Validate checks the configuration; errors wrap [ErrInvalidConfig].
func (c ISConfig) Validate() error {
	if c.Timeslice < 1 {
		return fmt.Errorf("%w: timeslice %d s, want >= 1", ErrInvalidConfig, c.Timeslice)
	}
	switch c.ReclaimHold {
	case "", ReclaimHoldTimeslice, ReclaimHoldFirst:
	default:
		return fmt.Errorf("%w: reclaim hold %q, want %q or %q", ErrInvalidConfig, c.ReclaimHold, ReclaimHoldTimeslice, ReclaimHoldFirst)
	}
	if c.ResumeFactor != 0 && !(c.ResumeFactor >= 1 && !math.IsInf(c.ResumeFactor, 1)) {
		return fmt.Errorf("%w: resume factor %g, want >= 1 and finite", ErrInvalidConfig, c.ResumeFactor)
	}
	return c.Overhead.Validate()
}

// IS is immediate service (Chiang and Vernon 2001, as Kettimuthu et al.
// 2005 section 2.3 describe it). See the package documentation for the
// rules.
type IS struct {
	core
	cfg     ISConfig
	waiting []*sim.Task // never started, not claimants, arrival order
	susp    []*sim.Task // Suspending or Suspended, not claimants
	run     []*sim.Task // scratch: running jobs that may be suspended
	ready   []*sim.Task // scratch: suspended jobs whose processors are free
	cand    []*sim.Task // scratch
	ixf     []float64   // scratch: instantaneous xfactor by task index
	bnd     bounds      // suspended jobs by bound, when isBounded
	fired   []*sim.Task // scratch
	// reference makes every pass try every suspended job, and the routine
	// run every minute while jobs are suspended: the plain algorithm,
	// kept to test the bounds against.
	reference bool
	timer     sim.Timer
	timerAt   sim.Time
	yield     yielders // jobs that may yield at their timeslice's end
}

var _ sim.Policy = (*IS)(nil)

// NewIS returns an IS policy.
func NewIS(cfg ISConfig) (*IS, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.ResumeFactor == 0 {
		cfg.ResumeFactor = 1
	}
	return &IS{cfg: cfg}, nil
}

// Init implements [sim.Policy].
func (p *IS) Init(m *sim.Machine) error {
	p.core.init(m, p.cfg.Overhead)
	p.ixf = make([]float64, m.NumTasks())
	p.bnd.init(m.NumTasks())
	p.waiting, p.susp = p.waiting[:0], p.susp[:0]
	p.timerAt = -1
	p.yield.init(m.NumTasks(), p.cfg.TimesliceYield)
	return nil
}

// Arrive implements [sim.Policy].
func (p *IS) Arrive(t *sim.Task) { p.waiting = append(p.waiting, t) }

// instXfactor returns (wait + work done) / work done; t must have done
// some work.
func instXfactor(t *sim.Task, now sim.Time) float64 {
	run := t.WorkDone(now)
	wait := now - t.Submit - run
	return float64(wait+run) / float64(run)
}

// Schedule gives every job that never ran its timeslice, suspending
// running jobs if needed, then resumes suspended jobs whose processors
// are free, highest instantaneous xfactor first.
func (p *IS) Schedule() {
	now := p.m.Now()
	p.launchReady()
	p.yieldPass(now)
	ranked := false
	for _, t := range p.waiting {
		if t.State != sim.Waiting || p.pending[t.Index] {
			continue
		}
		if t.Procs <= p.availNew() {
			p.start(t)
			continue
		}
		if !ranked {
			p.victims(now)
			ranked = true
		}
		p.serve(t)
	}
	p.waiting = slices.DeleteFunc(p.waiting, func(t *sim.Task) bool { return !p.idle(t) })
	if p.isBounded() {
		p.resumeBounded(now)
		p.retry(now)
		return
	}
	ready := p.ready[:0]
	for _, t := range p.susp {
		if t.State == sim.Suspended && !p.pending[t.Index] && (p.cfg.ResumePreempt || p.cfg.ResumeAnywhere || p.canResume(t)) {
			p.ixf[t.Index] = instXfactor(t, now)
			ready = append(ready, t)
		}
	}
	if len(ready) > 0 {
		slices.SortFunc(ready, func(a, b *sim.Task) int {
			if c := cmp.Compare(p.ixf[b.Index], p.ixf[a.Index]); c != 0 {
				return c
			}
			return a.Index - b.Index
		})
		// floor is the lowest instantaneous xfactor of a job that may be
		// suspended; a suspended job at or below it cannot reclaim. Jobs
		// suspended or resumed in this loop only raise the true floor.
		floor := math.Inf(1)
		if p.cfg.ResumePreempt {
			for _, r := range p.m.Active() {
				if r.State == sim.Running && p.reclaimable(r, now) {
					floor = min(floor, instXfactor(r, now))
				}
			}
		}
		for _, t := range ready {
			if p.pending[t.Index] || t.State != sim.Suspended {
				continue
			}
			switch {
			case p.cfg.ResumeAnywhere:
				if t.Procs <= p.avail() {
					if set, ok := p.pick(p.availSet(), t.Procs); ok {
						p.resumeOn(t, set)
					}
				} else if p.cfg.ResumePreempt && p.ixf[t.Index] > p.cfg.ResumeFactor*floor {
					p.reclaimAnywhere(t, now)
				}
			case p.canResume(t):
				p.start(t)
			case p.cfg.ResumePreempt && p.ixf[t.Index] > p.cfg.ResumeFactor*floor:
				p.reclaim(t, now)
			}
		}
		p.susp = slices.DeleteFunc(p.susp, func(t *sim.Task) bool { return !p.idle(t) })
	}
	clear(ready)
	p.ready = ready[:0]
	p.retry(now)
}

// victims collects the running jobs that may be suspended: past their
// timeslice (any, with TimeslicePreemptible) and not (re)started at this
// instant, by ascending instantaneous xfactor.
func (p *IS) victims(now sim.Time) {
	p.run = p.run[:0]
	for _, t := range p.m.Active() {
		if t.State == sim.Running && t.Since < now && (p.cfg.TimeslicePreemptible || t.WorkDone(now) >= p.cfg.Timeslice) {
			p.ixf[t.Index] = instXfactor(t, now)
			p.run = append(p.run, t)
		}
	}
	slices.SortFunc(p.run, func(a, b *sim.Task) int {
		if c := cmp.Compare(p.ixf[a.Index], p.ixf[b.Index]); c != 0 {
			return c
		}
		return a.Index - b.Index
	})
}

// serve suspends running jobs for the Waiting job t: those of lowest
// instantaneous xfactor until t fits, then, from the highest of them
// down, any it turns out not to need. It does nothing if suspending every
// eligible job would not make room.
func (p *IS) serve(t *sim.Task) {
	p.yield.record(t, p.suspendFor(t, p.run, p.cfg.HoldRemembered))
}

// availNew returns the number of free unclaimed processors a job that
// never ran may take: all of them, or, under [ISConfig.HoldRemembered],
// those no suspended job remembers.
func (p *IS) availNew() int {
	if !p.cfg.HoldRemembered {
		return p.avail()
	}
	a := p.availSet()
	a.Subtract(p.held)
	return a.Len()
}

// suspendFor suspends, of the jobs in run (in that order, Running ones
// only), the first that together make room for the Waiting job t, then,
// from the last of them back, any it turns out not to need, and commits t
// to the processors they and the free ones give (with hold, only free
// ones no suspended job remembers). It does nothing if suspending all of
// them would not make room. It returns the jobs it suspended (scratch,
// valid until the next call).
func (p *IS) suspendFor(t *sim.Task, run []*sim.Task, hold bool) []*sim.Task {
	free := p.availSet()
	if hold {
		free.Subtract(p.held)
	}
	avail := free.Len()
	victims := p.cand[:0]
	for _, r := range run {
		if avail >= t.Procs {
			break
		}
		if r.State == sim.Running {
			victims = append(victims, r)
			avail += r.Procs
		}
	}
	p.cand = victims
	if avail < t.Procs {
		return nil
	}
	for i := len(victims) - 1; i >= 0; i-- {
		if avail-victims[i].Procs >= t.Procs {
			avail -= victims[i].Procs
			victims = slices.Delete(victims, i, i+1)
		}
	}
	set := p.claimSetFrom(t, victims, free)
	for _, v := range victims {
		p.suspendVictim(v, 0)
	}
	p.commit(t, set, victims)
	return victims
}

// reclaimable reports whether running job r may be suspended by a
// reclaim at now: it has run Timeslice since it last (re)started or, under
// [ReclaimHoldFirst], it has done Timeslice of work in all and did not
// (re)start at now.
func (p *IS) reclaimable(r *sim.Task, now sim.Time) bool {
	if p.cfg.ReclaimHold == ReclaimHoldFirst {
		return r.Since < now && r.WorkDone(now) >= p.cfg.Timeslice
	}
	return now-r.SegStart >= p.cfg.Timeslice
}

// reclaim suspends the running jobs holding a Suspended job's processors
// and resumes it, if every one of them is reclaimable and t's
// instantaneous xfactor exceeds ResumeFactor times its. A job in overhead
// or a claim on t's processors blocks it.
func (p *IS) reclaim(t *sim.Task, now sim.Time) {
	if len(p.claims) > 0 && p.claimed.Overlaps(t.Set) {
		return
	}
	x := p.ixf[t.Index]
	victims := p.cand[:0]
	for _, r := range p.m.Active() {
		if !r.Set.Overlaps(t.Set) {
			continue
		}
		if r.State != sim.Running || !p.reclaimable(r, now) || p.cfg.ResumeFactor*instXfactor(r, now) >= x {
			p.cand = victims[:0]
			return
		}
		victims = append(victims, r)
	}
	byIndex(victims)
	for _, v := range victims {
		p.suspendVictim(v, now+1)
	}
	p.cand = victims[:0]
	p.commit(t, t.Set, victims)
}

// reclaimAnywhere makes room for a Suspended job t under
// [ISConfig.ResumeAnywhere]: it suspends running jobs that are
// reclaimable and whose instantaneous xfactor
// times ResumeFactor is below t's, lowest first, until t fits, releases
// from the highest down any it turns out not to need, and resumes t on
// their processors topped up with free ones. It does nothing if they would not make room.
func (p *IS) reclaimAnywhere(t *sim.Task, now sim.Time) {
	x := p.ixf[t.Index]
	run := p.run[:0]
	for _, r := range p.m.Active() {
		if r.State == sim.Running && r.Since < now && p.reclaimable(r, now) {
			if y := instXfactor(r, now); p.cfg.ResumeFactor*y < x {
				p.ixf[r.Index] = y
				run = append(run, r)
			}
		}
	}
	slices.SortFunc(run, func(a, b *sim.Task) int {
		if c := cmp.Compare(p.ixf[a.Index], p.ixf[b.Index]); c != 0 {
			return c
		}
		return a.Index - b.Index
	})
	p.run = run
	p.suspendFor(t, run, false)
}

// retry sets a timer for the earliest instant a running job becomes
// eligible for suspension, while a job still waits for its timeslice.
func (p *IS) retry(now sim.Time) {
	next := sim.Never
	if p.isBounded() {
		if p.bnd.Len() > 0 {
			next = p.boundedTick(now)
		}
	} else if p.cfg.ResumePreempt && len(p.susp) > 0 {
		// Suspended jobs gain priority while they wait: look again a
		// minute later (the preemption interval of SS).
		next = now + DefaultInterval - now%DefaultInterval
	}
	next = min(next, p.yieldNext(now))
	if len(p.waiting) == 0 {
		p.setTimer(now, next)
		return
	}
	for _, t := range p.m.Active() {
		if t.State != sim.Running {
			continue
		}
		if w := t.WorkDone(now); w < p.cfg.Timeslice {
			next = min(next, now+p.cfg.Timeslice-w)
		} else if t.Since == now {
			next = min(next, now+1)
		}
	}
	p.setTimer(now, next)
}

// setTimer makes the routine run at next unless a timer set earlier
// already does it sooner.
func (p *IS) setTimer(now, next sim.Time) {
	if next == sim.Never || (p.timerAt > now && p.timerAt <= next) {
		return
	}
	p.m.CancelTimer(p.timer)
	p.timer = p.m.SetTimer(next, 0)
	p.timerAt = next
}
