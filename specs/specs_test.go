package specs_test

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/reproduction"
)

// wantTasks is the number of tasks of every spec. A spec added without an
// entry here fails the test, so the counts in the specs' comments and in
// the docs stay true.
var wantTasks = map[string]int{
	"quickstart.yaml":                         12,
	"python.yaml":                             12,
	"timeseries.yaml":                         2,
	"replications.yaml":                       60,
	"baselines.yaml":                          216,
	"kettimuthu2005/table4-5.yaml":            2,
	"kettimuthu2005/fig07-14.yaml":            12,
	"kettimuthu2005/fig15-18.yaml":            8,
	"kettimuthu2005/fig19-30.yaml":            6,
	"kettimuthu2005/fig31-34.yaml":            16,
	"kettimuthu2005/fig35-44.yaml":            44,
	"kettimuthu2005/fig35-36-saturation.yaml": 12,
	"kettimuthu2005/table4-ctc-search.yaml":   71,
	"lawson2002/workload.yaml":                4,
	"lawson2002/fig05-07.yaml":                24,
	"islam2004/fig03-05.yaml":                 144,
	"islam2004/fig06-07.yaml":                 120,
	"islam2004/fig08-09.yaml":                 81,
	"islam2004/fig10-11.yaml":                 60,
	"parsons1997/table3.yaml":                 1200,
	"parsons1997/table3-delay30.yaml":         1200,
	"srinivasan2003/fig01-03.yaml":            12,
	"srinivasan2003/sec41.yaml":               3,
	"srinivasan2003/fig04.yaml":               3,
	"srinivasan2003/fig05.yaml":               12,
	"srinivasan2003/fig06-11.yaml":            72,
	"srinivasan2003/sec21.yaml":               8,
}

// specFiles returns the .yaml files under this directory, slash-separated
// and relative to it.
func specFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		// claims.yaml, readings.yaml and the paper files are not specs
		// (claims_test.go and readings_test.go check them).
		if !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) && d.Name() != "claims.yaml" && d.Name() != "readings.yaml" && d.Name() != "paper.yaml" && d.Name() != "papers.yaml" {
			out = append(out, filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

func TestSpecs_Load(t *testing.T) {
	files := specFiles(t)
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			s, err := reproduction.LoadSpec("..", "specs/"+f)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			tasks, err := s.Tasks()
			if err != nil {
				t.Fatalf("Tasks: %v", err)
			}
			t.Logf("%s: sweep %s, %d tasks", f, s.Name, len(tasks))
			want, ok := wantTasks[f]
			if !ok {
				t.Fatalf("%d tasks; add %q to wantTasks", len(tasks), f)
			}
			if len(tasks) != want {
				t.Errorf("%d tasks, want %d", len(tasks), want)
			}
			if !strings.Contains(string(s.Raw), fmt.Sprintf(" %d tasks", len(tasks))) {
				t.Errorf("the spec's comment does not say it has %d tasks", len(tasks))
			}
			dir, _ := filepath.Split(f)
			if paper := strings.TrimSuffix(dir, "/"); paper != "" && !strings.HasPrefix(s.Name, paper+"-") {
				t.Errorf("sweep name %q does not start with %q", s.Name, paper+"-")
			}
			if s.Description == "" {
				t.Errorf("no description")
			}
		})
	}
	for f := range wantTasks {
		if !slices.Contains(files, f) {
			t.Errorf("wantTasks lists %s, which does not exist", f)
		}
	}
}
