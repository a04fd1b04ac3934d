package backfill

import "github.com/schedfarm/schedfarm/sim"

// FCFS starts waiting jobs in queue order while the first one fits,
// without backfilling: first come, first served in the default order.
type FCFS struct {
	// Rank is the queue order (default [RankFCFS], arrival).
	Rank Rank
	// Predict makes the order use runtime predictions instead of the
	// users' estimates (see the package doc).
	Predict bool

	pr *predictor
	m  *sim.Machine
	q  queue
	rk ranker
}

var _ sim.Policy = (*FCFS)(nil)

// NewFCFS returns an FCFS policy.
func NewFCFS() *FCFS { return &FCFS{} }

// Init implements [sim.Policy].
func (p *FCFS) Init(m *sim.Machine) error {
	p.m = m
	p.rk.r = p.Rank
	p.rk.reset(m.NumTasks())
	p.pr, p.rk.pr = nil, nil
	if p.Predict {
		p.pr = &predictor{}
		p.pr.init(m)
		p.rk.pr = p.pr
	}
	return nil
}

// Arrive implements [sim.Policy].
func (p *FCFS) Arrive(t *sim.Task) {
	if p.pr != nil {
		p.pr.arrive(t)
	}
	if p.Rank == RankFCFS {
		p.q = append(p.q, t)
		return
	}
	p.q = p.rk.insert(p.q, t, p.m.Now())
}

// Finish implements [sim.Policy].
func (p *FCFS) Finish(t *sim.Task) {
	if p.pr != nil {
		p.pr.finish(t)
	}
}

// Timer implements [sim.Policy].
func (p *FCFS) Timer(int) {}

// Schedule starts waiting jobs in order while the first one fits.
func (p *FCFS) Schedule() {
	p.rk.sort(p.q, p.m.Now())
	i := 0
	for i < len(p.q) && p.q[i].Procs <= p.m.Free() {
		if p.m.Start(p.q[i]) != nil {
			return
		}
		i++
	}
	n := copy(p.q, p.q[i:])
	clear(p.q[n:])
	p.q = p.q[:n]
}
