package sim_test

import (
	"context"
	"errors"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/simcheck"
)

// funcPolicy is a policy made of function fields, for testing the engine.
type funcPolicy struct {
	m          *sim.Machine
	arrive     func(m *sim.Machine, t *sim.Task)
	timer      func(m *sim.Machine, tag int)
	schedule   func(m *sim.Machine)
	finished   []int64
	scheduleAt []sim.Time
}

func (p *funcPolicy) Init(m *sim.Machine) error { p.m = m; return nil }
func (p *funcPolicy) Arrive(t *sim.Task) {
	if p.arrive != nil {
		p.arrive(p.m, t)
	}
}
func (p *funcPolicy) Finish(t *sim.Task) { p.finished = append(p.finished, t.ID) }
func (p *funcPolicy) Timer(tag int) {
	if p.timer != nil {
		p.timer(p.m, tag)
	}
}
func (p *funcPolicy) Schedule() {
	p.scheduleAt = append(p.scheduleAt, p.m.Now())
	if p.schedule != nil {
		p.schedule(p.m)
	}
}

func run(t *testing.T, procs int, jobs []sim.Job, p sim.Policy) *sim.Result {
	t.Helper()
	res, err := sim.Run(context.Background(), procs, jobs, p, sim.Options{Segments: true, CheckEvery: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := simcheck.Check(jobs, res); err != nil {
		t.Fatalf("invariants: %v", err)
	}
	return res
}

// TestRun_SuspendResumeOverhead: job 2 suspends job 1 at 10 with an
// overhead of 5 and job 1 resumes (overhead 3) on the same processors
// when job 2 ends.
func TestRun_SuspendResumeOverhead(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 4},
		{ID: 2, Submit: 10, Runtime: 20, Estimate: 20, Procs: 4},
	}
	var victim *sim.Task
	p := &funcPolicy{}
	p.arrive = func(m *sim.Machine, t *sim.Task) {
		if t.ID == 1 {
			victim = t
			if err := m.Start(t); err != nil {
				panic(err)
			}
			return
		}
		if err := m.Suspend(victim, 5); err != nil {
			panic(err)
		}
	}
	p.schedule = func(m *sim.Machine) {
		// Waiting jobs first, then resumptions.
		for i := 0; i < m.NumTasks(); i++ {
			if t := m.Task(i); t.State == sim.Waiting && t.Procs <= m.Free() {
				_ = m.Start(t)
			}
		}
		for i := 0; i < m.NumTasks(); i++ {
			if t := m.Task(i); t.State == sim.Suspended && m.CanResume(t) {
				_ = m.Resume(t, 3)
			}
		}
	}
	res := run(t, 4, jobs, p)
	j1, j2 := res.Tasks[0], res.Tasks[1]
	// Job 2 can start only when the suspension overhead ends at 15.
	if j2.FirstStart != 15 || j2.End != 35 {
		t.Errorf("job 2 ran [%d,%d], want [15,35]", j2.FirstStart, j2.End)
	}
	// Job 1: 10 s of work, suspended 10..15 (overhead), suspended 15..35,
	// resuming 35..38, then 90 s of work: ends at 128.
	if j1.End != 128 || j1.Suspensions != 1 || j1.OverheadTime != 8 || j1.SuspendedTime != 20 {
		t.Errorf("job 1: end %d suspensions %d overhead %d suspended %d, want 128 1 8 20",
			j1.End, j1.Suspensions, j1.OverheadTime, j1.SuspendedTime)
	}
}

// TestRun_KillRestarts: a killed job loses its work.
func TestRun_KillRestarts(t *testing.T) {
	jobs := []sim.Job{{ID: 1, Submit: 0, Runtime: 50, Estimate: 50, Procs: 2}}
	p := &funcPolicy{}
	p.timer = func(m *sim.Machine, tag int) {
		if err := m.Kill(m.Task(0)); err != nil {
			panic(err)
		}
	}
	p.schedule = func(m *sim.Machine) {
		t := m.Task(0)
		if m.Now() == 0 && t.State == sim.Waiting {
			_ = m.Start(t)
			m.SetTimer(20, 0)
		} else if t.State == sim.Waiting {
			_ = m.Start(t)
		}
	}
	res := run(t, 2, jobs, p)
	if got := res.Tasks[0]; got.End != 70 || got.Kills != 1 || got.FirstStart != 0 || got.LostWork != 20 {
		t.Errorf("job: start %d end %d kills %d lost %d, want 0 70 1 20", got.FirstStart, got.End, got.Kills, got.LostWork)
	}
}

// TestRun_EventOrder: completions before arrivals, then timers, and one
// Schedule call per instant.
func TestRun_EventOrder(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 10, Estimate: 10, Procs: 1},
		{ID: 2, Submit: 10, Runtime: 5, Estimate: 5, Procs: 1},
	}
	var order []string
	p := &funcPolicy{}
	p.arrive = func(m *sim.Machine, t *sim.Task) {
		order = append(order, "arrive")
		if len(p.finished) == 0 && t.ID == 2 {
			t.Aux = -1 // arrival seen before the completion
		}
	}
	p.timer = func(m *sim.Machine, tag int) { order = append(order, "timer") }
	p.schedule = func(m *sim.Machine) {
		order = append(order, "schedule")
		for i := 0; i < m.NumTasks(); i++ {
			if t := m.Task(i); t.State == sim.Waiting && m.Free() >= t.Procs {
				_ = m.Start(t)
			}
		}
		if m.Now() == 0 {
			m.SetTimer(10, 7)
		}
	}
	res := run(t, 1, jobs, p)
	want := []string{"arrive", "schedule", "arrive", "timer", "schedule", "schedule"}
	if len(order) != len(want) {
		t.Fatalf("order=%v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("order=%v, want %v", order, want)
		}
	}
	if res.Tasks[1].Aux == -1 {
		t.Errorf("arrival at 10 was applied before the completion at 10")
	}
	if got := p.scheduleAt; len(got) != 3 || got[0] != 0 || got[1] != 10 || got[2] != 15 {
		t.Errorf("Schedule called at %v, want [0 10 15]", got)
	}
}

func TestRun_Errors(t *testing.T) {
	tests := []struct {
		name     string
		procs    int
		jobs     []sim.Job
		schedule func(m *sim.Machine)
		want     error
	}{
		{"ErrInput/too wide", 2, []sim.Job{{ID: 1, Runtime: 1, Estimate: 1, Procs: 3}}, nil, sim.ErrInput},
		{"ErrInput/zero runtime", 2, []sim.Job{{ID: 1, Runtime: 0, Estimate: 1, Procs: 1}}, nil, sim.ErrInput},
		{"ErrPolicy/start twice", 2, []sim.Job{{ID: 1, Runtime: 5, Estimate: 5, Procs: 1}}, func(m *sim.Machine) {
			_ = m.Start(m.Task(0))
			_ = m.Start(m.Task(0))
		}, sim.ErrPolicy},
		{"ErrPolicy/never scheduled", 2, []sim.Job{{ID: 1, Runtime: 5, Estimate: 5, Procs: 1}}, func(m *sim.Machine) {}, sim.ErrPolicy},
		{"ErrPolicy/resume busy", 1, []sim.Job{{ID: 1, Runtime: 5, Estimate: 5, Procs: 1}, {ID: 2, Runtime: 5, Estimate: 5, Procs: 1}}, func(m *sim.Machine) {
			a, b := m.Task(0), m.Task(1)
			if a.State == sim.Waiting {
				_ = m.Start(a)
				_ = m.Suspend(a, 0)
				_ = m.Start(b)
				_ = m.Resume(a, 0)
			}
		}, sim.ErrPolicy},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sim.Run(context.Background(), tt.procs, tt.jobs, &funcPolicy{schedule: tt.schedule}, sim.Options{})
			if !errors.Is(err, tt.want) {
				t.Errorf("Run() error = %v, want %v", err, tt.want)
			}
		})
	}
}
