package results

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// Frame holds columns of one output file (jobs.parquet, summary.parquet
// or tasks.parquet) by name, for readers that pick columns at run time
// (the claims of a reproduction) rather than through the typed rows of
// [ReadSummary] and [ReadTasks]. Columns added to the files later are
// read without changes here.
type Frame struct {
	// Tasks holds the task columns of each task with rows in the file, in
	// file order; TaskOf gives each row's index in Tasks. Do not modify
	// a task's ParamValues.
	Tasks  []TaskCols
	TaskOf []int32
	// Num holds the numeric columns read: integers and floats as
	// float64, booleans as 0 or 1, nulls as NaN.
	Num map[string][]float64
	// Str holds the string columns read; nulls are "".
	Str map[string][]string
	// File lists every column of the file (read or not), sorted, with
	// its kind: "num" or "str" (other types are left out).
	File map[string]string
}

// Len returns the number of rows.
func (f *Frame) Len() int { return len(f.TaskOf) }

// Task returns the task columns of row i.
func (f *Frame) Task(i int) *TaskCols { return &f.Tasks[f.TaskOf[i]] }

// Columns returns the names of the file's numeric and string columns,
// sorted.
func (f *Frame) Columns() []string {
	out := make([]string, 0, len(f.File))
	for k := range f.File {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// taskColumnNames are the columns [TaskCols] is built from, besides the
// param_* columns.
var taskColumnNames = func() []string {
	var out []string
	for _, f := range taskFields(nil) {
		out = append(out, f.Name)
	}
	return out
}()

// ReadFrame reads the task columns and the named columns of a Parquet
// file written by [WriteOutputs] (every column when none are named;
// names the file does not have are left out). Reading only the columns
// needed keeps jobs.parquet cheap: a few columns of a million rows take
// a fraction of a second.
func ReadFrame(path string, columns ...string) (*Frame, error) {
	return readFrame(path, nil, columns)
}

// ReadJobsFrame reads the named columns of jobs.parquet (at least one),
// taking each row's task columns from tasks, the task columns of the
// same sweep's tasks.parquet (see [ReadFrame]), by task_id: the task
// columns of a million job rows are not read.
func ReadJobsFrame(path string, tasks []TaskCols, columns ...string) (*Frame, error) {
	known := make(map[string]*TaskCols, len(tasks))
	for i := range tasks {
		known[tasks[i].TaskID] = &tasks[i]
	}
	if len(columns) == 0 {
		columns = []string{"job_id"}
	}
	return readFrame(path, known, columns)
}

// readFrame reads a frame; with known, the only task column read is
// task_id and the rest come from known.
func readFrame(path string, known map[string]*TaskCols, columns []string) (*Frame, error) {
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer rdr.Close()
	props := pqarrow.ArrowReadProperties{BatchSize: rowGroupRows}
	if known != nil {
		// The string columns of job rows (task_id, categories) repeat a
		// few values: read them as dictionaries, without a string per
		// row.
		sc := rdr.MetaData().Schema
		for i := range sc.NumColumns() {
			if sc.Column(i).PhysicalType() == parquet.Types.ByteArray {
				props.SetReadDict(i, true)
			}
		}
	}
	fr, err := pqarrow.NewFileReader(rdr, props, memory.DefaultAllocator)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	schema, err := fr.Schema()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	f := &Frame{Num: map[string][]float64{}, Str: map[string][]string{}, File: map[string]string{}}
	indices := f.selectColumns(schema, known != nil, columns)
	var rgs []int
	for i := range rdr.NumRowGroups() {
		rgs = append(rgs, i)
	}
	tbl, err := fr.ReadRowGroups(context.Background(), indices, rgs)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer tbl.Release()
	tr := array.NewTableReader(tbl, rowGroupRows)
	defer tr.Release()
	byID := map[string]int32{}
	for tr.Next() {
		rec := tr.RecordBatch()
		c := newCols(rec)
		n := int(rec.NumRows())
		ids := stringsOf(c.byName["task_id"])
		for i := range n {
			id := ""
			if ids != nil {
				id = ids(i)
			}
			k, ok := byID[id]
			if !ok {
				k = int32(len(f.Tasks))
				byID[id] = k
				if known == nil {
					f.Tasks = append(f.Tasks, c.taskCols(i))
				} else if tc := known[id]; tc != nil {
					f.Tasks = append(f.Tasks, *tc)
				} else {
					return nil, fmt.Errorf("read %s: row %d: task %s is not among the sweep's tasks", path, len(f.TaskOf), id)
				}
			}
			f.TaskOf = append(f.TaskOf, k)
		}
		if c.err != nil {
			return nil, fmt.Errorf("read %s: %w", path, c.err)
		}
		for name, a := range c.byName {
			f.appendColumn(name, a, n)
		}
	}
	if err := tr.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return f, nil
}

// selectColumns notes in f.File the kind of every column of schema and
// returns the indices of those to read: the task columns (only task_id
// when the task columns are known) and the named columns, or every
// column when none is named.
func (f *Frame) selectColumns(schema *arrow.Schema, known bool, columns []string) []int {
	var indices []int
	for i, fd := range schema.Fields() {
		switch fd.Type.ID() {
		case arrow.STRING, arrow.DICTIONARY:
			f.File[fd.Name] = "str"
		case arrow.FLOAT64, arrow.FLOAT32, arrow.INT64, arrow.INT32, arrow.UINT64, arrow.BOOL:
			f.File[fd.Name] = "num"
		}
		taskCol := slices.Contains(taskColumnNames, fd.Name) || strings.HasPrefix(fd.Name, ParamPrefix)
		if known {
			taskCol = fd.Name == "task_id"
		}
		if len(columns) == 0 || taskCol || slices.Contains(columns, fd.Name) {
			indices = append(indices, i)
		}
	}
	return indices
}

// stringsOf returns the values of a string column, plain or dictionary
// encoded ("" for nulls), or nil for other columns.
func stringsOf(a arrow.Array) func(i int) string {
	switch a := a.(type) {
	case *array.String:
		return func(i int) string {
			if a.IsValid(i) {
				return a.Value(i)
			}
			return ""
		}
	case *array.Dictionary:
		d, ok := a.Dictionary().(*array.String)
		if !ok {
			return nil
		}
		vals := make([]string, d.Len())
		for k := range vals {
			if d.IsValid(k) {
				vals[k] = strings.Clone(d.Value(k))
			}
		}
		return func(i int) string {
			if a.IsValid(i) {
				return vals[a.GetValueIndex(i)]
			}
			return ""
		}
	}
	return nil
}

// appendColumn appends n values of a column to the frame.
func (f *Frame) appendColumn(name string, a arrow.Array, n int) {
	if v := stringsOf(a); v != nil {
		col := f.Str[name]
		if col == nil {
			col = make([]string, 0, n)
		}
		for i := range n {
			col = append(col, v(i))
		}
		f.Str[name] = col
		return
	}
	switch a := a.(type) {
	case *array.Float64:
		f.Num[name] = appendNum(f.Num[name], a, n, func(i int) float64 { return a.Value(i) })
	case *array.Int64:
		f.Num[name] = appendNum(f.Num[name], a, n, func(i int) float64 { return float64(a.Value(i)) })
	case *array.Uint64:
		f.Num[name] = appendNum(f.Num[name], a, n, func(i int) float64 { return float64(a.Value(i)) })
	case *array.Int32:
		f.Num[name] = appendNum(f.Num[name], a, n, func(i int) float64 { return float64(a.Value(i)) })
	case *array.Float32:
		f.Num[name] = appendNum(f.Num[name], a, n, func(i int) float64 { return float64(a.Value(i)) })
	case *array.Boolean:
		f.Num[name] = appendNum(f.Num[name], a, n, func(i int) float64 {
			if a.Value(i) {
				return 1
			}
			return 0
		})
	}
}

// appendNum appends n values of a column, NaN for nulls.
func appendNum(dst []float64, a arrow.Array, n int, v func(i int) float64) []float64 {
	for i := range n {
		if a.IsValid(i) {
			dst = append(dst, v(i))
		} else {
			dst = append(dst, math.NaN())
		}
	}
	return dst
}
