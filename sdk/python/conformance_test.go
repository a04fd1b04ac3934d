// Package python_test checks the Python policy kit (schedfarm_policy.py)
// and its examples against the built-in policies: the same start time for
// every job of real traces.
package python_test

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/policy/external"
	"github.com/schedfarm/schedfarm/sim/simcheck"
	"github.com/schedfarm/schedfarm/sim/workload"
)

var (
	traceMu sync.Mutex
	traces  = map[string]*workload.Trace{}
)

func load(t *testing.T, file string, est workload.EstimateModel, count int) *workload.Workload {
	t.Helper()
	traceMu.Lock()
	defer traceMu.Unlock()
	tr, ok := traces[file]
	if !ok {
		var err error
		if tr, err = workload.Read(filepath.Join("..", "..", "traces", file), 0); err != nil {
			t.Fatal(err)
		}
		traces[file] = tr
	}
	wl, err := tr.Build(workload.Options{Estimates: est, Count: count})
	if err != nil {
		t.Fatal(err)
	}
	return wl
}

// run simulates wl under a policy with parameters and returns the result.
func run(t *testing.T, wl *workload.Workload, name string, params map[string]any) *sim.Result {
	t.Helper()
	e, err := policy.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.Check(params)
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.Build(v, policy.Env{Procs: wl.Procs, Jobs: wl.Jobs, External: &external.Access{Interpreters: []string{"python3"}}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{Segments: true})
	if c, ok := p.(*external.Policy); ok {
		c.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := simcheck.Check(wl.Jobs, res); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// TestConformance: the Python FCFS, EASY, conservative and SJF-ordered
// EASY examples give every job the start time the built-in fcfs, easy,
// conservative and easy order=sjf give it, on the whole KTH trace and the
// first 20,000 CTC jobs, with trace and accurate estimates. With -short,
// the first 2,000 jobs of each.
func TestConformance(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatal("python3 is needed: ", err)
	}
	examples, err := filepath.Abs("examples")
	if err != nil {
		t.Fatal(err)
	}
	pairs := []struct {
		script  string
		builtin string
		params  map[string]any
	}{
		{"fcfs.py", "fcfs", nil},
		{"easy.py", "easy", nil},
		{"conservative.py", "conservative", nil},
		{"sjf_easy.py", "easy", map[string]any{"order": "sjf"}},
	}
	for _, tr := range []struct {
		name, file string
		count      int
	}{
		{"kth", "KTH-SP2-1996-2.1-cln.swf.gz", 0},
		{"ctc", "CTC-SP2-1996-3.1-cln.swf.gz", 20000},
	} {
		for _, est := range []workload.EstimateModel{workload.EstimateTrace, workload.EstimateAccurate} {
			count := tr.count
			if testing.Short() {
				count = 2000
			}
			for _, pr := range pairs {
				t.Run(fmt.Sprintf("%s/%v/%s", tr.name, est, pr.script), func(t *testing.T) {
					wl := load(t, tr.file, est, count)
					want := run(t, wl, pr.builtin, pr.params)
					got := run(t, wl, "external", map[string]any{"command": "python3 " + filepath.Join(examples, pr.script)})
					if len(got.Tasks) != len(want.Tasks) {
						t.Fatalf("%d jobs, want %d", len(got.Tasks), len(want.Tasks))
					}
					bad := 0
					for i := range want.Tasks {
						g, w := &got.Tasks[i], &want.Tasks[i]
						if g.FirstStart != w.FirstStart || g.ID != w.ID {
							if bad++; bad <= 5 {
								t.Errorf("job %d starts at %d, built-in %s at %d", w.ID, g.FirstStart, pr.builtin, w.FirstStart)
							}
						}
					}
					if bad > 0 {
						t.Errorf("%d of %d jobs start elsewhere", bad, len(want.Tasks))
					}
					t.Logf("%d jobs, same start times", len(want.Tasks))
				})
			}
		}
	}
}
