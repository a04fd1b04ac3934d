package results

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/schedfarm/schedfarm/internal/atomicfile"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sweep"
)

// WriteJobsCSV writes the rows of the jobs.parquet of [WriteJobsFile] as
// CSV to path, through a temporary file: the same columns in the same
// order (task columns, parameter columns, job columns, category columns)
// and the same values, with a header row. A null is an empty cell; numbers
// are written in their shortest exact form, booleans as true or false.
func WriteJobsCSV(path string, spec *sweep.Spec, tasks []sweep.Task, res []*TaskResult) error {
	if len(tasks) != len(res) {
		return fmt.Errorf("write %s: %w: %d tasks, %d results", path, ErrMismatch, len(tasks), len(res))
	}
	o, err := newOutputs(spec, tasks, "")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	err = atomicfile.Write(path, func(w io.Writer) error { return o.writeJobsCSV(w, res) })
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// writeJobsCSV writes the jobs rows of res as CSV to w.
func (o *outputs) writeJobsCSV(w io.Writer, res []*TaskResult) error {
	cw := csv.NewWriter(w)
	var head []string
	for _, f := range taskFields(o.pcs) {
		head = append(head, f.Name)
	}
	for _, c := range jobColumns {
		head = append(head, c.info().Name)
	}
	for _, s := range o.schemes {
		head = append(head, CategoryPrefix+s.Name)
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	row := make([]string, 0, len(head))
	for i := range o.tasks {
		t, r := &o.tasks[i], res[i]
		switch {
		case r == nil:
			return fmt.Errorf("%w: task %d has no result", ErrMismatch, t.Index)
		case r.TaskID != t.ID:
			return fmt.Errorf("%w: result %d is for task %.12s, not %.12s", ErrMismatch, i, r.TaskID, t.ID)
		case r.Err != "":
			continue
		}
		src := taskSrc{sweep: o.spec.Name, t: t, r: r}
		task := make([]string, 0, len(head))
		for _, c := range taskHeadColumns {
			task = append(task, c.text(&src))
		}
		for _, c := range o.pcs {
			task = append(task, paramText(c, t.Params[c.name]))
		}
		for _, c := range taskTailColumns {
			task = append(task, c.text(&src))
		}
		for k := range r.Jobs {
			j := &r.Jobs[k]
			row = append(row[:0], task...)
			for _, c := range jobColumns {
				row = append(row, c.text(j))
			}
			for _, s := range o.schemes {
				row = append(row, s.Classify(j))
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// paramText returns the CSV cell of a parameter value v (nil when the
// task's policy has no such parameter) in column c: as the Parquet column
// holds it.
func paramText(c paramCol, v any) string {
	if v == nil {
		return ""
	}
	f, isNum := number(v)
	switch {
	case c.asText:
		if isNum {
			return strconv.FormatFloat(f, 'g', -1, 64)
		}
		return fmt.Sprint(v)
	case c.kind == policy.Bool:
		if b, ok := v.(bool); ok {
			return strconv.FormatBool(b)
		}
	case !isNum:
	case c.kind == policy.Int:
		return strconv.FormatInt(int64(f), 10)
	default:
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return ""
}
