package backfill

import "github.com/schedfarm/schedfarm/sim"

// FCFS is first come, first served without backfilling.
type FCFS struct {
	m *sim.Machine
	q queue
}

var _ sim.Policy = (*FCFS)(nil)

// NewFCFS returns an FCFS policy.
func NewFCFS() *FCFS { return &FCFS{} }

// Init implements [sim.Policy].
func (p *FCFS) Init(m *sim.Machine) error { p.m = m; return nil }

// Arrive implements [sim.Policy].
func (p *FCFS) Arrive(t *sim.Task) { p.q = append(p.q, t) }

// Finish implements [sim.Policy].
func (p *FCFS) Finish(*sim.Task) {}

// Timer implements [sim.Policy].
func (p *FCFS) Timer(int) {}

// Schedule starts waiting jobs in order while the first one fits.
func (p *FCFS) Schedule() {
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
