package backfill

import (
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// alarmTag is the tag of the alarm's timer (see correctionAlarm); the
// other timers' tags are job indices.
const alarmTag = -1

// correctionAlarm makes the corrections of EASY's predictions under a
// static order (quick, not eager) with one timer, the alarm, instead of
// one per job: only the instants at which a correction may start a job
// get one.
//
// Between two instants at which a job arrives or completes, only
// corrections come, and a correction can start a job only if enough
// processors are free for some waiting job (what is free does not change
// between those instants) and the pass at its instant is not skipped
// (see EASY.unmoved): that is, if it moves its job's planned end past the
// head's shadow time, or comes at or after it. A correction that moves a
// planned end to a time still before the shadow time changes nothing at
// its instant: the pass is skipped. So after each pass the alarm is set
// at the first correction, in time, that moves a planned end past the
// shadow time (crossing), none when too few processors are free; the
// corrections before it are made at the next pass (catchUp), as their
// timers would have made them, and the alarm's instant is one of theirs.
// Each job's corrections follow from its start, its prediction and its
// estimate, so where its planned end first passes the shadow time is
// known in advance.
type correctionAlarm struct {
	// due[lo:] are the running jobs that may still be underpredicted,
	// by the instant of their next correction (their predicted end),
	// ties in the order they came; jobs that completed are dropped when
	// they come first, and passed over by a search. A job is put in by
	// moving the jobs on the shorter side of its place.
	due []dueJob
	lo  int
	// timer is the alarm, and at its instant (sim.Never when none is
	// set).
	timer sim.Timer
	at    sim.Time
	// With known: first is the first instant at which a correction moves
	// a planned end past shadow, and job the job it moves (nil and
	// sim.Never when none does). It holds until shadow changes, job
	// completes or a correction moves a planned end past shadow: starts
	// update it, and the corrections before it leave it as it is.
	known  bool
	shadow sim.Time
	first  sim.Time
	job    *sim.Task
}

// dueJob is a running job in correctionAlarm.due and the instant of its
// next correction.
type dueJob struct {
	at  sim.Time
	idx int // task index
}

// reset empties c.
func (c *correctionAlarm) reset() {
	clear(c.due)
	c.due, c.lo = c.due[:0], 0
	c.timer, c.at = sim.Timer{}, sim.Never
	c.known, c.job = false, nil
}

// firstCorrection arranges the first correction of t, which just
// started: a timer at its predicted end, or with alarms its place in due.
func (p *EASY) firstCorrection(t *sim.Task) {
	if !p.alarms {
		p.pr.arm(t)
		return
	}
	pred := p.pr.estimate(t)
	if pred >= t.Estimate {
		return // never underpredicted
	}
	c := &p.corr
	c.push(t, t.FirstStart+pred)
	if c.known {
		if f := p.crossing(t, c.shadow); f < c.first {
			c.first, c.job = f, t
		}
	}
}

// push adds t, whose next correction comes at at.
func (c *correctionAlarm) push(t *sim.Task, at sim.Time) {
	d := c.due
	lo, hi := c.lo, len(d)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if d[m].at <= at {
			lo = m + 1
		} else {
			hi = m
		}
	}
	i, x := lo, dueJob{at, t.Index}
	if c.lo > 0 && i-c.lo < len(d)-i {
		copy(d[c.lo-1:i-1], d[c.lo:i])
		c.lo--
		d[i-1] = x
		return
	}
	c.due = slices.Insert(d, i, x)
}

// pop removes the first job.
func (c *correctionAlarm) pop() {
	c.due[c.lo] = dueJob{}
	c.lo++
	if n := len(c.due); c.lo == n {
		c.due, c.lo = c.due[:0], 0
	} else if c.lo > 64 && c.lo > n/2 {
		k := copy(c.due, c.due[c.lo:])
		clear(c.due[k:])
		c.due, c.lo = c.due[:k], 0
	}
}

// catchUp makes the corrections due by now of the running jobs, as their
// timers would have (a timer at now fires before the pass).
func (p *EASY) catchUp(now sim.Time) {
	c := &p.corr
	for c.lo < len(c.due) && c.due[c.lo].at <= now {
		t := p.m.Task(c.due[c.lo].idx)
		c.pop()
		if t.State != sim.Running {
			continue // completed first
		}
		pred, _ := p.pr.growTo(t, now) // its next correction came due
		p.markStale(t, pred)
		if pred < t.Estimate {
			c.push(t, t.FirstStart+pred)
		}
	}
}

// setAlarm sets the alarm, after a pass at now, at the first correction
// that may start a job (see correctionAlarm), or none.
func (p *EASY) setAlarm(now sim.Time) {
	c := &p.corr
	at := sim.Never
	if p.m.Free() >= p.sizes.min && c.lo < len(c.due) {
		if h := p.lastHead; h != nil && h.State == sim.Waiting && p.lastShadow > now {
			if !c.known || c.shadow != p.lastShadow || c.first <= now {
				c.first, c.job = p.firstCrossing(p.lastShadow)
				c.known, c.shadow = true, p.lastShadow
			}
			at = c.first
		} else {
			at = c.due[c.lo].at // every correction may: the next one
		}
	}
	if at == c.at {
		return
	}
	if c.at != sim.Never {
		p.m.CancelTimer(c.timer)
	}
	c.at = at
	if at != sim.Never {
		c.timer = p.m.SetTimer(at, alarmTag)
	}
}

// firstCrossing returns the first instant at which a running job's
// correction moves its planned end past s and the job, or sim.Never and
// nil. A job's corrections come in increasing time from its next one
// (its place in due), so the jobs whose next correction comes after the
// best instant found are not looked at.
func (p *EASY) firstCrossing(s sim.Time) (sim.Time, *sim.Task) {
	best := sim.Never
	var job *sim.Task
	for _, d := range p.corr.due[p.corr.lo:] {
		if d.at >= best {
			break
		}
		if t := p.m.Task(d.idx); t.State == sim.Running {
			if f := p.crossing(t, s); f < best {
				best, job = f, t
			}
		}
	}
	return best, job
}

// crossing returns the instant of the correction of t, running and
// underpredicted, that first moves its planned end past s (its next
// correction if that comes after s), or sim.Never if its planned end
// reaches its estimate by s: the job ends by then.
func (p *EASY) crossing(t *sim.Task, s sim.Time) sim.Time {
	pred, k := p.pr.estimate(t), int(p.pr.steps[t.Index])
	at := t.FirstStart + pred
	for at <= s {
		next := corrected(pred, k, t.Estimate)
		if t.FirstStart+next > s {
			return at
		}
		if next == t.Estimate {
			return sim.Never
		}
		pred, k = next, k+1
		at = t.FirstStart + pred
	}
	return at
}
