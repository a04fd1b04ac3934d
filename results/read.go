package results

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/schedfarm/schedfarm/sim/metrics"
)

// TaskCols are the task columns every output file starts with; each field
// holds the column of the same name in snake case (TaskID is task_id).
type TaskCols struct {
	TaskID    string
	TaskIndex int
	Sweep     string
	Trace     string
	Policy    string
	Label     string
	// Params is the canonical name=value text of the parameters.
	Params string
	// ParamValues holds the non-null param_* columns by parameter name
	// (float64, int64, bool or string). Rows of one task share the map:
	// do not modify it.
	ParamValues map[string]any
	// MachineProcs is the machine size (0 when unknown: a failed task
	// without a machine size in its spec).
	MachineProcs int
	Load         float64
	LoadMode     string
	Estimates    string
	Skip, Count  int
	Replication  int
	Seed         uint64
	// Moldable is true for a moldable workload, whose sigma and
	// range_factor columns are Sigma and RangeFactor (else null and 0).
	Moldable           bool
	Sigma, RangeFactor float64
}

// JobRow is one row of jobs.parquet.
type JobRow struct {
	TaskCols
	// Job holds the job columns.
	Job metrics.Record
	// Categories maps a scheme name to the job's category label.
	Categories map[string]string
}

// SummaryRow is one row of summary.parquet.
type SummaryRow struct {
	TaskCols
	// Scheme names the category scheme; Aggregate holds category, row,
	// col, jobs (as Count) and the means and maxima.
	Scheme string
	metrics.Aggregate
}

// TaskRow is one row of tasks.parquet.
type TaskRow struct {
	TaskCols
	// Stats.Procs is MachineProcs.
	Stats metrics.RunStats
	// Drops and DropsDetail count the trace's dropped jobs.
	Drops       int
	DropsDetail string
	// Baseline is the JSON object of [TaskResult.Baseline] ("" when none).
	Baseline string
	// WallTime (to the microsecond) and Worker say how long and where
	// the task ran; Error is the failure of a failed task.
	WallTime time.Duration
	Worker   string
	Error    string
	// Build is the build identity of the worker that produced the result
	// ([TaskResult.Build]).
	Build string
}

// ReadMetadata returns the key-value metadata of a Parquet file.
func ReadMetadata(path string) (map[string]string, error) {
	rd, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, fmt.Errorf("read metadata %s: %w", path, err)
	}
	defer rd.Close()
	out := map[string]string{}
	for _, kv := range rd.MetaData().KeyValueMetadata() {
		if kv.Value != nil {
			out[kv.Key] = *kv.Value
		} else {
			out[kv.Key] = ""
		}
	}
	return out, nil
}

// ReadJobs reads jobs.parquet.
func ReadJobs(path string) ([]JobRow, error) {
	var out []JobRow
	err := readRows(path, func(c *cols, i int, tc TaskCols) error {
		r := JobRow{TaskCols: tc, Categories: map[string]string{}}
		readNamed(c, jobColumns, i, &r.Job)
		for name := range c.byName {
			if s, ok := strings.CutPrefix(name, CategoryPrefix); ok {
				r.Categories[s] = c.str(name, i)
			}
		}
		out = append(out, r)
		return c.err
	})
	return out, err
}

// ReadSummary reads summary.parquet.
func ReadSummary(path string) ([]SummaryRow, error) {
	var out []SummaryRow
	err := readRows(path, func(c *cols, i int, tc TaskCols) error {
		r := SummaryRow{TaskCols: tc}
		readNamed(c, summaryColumns, i, &r)
		out = append(out, r)
		return c.err
	})
	return out, err
}

// ReadTasks reads tasks.parquet.
func ReadTasks(path string) ([]TaskRow, error) {
	var out []TaskRow
	err := readRows(path, func(c *cols, i int, tc TaskCols) error {
		r := TaskRow{TaskCols: tc}
		readNamed(c, tasksColumns, i, &r)
		r.Stats.Procs = tc.MachineProcs
		out = append(out, r)
		return c.err
	})
	return out, err
}

// readRows reads a Parquet file written by WriteOutputs and calls row for
// each row with its task columns.
func readRows(path string, row func(c *cols, i int, tc TaskCols) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	tbl, err := pqarrow.ReadTable(context.Background(), f, parquet.NewReaderProperties(memory.DefaultAllocator),
		pqarrow.ArrowReadProperties{BatchSize: rowGroupRows}, memory.DefaultAllocator)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	defer tbl.Release()
	tr := array.NewTableReader(tbl, rowGroupRows)
	defer tr.Release()
	var prev TaskCols
	havePrev := false
	for tr.Next() {
		rec := tr.RecordBatch()
		c := newCols(rec)
		for i := 0; i < int(rec.NumRows()); i++ {
			var tc TaskCols
			if id := c.str("task_id", i); havePrev && id == prev.TaskID {
				tc = prev
			} else {
				tc = c.taskCols(i)
				prev, havePrev = tc, true
			}
			if err := row(c, i, tc); err != nil {
				return fmt.Errorf("read %s: %w", path, err)
			}
		}
		if c.err != nil {
			return fmt.Errorf("read %s: %w", path, c.err)
		}
	}
	if err := tr.Err(); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// cols gives typed access to a record batch's columns by name; the first
// missing column or type mismatch is kept in err and reads give zero.
type cols struct {
	rec    arrow.RecordBatch
	byName map[string]arrow.Array
	err    error
}

func newCols(rec arrow.RecordBatch) *cols {
	c := &cols{rec: rec, byName: map[string]arrow.Array{}}
	for i, f := range rec.Schema().Fields() {
		c.byName[f.Name] = rec.Column(i)
	}
	return c
}

func colAs[T arrow.Array](c *cols, name string) (T, bool) {
	var zero T
	a, ok := c.byName[name]
	if !ok {
		if c.err == nil {
			c.err = fmt.Errorf("no column %q", name)
		}
		return zero, false
	}
	t, ok := a.(T)
	if !ok {
		if c.err == nil {
			c.err = fmt.Errorf("column %q is %s", name, a.DataType())
		}
		return zero, false
	}
	return t, true
}

func (c *cols) str(name string, i int) string {
	if a, ok := colAs[*array.String](c, name); ok && a.IsValid(i) {
		return a.Value(i)
	}
	return ""
}

func (c *cols) taskCols(i int) TaskCols {
	tc := TaskCols{ParamValues: map[string]any{}}
	readNamed(c, taskHeadColumns, i, &tc)
	readNamed(c, taskTailColumns, i, &tc)
	for name, a := range c.byName {
		p, ok := strings.CutPrefix(name, ParamPrefix)
		if !ok || !a.IsValid(i) {
			continue
		}
		switch a := a.(type) {
		case *array.Float64:
			tc.ParamValues[p] = a.Value(i)
		case *array.Int64:
			tc.ParamValues[p] = a.Value(i)
		case *array.Boolean:
			tc.ParamValues[p] = a.Value(i)
		case *array.String:
			tc.ParamValues[p] = a.Value(i)
		}
	}
	return tc
}
