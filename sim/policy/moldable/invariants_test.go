package moldable_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/policy/moldable"
	"github.com/schedfarm/schedfarm/sim/simcheck"
	"github.com/schedfarm/schedfarm/sim/workload"
)

const (
	sdscTrace = "../../../traces/SDSC-SP2-1998-4.2-cln.swf.gz"
	ctcTrace  = "../../../traces/CTC-SP2-1996-3.1-cln.swf.gz"
)

func load(t *testing.T, path string, procs, count int, est workload.EstimateModel, lf float64, m *workload.Moldability) *workload.Workload {
	t.Helper()
	w, err := workload.Load(path, workload.Options{Procs: procs, Count: count, Estimates: est, Load: lf, Moldable: m})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// spy wraps a moldable policy to check every decision against the
// machine's state, independently of the policy's own profile.
type spy struct {
	sim.Policy
	m    *sim.Machine
	errs []error
	// heads maps a head job to its last reserved completion.
	heads        map[int]sim.Time
	headMonotone bool
}

func (s *spy) Init(m *sim.Machine) error { s.m = m; return s.Policy.Init(m) }

func (s *spy) add(format string, a ...any) {
	if len(s.errs) < 10 {
		s.errs = append(s.errs, fmt.Errorf(format, a...))
	}
}

// decision checks one size decision: k in [min, max] and <= lim.
func (s *spy) decision(st moldable.Step) {
	a := st.Task.Mold
	if st.K < a.Min || st.K > a.Max || st.K > st.Lim || st.Lim < a.Min || st.Lim > a.Max {
		s.add("job %d: %d processors, range [%d,%d], limit %d", st.Task.ID, st.K, a.Min, a.Max, st.Lim)
	}
	if st.E != a.E(st.K) {
		s.add("job %d: planned %d s on %d, E(k) = %d", st.Task.ID, st.E, st.K, a.E(st.K))
	}
}

// pass replays a pass of moldable-schedule on a fresh profile holding the
// jobs that were running before it: every start and reservation, in
// order, must fit, so no start broke a reservation made earlier in its
// pass and nothing is over-committed.
func (s *spy) pass(now sim.Time, steps []moldable.Step) {
	started := map[*sim.Task]bool{}
	for _, st := range steps {
		if st.Start {
			started[st.Task] = true
		}
	}
	prof := sim.NewProfile(s.m.Size(), now)
	for _, t := range s.m.Active() {
		if !started[t] {
			if err := prof.Reserve(now, t.FirstStart+t.Estimate-now, t.Procs); err != nil {
				s.add("t=%d: running jobs: %v", now, err)
			}
		}
	}
	for _, st := range steps {
		s.decision(st)
		if err := prof.Reserve(st.S, st.E, st.K); err != nil {
			s.add("t=%d: job %d (start %v) on %d over [%d,+%d) breaks an earlier decision of its pass: %v", now, st.Task.ID, st.Start, st.K, st.S, st.E, err)
		}
		if st.Head && !st.Start && s.headMonotone {
			end := st.S + st.E
			if old, ok := s.heads[st.Task.Index]; ok && end > old {
				s.add("t=%d: head job %d reserved to end at %d, earlier at %d", now, st.Task.ID, end, old)
			}
			s.heads[st.Task.Index] = end
		}
	}
}

// checkJobs checks the final sizes and runtimes: runtime = T(k) and the
// work is conserved: runtime x S(k) >= L - 1e-6 and (runtime-1) x S(k) <
// L unless runtime = 1 or k = p.
func checkJobs(t *testing.T, res *sim.Result) {
	t.Helper()
	bad := 0
	for i := range res.Tasks {
		tk := &res.Tasks[i]
		a := tk.Mold
		k := tk.Procs
		s := a.Speedup.At(k)
		ok := k >= a.Min && k <= a.Max && tk.Runtime == a.T(k) && float64(tk.Runtime)*s >= a.Work-1e-6
		if tk.Runtime != 1 && k != a.BaseProcs {
			ok = ok && float64(tk.Runtime-1)*s < a.Work
		}
		if k == a.BaseProcs {
			ok = ok && tk.Runtime == a.BaseRuntime
		}
		if !ok {
			if bad++; bad <= 5 {
				t.Errorf("job %d: %d processors in [%d,%d], runtime %d, T(k) %d, S(k) %v, L %v", tk.ID, k, a.Min, a.Max, tk.Runtime, a.T(k), s, a.Work)
			}
		}
	}
}

// TestInvariants_RealTraces runs every moldable policy on subsets of SDSC
// and CTC under several sigma and RF, checking simcheck's invariants,
// every decision of the policy and the final sizes.
func TestInvariants_RealTraces(t *testing.T) {
	count := 1500
	if testing.Short() {
		count = 400
	}
	type variant struct {
		name   string
		params map[string]any
	}
	variants := []variant{
		{"moldable-submit", nil},
		{"moldable-submit", map[string]any{"fair_share": false, "choices": 0}},
		{"moldable-submit", map[string]any{"compress": "queue_order"}},
		{"moldable-schedule", nil},
		{"moldable-schedule", map[string]any{"choices": 0, "weight_factor": 2}},
		{"moldable-combined", nil},
		{"moldable-combined", map[string]any{"xfactor_threshold": 1.5, "choices": 0}},
		{"moldable-combined", map[string]any{"weights": "work", "xfactor_base": "estimate"}},
		{"moldable-combined", map[string]any{"keep_reservations": true}},
		{"moldable-schedule", map[string]any{"keep_reservations": true, "weights": "work"}},
	}
	for _, tr := range []struct {
		name  string
		path  string
		procs int
	}{{"sdsc", sdscTrace, 128}, {"ctc", ctcTrace, 430}} {
		for _, m := range []workload.Moldability{{Sigma: 0, RangeFactor: 1}, {Sigma: 1, RangeFactor: 2}, {Sigma: 2, RangeFactor: 4}} {
			w := load(t, tr.path, tr.procs, count, workload.EstimateTrace, 1.25, &m)
			for _, v := range variants {
				t.Run(fmt.Sprintf("%s/sigma%g-rf%g/%s%v", tr.name, m.Sigma, m.RangeFactor, v.name, v.params), func(t *testing.T) {
					p, err := policy.New(v.name, v.params, policy.Env{Procs: w.Procs, Jobs: w.Jobs})
					if err != nil {
						t.Fatal(err)
					}
					sp := &spy{Policy: p}
					switch q := p.(type) {
					case *moldable.Schedule:
						q.Observe = sp.pass
					case *moldable.Submit:
						q.Observe = func(_ sim.Time, st moldable.Step) { sp.decision(st) }
					}
					res := runSpy(t, w, sp)
					for _, err := range sp.errs {
						t.Error(err)
					}
					checkJobs(t, res)
				})
			}
		}
	}
}

// runSpy runs the spied policy on w with segment recording and reports
// what simcheck finds in the run.
func runSpy(t *testing.T, w *workload.Workload, sp *spy) *sim.Result {
	t.Helper()
	res, err := sim.Run(context.Background(), w.Procs, w.Jobs, sp, sim.Options{Segments: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := simcheck.Check(w.Jobs, res); err != nil {
		t.Errorf("simcheck: %v", err)
	}
	return res
}

// TestInvariants_HeadCompletion: without fair share and with accurate
// estimates, the head job's reserved completion never increases from one
// pass to the next (its earlier plan stays feasible, so its best can only
// improve).
func TestInvariants_HeadCompletion(t *testing.T) {
	count := 2000
	if testing.Short() {
		count = 500
	}
	for _, tr := range []struct {
		path  string
		procs int
	}{{sdscTrace, 128}, {ctcTrace, 430}} {
		for _, name := range []string{"moldable-schedule", "moldable-combined"} {
			w := load(t, tr.path, tr.procs, count, workload.EstimateAccurate, 1.5, &workload.Moldability{Sigma: 1, RangeFactor: 2})
			p, err := policy.New(name, map[string]any{"fair_share": false}, policy.Env{Procs: w.Procs, Jobs: w.Jobs})
			if err != nil {
				t.Fatal(err)
			}
			sp := &spy{Policy: p, heads: map[int]sim.Time{}, headMonotone: true}
			p.(*moldable.Schedule).Observe = sp.pass
			runSpy(t, w, sp)
			for _, err := range sp.errs {
				t.Errorf("%s %s: %v", tr.path, name, err)
			}
			if len(sp.heads) == 0 {
				t.Errorf("%s %s: no head reservation was ever made", tr.path, name)
			}
		}
	}
}

// TestRigidInvariance: rigid policies give the same job rows (schedule
// and sizes) with or without the moldable annotation.
func TestRigidInvariance(t *testing.T) {
	rigidW := load(t, sdscTrace, 128, 1000, workload.EstimateTrace, 1.25, nil)
	moldW := load(t, sdscTrace, 128, 1000, workload.EstimateTrace, 1.25, &workload.Moldability{Sigma: 1, RangeFactor: 3})
	for _, name := range []string{"fcfs", "easy", "conservative", "ss", "multiqueue"} {
		run := func(w *workload.Workload) *sim.Result {
			p, err := policy.New(name, nil, policy.Env{Procs: w.Procs, Jobs: w.Jobs})
			if err != nil {
				t.Fatal(err)
			}
			res, err := sim.Run(context.Background(), w.Procs, w.Jobs, p, sim.Options{})
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		a, b := run(rigidW), run(moldW)
		for i := range a.Tasks {
			x, y := a.Tasks[i], b.Tasks[i]
			if x.ID != y.ID || x.FirstStart != y.FirstStart || x.End != y.End || x.Procs != y.Procs || x.Runtime != y.Runtime || x.Estimate != y.Estimate {
				t.Fatalf("%s: job %d: [%d,%d) on %d rigid, [%d,%d) on %d annotated", name, x.ID, x.FirstStart, x.End, x.Procs, y.FirstStart, y.End, y.Procs)
			}
		}
	}
}

// TestRigidWorkload: a moldable policy refuses a rigid workload.
func TestRigidWorkload(t *testing.T) {
	for _, name := range []string{"moldable-submit", "moldable-schedule", "moldable-combined"} {
		p, err := policy.New(name, nil, policy.Env{Procs: 8})
		if err != nil {
			t.Fatal(err)
		}
		_, err = sim.Run(context.Background(), 8, []sim.Job{{ID: 1, Runtime: 1, Estimate: 1, Procs: 1}}, p, sim.Options{})
		if err == nil || !errors.Is(err, moldable.ErrRigidWorkload) {
			t.Errorf("%s on a rigid workload: err = %v, want ErrRigidWorkload", name, err)
		}
	}
}
