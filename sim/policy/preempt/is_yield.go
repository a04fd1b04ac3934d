package preempt

import (
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// yielders are the jobs that, under [ISConfig.TimesliceYield], started by
// suspending others and have not yet reached the end of their immediate
// timeslice, with the jobs each suspended.
type yielders struct {
	on      bool
	jobs    []*sim.Task
	victims [][]*sim.Task // by task index
}

func (y *yielders) init(n int, on bool) {
	y.on, y.jobs = on, y.jobs[:0]
	y.victims = nil
	if on {
		y.victims = make([][]*sim.Task, n)
	}
}

// record notes that job t was given its timeslice by suspending victims.
func (y *yielders) record(t *sim.Task, victims []*sim.Task) {
	if !y.on || len(victims) == 0 {
		return
	}
	y.victims[t.Index] = slices.Clone(victims)
	y.jobs = append(y.jobs, t)
}

// yieldPass suspends every recorded job whose immediate timeslice is over
// while a job it suspended is still suspended on processors it holds; the
// suspended jobs then come back in this pass, as they do when their
// processors free up. A job is looked at once its timeslice is over, and
// forgotten then (or when it ends, or when something else stopped it).
func (p *IS) yieldPass(now sim.Time) {
	y := &p.yield
	if !y.on || len(y.jobs) == 0 {
		return
	}
	y.jobs = slices.DeleteFunc(y.jobs, func(t *sim.Task) bool {
		if t.State == sim.Waiting || (t.State == sim.Running && t.WorkDone(now) < p.cfg.Timeslice) || p.pending[t.Index] {
			return false // not started yet, or still in its timeslice
		}
		if t.State == sim.Running && t.Since < now {
			for _, v := range y.victims[t.Index] {
				if v.State == sim.Suspended && v.Set.Overlaps(t.Set) {
					p.suspendVictim(t, 0)
					break
				}
			}
		}
		y.victims[t.Index] = nil
		return true
	})
}

// yieldNext returns when the first recorded job running in its timeslice
// reaches its end (sim.Never: none).
func (p *IS) yieldNext(now sim.Time) sim.Time {
	next := sim.Never
	for _, t := range p.yield.jobs {
		if t.State == sim.Running {
			if w := t.WorkDone(now); w < p.cfg.Timeslice {
				next = min(next, now+p.cfg.Timeslice-w)
			} else {
				next = min(next, now+1)
			}
		}
	}
	return next
}
