package sweep_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sweep"
)

// testdata is the base directory of inline specs: it holds tiny.swf (11
// valid jobs on 8 processors) and lies below the repository's traces/.
const testdata = "testdata"

// MustParse parses an inline spec relative to testdata or fails the test.
func MustParse(tb testing.TB, spec string) *sweep.Spec {
	tb.Helper()
	s, err := sweep.Parse([]byte(spec), testdata)
	if err != nil {
		tb.Fatalf("Parse: %v", err)
	}
	return s
}

// MustTasks expands a spec or fails the test.
func MustTasks(tb testing.TB, s *sweep.Spec) []sweep.Task {
	tb.Helper()
	ts, err := s.Tasks()
	if err != nil {
		tb.Fatalf("Tasks: %v", err)
	}
	return ts
}

func TestParse_OK(t *testing.T) {
	s := MustParse(t, `
name: grid-1
description: a small grid
workloads:
  - trace: tiny.swf
    count: 6
    estimates: [trace, accurate]
    load: [1, 1.5]
policies:
  - name: fcfs
  - name: ss
    label: ss-grid
    params:
      suspension_factor: [1.5, 2]
      interval: 30
replications: 2
seed: 7
categories: [ss4, ss16]
`)
	if s.Name != "grid-1" || s.Description != "a small grid" || s.Seed != 7 || s.Replications != 2 {
		t.Fatalf("spec = %q %q seed %d reps %d", s.Name, s.Description, s.Seed, s.Replications)
	}
	if got, want := s.Outputs.Tables, (sweep.TableOutput{Metric: "bsd_mean", Scheme: "ss4"}); got != want {
		t.Errorf("Outputs.Tables = %+v, want %+v", got, want)
	}
	ts := MustTasks(t, s)
	// 4 workloads x (1 fcfs + 2 ss settings) x 2 replications.
	if len(ts) != 24 {
		t.Fatalf("len(tasks) = %d, want 24", len(ts))
	}
	type key struct {
		est  string
		load float64
		pol  string
		sf   any
		rep  int
	}
	var got []key
	for i, tk := range ts {
		if tk.Index != i {
			t.Errorf("tasks[%d].Index = %d", i, tk.Index)
		}
		if tk.ID != tk.ComputeID() || len(tk.ID) != 64 {
			t.Errorf("tasks[%d].ID = %q, want ComputeID", i, tk.ID)
		}
		if tk.Sweep != "grid-1" || tk.SimVersion != sim.Version || !slices.Equal(tk.Schemes, []string{"ss4", "ss16"}) {
			t.Errorf("tasks[%d] = sweep %q sim %q schemes %v", i, tk.Sweep, tk.SimVersion, tk.Schemes)
		}
		if tk.Workload.Trace != "tiny" || tk.Workload.Count != 6 || tk.Workload.LoadMode != "arrival" || len(tk.Workload.TraceSHA256) != 64 {
			t.Errorf("tasks[%d].Workload = %+v", i, tk.Workload)
		}
		got = append(got, key{tk.Workload.Estimates, tk.Workload.Load, tk.Name(), tk.Params["suspension_factor"], tk.Replication})
	}
	// Workload axes in the order trace..estimates, load_mode, load; the
	// last varies fastest; then policies, their grids, replications.
	var want []key
	for _, est := range []string{"trace", "accurate"} {
		for _, load := range []float64{1, 1.5} {
			for _, p := range []struct {
				name string
				sf   any
			}{{"fcfs", nil}, {"ss-grid", 1.5}, {"ss-grid", 2.0}} {
				for rep := range 2 {
					want = append(want, key{est, load, p.name, p.sf, rep})
				}
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("expansion order:\n got %v\nwant %v", got, want)
	}
	// Parameters are typed and defaults are filled in.
	ss := ts[2]
	if ss.Policy != "ss" || ss.Params["interval"] != int64(30) || ss.Params["overhead"] != false {
		t.Errorf("ss params = %v", ss.Params)
	}
}

func TestParse_Defaults(t *testing.T) {
	s := MustParse(t, "name: d\nworkloads: [{trace: tiny.swf}]\npolicies: [{name: easy}]\n")
	ts := MustTasks(t, s)
	if len(ts) != 1 {
		t.Fatalf("len(tasks) = %d, want 1", len(ts))
	}
	w := ts[0].Workload
	want := sweep.Workload{Trace: "tiny", TraceSHA256: w.TraceSHA256, Estimates: "trace", Load: 1, LoadMode: "arrival"}
	if !reflect.DeepEqual(w, want) {
		t.Errorf("Workload = %+v, want %+v", w, want)
	}
	if s.Seed != 1 || s.Replications != 1 || !slices.Equal(s.Categories, []string{"ss16"}) || ts[0].Label != "easy" {
		t.Errorf("defaults: seed %d reps %d categories %v label %q", s.Seed, s.Replications, s.Categories, ts[0].Label)
	}
	if got := s.Outputs.Tables; got.Metric != "bsd_mean" || got.Scheme != "ss16" {
		t.Errorf("Outputs.Tables = %+v", got)
	}
}

func TestParse_Zip(t *testing.T) {
	s := MustParse(t, `
name: zip
workloads:
  - trace: tiny.swf
    estimates: [trace, accurate, trace]
    load: [1, 2, 3]
    zip: [[load, estimates]]
policies:
  - name: ss
    params:
      suspension_factor: [2, 3]
      width_ratio: [0.5, 1]
      interval: [10, 20]
    zip: [[suspension_factor, interval]]
`)
	ts := MustTasks(t, s)
	if len(ts) != 3*4 {
		t.Fatalf("len(tasks) = %d, want 12", len(ts))
	}
	var got []string
	for _, tk := range ts[:4] {
		got = append(got, tk.ParamString())
	}
	// The zip group (suspension_factor, interval) takes the first member's
	// place, so it varies slower than width_ratio.
	want := []string{"interval=10,", "interval=10,", "interval=20,", "interval=20,"}
	for i := range want {
		if !strings.Contains(got[i], want[i]) {
			t.Errorf("tasks[%d] params %q, want %q in them", i, got[i], want[i])
		}
	}
	if ts[0].Params["width_ratio"] != 0.5 || ts[1].Params["width_ratio"] != 1.0 || ts[2].Params["suspension_factor"] != 3.0 {
		t.Errorf("params = %v / %v / %v", ts[0].Params, ts[1].Params, ts[2].Params)
	}
	var wl []string
	for _, tk := range ts {
		wl = append(wl, tk.Workload.Estimates+"@"+jsonNum(tk.Workload.Load))
	}
	wl = slices.Compact(wl)
	if !slices.Equal(wl, []string{"trace@1", "accurate@2", "trace@3"}) {
		t.Errorf("zipped workloads = %v", wl)
	}
}

func jsonNum(f float64) string { b, _ := json.Marshal(f); return string(b) }

func TestParse_ShippedTrace(t *testing.T) {
	s := MustParse(t, "name: ctc\nworkloads: [{trace: ctc, count: 100}]\npolicies: [{name: fcfs}]\n")
	tr := s.Traces()
	if len(tr) != 1 || tr[0].Name != "CTC-SP2-1996-3.1-cln" || !filepath.IsAbs(tr[0].Path) {
		t.Fatalf("Traces() = %+v", tr)
	}
	ts := MustTasks(t, s)
	if ts[0].Workload.TraceSHA256 != tr[0].SHA256 || ts[0].Workload.Trace != tr[0].Name {
		t.Errorf("task workload %+v, trace %+v", ts[0].Workload, tr[0])
	}
}

func TestLoad_Quickstart(t *testing.T) {
	path := filepath.Join("..", "specs", "quickstart.yaml")
	s, err := sweep.Load(path)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	raw, _ := os.ReadFile(path)
	if string(s.Raw) != string(raw) || len(s.Hash) != 64 {
		t.Errorf("Raw/Hash not the file's")
	}
	ts := MustTasks(t, s)
	if len(ts) != 12 {
		t.Fatalf("quickstart has %d tasks, want 12", len(ts))
	}
	pols := map[string]bool{}
	loads := map[float64]bool{}
	for _, tk := range ts {
		pols[tk.Policy] = true
		loads[tk.Workload.Load] = true
		if tk.Workload.Count != 5000 || tk.Workload.Estimates != "accurate" || tk.Workload.LoadMode != "arrival" {
			t.Errorf("task %d workload %+v", tk.Index, tk.Workload)
		}
	}
	if len(pols) != 3 || len(loads) != 4 {
		t.Errorf("policies %v, loads %v", pols, loads)
	}
}

func TestLoad_ErrNotExist(t *testing.T) {
	_, err := sweep.Load(filepath.Join(t.TempDir(), "missing.yaml"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Load(missing) = %v, want ErrNotExist", err)
	}
}

func TestLoad_ErrNamesFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(path, []byte("name: x\nworkloads: []\npolicies: [{name: easy}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := sweep.Load(path)
	if err == nil || !strings.HasPrefix(err.Error(), path+":2: workloads: must not be empty") {
		t.Fatalf("Load = %v, want the file, line and key path", err)
	}
}

func TestSeeds(t *testing.T) {
	s := MustParse(t, `
name: seeds
workloads:
  - trace: tiny.swf
    load: [1, 2]
policies: [{name: fcfs}, {name: easy}]
replications: 2
`)
	ts := MustTasks(t, s)
	seed := map[[2]any]uint64{}
	all := map[uint64]bool{}
	for _, tk := range ts {
		k := [2]any{tk.Workload.Load, tk.Replication}
		if prev, ok := seed[k]; ok && prev != tk.Seed {
			t.Errorf("task %d (%s): seed %d, but another policy on the same workload has %d", tk.Index, tk.Policy, tk.Seed, prev)
		}
		seed[k] = tk.Seed
		all[tk.Seed] = true
		if got := sweep.DeriveSeed(1, tk.Workload, tk.Replication); got != tk.Seed {
			t.Errorf("DeriveSeed = %d, task has %d", got, tk.Seed)
		}
	}
	if len(all) != 4 {
		t.Errorf("%d distinct seeds over 2 loads x 2 replications, want 4", len(all))
	}
	s2 := MustParse(t, strings.Replace(string(s.Raw), "replications: 2", "replications: 2\nseed: 2", 1))
	if MustTasks(t, s2)[0].Seed == ts[0].Seed {
		t.Errorf("base seed does not change the task seeds")
	}
}

func TestTask_ComputeID(t *testing.T) {
	s := MustParse(t, "name: ids\nworkloads: [{trace: tiny.swf}]\npolicies: [{name: ss, params: {interval: 30, mem_max: 1e6}}]\n")
	tk := MustTasks(t, s)[0]
	id := tk.ComputeID()

	t.Run("JSONRoundTrip", func(t *testing.T) {
		b, err := json.Marshal(tk)
		if err != nil {
			t.Fatal(err)
		}
		var back sweep.Task
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		// The values cross JSON typed: an Int stays an int64.
		if !reflect.DeepEqual(back.Params, tk.Params) {
			t.Fatalf("params after JSON %#v, want %#v", back.Params, tk.Params)
		}
		if _, ok := back.Params["interval"].(int64); !ok {
			t.Fatalf("interval after JSON is %T, want int64", back.Params["interval"])
		}
		if got := back.ComputeID(); got != id {
			t.Errorf("ComputeID after JSON = %s, want %s", got, id)
		}
		if got, want := back.ParamString(), tk.ParamString(); got != want || !strings.Contains(got, "interval=30,") {
			t.Errorf("ParamString after JSON = %q, want %q", got, want)
		}
	})
	t.Run("IgnoresPresentation", func(t *testing.T) {
		c := tk.Clone()
		c.ID, c.Index, c.Sweep, c.Label, c.Schemes = "x", 99, "other", "other", []string{"len4"}
		if got := c.ComputeID(); got != id {
			t.Errorf("ComputeID changed with ID/Index/Sweep/Label/Schemes")
		}
	})
	t.Run("CoversIdentity", func(t *testing.T) {
		for name, change := range map[string]func(*sweep.Task){
			"param":       func(c *sweep.Task) { c.Params["interval"] = int64(31) },
			"policy":      func(c *sweep.Task) { c.Policy = "tss" },
			"seed":        func(c *sweep.Task) { c.Seed++ },
			"replication": func(c *sweep.Task) { c.Replication++ },
			"sim version": func(c *sweep.Task) { c.SimVersion += "x" },
			"trace sha":   func(c *sweep.Task) { c.Workload.TraceSHA256 = strings.Repeat("0", 64) },
			"load":        func(c *sweep.Task) { c.Workload.Load = 1.5 },
			"count":       func(c *sweep.Task) { c.Workload.Count = 3 },
			"estimates":   func(c *sweep.Task) { c.Workload.Estimates = "accurate" },
		} {
			c := tk.Clone()
			c.Params = maps(tk.Params)
			change(&c)
			if c.ComputeID() == id {
				t.Errorf("ComputeID does not change with the %s", name)
			}
		}
	})
}

func maps(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func TestSpec_TasksAreCopies(t *testing.T) {
	s := MustParse(t, "name: c\nworkloads: [{trace: tiny.swf}]\npolicies: [{name: ss}]\n")
	a := MustTasks(t, s)
	a[0].Params["interval"] = int64(12345)
	a[0].Schemes[0] = "changed"
	a[0].Policy = "changed"
	a[0].Workload.Load = 9
	b := MustTasks(t, s)
	if b[0].Params["interval"] == int64(12345) || b[0].Schemes[0] == "changed" || b[0].Policy == "changed" || b[0].Workload.Load == 9 {
		t.Errorf("Tasks() returned shared points, maps or slices")
	}
}

// TestSpec_SharedTasksSharePoints checks that the replications of a grid
// point share one TaskPoint (a task holds only its ID, index, replication
// and seed of its own) and that Clone gives a task a point of its own.
func TestSpec_SharedTasksSharePoints(t *testing.T) {
	s := MustParse(t, "name: c\nworkloads: [{trace: tiny.swf, load: [1.0, 1.5]}]\npolicies: [{name: ss}]\nreplications: 3\n")
	ts, err := s.SharedTasks()
	if err != nil || len(ts) != 6 {
		t.Fatalf("SharedTasks() = %d tasks, %v; want 6", len(ts), err)
	}
	for i := range ts {
		first := &ts[i-i%3]
		if ts[i].TaskPoint != first.TaskPoint || ts[i].Replication != i%3 {
			t.Errorf("task %d: point %p, replication %d; want task %d's point %p, replication %d", i, ts[i].TaskPoint, ts[i].Replication, first.Index, first.TaskPoint, i%3)
		}
	}
	if ts[0].TaskPoint == ts[3].TaskPoint || ts[3].Workload.Load != 1.5 {
		t.Errorf("tasks of two loads share a point")
	}
	c := ts[0].Clone()
	c.Params["interval"] = int64(12345)
	c.Schemes[0] = "changed"
	c.Workload.Load = 9
	if c.TaskPoint == ts[0].TaskPoint || ts[1].Params["interval"] == int64(12345) || ts[1].Schemes[0] == "changed" || ts[1].Workload.Load != 1 {
		t.Errorf("Clone() shares its point, maps or slices with the original")
	}
	if c.ComputeID() == ts[0].ID || ts[0].ComputeID() != ts[0].ID {
		t.Errorf("the clone's ID does not follow its point, or the original's changed")
	}
}

func TestParse_PolicyParamValuesChecked(t *testing.T) {
	// Every registered policy with parameters accepts its defaults when
	// written out explicitly, and the tasks equal the default ones.
	for _, e := range policy.Entries() {
		if len(e.Params) == 0 {
			continue
		}
		wl := "[{trace: tiny.swf}]"
		if e.Moldable {
			wl = "[{trace: tiny.swf, sigma: 0, range_factor: 1}]"
		}
		if e.Elastic {
			wl = "[{synthetic: parsons1997, gen: {mean_interarrival: 300}}]"
		}
		var b strings.Builder
		b.WriteString("name: p\nworkloads: " + wl + "\npolicies:\n  - name: " + e.Name + "\n    params:\n")
		for _, p := range e.Params {
			v, _ := json.Marshal(p.Default)
			b.WriteString("      " + p.Name + ": " + string(v) + "\n")
		}
		explicit := MustTasks(t, MustParse(t, b.String()))
		implicit := MustTasks(t, MustParse(t, "name: p\nworkloads: "+wl+"\npolicies: [{name: "+e.Name+"}]\n"))
		if explicit[0].ID != implicit[0].ID {
			t.Errorf("%s: explicit defaults give ID %s, implicit %s", e.Name, explicit[0].ID, implicit[0].ID)
		}
	}
}
