package results_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

// interopDir is the npm project whose script reads Parquet with DuckDB.
var interopDir = filepath.Join("..", "interop")

// duckFile is what interop/parquet-check.mjs reports about one file.
type duckFile struct {
	Path          string             `json:"path"`
	Rows          int                `json:"rows"`
	Columns       []string           `json:"columns"`
	BSDMean       *float64           `json:"bsd_mean"`
	BSDMeanByTask map[string]float64 `json:"bsd_mean_by_task"`
	Metadata      map[string]string  `json:"metadata"`
	// Admission is reported for jobs files.
	Admission *struct {
		Rejected          int     `json:"rejected"`
		RejectedWithStart int     `json:"rejected_with_start"`
		WithDeadline      int     `json:"with_deadline"`
		ResourceCharge    float64 `json:"resource_charge"`
	} `json:"admission"`
}

// needInterop skips the test when node or the installed npm project is
// missing, except under CI=true, where it fails.
func needInterop(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(interopDir, "node_modules", "@duckdb", "node-api"))
	}
	if err != nil {
		msg := "DuckDB interop check needs node and interop/node_modules (run: cd interop && npm ci): " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return node
}

// parquetCheck runs interop/parquet-check.mjs (DuckDB) on the named files
// of dir and returns its report of each, in order. Call needInterop first.
func parquetCheck(t *testing.T, dir string, names ...string) []duckFile {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := []string{filepath.Join(interopDir, "parquet-check.mjs")}
	for _, f := range names {
		args = append(args, filepath.Join(dir, f))
	}
	out, err := exec.CommandContext(ctx, needInterop(t), args...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("parquet-check: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("parquet-check: %v", err)
	}
	var got struct{ Files []duckFile }
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("parquet-check output %q: %v", out, err)
	}
	if len(got.Files) != len(names) {
		t.Fatalf("parquet-check reported %d files, want %d", len(got.Files), len(names))
	}
	return got.Files
}

func relClose(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

func TestWriteOutputs_DuckDB(t *testing.T) {
	needInterop(t)
	r := MustRun(t, realSpec)
	dir := MustWrite(t, r, r.res)
	files := parquetCheck(t, dir, results.JobsFile, results.SummaryFile, results.TasksFile)
	jobs, summary, tasks := files[0], files[1], files[2]

	// Row counts.
	var nJobs int
	var sum float64
	for _, tr := range r.res {
		nJobs += len(tr.Jobs)
		for _, j := range tr.Jobs {
			sum += j.BSD
		}
	}
	nSchemeRows := 0
	for _, name := range r.spec.Categories {
		s, _ := metrics.LookupScheme(name)
		nSchemeRows += len(s.Rows)*len(s.Cols) + 1
	}
	for _, c := range []struct {
		file string
		got  int
		want int
	}{
		{"jobs", jobs.Rows, nJobs},
		{"summary", summary.Rows, len(r.tasks) * nSchemeRows},
		{"tasks", tasks.Rows, len(r.tasks)},
	} {
		if c.got != c.want {
			t.Errorf("DuckDB: %s.parquet has %d rows, want %d", c.file, c.got, c.want)
		}
	}

	// Mean bounded slowdown, overall and per task, as the simulator says.
	if jobs.BSDMean == nil || !relClose(*jobs.BSDMean, sum/float64(nJobs)) {
		t.Errorf("DuckDB: avg(bsd) = %v, want %v", jobs.BSDMean, sum/float64(nJobs))
	}
	ss16, _ := metrics.LookupScheme("ss16")
	for i, tr := range r.res {
		agg := metrics.Summarize(ss16, tr.Jobs)
		want := agg[len(agg)-1].BSD.Mean
		if g, ok := jobs.BSDMeanByTask[strconv.Itoa(i)]; !ok || !relClose(g, want) {
			t.Errorf("DuckDB: task %d avg(bsd) = %v, want %v", i, g, want)
		}
	}

	// Columns and provenance as written.
	for _, col := range []string{"task_id", "params", "param_suspension_factor", "load", "bsd", "cat_ss16", "cat_ss4"} {
		if !slices.Contains(jobs.Columns, col) {
			t.Errorf("DuckDB: jobs.parquet has no column %q (columns %v)", col, jobs.Columns)
		}
	}
	for _, col := range []string{"scheme", "category", "jobs", "bsd_mean"} {
		if !slices.Contains(summary.Columns, col) {
			t.Errorf("DuckDB: summary.parquet has no column %q (columns %v)", col, summary.Columns)
		}
	}
	for _, f := range files {
		if f.Metadata[results.MetaSpecSHA256] != r.spec.Hash || f.Metadata[results.MetaSpec] != string(r.spec.Canonical()) {
			t.Errorf("DuckDB: %s metadata %v, want the spec and its sha256", f.Path, f.Metadata)
		}
	}
}
