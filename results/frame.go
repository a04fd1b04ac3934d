package results

import (
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Frame is every column of one output file (jobs.parquet, summary.parquet
// or tasks.parquet) by name, for readers that pick columns at run time
// (the claims of a reproduction) rather than through the typed rows of
// [ReadSummary] and [ReadTasks]. Columns added to the files later are
// read without changes here.
type Frame struct {
	// Tasks holds the task columns of each row; rows of one task share
	// the value (and its ParamValues map: do not modify it).
	Tasks []TaskCols
	// Num holds the numeric columns: integers and floats as float64,
	// booleans as 0 or 1, nulls as NaN.
	Num map[string][]float64
	// Str holds the string columns; nulls are "".
	Str map[string][]string
}

// Len returns the number of rows.
func (f *Frame) Len() int { return len(f.Tasks) }

// Columns returns the names of the numeric and string columns, sorted.
func (f *Frame) Columns() []string {
	var out []string
	for k := range f.Num {
		out = append(out, k)
	}
	for k := range f.Str {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// ReadFrame reads every column of a Parquet file written by
// [WriteOutputs]. It converts whole columns at a time: about as fast as
// the typed readers.
func ReadFrame(path string) (*Frame, error) {
	f := &Frame{Num: map[string][]float64{}, Str: map[string][]string{}}
	err := readBatches(path, func(c *cols, n int, tcs []TaskCols) error {
		f.Tasks = append(f.Tasks, tcs...)
		for name, a := range c.byName {
			switch a := a.(type) {
			case *array.String:
				col := f.Str[name]
				for i := range n {
					if a.IsValid(i) {
						col = append(col, a.Value(i))
					} else {
						col = append(col, "")
					}
				}
				f.Str[name] = col
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
		return nil
	})
	if err != nil {
		return nil, err
	}
	return f, nil
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

// readBatches reads a file like readRows but hands over one record batch
// at a time, while it is alive: its columns, its number of rows and each
// row's task columns.
func readBatches(path string, batch func(c *cols, n int, tcs []TaskCols) error) error {
	var tcs []TaskCols
	return readRows(path, func(c *cols, i int, tc TaskCols) error {
		tcs = append(tcs, tc)
		if n := int(c.rec.NumRows()); i == n-1 {
			err := batch(c, n, tcs)
			tcs = nil
			return err
		}
		return nil
	})
}
