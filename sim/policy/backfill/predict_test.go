package backfill_test

import (
	"context"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
	"github.com/schedfarm/schedfarm/sim/simcheck"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestEASY_Predicted is EASY++ on a schedule derived by hand (4
// processors):
//
//	job user submit runtime estimate procs
//	J1  1    0      10      100      2     no history: predicted 100
//	J2  1    0      10      100      2     no history: predicted 100
//	J3  2    20     50      100      2     no history: predicted 100
//	J4  2    30     40      100      4     head from 30: J3 has not ended
//	J5  1    31     60      200      2     mean(J1, J2) = 10
//
// J3's predicted end 120 is J4's shadow time, with no extra processors.
// With the users' estimates J5 (ending at 231) cannot backfill at 31; J4
// starts when J3 ends (70) and J5 after it (110). With predictions J5
// ends by 41 and backfills at 31; at 41 it is still running and its
// prediction grows by the first correction step (60 s) to 70, its
// planned end to 101; J3 ends at 70, J5 at 91, and J4 starts then.
func TestEASY_Predicted(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 10, Estimate: 100, Procs: 2, Info: sim.JobInfo{User: 1}},
		{ID: 2, Submit: 0, Runtime: 10, Estimate: 100, Procs: 2, Info: sim.JobInfo{User: 1}},
		{ID: 3, Submit: 20, Runtime: 50, Estimate: 100, Procs: 2, Info: sim.JobInfo{User: 2}},
		{ID: 4, Submit: 30, Runtime: 40, Estimate: 100, Procs: 4, Info: sim.JobInfo{User: 2}},
		{ID: 5, Submit: 31, Runtime: 60, Estimate: 200, Procs: 2, Info: sim.JobInfo{User: 1}},
	}
	for _, c := range []struct {
		predict bool
		starts  []sim.Time
	}{
		{false, []sim.Time{0, 0, 20, 70, 110}},
		{true, []sim.Time{0, 0, 20, 91, 31}},
	} {
		p := backfill.NewEASY()
		p.Predict = c.predict
		made := 0
		var pred func(*sim.Task) sim.Time
		if c.predict {
			pred = backfill.PredictionBasis(p, func(*sim.Task, []int) { made++ })
		}
		res, err := sim.Run(context.Background(), 4, jobs, p, sim.Options{Segments: true, CheckEvery: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := simcheck.Check(jobs, res); err != nil {
			t.Fatal(err)
		}
		for i, want := range c.starts {
			if got := res.Tasks[i].FirstStart; got != want {
				t.Errorf("predict=%v: job %d starts at %d, want %d", c.predict, res.Tasks[i].ID, got, want)
			}
		}
		if c.predict {
			if made != 5 {
				t.Errorf("%d predictions, want 5", made)
			}
			// The final predictions: J5 grew from 10 to 70, the others
			// never outlived theirs.
			for i, want := range []sim.Time{100, 100, 100, 100, 70} {
				if got := pred(&res.Tasks[i]); got != want {
					t.Errorf("job %d: prediction %d, want %d", res.Tasks[i].ID, got, want)
				}
			}
		}
	}
}

// TestEASY_CorrectionAlarm: corrections that cannot start a job get no
// instant of their own (see correctionAlarm), with the same schedule as
// one timer per correction (4 processors, order sjf with predictions):
//
//	job user submit runtime estimate procs
//	K   4    0      2000    2000     2     no history: predicted 2000
//	J1  1    0      10      100      1     no history: predicted 100
//	J2  1    20     500     1000     1     mean(J1) = 10: planned end 30
//	J3  2    25     100     100      4     head: K ends at 2000
//	J4  3    26     3000    3000     1     runs past 2000: cannot backfill
//
// J3's shadow time is 2000, when K ends. J2 outlives its prediction at 30,
// 90 and 390 (corrections of 60, 300 and 900 s, the last capped by its
// estimate: planned ends 90, 390 and 1020), all before 2000: none can
// start J4, which fits what is free, and none gets an instant. J2 ends at
// 520, K at 2000: J3 starts then and J4 when J3 ends (2100). The instants
// are the arrivals (0, 20, 25, 26) and completions (10, 520, 2000, 2100,
// 5100): 9, against 12 with a timer for each correction.
func TestEASY_CorrectionAlarm(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 2000, Estimate: 2000, Procs: 2, Info: sim.JobInfo{User: 4}},
		{ID: 2, Submit: 0, Runtime: 10, Estimate: 100, Procs: 1, Info: sim.JobInfo{User: 1}},
		{ID: 3, Submit: 20, Runtime: 500, Estimate: 1000, Procs: 1, Info: sim.JobInfo{User: 1}},
		{ID: 4, Submit: 25, Runtime: 100, Estimate: 100, Procs: 4, Info: sim.JobInfo{User: 2}},
		{ID: 5, Submit: 26, Runtime: 3000, Estimate: 3000, Procs: 1, Info: sim.JobInfo{User: 3}},
	}
	starts := []sim.Time{0, 0, 20, 2000, 2100}
	for _, c := range []struct {
		eager    bool
		instants int
	}{{false, 9}, {true, 12}} {
		p := backfill.NewEASY()
		p.Rank, p.Predict = backfill.RankSJF, true
		if c.eager {
			backfill.EagerCorrections(p)
		}
		pred := backfill.PredictionBasis(p, func(*sim.Task, []int) {})
		res, err := sim.Run(context.Background(), 4, jobs, p, sim.Options{Segments: true, CheckEvery: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := simcheck.Check(jobs, res); err != nil {
			t.Fatal(err)
		}
		for i, want := range starts {
			if got := res.Tasks[i].FirstStart; got != want {
				t.Errorf("eager=%v: job %d starts at %d, want %d", c.eager, res.Tasks[i].ID, got, want)
			}
		}
		if res.Instants != c.instants {
			t.Errorf("eager=%v: %d instants, want %d", c.eager, res.Instants, c.instants)
		}
		if got := pred(&res.Tasks[2]); got != 1000 {
			t.Errorf("eager=%v: job 3's prediction %d at its end, want 1000", c.eager, got)
		}
	}
}

// TestPredicted_Causal: on the CTC and SDSC traces at load 1.2, every
// prediction is made from jobs of the same user that completed by the
// predicted job's arrival, the two most recent of them, and its value is
// their mean runtime (rounded up) capped by the job's estimate.
func TestPredicted_Causal(t *testing.T) {
	for _, name := range []string{"ctc", "sdsc"} {
		tr := readTrace(t, name)
		wl, err := tr.Build(workload.Options{Estimates: workload.EstimatePredicted, Skip: 1000, Count: 4000, Load: 1.2})
		if err != nil {
			t.Fatal(err)
		}
		type made struct {
			idx  int
			from []int
			pred sim.Time
		}
		var log []made
		p := backfill.NewEASY()
		p.Predict = true
		var pred func(*sim.Task) sim.Time
		pred = backfill.PredictionBasis(p, func(tk *sim.Task, from []int) {
			log = append(log, made{tk.Index, append([]int(nil), from...), pred(tk)})
		})
		res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{Segments: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := simcheck.Check(wl.Jobs, res); err != nil {
			t.Fatal(err)
		}
		if len(log) != len(res.Tasks) {
			t.Fatalf("%s: %d predictions for %d jobs", name, len(log), len(res.Tasks))
		}
		withHistory := 0
		for _, m := range log {
			tk := &res.Tasks[m.idx]
			// The user's completions known at the arrival, latest first
			// (ties in any order).
			var known []int
			for j := range res.Tasks {
				o := &res.Tasks[j]
				if j != m.idx && o.Info.User == tk.Info.User && tk.Info.User >= 0 && o.End <= tk.Submit {
					known = append(known, j)
				}
			}
			if len(m.from) != min(len(known), 2) {
				t.Fatalf("%s: job %d made from %d jobs, %d completed by its arrival", name, tk.ID, len(m.from), len(known))
			}
			var sum sim.Time
			for _, j := range m.from {
				o := &res.Tasks[j]
				if o.Info.User != tk.Info.User || o.End > tk.Submit {
					t.Fatalf("%s: job %d (user %d, arrival %d) predicted from job %d (user %d, end %d)", name, tk.ID, tk.Info.User, tk.Submit, o.ID, o.Info.User, o.End)
				}
				// No completion known at the arrival is more recent than
				// one used, apart from the used ones.
				for _, k := range known {
					if k != m.from[0] && (len(m.from) < 2 || k != m.from[1]) && res.Tasks[k].End > o.End {
						t.Fatalf("%s: job %d predicted from job %d (end %d), but job %d ended later (%d)", name, tk.ID, o.ID, o.End, res.Tasks[k].ID, res.Tasks[k].End)
					}
				}
				sum += o.Runtime
			}
			want := tk.Estimate
			if n := sim.Time(len(m.from)); n > 0 {
				want = min(want, (sum+n-1)/n)
				withHistory++
			}
			if m.pred != want {
				t.Fatalf("%s: job %d predicted %d, want %d", name, tk.ID, m.pred, want)
			}
		}
		if withHistory < len(log)/2 {
			t.Errorf("%s: only %d of %d predictions from a history", name, withHistory, len(log))
		}
	}
}

// TestPredicted_SparseUsers: user numbers far above the job count (their
// histories kept in a map instead of the table by number) give the same
// predictions and schedule:
// 4,000 CTC jobs at load 1.2 with every known user u renumbered to
// u*100,000+7, against the trace's numbers.
func TestPredicted_SparseUsers(t *testing.T) {
	tr := readTrace(t, "ctc")
	wl, err := tr.Build(workload.Options{Estimates: workload.EstimatePredicted, Skip: 1000, Count: 4000, Load: 1.2})
	if err != nil {
		t.Fatal(err)
	}
	sparse := append([]sim.Job(nil), wl.Jobs...)
	for i := range sparse {
		if u := sparse[i].Info.User; u >= 0 {
			if u > 20000 {
				t.Fatalf("user %d: renumbering would overflow", u)
			}
			sparse[i].Info.User = u*100000 + 7
		}
	}
	type run struct {
		res   *sim.Result
		preds []sim.Time
	}
	simulate := func(jobs []sim.Job) run {
		p := backfill.NewEASY()
		p.Predict = true
		pred := backfill.PredictionBasis(p, func(*sim.Task, []int) {})
		res, err := sim.Run(context.Background(), wl.Procs, jobs, p, sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var preds []sim.Time
		for i := range res.Tasks {
			preds = append(preds, pred(&res.Tasks[i]))
		}
		return run{res, preds}
	}
	a, b := simulate(wl.Jobs), simulate(sparse)
	differ := 0
	for i := range a.res.Tasks {
		ta, tb := &a.res.Tasks[i], &b.res.Tasks[i]
		if ta.FirstStart != tb.FirstStart || a.preds[i] != b.preds[i] {
			t.Fatalf("job %d: start %d, prediction %d with the trace's users; %d, %d renumbered", ta.ID, ta.FirstStart, a.preds[i], tb.FirstStart, b.preds[i])
		}
		if a.preds[i] != ta.Estimate {
			differ++
		}
	}
	if differ < len(a.preds)/2 {
		t.Errorf("only %d of %d predictions differ from the estimate", differ, len(a.preds))
	}
}
