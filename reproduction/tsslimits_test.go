package reproduction

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/reproduction/claims"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/policy/preempt"
	"github.com/schedfarm/schedfarm/sweep"
	"github.com/schedfarm/schedfarm/yamlerr"
)

// kettimuthuTables reads Kettimuthu et al.'s Tables 4 (CTC) and 5 (SDSC)
// from the paper's claims file, the numbers' one source, by trace: the
// expected value of each value claim of those tables on one ss16
// category. It reads the claims on its own, not through [PaperLimits].
func kettimuthuTables(t *testing.T) (*claims.File, map[string]map[string]float64) {
	t.Helper()
	f, err := claims.Load(filepath.Join("..", "specs", "kettimuthu2005", claims.FileName), claims.Options{Groups: PaperGroups("kettimuthu2005")})
	if err != nil {
		t.Fatal(err)
	}
	table := map[string]string{"Table 4": "ctc", "Table 5": "sdsc"}
	want := map[string]map[string]float64{"ctc": {}, "sdsc": {}}
	for _, c := range f.Claims {
		trace, ok := table[c.Figure]
		s := c.Select
		if !ok || c.Kind != claims.KindValue || s.Scheme != "ss16" || s.Category == "" || s.Category == metrics.Overall || !c.Expected.IsTarget {
			continue
		}
		if !onTrace(s.Where, trace) {
			t.Fatalf("%s: a %s cell not on %s", c.ID, c.Figure, trace)
		}
		want[trace][s.Category] = c.Expected.Target
	}
	for trace, cells := range want {
		if len(cells) != 16 {
			t.Fatalf("%s: %d cells in the claims file, want the 16 ss16 categories", trace, len(cells))
		}
	}
	return f, want
}

// traceAlias returns the shipped trace's name ("ctc") of a task's trace.
func traceAlias(t *testing.T, name string) string {
	t.Helper()
	for _, alias := range []string{"ctc", "sdsc"} {
		if f, ok := sweep.ShippedTraceFile(alias); ok && sweep.TraceName(f) == name {
			return alias
		}
	}
	return name
}

// TestKettimuthu2005_TSSLimits: every task of the paper's figure groups
// whose TSS entry sets tss_paper_limits carries, in tss_limits, exactly
// the cells of the paper's Table 4 (CTC) or 5 (SDSC) as the claims file
// states them, for the machine size the task runs on; the policy built
// from the task's parameters uses those means; and no other task carries
// limits.
func TestKettimuthu2005_TSSLimits(t *testing.T) {
	_, want := kettimuthuTables(t)
	cache := runner.NewCache(4)
	procs := map[string]int{} // by trace and procs override
	machine := func(s *sweep.Spec, task *sweep.Task) int {
		key := fmt.Sprintf("%s/%d", task.Workload.TraceSHA256, task.Workload.Procs)
		if n, ok := procs[key]; ok {
			return n
		}
		var path string
		for _, tf := range s.Traces() {
			if tf.SHA256 == task.Workload.TraceSHA256 {
				path = tf.Path
			}
		}
		opts, err := runner.Options(task)
		if err != nil {
			t.Fatal(err)
		}
		wl, err := cache.Workload(path, task.Workload.TraceSHA256, opts)
		if err != nil {
			t.Fatal(err)
		}
		procs[key] = wl.Procs
		return wl.Procs
	}
	jobs := []sim.Job{{ID: 1, Runtime: 100, Estimate: 100, Procs: 1}}
	n := 0
	for _, g := range PaperGroups("kettimuthu2005") {
		r, err := LookupRecipe("kettimuthu2005/" + g)
		if err != nil {
			t.Fatal(err)
		}
		s, err := LoadSpec("..", r.Spec)
		if err != nil {
			t.Fatal(err)
		}
		tasks, err := s.Tasks()
		if err != nil {
			t.Fatal(err)
		}
		for i := range tasks {
			task := &tasks[i]
			text, has := task.Params["tss_limits"].(string)
			if paper, _ := task.Params["tss_paper_limits"].(bool); !paper {
				if has {
					t.Errorf("%s %q: tss_limits without tss_paper_limits", g, task.Label)
				}
				continue
			}
			n++
			trace := traceAlias(t, task.Workload.Trace)
			cells, ok := want[trace]
			if !ok {
				t.Fatalf("%s %q: trace %s has no table of the paper", g, task.Label, trace)
			}
			l, err := preempt.ParseLimits(text)
			if err != nil {
				t.Fatalf("%s %q: tss_limits %q: %v", g, task.Label, text, err)
			}
			m := machine(s, task)
			if !maps.Equal(l[m], cells) {
				t.Errorf("%s %q on %s (%d processors): tss_limits gives %v, the claims file %v", g, task.Label, trace, m, l[m], cells)
			}
			p, err := policy.Build(task.Policy, task.Params, policy.Env{Procs: m, Jobs: jobs})
			if err != nil {
				t.Fatalf("%s %q: %v", g, task.Label, err)
			}
			if b := p.(*preempt.SS).Baseline(); !maps.Equal(b, cells) {
				t.Errorf("%s %q on %s: the policy uses %v, the claims file %v", g, task.Label, trace, b, cells)
			}
		}
	}
	if n < 40 {
		t.Errorf("%d tasks with the paper's limits, want the TSS entries of Figs 15-44 (at least 40)", n)
	}
}

// TestPaperLimits_Drift: a claims file that lacks a cell of a table, or
// states one twice, gives no limits but an error naming it.
func TestPaperLimits_Drift(t *testing.T) {
	f, want := kettimuthuTables(t)
	tables := paperTables("kettimuthu2005")
	l, err := PaperLimits(f, tables)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(l[430], want["ctc"]) || !maps.Equal(l[128], want["sdsc"]) || len(l) != 2 {
		t.Errorf("PaperLimits %v, want 430: %v, 128: %v", l, want["ctc"], want["sdsc"])
	}
	drop := *f
	drop.Claims = slices.DeleteFunc(slices.Clone(f.Claims), func(c claims.Claim) bool { return c.ID == "t5-sdsc-vs-vw" })
	if len(drop.Claims) != len(f.Claims)-1 {
		t.Fatal("no claim t5-sdsc-vs-vw")
	}
	if _, err := PaperLimits(&drop, tables); err == nil || !strings.Contains(err.Error(), "128 processors: no mean for VS VW") {
		t.Errorf("a cell missing: error %v", err)
	}
	twice := *f
	i := slices.IndexFunc(f.Claims, func(c claims.Claim) bool { return c.ID == "t4-ctc-vs-seq" })
	twice.Claims = append(slices.Clone(f.Claims), f.Claims[i])
	if _, err := PaperLimits(&twice, tables); err == nil || !strings.Contains(err.Error(), "Table 4 states VS Seq on ctc twice") {
		t.Errorf("a cell twice: error %v", err)
	}
}

// TestLoadSpec_PaperLimits: LoadSpec adds tss_limits under each entry
// that sets tss_paper_limits and reports a spec's problems at the lines
// of the file as written; an entry that also gives tss_limits, or whose
// params are in flow style, is refused; a spec of a folder with no
// paper's limits keeps the policy's error.
func TestLoadSpec_PaperLimits(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "specs", "kettimuthu2005")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join("..", "specs", "kettimuthu2005", claims.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, claims.FileName), src, 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) string {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return name
	}
	const head = "name: kettimuthu2005-x\nworkloads:\n  - {trace: sdsc, count: 50}\npolicies:\n"
	good := write("specs/kettimuthu2005/good.yaml", head+
		"  - name: ss\n    params:\n      tunable: true\n      tss_paper_limits: true\n      tss_limit: 1.5\n"+
		"  - name: tss\n    params:\n      tss_paper_limits: true\n      suspension_factor: 7\n")
	s, err := LoadSpec(root, good)
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := s.Tasks()
	if err != nil {
		t.Fatal(err)
	}
	_, want := kettimuthuTables(t)
	for _, task := range tasks {
		l, err := preempt.ParseLimits(task.Params["tss_limits"].(string))
		if err != nil || !maps.Equal(l[128], want["sdsc"]) {
			t.Errorf("%s: limits %v (%v), want Table 5's %v", task.Policy, l, err, want["sdsc"])
		}
	}

	// A bad value after the added lines is reported at its own line.
	bad := write("specs/kettimuthu2005/bad.yaml", head+
		"  - name: ss\n    params:\n      tunable: true\n      tss_paper_limits: true\n      tss_limit: -1\n"+
		"  - name: tss\n    params:\n      tss_paper_limits: true\n      suspension_factor: 0.5\n")
	_, err = LoadSpec(root, bad)
	var ve *yamlerr.ValidationError
	if !errors.As(err, &ve) || !strings.HasSuffix(ve.File, filepath.FromSlash("specs/kettimuthu2005/bad.yaml")) {
		t.Fatalf("error %v, want a validation error of bad.yaml", err)
	}
	lines := map[string]int{}
	for _, fe := range ve.Problems {
		lines[fe.Path] = fe.Line
	}
	if lines["policies[0].params.tss_limit"] != 9 || lines["policies[1].params.suspension_factor"] != 13 {
		t.Errorf("problems at %v, want tss_limit at line 9 and suspension_factor at 13 (%v)", lines, err)
	}

	for _, tc := range []struct{ name, text, want string }{
		{"given", "  - name: tss\n    params:\n      tss_paper_limits: true\n      tss_limits: \"128: VS Seq 2\"\n", "line 7: policies[0].params.tss_limits: given beside tss_paper_limits"},
		{"flow", "  - name: tss\n    params: {tss_paper_limits: true}\n", "line 6: policies[0].params: tss_paper_limits needs the entry's own params in block style"},
	} {
		_, err := LoadSpec(root, write("specs/kettimuthu2005/"+tc.name+".yaml", head+tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	// Outside a paper with tables, tss_paper_limits has no means to take.
	if err := os.MkdirAll(filepath.Join(root, "specs", "other"), 0o755); err != nil {
		t.Fatal(err)
	}
	other := write("specs/other/x.yaml", strings.Replace(head, "kettimuthu2005-x", "other-x", 1)+"  - name: tss\n    params:\n      tss_paper_limits: true\n")
	if _, err := LoadSpec(root, other); err == nil || !strings.Contains(err.Error(), "x.yaml:7: policies[0].params.tss_paper_limits") || !strings.Contains(err.Error(), "needs the paper's means in tss_limits") {
		t.Errorf("other paper: error %v", err)
	}
}
