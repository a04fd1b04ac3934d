package results

import (
	"math"
	"slices"

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
// [WriteOutputs].
func ReadFrame(path string) (*Frame, error) {
	f := &Frame{Num: map[string][]float64{}, Str: map[string][]string{}}
	err := readRows(path, func(c *cols, i int, tc TaskCols) error {
		f.Tasks = append(f.Tasks, tc)
		for name, a := range c.byName {
			valid := a.IsValid(i)
			switch a := a.(type) {
			case *array.Float64:
				f.Num[name] = append(f.Num[name], nullNaN(valid, func() float64 { return a.Value(i) }))
			case *array.Int64:
				f.Num[name] = append(f.Num[name], nullNaN(valid, func() float64 { return float64(a.Value(i)) }))
			case *array.Uint64:
				f.Num[name] = append(f.Num[name], nullNaN(valid, func() float64 { return float64(a.Value(i)) }))
			case *array.Int32:
				f.Num[name] = append(f.Num[name], nullNaN(valid, func() float64 { return float64(a.Value(i)) }))
			case *array.Float32:
				f.Num[name] = append(f.Num[name], nullNaN(valid, func() float64 { return float64(a.Value(i)) }))
			case *array.Boolean:
				f.Num[name] = append(f.Num[name], nullNaN(valid, func() float64 {
					if a.Value(i) {
						return 1
					}
					return 0
				}))
			case *array.String:
				s := ""
				if valid {
					s = a.Value(i)
				}
				f.Str[name] = append(f.Str[name], s)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

func nullNaN(valid bool, v func() float64) float64 {
	if !valid {
		return math.NaN()
	}
	return v()
}
