package runner_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/workload"
	"github.com/schedfarm/schedfarm/sweep"
)

// ctcSpec runs two policies on a 500-job CTC subset with duplicated load,
// so the seed matters.
const ctcSpec = `
name: runner-test
workloads:
  - trace: ctc
    skip: 1000
    count: 500
    estimates: [accurate, trace]
    load: 1.2
    load_mode: duplicate
policies:
  - name: easy
  - name: conservative
`

// MustTasks parses spec (traces found from this directory up) and returns
// its tasks and the trace path.
func MustTasks(tb testing.TB, spec string) ([]sweep.Task, string) {
	tb.Helper()
	s, err := sweep.Parse([]byte(spec), ".")
	if err != nil {
		tb.Fatalf("Parse: %v", err)
	}
	ts, err := s.Tasks()
	if err != nil {
		tb.Fatal(err)
	}
	return ts, s.Traces()[0].Path
}

func TestExecute_OK(t *testing.T) {
	ts, path := MustTasks(t, ctcSpec)
	for i := range ts {
		tk := &ts[i]
		r, err := runner.Execute(context.Background(), tk, path)
		if err != nil {
			t.Fatalf("Execute(task %d): %v", i, err)
		}
		if r.TaskID != tk.ID || r.Index != tk.Index || r.Err != "" || r.WallTime <= 0 {
			t.Errorf("result identity %q %d %q wall %v", r.TaskID, r.Index, r.Err, r.WallTime)
		}
		// An independent run with the same inputs gives the same records.
		est, _ := workload.ParseEstimateModel(tk.Workload.Estimates)
		w, err := workload.Load(path, workload.Options{Estimates: est, Skip: 1000, Count: 500, Load: 1.2, LoadMode: workload.LoadDuplicate, Seed: tk.Seed})
		if err != nil {
			t.Fatal(err)
		}
		p, err := policy.New(tk.Policy, nil, policy.Env{Procs: w.Procs, Jobs: w.Jobs, Seed: tk.Seed})
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(context.Background(), w.Procs, w.Jobs, p, sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := metrics.Records(res)
		if len(want) <= 500 {
			t.Fatalf("duplicate load 1.2 gave %d jobs, want more than 500", len(want))
		}
		if !reflect.DeepEqual(r.Jobs, want) {
			t.Errorf("task %d: records differ from an independent run", i)
		}
		if got, want := r.Stats, metrics.Stats(w.Procs, want); !reflect.DeepEqual(got, want) {
			t.Errorf("Stats = %+v, want %+v", got, want)
		}
		if r.Stats.Procs != 338 || r.Drops.Total() != w.Drops.Total() || r.Drops.Runtime != w.Drops.Runtime {
			t.Errorf("procs %d drops %+v, want 338 and %+v", r.Stats.Procs, r.Drops, w.Drops)
		}
	}
}

func TestExecute_Deterministic(t *testing.T) {
	ts, path := MustTasks(t, ctcSpec)
	tk := &ts[1]
	a, err := runner.NewCache(2).Execute(context.Background(), tk, path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := runner.NewCache(2).Execute(context.Background(), tk, path)
	if err != nil {
		t.Fatal(err)
	}
	a.WallTime, b.WallTime = 0, 0
	ma, _ := a.Marshal()
	mb, _ := b.Marshal()
	if string(ma) != string(mb) {
		t.Errorf("two runs of task %d marshal differently", tk.Index)
	}
}

func TestExecute_Errors(t *testing.T) {
	ts, path := MustTasks(t, "name: e\nworkloads: [{trace: ctc, count: 50}]\npolicies: [{name: ss}]\n")
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.swf")
	if err := os.WriteFile(bad, []byte("; MaxProcs: 4\n1 0 -1 x 1 -1 -1 1 10 -1 1 1 -1 1 1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name       string
		givenTask  func(*sweep.Task)
		givenPath  string
		withError  error
		determined bool
	}{
		{"BadParam", func(t *sweep.Task) { t.Params = map[string]any{"suspension_factor": 0.5} }, path, policy.ErrBadParam, true},
		{"UnknownPolicy", func(t *sweep.Task) { t.Policy = "nope" }, path, policy.ErrUnknownPolicy, true},
		{"BadEstimates", func(t *sweep.Task) { t.Workload.Estimates = "user" }, path, workload.ErrInvalidOption, true},
		{"TooFewJobs", func(t *sweep.Task) { t.Workload.Count = 1 << 30 }, path, workload.ErrNotEnoughJobs, true},
		{"MalformedTrace", func(t *sweep.Task) { t.Workload.TraceSHA256 = "" }, bad, workload.ErrNotNumber, true},
		{"TraceMismatch", func(*sweep.Task) {}, bad, runner.ErrTraceMismatch, false},
		{"MissingTrace", func(*sweep.Task) {}, filepath.Join(dir, "gone.swf"), os.ErrNotExist, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tk := ts[0].Clone()
			tt.givenTask(&tk)
			_, err := runner.NewCache(1).Execute(context.Background(), &tk, tt.givenPath)
			if !errors.Is(err, tt.withError) {
				t.Fatalf("Execute = %v, want %v", err, tt.withError)
			}
			if got := errors.Is(err, runner.ErrDeterministic); got != tt.determined {
				t.Errorf("errors.Is(%v, ErrDeterministic) = %v, want %v", err, got, tt.determined)
			}
		})
	}
}

func TestExecute_Canceled(t *testing.T) {
	ts, path := MustTasks(t, ctcSpec)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := runner.Execute(ctx, &ts[0], path)
	if err != context.Canceled || r != nil {
		t.Fatalf("Execute(canceled) = %v, %v; want nil, context.Canceled", r, err)
	}
}

// countingCtx is a context that is never done until its Err has been
// called cancelAt times (never when cancelAt is 0); from then on Err says
// context.Canceled. It counts the calls, so a test can see when the
// cancellation was observed without measuring time.
type countingCtx struct {
	context.Context
	cancelAt int64
	calls    atomic.Int64
}

func (c *countingCtx) Err() error {
	if n := c.calls.Add(1); c.cancelAt > 0 && n >= c.cancelAt {
		return context.Canceled
	}
	return nil
}

// TestExecute_CanceledWhileSimulating: a cancellation that arrives in the
// middle of a simulation ends it at the engine's next check of the
// context, not when the simulation would have finished. The uncancelled
// run counts the checks; the cancelled one sees its cancellation at half
// of them and must return context.Canceled right there (ordering, not
// wall time).
func TestExecute_CanceledWhileSimulating(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 40000 CTC jobs twice")
	}
	ts, path := MustTasks(t, "name: long\nworkloads: [{trace: ctc, count: 40000, load: 1.5}]\npolicies: [{name: easy}]\n")
	c := runner.NewCache(1)
	opts, err := runner.Options(&ts[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Workload(path, ts[0].Workload.TraceSHA256, opts); err != nil { // warm the cache: count the simulation's checks only
		t.Fatal(err)
	}
	whole := &countingCtx{Context: context.Background()}
	if _, err := c.Execute(whole, &ts[0], path); err != nil {
		t.Fatal(err)
	}
	n := whole.calls.Load()
	if n < 16 {
		t.Fatalf("the whole run checked its context %d times, want a simulation long enough for 16", n)
	}
	cut := &countingCtx{Context: context.Background(), cancelAt: n / 2}
	_, err = c.Execute(cut, &ts[0], path)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Execute = %v, want context.Canceled", err)
	}
	if got := cut.calls.Load(); got > cut.cancelAt+4 {
		t.Errorf("Execute checked its context %d times after it was canceled at check %d of %d: it went on simulating", got-cut.cancelAt, cut.cancelAt, n)
	}
	t.Logf("whole run: %d context checks; canceled at %d, returned after %d", n, cut.cancelAt, cut.calls.Load())
}

// TestExecute_Baseline: a TSS task records the EASY baseline it used, the
// result carries it through Marshal/Unmarshal, and other policies have none.
func TestExecute_Baseline(t *testing.T) {
	ts, path := MustTasks(t, `
name: baseline-test
workloads:
  - trace: ctc
    count: 400
    estimates: accurate
policies:
  - name: tss
  - name: easy
`)
	tss, err := runner.Execute(context.Background(), &ts[0], path)
	if err != nil {
		t.Fatal(err)
	}
	if len(tss.Baseline) == 0 {
		t.Fatalf("tss result has no baseline")
	}
	for cat, v := range tss.Baseline {
		if v < 1 {
			t.Errorf("baseline[%q] = %v, a mean bounded slowdown below 1", cat, v)
		}
	}
	b, err := tss.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := results.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Baseline, tss.Baseline) {
		t.Errorf("baseline after Unmarshal = %v, want %v", back.Baseline, tss.Baseline)
	}
	easy, err := runner.Execute(context.Background(), &ts[1], path)
	if err != nil {
		t.Fatal(err)
	}
	if easy.Baseline != nil {
		t.Errorf("easy result has a baseline: %v", easy.Baseline)
	}
}
