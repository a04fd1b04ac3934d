package backfill

import "github.com/schedfarm/schedfarm/sim"

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
//
// The corrections are put into the profile as the pass makes them: the
// profile lists each planned end's jobs, and a job's next correction
// comes at its planned end, so the running jobs whose corrections are
// due are those whose planned ends have passed, and the search for the
// first crossing walks the profile's ends.
type correctionAlarm struct {
	// The running jobs that may still be underpredicted are those of
	// the profile (EASY.run, which lists each end's jobs) whose
	// predictions are below their estimates: a job's next correction
	// comes at its predicted end, which is its planned end, so the
	// profile holds them by the instant of their next correction. under
	// counts them.
	under int
	// ended holds the task indices of the jobs catchUp corrects.
	ended []int
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

// reset empties c.
func (c *correctionAlarm) reset() {
	c.under = 0
	clear(c.ended)
	c.ended = c.ended[:0]
	c.timer, c.at = sim.Timer{}, sim.Never
	c.known, c.job = false, nil
}

// firstCorrection arranges the first correction of t, which just
// started: a timer at its predicted end, or with alarms nothing more
// than its place in the profile.
func (p *EASY) firstCorrection(t *sim.Task) {
	if !p.alarms {
		p.pr.arm(t)
		return
	}
	if !p.pr.underpredicted(t) {
		return // never underpredicted
	}
	c := &p.corr
	c.under++
	if c.known {
		if f := p.crossing(t, c.shadow); f < c.first {
			c.first, c.job = f, t
		}
	}
}

// catchUp makes the corrections due by now of the running jobs, as their
// timers would have (a timer at now fires before the pass), and moves
// their planned ends in the profile: the jobs whose planned ends are at
// or before now and still run are those.
func (p *EASY) catchUp(now sim.Time) {
	c := &p.corr
	c.ended = p.run.takeEnded(now, c.ended[:0])
	for _, i := range c.ended {
		t := p.m.Task(i)
		pred, _ := p.pr.growTo(t, now) // its next correction came due
		if !p.pr.underpredicted(t) {
			c.under--
		}
		end := t.FirstStart + pred
		p.run.add(t, end)
		p.lateEnd = max(p.lateEnd, end)
	}
}

// setAlarm sets the alarm, after a pass at now, at the first correction
// that may start a job (see correctionAlarm), or none.
func (p *EASY) setAlarm(now sim.Time) {
	c := &p.corr
	at := sim.Never
	if p.m.Free() >= p.sizes.min && c.under > 0 {
		if h := p.lastHead; h != nil && h.State == sim.Waiting && p.lastShadow > now {
			if !c.known || c.shadow != p.lastShadow || c.first <= now {
				c.first, c.job = p.firstCrossing(p.lastShadow)
				c.known, c.shadow = true, p.lastShadow
			}
			at = c.first
		} else {
			at, _ = p.firstCrossing(now) // every correction may: the next one
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
// (its planned end), so the jobs whose planned ends come after the best
// instant found are not looked at.
func (p *EASY) firstCrossing(s sim.Time) (sim.Time, *sim.Task) {
	best := sim.Never
	var job *sim.Task
	r := &p.run
	for _, st := range r.steps[r.lo:] {
		if st.end >= best {
			break
		}
		for j := st.jobs; j != 0; j = r.next[j-1] {
			t := p.m.Task(int(j - 1))
			if !p.pr.underpredicted(t) {
				continue
			}
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
