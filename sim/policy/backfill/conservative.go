package backfill

import (
	"cmp"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// Conservative is conservative backfilling: a reservation for every job.
type Conservative struct {
	m        *sim.Machine
	prof     *sim.Profile // running jobs and reservations, by estimate
	q        queue        // waiting jobs by (reservation, arrival)
	resv     []sim.Time   // reservation by task index
	compress bool         // a job ended early since the last compression
	timer    sim.Timer
}

var _ sim.Policy = (*Conservative)(nil)

// NewConservative returns a conservative backfilling policy.
func NewConservative() *Conservative { return &Conservative{} }

// Init implements [sim.Policy].
func (p *Conservative) Init(m *sim.Machine) error {
	p.m = m
	p.prof = sim.NewProfile(m.Size(), 0)
	p.resv = make([]sim.Time, m.NumTasks())
	return checkEstimates(m)
}

// Arrive places the job at its anchor point, after compressing the
// schedule if a job ended early at this instant.
func (p *Conservative) Arrive(t *sim.Task) {
	p.compact()
	now := p.m.Now()
	at := p.prof.EarliestStart(now, t.Procs, t.Estimate)
	_ = p.prof.Reserve(at, t.Estimate, t.Procs)
	p.resv[t.Index] = at
	p.m.Promise(t, at)
	// Keep q sorted by (reservation, arrival): the new job is last among
	// equal reservations.
	i, _ := slices.BinarySearchFunc(p.q, t, p.before)
	p.q = slices.Insert(p.q, i, t)
}

// before orders jobs by (reservation, arrival).
func (p *Conservative) before(a, b *sim.Task) int {
	if ra, rb := p.resv[a.Index], p.resv[b.Index]; ra != rb {
		return cmp.Compare(ra, rb)
	}
	return cmp.Compare(a.Index, b.Index)
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

// compact compresses the schedule if needed: release and re-place each
// reservation in order of start time.
func (p *Conservative) compact() {
	now := p.m.Now()
	p.prof.Advance(now)
	if !p.compress {
		return
	}
	p.compress = false
	moved := false
	for _, t := range p.q {
		old := p.resv[t.Index]
		if old <= now {
			continue
		}
		_ = p.prof.Release(old, t.Estimate, t.Procs)
		at := p.prof.EarliestStart(now, t.Procs, t.Estimate)
		_ = p.prof.Reserve(at, t.Estimate, t.Procs)
		if at != old {
			p.resv[t.Index] = at
			p.m.Promise(t, at)
			moved = true
		}
	}
	if moved {
		slices.SortFunc(p.q, p.before)
	}
}

// Schedule starts the jobs whose reservation has come.
func (p *Conservative) Schedule() {
	p.compact()
	now := p.m.Now()
	i := 0
	for i < len(p.q) && p.resv[p.q[i].Index] <= now {
		if p.m.Start(p.q[i]) != nil {
			return
		}
		i++
	}
	n := copy(p.q, p.q[i:])
	clear(p.q[n:])
	p.q = p.q[:n]
	p.m.CancelTimer(p.timer)
	if len(p.q) > 0 {
		p.timer = p.m.SetTimer(p.resv[p.q[0].Index], 0)
	}
}
