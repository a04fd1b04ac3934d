package results_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

// TestStreamOutputs_SameAsWriteOutputs checks that results taken one at a
// time give the same bytes as results held together.
func TestStreamOutputs_SameAsWriteOutputs(t *testing.T) {
	r := MustRun(t, realSpec)
	want := MustWrite(t, r, r.res)
	dir := filepath.Join(t.TempDir(), "out")
	calls := 0
	err := results.StreamOutputs(dir, r.spec, r.tasks, func(i int) (*results.TaskResult, error) {
		if i != calls {
			t.Errorf("result %d asked for at call %d", i, calls)
		}
		calls++
		return r.res[i], nil
	}, "test-1.0", results.WithTables(report.Tables))
	if err != nil {
		t.Fatal(err)
	}
	if calls != len(r.tasks) {
		t.Errorf("%d results asked for, want %d", calls, len(r.tasks))
	}
	for _, f := range outputFiles {
		a, _ := os.ReadFile(filepath.Join(want, f))
		b, _ := os.ReadFile(filepath.Join(dir, f))
		if string(a) != string(b) {
			t.Errorf("%s differs", f)
		}
	}
}

// TestStreamOutputs_ErrResult checks that an error from the result
// function leaves no outputs and no directory behind.
func TestStreamOutputs_ErrResult(t *testing.T) {
	r := MustRun(t, realSpec)
	dir := filepath.Join(t.TempDir(), "out")
	boom := errors.New("boom")
	err := results.StreamOutputs(dir, r.spec, r.tasks, func(i int) (*results.TaskResult, error) {
		if i == 2 {
			return nil, boom
		}
		return r.res[i], nil
	}, "v", results.WithTables(report.Tables))
	if !errors.Is(err, boom) {
		t.Fatalf("StreamOutputs = %v, want the result function's error", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("output directory left after a failed write (%v)", err)
	}
}

// TestWriteOutputs_RowGroupStatistics checks that every row group of every
// Parquet file carries min/max statistics on the task columns, so readers
// can skip row groups on task and parameter predicates.
func TestWriteOutputs_RowGroupStatistics(t *testing.T) {
	r := MustRun(t, realSpec)
	dir := MustWrite(t, r, r.res)
	for _, name := range []string{results.JobsFile, results.SummaryFile, results.TasksFile} {
		rd, err := file.OpenParquetFile(filepath.Join(dir, name), false)
		if err != nil {
			t.Fatal(err)
		}
		md := rd.MetaData()
		for _, col := range []string{"task_index", "load", "param_suspension_factor"} {
			ci := md.Schema.ColumnIndexByName(col)
			if ci < 0 {
				t.Fatalf("%s: no column %s", name, col)
			}
			for g := 0; g < rd.NumRowGroups(); g++ {
				cc, err := md.RowGroup(g).ColumnChunk(ci)
				if err != nil {
					t.Fatal(err)
				}
				st, err := cc.Statistics()
				if err != nil || st == nil || !st.HasMinMax() {
					t.Errorf("%s row group %d column %s: no min/max statistics (%v)", name, g, col, err)
				}
			}
		}
		if name == results.JobsFile {
			ci := md.Schema.ColumnIndexByName("task_index")
			cc, _ := md.RowGroup(0).ColumnChunk(ci)
			st, _ := cc.Statistics()
			if is, ok := st.(*metadata.Int64Statistics); !ok || is.Min() != 0 || is.Max() != int64(len(r.tasks)-1) {
				t.Errorf("%s: task_index statistics %v, want 0..%d", name, st, len(r.tasks)-1)
			}
		}
		rd.Close()
	}
}

// TestStreamOutputs_OwnResults checks that results decoded on demand and
// handed over to the writer give the same bytes as results held, while
// later results are decoded into the memory of earlier ones: tasks of
// 30,000 jobs, so that row groups end inside tasks.
func TestStreamOutputs_OwnResults(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates four tasks of 30,000 jobs")
	}
	r := MustRun(t, `
name: own
workloads:
  - trace: ctc
    count: 30000
    estimates: [accurate, trace]
    load: [1.0, 1.2]
policies: [{name: easy}]
categories: [ss16, ss4]
`)
	want := MustWrite(t, r, r.res)
	stored := make([][]byte, len(r.res))
	for i, res := range r.res {
		b, err := res.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		stored[i] = b
	}
	seen := map[*metrics.Record]int{}
	reused := 0
	dir := filepath.Join(t.TempDir(), "out")
	err := results.StreamOutputs(dir, r.spec, r.tasks, func(i int) (*results.TaskResult, error) {
		res, err := results.Unmarshal(stored[i])
		if err == nil && len(res.Jobs) > 0 {
			if k, ok := seen[&res.Jobs[0]]; ok {
				t.Logf("result %d decoded into the records of result %d", i, k)
				reused++
			}
			seen[&res.Jobs[0]] = i
		}
		return res, err
	}, "test-1.0", results.OwnResults(), results.WithTables(report.Tables))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range outputFiles {
		a, _ := os.ReadFile(filepath.Join(want, f))
		b, _ := os.ReadFile(filepath.Join(dir, f))
		if string(a) != string(b) {
			t.Errorf("%s differs", f)
		}
	}
	if reused == 0 {
		t.Error("no result was decoded into the records of an earlier one")
	}
}

// TestStreamOutputs_TasksRowGroups checks that tasks.parquet comes in
// row groups of 8,192 rows (its Arrow form, about 0.8 KB a row, is held
// until a row group is written), with every task's row read back in
// order: 9,000 tasks give a row group of 8,192 rows and one of 808.
func TestStreamOutputs_TasksRowGroups(t *testing.T) {
	spec, tasks := MustParse(t, `
name: groups
workloads:
  - trace: kth
    count: 1
    estimates: accurate
    load: [1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9]
policies:
  - name: fcfs
replications: 900
`)
	if len(tasks) != 9000 {
		t.Fatalf("%d tasks, want 9000", len(tasks))
	}
	dir := filepath.Join(t.TempDir(), "out")
	err := results.StreamOutputs(dir, spec, tasks, func(i int) (*results.TaskResult, error) {
		jobs := []metrics.Record{{JobID: 1, Submit: 0, Start: sim.Time(i % 7), End: sim.Time(i%7 + 100), Wait: sim.Time(i % 7),
			Runtime: 100, Estimate: 100, Procs: 1 + i%4, Turnaround: sim.Time(i%7 + 100), BSD: 1, Slowdown: 1}}
		return &results.TaskResult{TaskID: tasks[i].ID, Index: i, Worker: "w", Jobs: jobs, Stats: metrics.Stats(8, jobs)}, nil
	}, "test-1.0")
	if err != nil {
		t.Fatal(err)
	}
	rd, err := file.OpenParquetFile(filepath.Join(dir, results.TasksFile), false)
	if err != nil {
		t.Fatal(err)
	}
	var groups []int64
	for g := 0; g < rd.NumRowGroups(); g++ {
		groups = append(groups, rd.MetaData().RowGroup(g).NumRows())
	}
	rd.Close()
	if !slices.Equal(groups, []int64{8192, 808}) {
		t.Errorf("tasks.parquet row groups of %v rows, want [8192 808]", groups)
	}
	rows, err := results.ReadTasks(filepath.Join(dir, results.TasksFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(tasks) {
		t.Fatalf("%d task rows read back, want %d", len(rows), len(tasks))
	}
	for i := range rows {
		r := &rows[i]
		if r.TaskIndex != i || r.TaskID != tasks[i].ID || r.Replication != tasks[i].Replication || r.Load != tasks[i].Workload.Load ||
			r.Stats.Jobs != 1 || r.Stats.Makespan != sim.Time(i%7+100) || r.Worker != "w" {
			t.Fatalf("task row %d read back as %+v", i, r)
		}
	}
}
