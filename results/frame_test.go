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
		if f.Task(i).TaskID != s.TaskID || f.Task(i).Label != s.Label || f.Task(i).Load != s.Load {
			t.Fatalf("row %d: task columns %+v, want %+v", i, *f.Task(i), s.TaskCols)
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
	// Two columns of jobs.parquet with the task columns of tasks.parquet
	// give the same rows.
	few, err := results.ReadJobsFrame(filepath.Join(dir, results.JobsFile), ft.Tasks, "wait", "cat_ss4")
	if err != nil {
		t.Fatal(err)
	}
	if few.Len() != jobs.Len() || len(few.Num) != 1 || len(few.Str) != 2 { // wait; task_id and cat_ss4
		t.Fatalf("ReadJobsFrame: %d rows, columns %v %v", few.Len(), len(few.Num), len(few.Str))
	}
	for i := range jobs.Len() {
		if few.Num["wait"][i] != jobs.Num["wait"][i] || few.Str["cat_ss4"][i] != jobs.Str["cat_ss4"][i] ||
			few.Task(i).TaskID != jobs.Task(i).TaskID || few.Task(i).Params != jobs.Task(i).Params {
			t.Fatalf("ReadJobsFrame row %d differs from ReadFrame's", i)
		}
	}
	if _, err := results.ReadJobsFrame(filepath.Join(dir, results.JobsFile), ft.Tasks[:1], "wait"); err == nil {
		t.Error("ReadJobsFrame with missing tasks succeeded")
	}
}
