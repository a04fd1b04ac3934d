package sim_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// seriesPolicy starts waiting jobs greedily in arrival order (skipping
// those that do not fit), then resumes suspended jobs whose processors
// are free; the arrival of job 4 suspends job 1.
func seriesPolicy() *funcPolicy {
	p := &funcPolicy{}
	p.arrive = func(m *sim.Machine, t *sim.Task) {
		if t.ID == 4 {
			for i := 0; i < m.NumTasks(); i++ {
				if v := m.Task(i); v.ID == 1 && v.State == sim.Running {
					if err := m.Suspend(v, 0); err != nil {
						panic(err)
					}
				}
			}
		}
	}
	p.schedule = func(m *sim.Machine) {
		for i := 0; i < m.NumTasks(); i++ {
			if t := m.Task(i); t.State == sim.Waiting && t.Procs <= m.Free() {
				if err := m.Start(t); err != nil {
					panic(err)
				}
			}
		}
		for i := 0; i < m.NumTasks(); i++ {
			if t := m.Task(i); m.CanResume(t) {
				if err := m.Resume(t, 0); err != nil {
					panic(err)
				}
			}
		}
	}
	return p
}

// TestRun_Series checks a time series against a schedule derived by
// hand, on 4 processors with a 60 s step:
//
//	job 1 (2 procs, 150 s) runs 0-100 on 0-1, is suspended by job 4's
//	       arrival at 100, resumes at 210 when job 4 ends, ends at 260;
//	job 2 (4 procs, 60 s) arrives at 30, waits, runs 100-160;
//	job 3 (1 proc, 30 s) arrives at 60 (a step boundary) and runs 60-90;
//	job 4 (2 procs, 50 s) arrives at 100, waits, runs 160-210 on 0-1.
//
// Busy processor-seconds per step: [0,60) 2*60 = 120; [60,120) 3*30 +
// 2*10 + 4*20 = 190; [120,180) 4*40 + 2*20 = 200; [180,240) 2*30 + 2*30
// = 120; [240,260) 2*20 = 40 over a last step of 20 s.
func TestRun_Series(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 150, Estimate: 150, Procs: 2},
		{ID: 2, Submit: 30, Runtime: 60, Estimate: 60, Procs: 4},
		{ID: 3, Submit: 60, Runtime: 30, Estimate: 30, Procs: 1},
		{ID: 4, Submit: 100, Runtime: 50, Estimate: 50, Procs: 2},
	}
	res, err := sim.Run(context.Background(), 4, jobs, seriesPolicy(), sim.Options{SeriesStep: 60, CheckEvery: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := []sim.Sample{
		{Time: 0, Waiting: 0, Running: 1, Suspended: 0, Busy: 2, Utilization: 120.0 / 240},
		{Time: 60, Waiting: 1, Running: 2, Suspended: 0, Busy: 3, Utilization: 190.0 / 240},
		{Time: 120, Waiting: 1, Running: 1, Suspended: 1, Busy: 4, Utilization: 200.0 / 240},
		{Time: 180, Waiting: 0, Running: 1, Suspended: 1, Busy: 2, Utilization: 120.0 / 240},
		{Time: 240, Waiting: 0, Running: 1, Suspended: 0, Busy: 2, Utilization: 40.0 / 80},
	}
	if res.End != 260 {
		t.Fatalf("End = %d, want 260", res.End)
	}
	if !reflect.DeepEqual(res.Series, want) {
		t.Errorf("Series =\n%+v\nwant\n%+v", res.Series, want)
	}

	// Without a step, the same run records no series and is otherwise
	// the same.
	off, err := sim.Run(context.Background(), 4, jobs, seriesPolicy(), sim.Options{CheckEvery: 1})
	if err != nil {
		t.Fatal(err)
	}
	if off.Series != nil {
		t.Errorf("Series without a step = %v, want nil", off.Series)
	}
	res.Series = nil
	if !reflect.DeepEqual(off, res) {
		t.Errorf("a series changed the run's result")
	}
}

// TestRun_SeriesStart: the series starts at the step holding the first
// arrival (120 for an arrival at 130; the counts are those at 120, before
// it), and a run ending on a step's boundary (180) has no empty last
// step.
func TestRun_SeriesStart(t *testing.T) {
	jobs := []sim.Job{{ID: 1, Submit: 130, Runtime: 50, Estimate: 50, Procs: 1}}
	res, err := sim.Run(context.Background(), 2, jobs, seriesPolicy(), sim.Options{SeriesStep: 60})
	if err != nil {
		t.Fatal(err)
	}
	want := []sim.Sample{{Time: 120, Utilization: 50.0 / 120}}
	if !reflect.DeepEqual(res.Series, want) {
		t.Errorf("Series = %+v, want %+v", res.Series, want)
	}
}

func TestRun_SeriesStepTooSmall(t *testing.T) {
	jobs := []sim.Job{{ID: 1, Submit: 0, Runtime: 50, Estimate: 50, Procs: 1}}
	_, err := sim.Run(context.Background(), 2, jobs, seriesPolicy(), sim.Options{SeriesStep: 59})
	if !errors.Is(err, sim.ErrInput) {
		t.Errorf("Run with a 59 s step: %v, want ErrInput", err)
	}
}

// TestRun_SeriesEndsWithLastJob: a policy timer after the last job keeps
// the run going to 1000, but the series ends when the last job does
// (100): its last step, [60, 100), is shorter.
func TestRun_SeriesEndsWithLastJob(t *testing.T) {
	jobs := []sim.Job{{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 1}}
	p := seriesPolicy()
	schedule := p.schedule
	p.arrive = func(m *sim.Machine, _ *sim.Task) { m.SetTimer(1000, 0) }
	p.schedule = schedule
	res, err := sim.Run(context.Background(), 2, jobs, p, sim.Options{SeriesStep: 60})
	if err != nil {
		t.Fatal(err)
	}
	if res.End != 1000 {
		t.Fatalf("End = %d, want 1000 (the timer)", res.End)
	}
	want := []sim.Sample{
		{Time: 0, Running: 1, Busy: 1, Utilization: 0.5},
		{Time: 60, Running: 1, Busy: 1, Utilization: 0.5},
	}
	if !reflect.DeepEqual(res.Series, want) {
		t.Errorf("Series = %+v, want %+v", res.Series, want)
	}
}
