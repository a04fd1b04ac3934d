package reproduction_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/reproduction"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner/runnertest"
	"github.com/schedfarm/schedfarm/sweep"
)

// TestParsonsFig05_WaitByMin runs Fig 5's step on a small LSF sweep (two
// disciplines and both demand-knowledge settings, two replications) and
// checks its table against the means computed from the whole job rows of
// results.ReadJobs: measured jobs only, no knowledge only, by minimum
// allocation class.
func TestParsonsFig05_WaitByMin(t *testing.T) {
	spec, err := sweep.Parse([]byte(`name: fig05-fixture
workloads:
  - synthetic: parsons1997
    gen: {mean_interarrival: 150, tagged: 60, horizon: 30000}
policies:
  - {name: lsf-rtc, label: RTC, params: {know_demand: [false, true]}}
  - {name: lsf-mig, label: MIG, params: {know_demand: [false, true]}}
replications: 2
seed: 5
`), ".")
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := spec.Tasks()
	if err != nil {
		t.Fatal(err)
	}
	res, err := runnertest.Run(context.Background(), spec, tasks)
	if err != nil {
		t.Fatal(err)
	}
	sweepDir := filepath.Join(t.TempDir(), "sweep")
	if err := results.WriteOutputs(sweepDir, spec, tasks, res, "test", results.WithTables(report.Tables)); err != nil {
		t.Fatal(err)
	}
	r, err := reproduction.LookupRecipe("parsons1997/fig05")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if _, err := r.Make("..", sweepDir, out); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(out, "tables", "fig05-wait-by-min.md"))
	if err != nil {
		t.Fatal(err)
	}

	rows, err := results.ReadJobs(filepath.Join(sweepDir, results.JobsFile))
	if err != nil {
		t.Fatal(err)
	}
	bounds := [][2]int{{8, 32}, {40, 64}, {72, 96}, {104, 128}}
	type acc struct{ sum, n float64 }
	want := map[string]*[4]acc{}
	for _, row := range rows {
		if row.Job.Elastic == nil || !row.Job.Elastic.Tagged || row.ParamValues["know_demand"] == true {
			continue
		}
		if want[row.Label] == nil {
			want[row.Label] = &[4]acc{}
		}
		for c, b := range bounds {
			if row.Job.MinProcs >= b[0] && row.Job.MinProcs <= b[1] {
				want[row.Label][c].sum += float64(row.Job.Wait)
				want[row.Label][c].n++
			}
		}
	}
	for _, d := range []string{"RTC", "MIG"} {
		a := want[d]
		if a == nil {
			t.Fatalf("no measured jobs of %s without knowledge", d)
		}
		line := "| " + d + " |"
		for _, c := range a {
			if c.n == 0 {
				line += " - |"
			} else {
				line += fmt.Sprintf(" %.0f |", c.sum/c.n)
			}
		}
		if !strings.Contains(string(got), line+"\n") {
			t.Errorf("table has no row %q:\n%s", line, got)
		}
	}
}
