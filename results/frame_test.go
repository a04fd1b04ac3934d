package results_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/schedfarm/schedfarm/results"
)

// TestReadFrame reads the outputs of a real sweep by column and compares
// every value with the typed readers.
func TestReadFrame(t *testing.T) {
	r := MustRun(t, realSpec)
	dir := MustWrite(t, r, r.res)
	sum, err := results.ReadSummary(filepath.Join(dir, results.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	f, err := results.ReadFrame(filepath.Join(dir, results.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if f.Len() != len(sum) {
		t.Fatalf("Len()=%d, want %d", f.Len(), len(sum))
	}
	for i, s := range sum {
		if f.Tasks[i].TaskID != s.TaskID || f.Tasks[i].Label != s.Label || f.Tasks[i].Load != s.Load {
			t.Fatalf("row %d: task columns %+v, want %+v", i, f.Tasks[i], s.TaskCols)
		}
		if f.Str["category"][i] != s.Category || f.Num["jobs"][i] != float64(s.Aggregate.Count) ||
			f.Num["bsd_mean"][i] != s.BSD.Mean || f.Num["wait_max"][i] != s.Wait.Max {
			t.Fatalf("row %d: category %q jobs %v bsd_mean %v wait_max %v, want %+v", i,
				f.Str["category"][i], f.Num["jobs"][i], f.Num["bsd_mean"][i], f.Num["wait_max"][i], s.Aggregate)
		}
	}
	tasks, err := results.ReadTasks(filepath.Join(dir, results.TasksFile))
	if err != nil {
		t.Fatal(err)
	}
	ft, err := results.ReadFrame(filepath.Join(dir, results.TasksFile))
	if err != nil {
		t.Fatal(err)
	}
	for i, tr := range tasks {
		if ft.Num["utilization"][i] != tr.Stats.Utilization || ft.Num["suspensions"][i] != float64(tr.Stats.Suspensions) {
			t.Fatalf("task %d: utilization %v suspensions %v, want %v %v", i, ft.Num["utilization"][i], ft.Num["suspensions"][i],
				tr.Stats.Utilization, tr.Stats.Suspensions)
		}
		// A parameter the policy does not have is null: NaN.
		sf := ft.Num["param_suspension_factor"][i]
		if _, has := tr.ParamValues["suspension_factor"]; has == math.IsNaN(sf) {
			t.Fatalf("task %d: param_suspension_factor %v with params %v", i, sf, tr.ParamValues)
		}
		if tr.ParamValues["overhead"] == true && ft.Num["param_overhead"][i] != 1 {
			t.Fatalf("task %d: boolean param_overhead %v, want 1", i, ft.Num["param_overhead"][i])
		}
	}
	jobs, err := results.ReadFrame(filepath.Join(dir, results.JobsFile))
	if err != nil {
		t.Fatal(err)
	}
	if want := len(r.res) * len(r.res[0].Jobs); jobs.Len() != want || len(jobs.Str["cat_ss16"]) != want {
		t.Fatalf("jobs: %d rows, %d categories, want %d", jobs.Len(), len(jobs.Str["cat_ss16"]), want)
	}
}
