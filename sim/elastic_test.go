package sim_test

import (
	"context"
	"math"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

func elasticJob(id int64, submit sim.Time, work, f float64, minP, procs, maxP int, tagged bool) sim.Job {
	e := &sim.Elastic{Work: work, SeqFrac: f, Min: minP, Max: maxP, Unit: 1, Tagged: tagged}
	rt := e.Duration(work, procs)
	return sim.Job{ID: id, Submit: submit, Runtime: rt, Estimate: rt, Procs: procs, Elastic: e}
}

// TestElastic_CheckpointDispatch: job 1 (D 1600, f 0) starts on 16 at 0,
// is checkpointed at 50 with cost 10 (800 work done), restarts on 8 at 60
// with a dispatch delay of 5 and works 100 s: it ends at 165.
func TestElastic_CheckpointDispatch(t *testing.T) {
	jobs := []sim.Job{elasticJob(1, 0, 1600, 0, 8, 16, 16, false)}
	p := &funcPolicy{}
	p.arrive = func(m *sim.Machine, t *sim.Task) {
		if err := m.DispatchN(t, 16, 0); err != nil {
			panic(err)
		}
		m.SetTimer(50, 1)
	}
	p.timer = func(m *sim.Machine, tag int) {
		tk := m.Task(0)
		switch tag {
		case 1:
			if err := m.Checkpoint(tk, 10); err != nil {
				panic(err)
			}
			if tk.State != sim.Checkpointing || m.Free() != 0 {
				panic("checkpointing job must hold its processors")
			}
			m.SetTimer(60, 2)
		case 2:
			if tk.State != sim.Stopped || m.Free() != 16 || math.Abs(tk.RemainingWork(60)-800) > 1e-9 {
				panic("stopped job must hold nothing and have 800 s of work left")
			}
			if err := m.DispatchN(tk, 8, 5); err != nil {
				panic(err)
			}
		}
	}
	res := runElastic(t, 16, jobs, p, sim.Options{Segments: true})
	tk := res.Tasks[0]
	if tk.End != 165 || tk.Runtime != 150 || tk.OverheadTime != 15 {
		t.Errorf("end %d runtime %d overhead %d, want 165, 150, 15", tk.End, tk.Runtime, tk.OverheadTime)
	}
	if tk.Flex.Checkpoints != 1 || tk.Flex.Reconfigurations != 1 || tk.Flex.Migrations != 0 ||
		tk.Flex.FirstProcs != 16 || tk.Flex.LastProcs != 8 || tk.Flex.Served != 1600 || tk.Flex.Acquired != 1600 {
		t.Errorf("flex %+v", tk.Flex)
	}
	var working, idle sim.Time
	for _, s := range res.Segments {
		if s.Working {
			working += s.End - s.Start
		} else {
			idle += s.End - s.Start
		}
	}
	if working != 150 || idle != 15 {
		t.Errorf("segments: %d working, %d overhead; want 150, 15", working, idle)
	}
}

// TestElastic_SpeedupRounding: f 0.5 on 2 processors gives S = 4/3; a job of
// D 10 needs ceil(7.5) = 8 s; suspending it after 3 s leaves 6 s of work.
func TestElastic_SpeedupRounding(t *testing.T) {
	jobs := []sim.Job{elasticJob(1, 0, 10, 0.5, 1, 2, 2, false)}
	p := &funcPolicy{}
	p.arrive = func(m *sim.Machine, t *sim.Task) {
		_ = m.DispatchN(t, 2, 0)
		m.SetTimer(3, 1)
	}
	p.timer = func(m *sim.Machine, tag int) {
		tk := m.Task(0)
		if tag == 1 {
			_ = m.Suspend(tk, 0)
			m.SetTimer(10, 2)
			return
		}
		_ = m.Resume(tk, 0)
	}
	res := runElastic(t, 2, jobs, p, sim.Options{})
	// 10 − 3·4/3 = 6 left, 6/(4/3) = 4.5 -> 5 s: end at 15.
	if tk := res.Tasks[0]; tk.End != 15 || tk.Runtime != 8 || tk.Suspensions != 1 {
		t.Errorf("end %d runtime %d suspensions %d, want 15, 8, 1", tk.End, tk.Runtime, tk.Suspensions)
	}
}

// TestElastic_StopTaggedAndHorizon: the run ends when the tagged jobs are
// done, or at the horizon; unfinished jobs keep their work so far.
func TestElastic_StopTaggedAndHorizon(t *testing.T) {
	jobs := []sim.Job{
		elasticJob(1, 0, 100, 0, 1, 1, 1, true),
		elasticJob(2, 0, 1000, 0, 1, 1, 1, false),
		elasticJob(3, 5, 10, 0, 1, 1, 1, false),
		elasticJob(4, 500, 10, 0, 1, 1, 1, false),
	}
	startAll := func() *funcPolicy {
		p := &funcPolicy{}
		p.schedule = func(m *sim.Machine) {
			for i := range m.NumTasks() {
				if tk := m.Task(i); tk.State == sim.Waiting && m.Free() > 0 {
					_ = m.DispatchN(tk, 1, 0)
				}
			}
		}
		return p
	}
	res := runElastic(t, 2, jobs, startAll(), sim.Options{})
	if res.End != 100 || len(res.Tasks) != 3 || res.Tasks[0].State != sim.Done || res.Tasks[1].State == sim.Done {
		t.Fatalf("tagged stop: end %d, %d tasks", res.End, len(res.Tasks))
	}
	if got := res.Tasks[1].Flex.Served; got != 100 {
		t.Errorf("unfinished job served %v, want 100", got)
	}
	if res.MaxQueue != 1 {
		t.Errorf("max queue %d, want 1 (job 3 waits)", res.MaxQueue)
	}
	for i := range jobs {
		jobs[i].Elastic.Tagged = false
	}
	res = runElastic(t, 2, jobs, startAll(), sim.Options{Horizon: 300})
	if res.End != 300 || len(res.Tasks) != 3 || res.Tasks[1].Flex.Served != 300 || res.Tasks[1].End != -1 {
		t.Fatalf("horizon stop: end %d, %d tasks, served %v", res.End, len(res.Tasks), res.Tasks[1].Flex.Served)
	}
	res = runElastic(t, 2, jobs, startAll(), sim.Options{})
	if res.End != 1000 || len(res.Tasks) != 4 {
		t.Errorf("full run: end %d, %d tasks", res.End, len(res.Tasks))
	}
}

func TestElastic_Errors(t *testing.T) {
	bad := elasticJob(1, 0, 100, 0, 4, 2, 8, false)
	if _, err := sim.Run(context.Background(), 8, []sim.Job{bad}, &funcPolicy{}, sim.Options{}); err == nil {
		t.Error("min above desired accepted")
	}
	jobs := []sim.Job{elasticJob(1, 0, 100, 0, 2, 2, 4, false)}
	p := &funcPolicy{}
	p.arrive = func(m *sim.Machine, t *sim.Task) { _ = m.DispatchN(t, 1, 0) }
	if _, err := sim.Run(context.Background(), 8, jobs, p, sim.Options{}); err == nil {
		t.Error("dispatch below min accepted")
	}
	rigid := []sim.Job{{ID: 1, Runtime: 5, Estimate: 5, Procs: 1}}
	p = &funcPolicy{}
	p.arrive = func(m *sim.Machine, t *sim.Task) { _ = m.Start(t) }
	p.schedule = func(m *sim.Machine) {
		if tk := m.Task(0); tk.State == sim.Running {
			_ = m.Checkpoint(tk, 0)
		}
	}
	if _, err := sim.Run(context.Background(), 8, rigid, p, sim.Options{}); err == nil {
		t.Error("checkpoint of a rigid job accepted")
	}
}

func runElastic(t *testing.T, procs int, jobs []sim.Job, p sim.Policy, opts sim.Options) *sim.Result {
	t.Helper()
	opts.CheckEvery = 1
	res, err := sim.Run(context.Background(), procs, jobs, p, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
