package sweep_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/internal/testkit"
	"github.com/schedfarm/schedfarm/internal/yamlnode"
	"github.com/schedfarm/schedfarm/sweep"
	"github.com/schedfarm/schedfarm/yamlerr"
)

// specDir holds the example specs: ok-*.yaml must parse, bad-*.yaml must
// not. They also seed FuzzParse.
var specDir = filepath.Join(testdata, "specs")

func readSpecs(tb testing.TB) map[string][]byte {
	tb.Helper()
	return testkit.ReadFiles(tb, specDir, "*.yaml")
}

func TestParse_Examples(t *testing.T) {
	for name, data := range readSpecs(t) {
		t.Run(strings.TrimSuffix(name, ".yaml"), func(t *testing.T) {
			s, err := sweep.Parse(data, specDir)
			switch {
			case strings.HasPrefix(name, "ok-") && err != nil:
				t.Fatalf("Parse: %v", err)
			case strings.HasPrefix(name, "bad-") && err == nil:
				t.Fatalf("Parse succeeded, want problems")
			case strings.HasPrefix(name, "bad-"):
				var ve *yamlerr.ValidationError
				if !errors.As(err, &ve) {
					t.Fatalf("error %T, want *ValidationError", err)
				}
				if name == "bad-many.yaml" && len(ve.Problems) < 15 {
					t.Errorf("%d problems reported, want every one (>= 15):\n%v", len(ve.Problems), err)
				}
				return
			}
			if _, err := s.Tasks(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// FuzzParse checks that Parse never panics, that every failure is a
// *ValidationError with at least one problem, and that a spec that parses
// expands the same way every time into tasks with unique, correct IDs.
func FuzzParse(f *testing.F) {
	for _, data := range readSpecs(f) {
		f.Add(data)
	}
	f.Add([]byte(""))
	for _, s := range []string{"\"\": 1\n", "?", "name: x\r?", "\"\r0"} {
		f.Add([]byte(s))
	}
	f.Add([]byte("name: x\nworkloads: [{trace: ../tiny.swf, load: [1, 2], zip: [[load, trace]]}]\npolicies: [{name: is, params: {timeslice: [1, 2]}}]\n"))
	// Parse in a temporary tree with only tiny.swf: the shipped traces
	// (megabytes, read once per machine size) would slow fuzzing down to
	// a crawl without exercising more of the parser.
	base := filepath.Join(f.TempDir(), "specs")
	tiny, err := os.ReadFile(filepath.Join(testdata, "tiny.swf"))
	if err != nil {
		f.Fatal(err)
	}
	if err := os.Mkdir(base, 0o755); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "..", "tiny.swf"), tiny, 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := sweep.Parse(data, base)
		if err != nil {
			var ve *yamlerr.ValidationError
			if !errors.As(err, &ve) || len(ve.Problems) == 0 || err.Error() == "" {
				t.Fatalf("Parse error %T %q, want a *ValidationError with problems", err, err)
			}
			n := yamlnode.Lines(data)
			for _, p := range ve.Problems {
				if p.Err == nil || p.Error() == "" {
					t.Fatalf("empty problem in %v", err)
				}
				if p.Line < 0 || p.Line > n {
					t.Fatalf("problem %q: line %d outside a %d-line file", p, p.Line, n)
				}
			}
			return
		}
		a, err := s.Tasks()
		if err != nil {
			t.Fatalf("Tasks: %v", err)
		}
		if len(a) == 0 || len(a) > sweep.MaxTasks {
			t.Fatalf("%d tasks", len(a))
		}
		s2, err := sweep.Parse(data, base)
		if err != nil {
			t.Fatalf("second Parse: %v", err)
		}
		b, _ := s2.Tasks()
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Fatalf("expansion is not deterministic")
		}
		ids := map[string]bool{}
		for i := range a {
			if a[i].Index != i || a[i].ID != a[i].ComputeID() || ids[a[i].ID] {
				t.Fatalf("task %d: index %d, ID %s (duplicate %v)", i, a[i].Index, a[i].ID, ids[a[i].ID])
			}
			ids[a[i].ID] = true
		}
	})
}
