package results

import (
	"context"
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// ReadJobSeries reads only the named numeric columns (int64 or float64,
// as float64) of a jobs.parquet and calls fn once per task, in file
// order, with the task's index and, per name, the values of its jobs in
// job order (submit order). Null values read as 0. Reading a few columns
// of a large sweep costs a fraction of [ReadJobs].
func ReadJobSeries(path string, names []string, fn func(task int, cols [][]float64) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	pr, err := file.NewParquetReader(f)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	defer pr.Close()
	fr, err := pqarrow.NewFileReader(pr, pqarrow.ArrowReadProperties{BatchSize: rowGroupRows}, memory.DefaultAllocator)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	schema, err := fr.Schema()
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	want := append([]string{"task_index"}, names...)
	idx := make([]int, len(want))
	for i, n := range want {
		is := schema.FieldIndices(n)
		if len(is) != 1 {
			return fmt.Errorf("read %s: no column %q", path, n)
		}
		idx[i] = is[0]
	}
	rr, err := fr.GetRecordReader(context.Background(), idx, nil)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	defer rr.Release()
	cur := -1
	cols := make([][]float64, len(names))
	emit := func() error {
		if cur < 0 {
			return nil
		}
		return fn(cur, cols)
	}
	for rr.Next() {
		rec := rr.RecordBatch()
		pos := make([]int, len(want))
		for i, n := range want {
			is := rec.Schema().FieldIndices(n)
			if len(is) != 1 {
				return fmt.Errorf("read %s: no column %q in a batch", path, n)
			}
			pos[i] = is[0]
		}
		ti, ok := rec.Column(pos[0]).(*array.Int64)
		if !ok {
			return fmt.Errorf("read %s: column task_index is %s", path, rec.Column(pos[0]).DataType())
		}
		for r := 0; r < int(rec.NumRows()); r++ {
			if t := int(ti.Value(r)); t != cur {
				if err := emit(); err != nil {
					return err
				}
				cur = t
				cols = make([][]float64, len(names))
			}
			for k := range names {
				v, err := numberAt(rec.Column(pos[k+1]), r)
				if err != nil {
					return fmt.Errorf("read %s: column %s: %w", path, names[k], err)
				}
				cols[k] = append(cols[k], v)
			}
		}
	}
	if err := rr.Err(); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return emit()
}

func numberAt(a arrow.Array, i int) (float64, error) {
	if a.IsNull(i) {
		return 0, nil
	}
	switch c := a.(type) {
	case *array.Int64:
		return float64(c.Value(i)), nil
	case *array.Float64:
		return c.Value(i), nil
	}
	return 0, fmt.Errorf("type %s is not numeric", a.DataType())
}
