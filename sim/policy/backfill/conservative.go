package backfill

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// Order is the order in which conservative backfilling re-places the
// waiting jobs' reservations when it compresses the schedule (see the
// package doc).
type Order uint8

// Compression orders.
const (
	// StartOrder re-places reservations in order of their start times
	// (ties by arrival): the default.
	StartOrder Order = iota
	// QueueOrder re-places reservations in queue (arrival) order.
	QueueOrder
)

// orderNames are the orders' names, as specs spell them.
var orderNames = [...]string{StartOrder: "start_order", QueueOrder: "queue_order"}

// OrderNames returns the names of the compression orders, default first.
func OrderNames() []string { return orderNames[:] }

// String returns the order's name ("start_order" or "queue_order").
func (o Order) String() string {
	if int(o) < len(orderNames) {
		return orderNames[o]
	}
	return fmt.Sprintf("Order(%d)", o)
}

// ParseOrder returns the order called name.
func ParseOrder(name string) (Order, error) {
	for i, n := range orderNames {
		if n == name {
			return Order(i), nil
		}
	}
	return 0, fmt.Errorf("unknown compression order %q (valid: start_order, queue_order)", name)
}

// Conservative is conservative backfilling: a reservation for every job.
type Conservative struct {
	// Order is the compression order (default [StartOrder]).
	Order Order
	// Rank, when not [RankFCFS], is the compression order instead: the
	// waiting jobs are re-placed in the rank's order at that instant.
	Rank Rank

	// Shape, when set, is called for every arriving job before it is
	// placed, with the profile of running jobs and reservations
	// (compressed, its origin at now). It may change the job's size
	// ([sim.Machine.Mold]) but must leave the profile as it found it. The
	// moldable policies choose a job's size there.
	Shape func(t *sim.Task, prof *sim.Profile)

	m        *sim.Machine
	prof     *sim.Profile // running jobs and reservations, by estimate
	q        []*planned   // waiting jobs by (reservation, arrival)
	compress bool         // a job ended early since the last compression
	timer    sim.Timer

	// byArrival holds the waiting jobs by arrival, for QueueOrder, and
	// some that have started (dropped when they are half of it).
	byArrival []*planned
	started   int // started jobs in byArrival

	moved []*planned   // scratch: the jobs a compression moved
	rbuf  []rankedPlan // scratch: the waiting jobs in the rank's order

	comp sim.Compaction // releases since the last compression
	full bool           // compress with Profile.Compress (tests compare)
}

// planned is a waiting job and its reservation.
type planned struct {
	t        *sim.Task
	r        sim.Reservation
	promised sim.Time // the start last promised (r.Start until a move)
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
	at := p.prof.EarliestStart(now, t.Procs, t.Estimate)
	e := &planned{t, sim.Reservation{Start: at, Dur: t.Estimate, Procs: t.Procs}, at}
	p.m.Check(p.prof.Reserve(e.r.Start, e.r.Dur, e.r.Procs))
	p.m.Promise(t, e.r.Start)
	// Keep q sorted by (reservation, arrival): the new job is last among
	// equal reservations.
	i, _ := slices.BinarySearchFunc(p.q, e, before)
	p.q = slices.Insert(p.q, i, e)
	if p.Order == QueueOrder {
		// Jobs arrive in index order; insert by index all the same.
		i, _ := slices.BinarySearchFunc(p.byArrival, e, byIndex)
		p.byArrival = slices.Insert(p.byArrival, i, e)
	}
}

// byIndex orders jobs by arrival.
func byIndex(a, b *planned) int { return cmp.Compare(a.t.Index, b.t.Index) }

// before orders jobs by (reservation, arrival).
func before(a, b *planned) int {
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
		p.m.Check(p.prof.Release(now, end-now, t.Procs))
		if p.Rank == RankFCFS {
			p.comp.Released(now, end-now, t.Procs)
		}
		p.compress = true
	}
}

// Timer implements [sim.Policy].
func (p *Conservative) Timer(int) {}

// compact compresses the schedule if a job ended early: every reservation
// is released and placed again, in order of start time or of arrival.
func (p *Conservative) compact() {
	p.prof.Advance(p.m.Now())
	if !p.compress {
		return
	}
	p.compress = false
	if p.Rank != RankFCFS {
		p.compactRanked()
		return
	}
	r, n := func(i int) *sim.Reservation { return &p.q[i].r }, len(p.q)
	if p.Order == QueueOrder {
		// Visit the jobs by arrival; those that started have their
		// reservation at or before now, which Compress leaves alone.
		r, n = func(i int) *sim.Reservation { return &p.byArrival[i].r }, len(p.byArrival)
	}
	if p.full {
		if p.prof.Compress(p.m.Now(), n, r) {
			p.resort()
		}
		return
	}
	p.comp.Carry = p.Order != StartOrder
	if !p.prof.CompressWith(&p.comp, p.m.Now(), n, r) {
		return
	}
	if p.Order == StartOrder {
		p.resortMoved(p.comp.Moved)
	} else {
		// The moved jobs' places in q would be found by binary
		// searches, which cost more than the pass (measured).
		p.resort()
	}
}

// compactRanked compresses the schedule re-placing the waiting jobs in
// the rank's order at now (ties by arrival), each at the earliest time it
// fits in the profile as it is then ([sim.Profile.Compress]).
func (p *Conservative) compactRanked() {
	now := p.m.Now()
	buf := p.rbuf[:0]
	for _, e := range p.q {
		buf = append(buf, rankedPlan{p.Rank.Key(e.t, now), e})
	}
	slices.SortFunc(buf, func(a, b rankedPlan) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.e.t.Index, b.e.t.Index)
	})
	r := func(i int) *sim.Reservation { return &buf[i].e.r }
	if p.prof.Compress(now, len(buf), r) {
		p.resort()
	}
	clear(buf)
	p.rbuf = buf[:0]
}

// rankedPlan is a waiting job and its rank's key.
type rankedPlan struct {
	key float64
	e   *planned
}

// resortMoved is resort in start order, given the places in q of the
// jobs the compression moved (increasing; CompressWith visited q in
// order): the others are closed up over them, and the moved ones, sorted
// by their new starts, are put back at places found by a search from the
// place of the one after them: O(m log d) comparisons for places d
// apart and O(len(q)) pointer copies, without looking at the jobs that
// did not move.
func (p *Conservative) resortMoved(pos []int) {
	mv := p.moved[:0]
	for _, k := range pos {
		mv = append(mv, p.q[k])
	}
	// Close up q over the moved jobs.
	w := pos[0]
	for j, k := range pos {
		end := len(p.q)
		if j+1 < len(pos) {
			end = pos[j+1]
		}
		w += copy(p.q[w:], p.q[k+1:end])
	}
	for _, e := range mv {
		p.m.Promise(e.t, e.r.Start)
		e.promised = e.r.Start
	}
	slices.SortFunc(mv, before)
	// Put them back from the last: q[:hi] holds the jobs not yet placed
	// (all kept), so the kept ones after a moved job's place shift up by
	// the number of moved jobs at or before it.
	hi := w
	for j := len(mv) - 1; j >= 0; j-- {
		// Gallop down from hi to a lo that goes before mv[j].
		lo, d := hi, 1
		for lo > 0 && before(p.q[lo-1], mv[j]) > 0 {
			hi = lo - 1
			lo = max(lo-d, 0)
			d *= 2
		}
		k, _ := slices.BinarySearchFunc(p.q[lo:hi], mv[j], before)
		k += lo
		copy(p.q[k+j+1:], p.q[k:w])
		p.q[k+j] = mv[j]
		hi, w = k, k
	}
	clear(mv)
	p.moved = mv[:0]
}

// resort restores q's order after a compression and promises the moved
// jobs their new starts. A job that moved no longer has its reservation
// where it was promised; the others keep their order, so the moved ones
// are taken out, sorted and merged back: O(len(q) + m log m) for m moved.
func (p *Conservative) resort() {
	kept, mv := p.q[:0], p.moved[:0]
	for _, e := range p.q {
		if e.r.Start != e.promised {
			p.m.Promise(e.t, e.r.Start)
			e.promised = e.r.Start
			mv = append(mv, e)
			continue
		}
		kept = append(kept, e)
	}
	slices.SortFunc(mv, before)
	// Merge from the back: kept is a prefix of q, the rest of q is free.
	i, j := len(kept)-1, len(mv)-1
	for k := len(p.q) - 1; j >= 0; k-- {
		if i >= 0 && before(kept[i], mv[j]) > 0 {
			p.q[k] = kept[i]
			i--
		} else {
			p.q[k] = mv[j]
			j--
		}
	}
	clear(mv)
	p.moved = mv[:0]
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
	if p.started += i; p.started > len(p.byArrival)/2 {
		w := p.byArrival[:0]
		for _, e := range p.byArrival {
			if e.t.State == sim.Waiting {
				w = append(w, e)
			}
		}
		clear(p.byArrival[len(w):])
		p.byArrival, p.started = w, 0
	}
	p.m.CancelTimer(p.timer)
	if len(p.q) > 0 {
		p.timer = p.m.SetTimer(p.q[0].r.Start, 0)
	}
}
