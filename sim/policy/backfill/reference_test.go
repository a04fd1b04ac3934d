package backfill_test

import (
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// The reference policies below are deliberately simple and share nothing
// with the fast ones (no sim.Profile): EASY recomputes the shadow time
// from the running jobs at every pass, conservative finds anchor points by
// scanning every block end. The fast policies must produce the same
// schedules.

// refEASY is textbook EASY: start jobs in order while they fit; the first
// that does not gets the shadow time and the extra processors; later jobs
// start if they fit now and end by the shadow time or use no more than
// the extra processors.
type refEASY struct {
	m *sim.Machine
	q []*sim.Task
}

func (p *refEASY) Init(m *sim.Machine) error { p.m = m; return nil }
func (p *refEASY) Arrive(t *sim.Task)        { p.q = append(p.q, t) }
func (p *refEASY) Finish(*sim.Task)          {}
func (p *refEASY) Timer(int)                 {}
func (p *refEASY) Schedule() {
	now := p.m.Now()
	for len(p.q) > 0 && p.q[0].Procs <= p.m.Free() {
		_ = p.m.Start(p.q[0])
		p.q = p.q[1:]
	}
	if len(p.q) < 2 {
		return
	}
	head := p.q[0]
	run := slices.Clone(p.m.Active())
	sort.Slice(run, func(i, j int) bool { return run[i].FirstStart+run[i].Estimate < run[j].FirstStart+run[j].Estimate })
	free, shadow := p.m.Free(), sim.Time(0)
	for _, r := range run {
		free += r.Procs
		if free >= head.Procs {
			shadow = r.FirstStart + r.Estimate
			break
		}
	}
	// Free processors at the shadow time: all whose estimated end is <= shadow.
	atShadow := p.m.Free()
	for _, r := range run {
		if r.FirstStart+r.Estimate <= shadow {
			atShadow += r.Procs
		}
	}
	extra := atShadow - head.Procs
	rest := p.q[:1]
	for _, t := range p.q[1:] {
		if t.Procs <= p.m.Free() && (now+t.Estimate <= shadow || t.Procs <= extra) {
			if now+t.Estimate > shadow {
				extra -= t.Procs
			}
			_ = p.m.Start(t)
			continue
		}
		rest = append(rest, t)
	}
	p.q = rest
}

// block is a planned or running use of processors.
type block struct {
	start, end sim.Time
	procs      int
}

// refConservative keeps a list of blocks and finds each anchor point by
// trying now and every block end in turn. Compression takes the waiting
// jobs in order of reservation start (start_order) or, with queue set, in
// arrival order (queue_order); each is re-placed at its earliest start
// with every other job where it is at that moment.
type refConservative struct {
	m     *sim.Machine
	q     []*sim.Task // by (reservation, arrival)
	resv  map[*sim.Task]sim.Time
	early bool
	queue bool
}

func (p *refConservative) Init(m *sim.Machine) error {
	p.m, p.resv = m, map[*sim.Task]sim.Time{}
	return nil
}

func (p *refConservative) blocks(skip *sim.Task) []block {
	var bs []block
	for _, r := range p.m.Active() {
		bs = append(bs, block{r.FirstStart, r.FirstStart + r.Estimate, r.Procs})
	}
	for _, t := range p.q {
		if t != skip {
			bs = append(bs, block{p.resv[t], p.resv[t] + t.Estimate, t.Procs})
		}
	}
	return bs
}

func (p *refConservative) anchor(t *sim.Task) sim.Time {
	now := p.m.Now()
	bs := p.blocks(t)
	cands := []sim.Time{now}
	for _, b := range bs {
		if b.end > now {
			cands = append(cands, b.end)
		}
	}
	slices.Sort(cands)
	for _, s := range cands {
		ok := true
		// Capacity is checked at s and at every block start inside [s, s+est).
		points := []sim.Time{s}
		for _, b := range bs {
			if b.start > s && b.start < s+t.Estimate {
				points = append(points, b.start)
			}
		}
		for _, x := range points {
			used := 0
			for _, b := range bs {
				if b.start <= x && x < b.end {
					used += b.procs
				}
			}
			if used+t.Procs > p.m.Size() {
				ok = false
				break
			}
		}
		if ok {
			return s
		}
	}
	panic("no anchor point")
}

func (p *refConservative) sortQ() {
	sort.SliceStable(p.q, func(i, j int) bool {
		if p.resv[p.q[i]] != p.resv[p.q[j]] {
			return p.resv[p.q[i]] < p.resv[p.q[j]]
		}
		return p.q[i].Index < p.q[j].Index
	})
}

func (p *refConservative) compress() {
	if !p.early {
		return
	}
	p.early = false
	order := slices.Clone(p.q)
	if p.queue {
		sort.Slice(order, func(i, j int) bool { return order[i].Index < order[j].Index })
	}
	for _, t := range order {
		if p.resv[t] > p.m.Now() {
			p.resv[t] = p.anchor(t)
		}
	}
	p.sortQ()
}

func (p *refConservative) Arrive(t *sim.Task) {
	p.compress()
	p.resv[t] = p.anchor(t)
	p.q = append(p.q, t)
	p.sortQ()
}

func (p *refConservative) Finish(t *sim.Task) {
	if t.FirstStart+t.Estimate > p.m.Now() {
		p.early = true
	}
}

func (p *refConservative) Timer(int) {}

func (p *refConservative) Schedule() {
	p.compress()
	for len(p.q) > 0 && p.resv[p.q[0]] <= p.m.Now() {
		_ = p.m.Start(p.q[0])
		p.q = p.q[1:]
	}
	if len(p.q) > 0 {
		p.m.SetTimer(p.resv[p.q[0]], 0)
	}
}

// TestAgainstReference runs the fast EASY and conservative (both
// compression orders) policies and the reference ones on subsets of the
// real traces, accurate and trace estimates, at loads 1.0, 1.4 and 1.6,
// and requires identical start times for every job.
func TestAgainstReference(t *testing.T) {
	count := 1500
	if testing.Short() {
		count = 400
	}
	queueOrder := func() sim.Policy {
		c := backfill.NewConservative()
		c.Order = backfill.QueueOrder
		return c
	}
	for _, name := range traceNames {
		tr := readTrace(t, name)
		for _, est := range []workload.EstimateModel{workload.EstimateAccurate, workload.EstimateTrace} {
			for _, load := range []float64{1, 1.4, 1.6} {
				n := count
				switch {
				case load > 1.5:
					n = count / 2 // longer queues: the reference is quadratic
				case load > 1:
					n = count * 2 / 3
				}
				wl, err := tr.Build(workload.Options{Estimates: est, Skip: 3000, Count: n, Load: load})
				if err != nil {
					t.Fatal(err)
				}
				for _, pair := range []struct {
					name      string
					fast, ref sim.Policy
				}{
					{"easy", backfill.NewEASY(), &refEASY{}},
					{"conservative", backfill.NewConservative(), &refConservative{}},
					{"conservative-queue_order", queueOrder(), &refConservative{queue: true}},
				} {
					t.Run(fmt.Sprintf("%s/%s/%v/load%g", pair.name, name, est, load), func(t *testing.T) {
						sameStarts(t, wl, pair.fast, pair.ref, "reference")
					})
				}
			}
		}
	}
}
