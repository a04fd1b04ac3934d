package sim_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// TestSetTaskTimer: job 1 (runtime 50) starts at 0 and sets task timers
// at 30 (before its end: fires), 50 (its completion instant: does not
// fire, as if cancelled when it finished) and 80 (after its end: does not
// fire). Job 2 (runtime 100) starts at 0 with task timers at 150 (held,
// then queued when job 2 is suspended at 40: fires at 150, before the
// plain timer set for 150 later) and 160 (held and cancelled: does not
// fire); job 2 resumes at 60 and ends at 120.
func TestSetTaskTimer(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 50, Estimate: 50, Procs: 1},
		{ID: 2, Submit: 0, Runtime: 100, Estimate: 100, Procs: 1},
	}
	var fired []string
	var cancel sim.Timer
	p := &funcPolicy{}
	p.schedule = func(m *sim.Machine) {
		if m.Now() != 0 {
			return
		}
		j1, j2 := m.Task(0), m.Task(1)
		_ = m.Start(j1)
		_ = m.Start(j2)
		m.SetTaskTimer(j1, 30, 1)
		m.SetTaskTimer(j1, 50, 2)
		m.SetTaskTimer(j1, 80, 3)
		m.SetTaskTimer(j2, 150, 4)
		cancel = m.SetTaskTimer(j2, 160, 5)
		m.SetTimer(40, 10)
	}
	p.timer = func(m *sim.Machine, tag int) {
		fired = append(fired, fmt.Sprintf("%d@%d", tag, m.Now()))
		j2 := m.Task(1)
		switch tag {
		case 10:
			m.CancelTimer(cancel)
			if err := m.Suspend(j2, 0); err != nil {
				panic(err)
			}
			m.SetTimer(150, 12)
			m.SetTimer(60, 11)
		case 11:
			if err := m.Resume(j2, 0); err != nil {
				panic(err)
			}
		}
	}
	res := run(t, 2, jobs, p)
	want := []string{"1@30", "10@40", "11@60", "4@150", "12@150"}
	if !slices.Equal(fired, want) {
		t.Errorf("timers fired %v, want %v", fired, want)
	}
	if e := res.Tasks[1].End; e != 120 {
		t.Errorf("job 2 ends at %d, want 120", e)
	}
}

// TestSetTaskTimer_CancelHeld: a held task timer cancelled before the job
// stops running is not queued when it is suspended; another held timer
// of the same job still is.
func TestSetTaskTimer_CancelHeld(t *testing.T) {
	jobs := []sim.Job{{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 1}}
	var fired []string
	p := &funcPolicy{}
	p.schedule = func(m *sim.Machine) {
		if m.Now() != 0 {
			return
		}
		j := m.Task(0)
		_ = m.Start(j)
		a := m.SetTaskTimer(j, 200, 1)
		m.SetTaskTimer(j, 210, 2)
		c := m.SetTaskTimer(j, 220, 3)
		m.CancelTimer(a)
		m.CancelTimer(c)
		m.CancelTimer(c) // twice: a no-op
		m.SetTimer(10, 9)
	}
	p.timer = func(m *sim.Machine, tag int) {
		fired = append(fired, fmt.Sprintf("%d@%d", tag, m.Now()))
		if tag == 9 {
			if err := m.Kill(m.Task(0)); err != nil {
				panic(err)
			}
			_ = m.Start(m.Task(0))
		}
	}
	run(t, 1, jobs, p)
	if want := []string{"9@10", "2@210"}; !slices.Equal(fired, want) {
		t.Errorf("timers fired %v, want %v", fired, want)
	}
}

// TestCancelTimer_Stale: the engine reuses the events of fired timers, so
// a handle kept after its timer fired must not cancel the timer that
// reuses its event: the timer set while timer 1 fires (reusing its event)
// still fires after the stale handle of timer 1 is cancelled.
func TestCancelTimer_Stale(t *testing.T) {
	jobs := []sim.Job{{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 1}}
	var fired []string
	var first sim.Timer
	p := &funcPolicy{}
	p.schedule = func(m *sim.Machine) {
		if m.Now() == 0 {
			_ = m.Start(m.Task(0))
			first = m.SetTimer(10, 1)
		}
	}
	p.timer = func(m *sim.Machine, tag int) {
		fired = append(fired, fmt.Sprintf("%d@%d", tag, m.Now()))
		if tag == 1 {
			m.SetTimer(20, 2)
			m.CancelTimer(first)
		}
	}
	run(t, 1, jobs, p)
	if want := []string{"1@10", "2@20"}; !slices.Equal(fired, want) {
		t.Errorf("timers fired %v, want %v", fired, want)
	}
}
