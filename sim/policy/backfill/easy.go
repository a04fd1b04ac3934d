package backfill

import "github.com/schedfarm/schedfarm/sim"

// EASY is aggressive backfilling with one reservation, for the first
// waiting job that does not fit.
type EASY struct {
	m    *sim.Machine
	q    queue
	prof *sim.Profile // running jobs by estimate
}

var _ sim.Policy = (*EASY)(nil)

// NewEASY returns an EASY backfilling policy.
func NewEASY() *EASY { return &EASY{} }

// Init implements [sim.Policy].
func (p *EASY) Init(m *sim.Machine) error {
	p.m = m
	p.prof = sim.NewProfile(m.Size(), 0)
	return checkEstimates(m)
}

// Arrive implements [sim.Policy].
func (p *EASY) Arrive(t *sim.Task) { p.q = append(p.q, t) }

// Finish gives back the rest of the job's estimated time.
func (p *EASY) Finish(t *sim.Task) {
	now := p.m.Now()
	p.prof.Advance(now)
	if end := t.FirstStart + t.Estimate; end > now {
		_ = p.prof.Release(now, end-now, t.Procs)
	}
}

// Timer implements [sim.Policy].
func (p *EASY) Timer(int) {}

func (p *EASY) start(t *sim.Task) bool {
	if p.m.Start(t) != nil {
		return false
	}
	_ = p.prof.Reserve(p.m.Now(), t.Estimate, t.Procs)
	return true
}

// Schedule starts jobs in order while they fit, reserves for the first one
// that does not and backfills the rest around that reservation.
func (p *EASY) Schedule() {
	now := p.m.Now()
	p.prof.Advance(now)
	i := 0
	for i < len(p.q) && p.q[i].Procs <= p.m.Free() && p.start(p.q[i]) {
		i++
	}
	n := copy(p.q, p.q[i:])
	clear(p.q[n:])
	p.q = p.q[:n]
	if len(p.q) < 2 {
		if len(p.q) == 1 {
			head := p.q[0]
			p.m.Promise(head, p.prof.EarliestStart(now, head.Procs, head.Estimate))
		}
		return
	}
	head := p.q[0]
	shadow := p.prof.EarliestStart(now, head.Procs, head.Estimate)
	p.m.Promise(head, shadow)
	_ = p.prof.Reserve(shadow, head.Estimate, head.Procs)
	started := false
	for _, t := range p.q[1:] {
		free := p.m.Free()
		if free == 0 {
			break
		}
		if t.Procs <= free && p.prof.Fits(now, t.Estimate, t.Procs) && p.start(t) {
			started = true
		}
	}
	_ = p.prof.Release(shadow, head.Estimate, head.Procs)
	if started {
		p.q = p.q.removeStarted()
	}
}
