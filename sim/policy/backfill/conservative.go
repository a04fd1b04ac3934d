package backfill

import (
	"cmp"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// Conservative is conservative backfilling: a reservation for every job.
type Conservative struct {
	// Shape, when set, is called for every arriving job before it is
	// placed, with the profile of running jobs and reservations
	// (compressed, its origin at now). It may change the job's size
	// ([sim.Machine.Mold]) but must leave the profile as it found it. The
	// moldable policies choose a job's size there.
	Shape func(t *sim.Task, prof *sim.Profile)

	m        *sim.Machine
	prof     *sim.Profile // running jobs and reservations, by estimate
	q        []planned    // waiting jobs by (reservation, arrival)
	compress bool         // a job ended early since the last compression
	timer    sim.Timer
}

// planned is a waiting job and its reservation.
type planned struct {
	t *sim.Task
	r sim.Reservation
}

var _ sim.Policy = (*Conservative)(nil)

// NewConservative returns a conservative backfilling policy.
func NewConservative() *Conservative { return &Conservative{} }

// Init implements [sim.Policy].
func (p *Conservative) Init(m *sim.Machine) error {
	p.m = m
	p.prof = sim.NewProfile(m.Size(), 0)
	return checkEstimates(m)
}

// Arrive places the job at its anchor point, after compressing the
// schedule if a job ended early at this instant.
func (p *Conservative) Arrive(t *sim.Task) {
	p.compact()
	now := p.m.Now()
	if p.Shape != nil {
		p.Shape(t, p.prof)
	}
	e := planned{t, sim.Reservation{Start: p.prof.EarliestStart(now, t.Procs, t.Estimate), Dur: t.Estimate, Procs: t.Procs}}
	_ = p.prof.Reserve(e.r.Start, e.r.Dur, e.r.Procs)
	p.m.Promise(t, e.r.Start)
	// Keep q sorted by (reservation, arrival): the new job is last among
	// equal reservations.
	i, _ := slices.BinarySearchFunc(p.q, e, before)
	p.q = slices.Insert(p.q, i, e)
}

// before orders jobs by (reservation, arrival).
func before(a, b planned) int {
	if a.r.Start != b.r.Start {
		return cmp.Compare(a.r.Start, b.r.Start)
	}
	return cmp.Compare(a.t.Index, b.t.Index)
}

// Finish gives back the rest of the job's estimated time and asks for a
// compression when that is not nothing.
func (p *Conservative) Finish(t *sim.Task) {
	now := p.m.Now()
	p.prof.Advance(now)
	if end := t.FirstStart + t.Estimate; end > now {
		_ = p.prof.Release(now, end-now, t.Procs)
		p.compress = true
	}
}

// Timer implements [sim.Policy].
func (p *Conservative) Timer(int) {}

// compact compresses the schedule if a job ended early: every reservation
// is released and placed again, in order of start time.
func (p *Conservative) compact() {
	p.prof.Advance(p.m.Now())
	if !p.compress {
		return
	}
	p.compress = false
	if p.prof.Compress(p.m.Now(), len(p.q), func(i int) *sim.Reservation { return &p.q[i].r }) {
		for _, e := range p.q {
			p.m.Promise(e.t, e.r.Start)
		}
		slices.SortFunc(p.q, before)
	}
}

// Schedule starts the jobs whose reservation has come.
func (p *Conservative) Schedule() {
	p.compact()
	now := p.m.Now()
	i := 0
	for i < len(p.q) && p.q[i].r.Start <= now {
		if p.m.Start(p.q[i].t) != nil {
			return
		}
		i++
	}
	n := copy(p.q, p.q[i:])
	clear(p.q[n:])
	p.q = p.q[:n]
	p.m.CancelTimer(p.timer)
	if len(p.q) > 0 {
		p.timer = p.m.SetTimer(p.q[0].r.Start, 0)
	}
}
