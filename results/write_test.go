package results_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sweep"
)

// ssParamColumns returns the JSON list of parameter columns a sweep with
// ss tasks that set no elided parameter has: one per other parameter of
// ss (defaults filled in), sorted.
func ssParamColumns(t *testing.T) string {
	t.Helper()
	e, err := policy.Lookup("ss")
	if err != nil {
		t.Fatal(err)
	}
	var cols []string
	for _, p := range e.Params {
		if !p.Elide { // an elided parameter has a column only when a task sets it
			cols = append(cols, "param_"+p.Name)
		}
	}
	slices.Sort(cols)
	b, _ := json.Marshal(cols)
	return string(b)
}

// outputFiles are the files WriteOutputs writes.
var outputFiles = []string{results.JobsFile, results.SummaryFile, results.TasksFile, results.TablesMD, results.TablesCSV}

// MustWrite writes the outputs of r into a new directory and returns it.
func MustWrite(tb testing.TB, r *run, res []*results.TaskResult) string {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "out")
	if err := results.WriteOutputs(dir, r.spec, r.tasks, res, "test-1.0", results.WithTables(report.Tables)); err != nil {
		tb.Fatalf("WriteOutputs: %v", err)
	}
	return dir
}

// checkRoundTrip checks that every result comes back unchanged from
// Unmarshal(Marshal(r)).
func checkRoundTrip(tb testing.TB, res []*results.TaskResult) {
	tb.Helper()
	for _, orig := range res {
		b, err := orig.Marshal()
		if err != nil {
			tb.Fatal(err)
		}
		back, err := results.Unmarshal(b)
		if err != nil {
			tb.Fatal(err)
		}
		if !reflect.DeepEqual(back, orig) {
			tb.Fatalf("task %d: Unmarshal(Marshal(r)) differs", orig.Index)
		}
	}
}

// writeReadJobs writes r's outputs and reads their jobs.parquet back; it
// returns the output folder and the rows.
func writeReadJobs(tb testing.TB, r *run) (string, []results.JobRow) {
	tb.Helper()
	dir := MustWrite(tb, r, r.res)
	rows, err := results.ReadJobs(filepath.Join(dir, results.JobsFile))
	if err != nil {
		tb.Fatal(err)
	}
	return dir, rows
}

// withFailure returns res with task i replaced by a failed result.
func withFailure(res []*results.TaskResult, i int, tasks []sweep.Task) []*results.TaskResult {
	out := slices.Clone(res)
	out[i] = &results.TaskResult{TaskID: tasks[i].ID, Index: i, Err: "build policy: bad parameter value\nsecond line", Worker: "w9"}
	return out
}

func checkTaskCols(t *testing.T, where string, got results.TaskCols, tk *sweep.Task, procs int) {
	t.Helper()
	want := results.TaskCols{
		TaskID: tk.ID, TaskIndex: tk.Index, Sweep: "results-test", Trace: tk.Workload.Trace,
		Policy: tk.Policy, Label: tk.Name(), Params: tk.ParamString(), ParamValues: got.ParamValues,
		MachineProcs: procs, Load: tk.Workload.Load, LoadMode: tk.Workload.LoadMode, Estimates: tk.Workload.Estimates,
		Skip: tk.Workload.Skip, Count: tk.Workload.Count, Replication: tk.Replication, Seed: tk.Seed,
	}
	if got.ParamValues == nil {
		t.Errorf("%s: ParamValues is nil", where)
	}
	if !equalTaskCols(got, want) {
		t.Errorf("%s: task columns\n got %+v\nwant %+v", where, got, want)
	}
	// ss tasks carry their parameters in typed columns; others have nulls.
	if tk.Policy == "ss" {
		if got.ParamValues["suspension_factor"] != tk.Params["suspension_factor"] ||
			got.ParamValues["interval"] != tk.Params["interval"] || got.ParamValues["overhead"] != true {
			t.Errorf("%s: param columns %v, want %v", where, got.ParamValues, tk.Params)
		}
	} else if len(got.ParamValues) != 0 {
		t.Errorf("%s: %s has param columns %v, want nulls", where, tk.Policy, got.ParamValues)
	}
}

func equalTaskCols(a, b results.TaskCols) bool {
	a.ParamValues, b.ParamValues = nil, nil
	return reflect.DeepEqual(a, b)
}

func TestWriteOutputs_ReadBack(t *testing.T) {
	r := MustRun(t, realSpec)
	const failed = 3
	res := withFailure(r.res, failed, r.tasks)
	dir := MustWrite(t, r, res)

	for _, f := range outputFiles {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("output %s: %v", f, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(outputFiles) {
		t.Errorf("%d files in the output directory, want %d (no temporary files left)", len(entries), len(outputFiles))
	}
	schemes := []*metrics.Scheme{mustScheme(t, "ss16"), mustScheme(t, "ss4")}

	t.Run("Jobs", func(t *testing.T) {
		rows, err := results.ReadJobs(filepath.Join(dir, results.JobsFile))
		if err != nil {
			t.Fatal(err)
		}
		k := 0
		for i, tr := range res {
			for j := range tr.Jobs {
				if k >= len(rows) {
					t.Fatalf("only %d job rows", len(rows))
				}
				row := rows[k]
				k++
				if !reflect.DeepEqual(row.Job, tr.Jobs[j]) {
					t.Fatalf("task %d job %d: row %+v, want %+v", i, j, row.Job, tr.Jobs[j])
				}
				for _, s := range schemes {
					if got, want := row.Categories[s.Name], s.Classify(&tr.Jobs[j]); got != want {
						t.Fatalf("task %d job %d: %s label %q, want %q", i, j, s.Name, got, want)
					}
				}
				if j == 0 {
					checkTaskCols(t, "jobs.parquet", row.TaskCols, &r.tasks[i], 338)
				}
			}
		}
		if k != len(rows) || len(rows) != (len(r.tasks)-1)*300 {
			t.Errorf("%d job rows, want %d (the failed task has none)", len(rows), k)
		}
	})
	t.Run("Summary", func(t *testing.T) {
		rows, err := results.ReadSummary(filepath.Join(dir, results.SummaryFile))
		if err != nil {
			t.Fatal(err)
		}
		var want []results.SummaryRow
		for i, tr := range res {
			if tr.Err != "" {
				continue
			}
			for _, s := range schemes {
				for _, a := range metrics.Summarize(s, tr.Jobs) {
					want = append(want, results.SummaryRow{TaskCols: results.TaskCols{TaskIndex: i}, Scheme: s.Name, Aggregate: a})
				}
			}
		}
		if len(rows) != len(want) {
			t.Fatalf("%d summary rows, want %d", len(rows), len(want))
		}
		for k := range rows {
			if rows[k].TaskIndex != want[k].TaskIndex || rows[k].Scheme != want[k].Scheme || !reflect.DeepEqual(rows[k].Aggregate, want[k].Aggregate) {
				t.Fatalf("summary row %d:\n got %d %s %+v\nwant %d %s %+v", k, rows[k].TaskIndex, rows[k].Scheme, rows[k].Aggregate,
					want[k].TaskIndex, want[k].Scheme, want[k].Aggregate)
			}
		}
		checkTaskCols(t, "summary.parquet", rows[len(rows)-1].TaskCols, &r.tasks[len(r.tasks)-1], 338)
	})
	t.Run("Tasks", func(t *testing.T) {
		rows, err := results.ReadTasks(filepath.Join(dir, results.TasksFile))
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != len(r.tasks) {
			t.Fatalf("%d task rows, want %d", len(rows), len(r.tasks))
		}
		for i, row := range rows {
			tr := res[i]
			procs := 338
			if i == failed {
				procs = 0 // no machine size in the spec, none from a run
				if row.Error != tr.Err || !reflect.DeepEqual(row.Stats, metrics.RunStats{}) || row.Worker != "w9" {
					t.Errorf("failed task row %+v", row)
				}
			} else if !reflect.DeepEqual(row.Stats, tr.Stats) || row.Drops != tr.Drops.Total() || row.DropsDetail != tr.Drops.String() || row.Error != "" {
				t.Errorf("task %d: stats %+v drops %d %q, want %+v %d", i, row.Stats, row.Drops, row.DropsDetail, tr.Stats, tr.Drops.Total())
			}
			if row.Worker != tr.Worker || math.Abs(float64(row.WallTime-tr.WallTime)) > 1000 {
				t.Errorf("task %d: worker %q wall %v, want %q %v", i, row.Worker, row.WallTime, tr.Worker, tr.WallTime)
			}
			checkTaskCols(t, "tasks.parquet", row.TaskCols, &r.tasks[i], procs)
		}
	})
	t.Run("Metadata", func(t *testing.T) {
		for _, f := range []string{results.JobsFile, results.SummaryFile, results.TasksFile} {
			md, err := results.ReadMetadata(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			var traces map[string]string
			if err := json.Unmarshal([]byte(md[results.MetaTraces]), &traces); err != nil {
				t.Errorf("%s: traces metadata %q: %v", f, md[results.MetaTraces], err)
			}
			tr := r.spec.Traces()[0]
			if md[results.MetaSpec] != string(r.spec.Canonical()) || md[results.MetaSpecSHA256] != r.spec.Hash ||
				md[results.MetaVersion] != "test-1.0" || md[results.MetaSimVersion] != sim.Version ||
				md[results.MetaSweep] != "results-test" || traces[tr.Name] != tr.SHA256 ||
				md[results.MetaParams] != ssParamColumns(t) {
				t.Errorf("%s: metadata %v", f, md)
			}
		}
	})
	t.Run("Tables", func(t *testing.T) {
		md, _ := os.ReadFile(filepath.Join(dir, results.TablesMD))
		data, _ := os.ReadFile(filepath.Join(dir, results.TablesCSV))
		if !bytes.Contains(md, []byte("failed: build policy: bad parameter value ...")) {
			t.Errorf("tables.md does not show the failed task")
		}
		recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		// A header, 17 records (16 categories + all) per successful task,
		// one per failed task (one replication per setting here).
		if want := 1 + (len(r.tasks)-1)*17 + 1; len(recs) != want {
			t.Fatalf("tables.csv has %d records, want %d", len(recs), want)
		}
		col := func(rec []string, name string) string { return rec[slices.Index(report.TablesCSVHeader, name)] }
		if got := recs[1+failed*17]; col(got, "category") != "" || col(got, "failed") != "1" ||
			!strings.Contains(col(got, "errors"), "task 3 (replication 0) failed: build policy: bad parameter value ...") {
			t.Errorf("tables.csv failed task record %q", got)
		}
		// The overall line of task 0 has its mean bounded slowdown.
		all := recs[17]
		if col(all, "category") != "all" || col(all, "value") != strconv.FormatFloat(metrics.Summarize(schemes[0], res[0].Jobs)[16].BSD.Mean, 'g', -1, 64) {
			t.Errorf("tables.csv overall record %q", all)
		}
	})
}

func mustScheme(tb testing.TB, name string) *metrics.Scheme {
	s, err := metrics.LookupScheme(name)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func TestWriteOutputs_Deterministic(t *testing.T) {
	r := MustRun(t, realSpec)
	a := MustWrite(t, r, r.res)
	b := MustWrite(t, r, withWorkers(r.res, "elsewhere"))
	for _, f := range outputFiles {
		fa, _ := os.ReadFile(filepath.Join(a, f))
		fb, _ := os.ReadFile(filepath.Join(b, f))
		same := bytes.Equal(fa, fb)
		switch {
		case f == results.TasksFile && same:
			t.Errorf("%s is identical although workers and wall times differ", f)
		case f != results.TasksFile && !same:
			t.Errorf("%s differs between runs with other workers", f)
		}
	}
	// Tasks and results that travelled as JSON and marshalled bytes, as
	// they do between coordinator and workers, give the same bytes.
	travelled := &run{spec: r.spec}
	for i := range r.tasks {
		j, err := json.Marshal(r.tasks[i])
		if err != nil {
			t.Fatal(err)
		}
		var tk sweep.Task
		if err := json.Unmarshal(j, &tk); err != nil {
			t.Fatal(err)
		}
		travelled.tasks = append(travelled.tasks, tk)
		b, err := r.res[i].Marshal()
		if err != nil {
			t.Fatal(err)
		}
		res, err := results.Unmarshal(b)
		if err != nil {
			t.Fatal(err)
		}
		travelled.res = append(travelled.res, res)
	}
	d := MustWrite(t, travelled, travelled.res)
	for _, f := range outputFiles {
		fa, _ := os.ReadFile(filepath.Join(a, f))
		fd, _ := os.ReadFile(filepath.Join(d, f))
		if !bytes.Equal(fa, fd) {
			t.Errorf("%s differs when tasks and results went through JSON and Marshal", f)
		}
	}
	// A second run of every task gives byte-identical outputs too.
	again := MustRun(t, realSpec)
	c := MustWrite(t, again, again.res)
	for _, f := range []string{results.JobsFile, results.SummaryFile, results.TablesMD, results.TablesCSV} {
		fa, _ := os.ReadFile(filepath.Join(a, f))
		fc, _ := os.ReadFile(filepath.Join(c, f))
		if !bytes.Equal(fa, fc) {
			t.Errorf("%s differs after re-running the sweep", f)
		}
	}
}

func TestWriteOutputs_ErrMismatch(t *testing.T) {
	r := MustRun(t, "name: results-test\nworkloads: [{trace: tiny.swf}]\npolicies: [{name: fcfs}, {name: easy}]\n")
	swapped := []*results.TaskResult{r.res[1], r.res[0]}
	for name, res := range map[string][]*results.TaskResult{
		"Swapped": swapped,
		"Missing": {r.res[0], nil},
		"Short":   r.res[:1],
	} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			err := results.WriteOutputs(dir, r.spec, r.tasks, res, "v", results.WithTables(report.Tables))
			if !errors.Is(err, results.ErrMismatch) {
				t.Fatalf("WriteOutputs = %v, want ErrMismatch", err)
			}
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("output directory exists after a refused write")
			}
		})
	}
}

func TestWriteOutputs_KeepsOldOutputsOnFailure(t *testing.T) {
	r := MustRun(t, "name: results-test\nworkloads: [{trace: tiny.swf}]\npolicies: [{name: fcfs}]\n")
	dir := MustWrite(t, r, r.res)
	before, _ := os.ReadFile(filepath.Join(dir, results.JobsFile))
	// A bad table metric fails at tables.md, after the Parquet files were
	// written to temporary files.
	bad := *r.spec
	bad.Outputs.Tables.Metric = "nope"
	if err := results.WriteOutputs(dir, &bad, r.tasks, r.res, "v", results.WithTables(report.Tables)); err == nil || !strings.Contains(err.Error(), "tables.md") {
		t.Fatalf("WriteOutputs with a bad metric = %v, want an error at tables.md", err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, results.JobsFile))
	entries, _ := os.ReadDir(dir)
	if !bytes.Equal(before, after) || len(entries) != len(outputFiles) {
		t.Errorf("a failed write changed the outputs (%d files)", len(entries))
	}
}
