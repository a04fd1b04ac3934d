package results_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sweep"
)

// countSink is a TableSink that writes one line per task it was given:
// its task index, error and the number and overall job count of its
// aggregates.
type countSink struct {
	s     *metrics.Scheme
	lines []string
	rows  []results.TaskRow
}

func (c *countSink) Scheme() *metrics.Scheme { return c.s }

func (c *countSink) Add(row results.TaskRow, aggs []metrics.Aggregate) {
	c.rows = append(c.rows, row)
	jobs := -1
	for _, a := range aggs {
		if a.Row < 0 {
			jobs = a.Count
		}
	}
	c.lines = append(c.lines, fmt.Sprintf("%d %q %d %d\n", row.TaskIndex, row.Error, len(aggs), jobs))
}

func (c *countSink) Files() []results.TableFile {
	return []results.TableFile{{Name: "counts.txt", Write: func(w io.Writer) error {
		for _, l := range c.lines {
			if _, err := io.WriteString(w, l); err != nil {
				return err
			}
		}
		return nil
	}}}
}

// TestStreamOutputs_TablesHook checks the tables hook: without one no
// tables are written; a hook's sink gets every task in order, with its
// aggregates under the sink's scheme (none for a failed task) and its
// task columns as the Parquet files hold them, and its files are
// written beside the Parquet files; a hook's error writes nothing.
func TestStreamOutputs_TablesHook(t *testing.T) {
	r := MustRun(t, realSpec)
	res := withFailure(r.res, 3, r.tasks)

	plain := filepath.Join(t.TempDir(), "plain")
	if err := results.WriteOutputs(plain, r.spec, r.tasks, res, "test"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{results.TablesMD, results.TablesCSV} {
		if _, err := os.Stat(filepath.Join(plain, f)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("without a tables hook %s was written (%v)", f, err)
		}
	}

	ss4, err := metrics.LookupScheme("ss4")
	if err != nil {
		t.Fatal(err)
	}
	sink := &countSink{s: ss4}
	var gotN int
	hook := func(spec *sweep.Spec, n int) (results.TableSink, error) {
		gotN = n
		return sink, nil
	}
	dir := filepath.Join(t.TempDir(), "hooked")
	if err := results.WriteOutputs(dir, r.spec, r.tasks, res, "test", results.WithTables(hook)); err != nil {
		t.Fatal(err)
	}
	if gotN != len(r.tasks) {
		t.Errorf("hook told %d tasks, want %d", gotN, len(r.tasks))
	}
	want := ""
	for i, tr := range res {
		if tr.Err != "" {
			want += fmt.Sprintf("%d %q 0 -1\n", i, tr.Err)
			continue
		}
		want += fmt.Sprintf("%d %q %d %d\n", i, "", len(ss4.Rows)*len(ss4.Cols)+1, len(tr.Jobs))
	}
	b, err := os.ReadFile(filepath.Join(dir, "counts.txt"))
	if err != nil || string(b) != want {
		t.Errorf("counts.txt = %q, %v\nwant %q", b, err, want)
	}
	tasks, err := results.ReadTasks(filepath.Join(dir, results.TasksFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != len(r.tasks) || len(sink.rows) != len(tasks) {
		t.Fatalf("%d task rows, the sink got %d", len(tasks), len(sink.rows))
	}
	for i := range tasks {
		if !reflect.DeepEqual(sink.rows[i].TaskCols, tasks[i].TaskCols) || sink.rows[i].Error != tasks[i].Error {
			t.Errorf("task %d: the sink's row\n%+v\ndiffers from tasks.parquet's\n%+v", i, sink.rows[i], tasks[i])
		}
	}

	bad := errors.New("no tables today")
	failing := filepath.Join(t.TempDir(), "failing")
	err = results.WriteOutputs(failing, r.spec, r.tasks, res, "test", results.WithTables(func(*sweep.Spec, int) (results.TableSink, error) { return nil, bad }))
	if !errors.Is(err, bad) {
		t.Errorf("hook error: %v", err)
	}
	if _, serr := os.Stat(failing); !errors.Is(serr, os.ErrNotExist) {
		t.Errorf("a failed hook left %s (%v)", failing, serr)
	}
}
