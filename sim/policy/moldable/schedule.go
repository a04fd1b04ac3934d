package moldable

import "github.com/schedfarm/schedfarm/sim"

// Schedule is moldable-schedule: aggressive backfilling that chooses each
// job's size when it starts, with reservations recomputed at every pass
// (see the package documentation).
type Schedule struct {
	// Observe, when set, is called at the end of every pass with what the
	// pass did, in order (for invariant checks in tests).
	Observe func(now sim.Time, steps []Step)

	cfg   Config
	ch    chooser
	m     *sim.Machine
	prof  *sim.Profile // running jobs by estimate
	q     []*sim.Task  // waiting jobs in submit order
	resv  []sim.Reservation
	steps []Step
	// held are the reservations kept between passes (KeepReservations).
	held map[*sim.Task]kept
}

// kept is a reservation kept between passes and the limit its size was
// chosen under.
type kept struct {
	choice
	lim int
}

// Step is one decision of a pass: a start (Start true, S = now) or a
// reservation of K processors from S for E seconds. Head marks the first
// job of the pass that could not start.
type Step struct {
	Task  *sim.Task
	Start bool
	Head  bool
	K     int
	S, E  sim.Time
	// Lim is the job's fair-share limit at the decision.
	Lim int
}

var _ sim.Policy = (*Schedule)(nil)

// NewSchedule returns a moldable-schedule policy; errors wrap
// [ErrInvalidConfig].
func NewSchedule(cfg Config) (*Schedule, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Schedule{cfg: cfg, ch: chooser{cfg: cfg}, held: map[*sim.Task]kept{}}, nil
}

// Init implements [sim.Policy]; it fails with [ErrRigidWorkload] on a
// rigid workload.
func (p *Schedule) Init(m *sim.Machine) error {
	p.m = m
	p.ch.size = m.Size()
	p.prof = sim.NewProfile(m.Size(), 0)
	return checkMoldable(m, "moldable-schedule")
}

// Arrive queues the job; it counts in the fair-share sum from now on.
func (p *Schedule) Arrive(t *sim.Task) {
	p.q = append(p.q, t)
	p.ch.add(t)
}

// Finish gives back the rest of the job's estimated time.
func (p *Schedule) Finish(t *sim.Task) {
	p.ch.remove(t)
	now := p.m.Now()
	p.prof.Advance(now)
	if end := t.FirstStart + t.Estimate; end > now {
		p.m.Check(p.prof.Release(now, end-now, t.Procs))
	}
}

// Timer implements [sim.Policy].
func (p *Schedule) Timer(int) {}

// Schedule runs one pass over the queue in submit order.
func (p *Schedule) Schedule() {
	now := p.m.Now()
	p.prof.Advance(now)
	p.resv = p.resv[:0]
	p.steps = p.steps[:0]
	// Kept reservations are in the profile before the walk, so that every
	// start and new reservation respects them.
	if p.cfg.KeepReservations {
		for _, t := range p.q {
			if h, ok := p.held[t]; ok {
				if h.s < now || p.prof.Reserve(h.s, h.e, h.k) != nil {
					delete(p.held, t) // cannot happen with estimates >= runtimes
				}
			}
		}
	}
	var seen [10]bool
	head := false
	queue := p.q[:0]
	for _, t := range p.q {
		a := t.Mold
		cat := category(a)
		h, held := p.held[t]
		if held {
			p.m.Check(p.prof.Release(h.s, h.e, h.k))
		}
		qualifies := held || !head ||
			(p.cfg.CategoryReservations && !seen[cat]) ||
			(p.cfg.XFactorReservations && p.ch.overXFactor(a, now-t.Submit))
		if p.prof.FreeAt(now) < a.Min && !qualifies {
			queue = append(queue, t)
			seen[cat] = true
			continue
		}
		lim := p.ch.limit(a)
		b := p.ch.best(p.prof, a, lim, now)
		if held {
			// The kept size, as early as it now fits (no later than
			// before), unless the fresh choice ends sooner.
			if x := (choice{k: h.k, s: p.prof.EarliestStart(now, h.k, h.e), e: h.e}); x.better(b) {
				b, lim = x, h.lim
			}
		}
		if b.s == now {
			delete(p.held, t)
			if p.m.Mold(t, b.k) != nil || p.m.Start(t) != nil {
				return
			}
			p.m.Check(p.prof.Reserve(now, b.e, b.k)) // fits: b.s came from the profile
			if p.Observe != nil {
				p.steps = append(p.steps, Step{Task: t, Start: true, K: b.k, S: now, E: b.e, Lim: lim})
			}
			continue
		}
		queue = append(queue, t)
		if qualifies {
			r := sim.Reservation{Start: b.s, Dur: b.e, Procs: b.k}
			p.m.Check(p.prof.Reserve(r.Start, r.Dur, r.Procs))
			p.resv = append(p.resv, r)
			if p.cfg.KeepReservations {
				if !held || h.choice != b {
					p.m.SetTimer(b.s, 0) // a pass at the reserved start
				}
				p.held[t] = kept{choice: b, lim: lim}
			}
			if p.Observe != nil {
				p.steps = append(p.steps, Step{Task: t, Head: !head, K: b.k, S: b.s, E: b.e, Lim: lim})
			}
		}
		head = true
		seen[cat] = true
	}
	clear(p.q[len(queue):])
	p.q = queue
	if p.Observe != nil {
		p.Observe(now, p.steps)
	}
	for _, r := range p.resv {
		p.m.Check(p.prof.Release(r.Start, r.Dur, r.Procs))
	}
}
