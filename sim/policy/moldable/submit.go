package moldable

import (
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
)

// Submit is moldable-submit: conservative backfilling that chooses each
// job's size at arrival against the profile of running jobs and every
// reservation, then keeps it (see the package documentation).
type Submit struct {
	*backfill.Conservative
	// Observe, when set, is called with every size decision (for
	// invariant checks in tests).
	Observe func(now sim.Time, s Step)

	ch chooser
	m  *sim.Machine
}

var _ sim.Policy = (*Submit)(nil)

// NewSubmit returns a moldable-submit policy; the reservation options of
// cfg are not used. Errors wrap [ErrInvalidConfig].
func NewSubmit(cfg Config) (*Submit, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	p := &Submit{Conservative: backfill.NewConservative(), ch: chooser{cfg: cfg}}
	p.Conservative.Shape = p.shape
	return p, nil
}

// Init implements [sim.Policy]; it fails with [ErrRigidWorkload] on a
// rigid workload.
func (p *Submit) Init(m *sim.Machine) error {
	p.m = m
	p.ch.size = m.Size()
	if err := checkMoldable(m, "moldable-submit"); err != nil {
		return err
	}
	return p.Conservative.Init(m)
}

// Arrive counts the job in the fair-share sum and places it.
func (p *Submit) Arrive(t *sim.Task) {
	p.ch.add(t)
	p.Conservative.Arrive(t)
}

// Finish takes the job out of the fair-share sum.
func (p *Submit) Finish(t *sim.Task) {
	p.ch.remove(t)
	p.Conservative.Finish(t)
}

// shape molds an arriving job to its best size.
func (p *Submit) shape(t *sim.Task, prof *sim.Profile) {
	a := t.Mold
	lim := p.ch.limit(a)
	b := p.ch.best(prof, a, lim, p.m.Now())
	_ = p.m.Mold(t, b.k) // a refused call ends the run (sim.ErrPolicy)
	if p.Observe != nil {
		p.Observe(p.m.Now(), Step{Task: t, K: b.k, S: b.s, E: b.e, Lim: lim})
	}
}
