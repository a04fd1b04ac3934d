package sim_test

import (
	"context"
	"errors"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// TestMachine_AdmitReject: job 1 is admitted with a deadline and runs,
// job 2 is rejected at its arrival and never runs, job 3 is admitted
// without a deadline.
func TestMachine_AdmitReject(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 10, Estimate: 10, Procs: 2},
		{ID: 2, Submit: 5, Runtime: 10, Estimate: 10, Procs: 2},
		{ID: 3, Submit: 5, Runtime: 10, Estimate: 10, Procs: 2, Origin: 1},
	}
	p := &funcPolicy{}
	p.arrive = func(m *sim.Machine, t *sim.Task) {
		var err error
		switch t.ID {
		case 1:
			err = m.Admit(t, 15)
		case 2:
			err = m.Reject(t)
		default:
			err = m.Admit(t, sim.NoDeadline)
		}
		if err != nil {
			panic(err)
		}
	}
	p.schedule = func(m *sim.Machine) {
		for i := 0; i < m.NumTasks(); i++ {
			if t := m.Task(i); t.State == sim.Waiting && t.Procs <= m.Free() {
				_ = m.Start(t)
			}
		}
	}
	res := run(t, 2, jobs, p)
	j1, j2, j3 := res.Tasks[0], res.Tasks[1], res.Tasks[2]
	if j1.State != sim.Done || j1.Deadline != 15 || j1.Decided != 0 || j1.End != 10 {
		t.Errorf("job 1: %v deadline %d decided %d end %d, want done 15 0 10", j1.State, j1.Deadline, j1.Decided, j1.End)
	}
	if j2.State != sim.Rejected || j2.FirstStart != -1 || j2.End != -1 || j2.Decided != 5 || j2.Deadline != -1 {
		t.Errorf("job 2: %v start %d end %d decided %d deadline %d, want rejected -1 -1 5 -1", j2.State, j2.FirstStart, j2.End, j2.Decided, j2.Deadline)
	}
	if j3.State != sim.Done || j3.Deadline != sim.NoDeadline || j3.FirstStart != 10 {
		t.Errorf("job 3: %v deadline %d start %d, want done -1 10", j3.State, j3.Deadline, j3.FirstStart)
	}
	if j1.Origin != 1 || j2.Origin != 2 || j3.Origin != 1 || !j1.Original() || j3.Original() {
		t.Errorf("origins %d %d %d, want 1 2 1", j1.Origin, j2.Origin, j3.Origin)
	}
	want := []sim.Decision{{Task: 0, At: 0, Admitted: true, Deadline: 15}, {Task: 1, At: 5, Deadline: -1}, {Task: 2, At: 5, Admitted: true, Deadline: -1}}
	if len(res.Decisions) != len(want) {
		t.Fatalf("Decisions = %v, want %v", res.Decisions, want)
	}
	for i := range want {
		if res.Decisions[i] != want[i] {
			t.Errorf("Decisions[%d] = %+v, want %+v", i, res.Decisions[i], want[i])
		}
	}
}

func TestMachine_AdmitErrors(t *testing.T) {
	jobs := []sim.Job{{ID: 1, Submit: 0, Runtime: 5, Estimate: 5, Procs: 1}}
	tests := []struct {
		name   string
		arrive func(m *sim.Machine, t *sim.Task)
		timer  func(m *sim.Machine, t *sim.Task)
	}{
		{"ErrPolicy/admit twice", func(m *sim.Machine, t *sim.Task) { _ = m.Admit(t, 10); _ = m.Admit(t, 20) }, nil},
		{"ErrPolicy/reject admitted", func(m *sim.Machine, t *sim.Task) { _ = m.Admit(t, 10); _ = m.Reject(t) }, nil},
		{"ErrPolicy/deadline in the past", func(m *sim.Machine, t *sim.Task) { m.SetTimer(0, 0); _ = m.Admit(t, -5) }, nil},
		{"ErrPolicy/after arrival", func(m *sim.Machine, t *sim.Task) { m.SetTimer(3, 0) }, func(m *sim.Machine, t *sim.Task) { _ = m.Admit(t, 10) }},
		{"ErrPolicy/reject running", func(m *sim.Machine, t *sim.Task) { _ = m.Start(t); _ = m.Reject(t) }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &funcPolicy{}
			p.arrive = tt.arrive
			p.timer = func(m *sim.Machine, tag int) {
				if tt.timer != nil {
					tt.timer(m, m.Task(0))
				}
			}
			p.schedule = func(m *sim.Machine) {
				if t := m.Task(0); t.State == sim.Waiting && m.Now() >= 3 {
					_ = m.Start(t)
				}
			}
			_, err := sim.Run(context.Background(), 1, jobs, p, sim.Options{})
			if !errors.Is(err, sim.ErrPolicy) {
				t.Errorf("Run() error = %v, want %v", err, sim.ErrPolicy)
			}
		})
	}
}
