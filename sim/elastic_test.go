package sim_test

import (
	"context"
	"fmt"
	"math"
	"strings"
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
		if err := moldDispatch(m, t, 16, 0); err != nil {
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
			if err := moldDispatch(m, tk, 8, 5); err != nil {
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
		_ = moldDispatch(m, t, 2, 0)
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
					_ = moldDispatch(m, tk, 1, 0)
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
	// Queue 0 over [0,5), 1 over [5,100) (job 3 waits to the end).
	if fmt.Sprint(res.QueueTime) != "[5 95]" || res.QueueQuantile(0.9) != 1 || res.QueueQuantile(0.05) != 0 || res.QueueMean() != 0.95 {
		t.Errorf("queue time %v, P90 %d, P5 %d, mean %v; want [5 95], 1, 0, 0.95",
			res.QueueTime, res.QueueQuantile(0.9), res.QueueQuantile(0.05), res.QueueMean())
	}
	for i := range jobs {
		jobs[i].Elastic.Tagged = false
	}
	res = runElastic(t, 2, jobs, startAll(), sim.Options{Horizon: 300})
	if res.End != 300 || len(res.Tasks) != 3 || res.Tasks[1].Flex.Served != 300 || res.Tasks[1].End != -1 {
		t.Fatalf("horizon stop: end %d, %d tasks, served %v", res.End, len(res.Tasks), res.Tasks[1].Flex.Served)
	}
	// Queue 0 over [0,5) and [100,300) (job 3 runs at 100), 1 over [5,100).
	if fmt.Sprint(res.QueueTime) != "[205 95]" || res.QueueQuantile(0.9) != 1 || res.QueueQuantile(0.6) != 0 {
		t.Errorf("horizon: queue time %v, P90 %d, P60 %d; want [205 95], 1, 0", res.QueueTime, res.QueueQuantile(0.9), res.QueueQuantile(0.6))
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
	p.arrive = func(m *sim.Machine, t *sim.Task) { _ = moldDispatch(m, t, 1, 0) }
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
	// Mold is the one sizing call: its rules hold for elastic jobs too.
	unit := []sim.Job{elasticJob(1, 0, 100, 0, 2, 4, 8, false)}
	unit[0].Elastic.Unit = 2
	for _, c := range []struct {
		name string
		jobs []sim.Job
		do   func(m *sim.Machine, t *sim.Task) error
		want string
	}{
		{"NotUnitMultiple", unit, func(m *sim.Machine, t *sim.Task) error { return m.Mold(t, 3) }, "not a multiple of its unit 2"},
		{"AboveMax", unit, func(m *sim.Machine, t *sim.Task) error { return m.Mold(t, 10) }, "outside [2,8]"},
		{"Rigid", rigid, func(m *sim.Machine, t *sim.Task) error { return m.Mold(t, 1) }, "not moldable"},
		{"SizeNotMolded", unit, func(m *sim.Machine, t *sim.Task) error {
			free := m.FreeSet().Clone()
			set, _ := free.TakeLowest(2)
			return m.Dispatch(t, set, 0)
		}, "not 4 free processors"},
		{"Running", unit, func(m *sim.Machine, t *sim.Task) error {
			if err := m.Start(t); err != nil {
				return err
			}
			return m.Mold(t, 2)
		}, "job is running"},
		{"NegativeDelay", unit, func(m *sim.Machine, t *sim.Task) error { return m.DispatchN(t, -1) }, "negative delay"},
	} {
		p := &funcPolicy{}
		p.arrive = func(m *sim.Machine, t *sim.Task) { _ = c.do(m, t) }
		_, err := sim.Run(context.Background(), 8, c.jobs, p, sim.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// TestElastic_MoldStopped: a Stopped job is resized with Mold like a
// waiting one; its Runtime is the time worked plus what its remaining
// work needs on the new size, and a restart on its last size is a
// migration.
func TestElastic_MoldStopped(t *testing.T) {
	jobs := []sim.Job{elasticJob(1, 0, 1600, 0, 4, 16, 16, false)}
	p := &funcPolicy{}
	p.arrive = func(m *sim.Machine, t *sim.Task) {
		_ = moldDispatch(m, t, 16, 0)
		m.SetTimer(50, 1)
	}
	p.timer = func(m *sim.Machine, tag int) {
		tk := m.Task(0)
		switch tag {
		case 1:
			_ = m.Checkpoint(tk, 0)
			if err := m.Mold(tk, 4); err != nil || tk.Procs != 4 || tk.Runtime != 50+200 {
				panic(fmt.Sprintf("mold stopped job: %v, procs %d, runtime %d", err, tk.Procs, tk.Runtime))
			}
			_ = m.Mold(tk, 8) // molding again before the restart is allowed
			_ = m.DispatchN(tk, 0)
			m.SetTimer(60, 2)
		case 2:
			_ = m.Checkpoint(tk, 0)
			_ = moldDispatch(m, tk, 8, 0)
		}
	}
	res := runElastic(t, 16, jobs, p, sim.Options{})
	tk := res.Tasks[0]
	// 800 left at 50; 10 s on 8 leave 720, which take 90 s more on 8.
	if tk.End != 150 || tk.Flex.Reconfigurations != 1 || tk.Flex.Migrations != 1 || tk.Flex.FirstProcs != 16 || tk.Flex.LastProcs != 8 {
		t.Errorf("end %d flex %+v; want end 150, 1 reconfiguration, 1 migration", tk.End, tk.Flex)
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

// moldDispatch sizes t to k processors and (re)starts it on the lowest
// free ones after delay.
func moldDispatch(m *sim.Machine, t *sim.Task, k int, delay sim.Time) error {
	if err := m.Mold(t, k); err != nil {
		return err
	}
	return m.DispatchN(t, delay)
}
