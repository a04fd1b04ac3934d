package multiqueue

import (
	"fmt"

	"github.com/schedfarm/schedfarm/sim"
)

// partitions is the bookkeeping of section 3.2: the processors of each
// queue (P_q) and those of its running jobs (busy_q). It records and never
// restricts a decision.
type partitions struct {
	size  int
	procs [Queues]int
	busy  [Queues]int
	moves int64

	// Time integral of P_q from the first arrival on.
	started bool
	first   sim.Time
	last    sim.Time
	area    [Queues]float64
}

// init splits size processors: floor(size/4) each, the remainder to
// queues 1, 2, ... one each.
func (p *partitions) init(size int) {
	p.size = size
	for q := range p.procs {
		p.procs[q] = size / Queues
		if q < size%Queues {
			p.procs[q]++
		}
	}
}

// advance accumulates the time integral up to now.
func (p *partitions) advance(now sim.Time) {
	if !p.started {
		p.started, p.first, p.last = true, now, now
		return
	}
	if now > p.last {
		dt := float64(now - p.last)
		for q := range p.procs {
			p.area[q] += dt * float64(p.procs[q])
		}
		p.last = now
	}
}

// arrive marks a submission (the integral starts at the first one).
func (p *partitions) arrive(now sim.Time) { p.advance(now) }

// start books a job of queue q (1-based) and width w, moving processors
// from the other partitions' idle ones when its own are too few, and
// returns P_q after the start.
func (p *partitions) start(now sim.Time, q, w int) int {
	p.advance(now)
	i := q - 1
	rest := w - min(w, p.procs[i]-p.busy[i])
	for rest > 0 {
		from, most := -1, 0
		for r := range p.procs {
			if r == i {
				continue
			}
			if idle := p.procs[r] - p.busy[r]; idle > most {
				from, most = r, idle
			}
		}
		if from < 0 {
			break // cannot happen when the job fits the machine; check reports it
		}
		take := min(most, rest)
		p.procs[from] -= take
		p.procs[i] += take
		p.moves += int64(take)
		rest -= take
	}
	p.busy[i] += w
	return p.procs[i]
}

// finish books the end of a job of queue q and width w: its processors
// stay idle in the partition.
func (p *partitions) finish(now sim.Time, q, w int) {
	p.advance(now)
	p.busy[q-1] -= w
}

// check verifies sum P_q = P, 0 <= busy_q <= P_q and that the busy
// processors are those the machine has in use.
func (p *partitions) check(inUse int) error {
	sum, busy := 0, 0
	for q := range p.procs {
		if p.busy[q] < 0 || p.busy[q] > p.procs[q] {
			return fmt.Errorf("partition %d: busy %d of %d", q+1, p.busy[q], p.procs[q])
		}
		sum += p.procs[q]
		busy += p.busy[q]
	}
	if sum != p.size {
		return fmt.Errorf("partitions hold %d processors, machine has %d", sum, p.size)
	}
	if busy != inUse {
		return fmt.Errorf("partitions have %d busy processors, machine %d", busy, inUse)
	}
	return nil
}

// means returns the time-averaged P_q over the integrated span (the
// current P_q when the span is empty).
func (p *partitions) means() [Queues]float64 {
	var out [Queues]float64
	span := float64(p.last - p.first)
	for q := range out {
		if span > 0 {
			out[q] = p.area[q] / span
		} else {
			out[q] = float64(p.procs[q])
		}
	}
	return out
}
