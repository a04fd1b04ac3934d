package simcheck_test

import (
	"context"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
	"github.com/schedfarm/schedfarm/sim/policy/lsf"
	"github.com/schedfarm/schedfarm/sim/simcheck"
)

// TestCheck_Catches tampers with a correct run and expects each kind of
// violation to be reported.
func TestCheck_Catches(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 2},
		{ID: 2, Submit: 0, Runtime: 50, Estimate: 50, Procs: 2},
		{ID: 3, Submit: 10, Runtime: 20, Estimate: 20, Procs: 4},
	}
	fresh := func() *sim.Result {
		res, err := sim.Run(context.Background(), 4, jobs, backfill.NewEASY(), sim.Options{Segments: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := simcheck.Check(jobs, res); err != nil {
			t.Fatalf("clean run: %v", err)
		}
		return res
	}
	tests := []struct {
		name   string
		tamper func(r *sim.Result)
		want   string
	}{
		{"double booking", func(r *sim.Result) { r.Segments[1].Set = r.Segments[0].Set.Clone() }, "held by job"},
		{"short work", func(r *sim.Result) { r.Segments[0].End -= 1 }, "of work"},
		{"early start", func(r *sim.Result) { r.Tasks[2].FirstStart = 5 }, "before its arrival"},
		{"broken promise", func(r *sim.Result) { r.Tasks[2].Promise = r.Tasks[2].FirstStart - 1 }, "later than its reservation"},
		{"raised promise", func(r *sim.Result) { r.Tasks[2].PromiseRaised = true }, "moved later"},
		{"not done", func(r *sim.Result) { r.Tasks[0].State = sim.Suspended }, "did not complete"},
		{"moved processors", func(r *sim.Result) {
			s := r.Segments[0]
			s2 := s
			s.End = s.Start + 10
			s2.Start = s.End
			set := sim.FullProcSet(4)
			set.Subtract(s.Set)
			s2.Set = set
			r.Segments[0] = s
			r.Segments = append(r.Segments, s2)
		}, "resumed on"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := fresh()
			tt.tamper(res)
			err := simcheck.Check(jobs, res)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Check() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// admitPolicy admits jobs with deadline 1000 and rejects job 3, starting
// admitted jobs in arrival order when they fit.
type admitPolicy struct{ m *sim.Machine }

func (p *admitPolicy) Init(m *sim.Machine) error { p.m = m; return nil }
func (p *admitPolicy) Arrive(t *sim.Task) {
	if t.ID == 3 {
		_ = p.m.Reject(t)
		return
	}
	_ = p.m.Admit(t, 1000)
}
func (p *admitPolicy) Finish(*sim.Task) {}
func (p *admitPolicy) Timer(int)        {}
func (p *admitPolicy) Schedule() {
	for i := 0; i < p.m.NumTasks(); i++ {
		if t := p.m.Task(i); t.State == sim.Waiting && t.Procs <= p.m.Free() {
			_ = p.m.Start(t)
		}
	}
}

// TestCheck_CatchesAdmission tampers with a correct run of an
// admission-control policy and expects each admission violation to be
// reported.
func TestCheck_CatchesAdmission(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 2},
		{ID: 2, Submit: 0, Runtime: 50, Estimate: 50, Procs: 2},
		{ID: 3, Submit: 10, Runtime: 20, Estimate: 20, Procs: 4},
	}
	fresh := func() *sim.Result {
		res, err := sim.Run(context.Background(), 4, jobs, &admitPolicy{}, sim.Options{Segments: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := simcheck.Check(jobs, res); err != nil {
			t.Fatalf("clean run: %v", err)
		}
		return res
	}
	tests := []struct {
		name   string
		tamper func(r *sim.Result)
		want   string
	}{
		{"rejected holds processors", func(r *sim.Result) {
			r.Segments = append(r.Segments, sim.Segment{Task: 2, Start: 200, End: 220, Set: sim.FullProcSet(4), Working: true})
		}, "rejected job 3 held processors"},
		{"rejected ran", func(r *sim.Result) { r.Tasks[2].FirstStart = 10 }, "rejected job 3 ran"},
		{"missed deadline", func(r *sim.Result) { r.Tasks[0].Deadline = 99; r.Decisions[0].Deadline = 99 }, "after its deadline 99"},
		{"decided late", func(r *sim.Result) { r.Decisions[2].At = 11 }, "decided at 11, it arrived at 10"},
		{"decided twice", func(r *sim.Result) { r.Decisions = append(r.Decisions, r.Decisions[0]) }, "decided 2 times"},
		{"deadline changed", func(r *sim.Result) { r.Tasks[1].Deadline = 2000 }, "ended with deadline 2000"},
		{"never decided", func(r *sim.Result) { r.Decisions = r.Decisions[1:] }, "never decided"},
		{"state differs", func(r *sim.Result) { r.Decisions[2].Admitted = true }, "ended rejected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := fresh()
			tt.tamper(res)
			err := simcheck.Check(jobs, res)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Check() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestCheck_CatchesElastic: the malleable golden run of LSF-MALL-AD (A is
// checkpointed when B arrives and both restart on 8 processors) passes; a
// demand the segments do not serve, an allocation off the unit, and a
// moved set of a never-checkpointed job are reported.
func TestCheck_CatchesElastic(t *testing.T) {
	el := func(id int64, submit sim.Time, work float64) sim.Job {
		e := &sim.Elastic{Work: work, SeqFrac: 0, Min: 8, Max: 16, Unit: 8}
		rt := e.Duration(work, 16)
		return sim.Job{ID: id, Submit: submit, Runtime: rt, Estimate: rt, Procs: 16, Elastic: e}
	}
	jobs := []sim.Job{el(1, 0, 16000), el(2, 700, 1600)}
	fresh := func(d lsf.Discipline) *sim.Result {
		p, err := lsf.New(lsf.DefaultConfig(d))
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(context.Background(), 16, jobs, p, sim.Options{Segments: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := simcheck.Check(jobs, res); err != nil {
			t.Fatalf("clean %v run: %v", d, err)
		}
		return res
	}
	tests := []struct {
		name   string
		d      lsf.Discipline
		tamper func(r *sim.Result)
		want   string
	}{
		{"unserved demand", lsf.MallAD, func(r *sim.Result) {
			e := *r.Tasks[0].Elastic
			e.Work += 100
			r.Tasks[0].Elastic = &e
		}, "served"},
		{"off-unit allocation", lsf.MallAD, func(r *sim.Result) {
			for i := range r.Segments {
				if r.Segments[i].Task == 1 {
					r.Segments[i].Set.Remove(r.Segments[i].Set.Len() - 1)
				}
			}
		}, "multiple of 8"},
		{"moved rigid run", lsf.RTC, func(r *sim.Result) {
			s := r.Segments[0]
			s2 := s
			s.End = s.Start + 10
			s2.Start = s.End
			r.Segments[0] = s
			r.Segments = append(r.Segments, s2)
			r.Segments[len(r.Segments)-1].Set = sim.NewProcSet(16)
			for p := 8; p < 16; p++ {
				r.Segments[len(r.Segments)-1].Set.Add(p)
			}
		}, "resumed on"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := fresh(tt.d)
			tt.tamper(res)
			err := simcheck.Check(jobs, res)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Check() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}
