// Command library is a schedfarm binary with one more policy: the example
// of schedfarm used as a Go library. A policy written in Go is registered
// with policy.Register (an entry as in the built-in table) and the binary
// is schedfarm's own command line, every command included (sim, run,
// coordinator, worker, reproduce, ...):
//
//	go build -o myfarm ./examples/library
//	./myfarm sim --trace traces/KTH-SP2-1996-2.1-cln.swf.gz --policy smallest-first
package main

import (
	"os"
	"slices"

	"github.com/schedfarm/schedfarm/cli/schedfarm"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy"
)

func init() {
	err := policy.Register(policy.Entry{
		Name: "smallest-first", Family: "example",
		Doc: "starts the waiting jobs that fit, fewest processors first (ties by arrival); no reservations",
		Params: []policy.Param{
			{Name: "limit", Kind: policy.Int, Default: int64(0), Min: 0, Max: 1 << 20,
				Doc: "start at most this many jobs per instant (0: no limit)"},
		},
		Build: func(v policy.Values, _ policy.Env) (sim.Policy, error) {
			return &smallestFirst{limit: int(v.Int("limit"))}, nil
		},
	})
	if err != nil {
		panic(err)
	}
}

func main() { os.Exit(schedfarm.Main(schedfarm.Stamp{})) }

// smallestFirst is the example policy.
type smallestFirst struct {
	m     *sim.Machine
	limit int
	q     []*sim.Task
}

var _ sim.Policy = (*smallestFirst)(nil)

func (p *smallestFirst) Init(m *sim.Machine) error { p.m = m; return nil }
func (p *smallestFirst) Arrive(t *sim.Task)        { p.q = append(p.q, t) }
func (p *smallestFirst) Finish(*sim.Task)          {}
func (p *smallestFirst) Timer(int)                 {}

// Schedule starts jobs by size while they fit.
func (p *smallestFirst) Schedule() {
	slices.SortStableFunc(p.q, func(a, b *sim.Task) int { return a.Procs - b.Procs })
	started, kept := 0, p.q[:0]
	for _, t := range p.q {
		if t.Procs <= p.m.Free() && (p.limit == 0 || started < p.limit) && p.m.Start(t) == nil {
			started++
			continue
		}
		kept = append(kept, t)
	}
	clear(p.q[len(kept):])
	p.q = kept
}
