package results

import (
	"fmt"
	"io"
	"strconv"

	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sweep"
)

// Tables makes the tables [StreamOutputs] writes beside the Parquet
// files (tables.md and tables.csv, laid out by package report): it
// returns the sink of one call over spec's tasks (n of them). results
// defines the formats only; the presentation is the caller's, passed
// with [WithTables].
type Tables func(spec *sweep.Spec, n int) (TableSink, error)

// A TableSink collects the rows of a sweep's tables as results stream
// by, task by task in task order, and writes the tables at the end.
type TableSink interface {
	// Scheme is the category scheme whose aggregates Add takes.
	Scheme() *metrics.Scheme
	// Add takes the next task's row (its task columns as the Parquet
	// files hold them, statistics and error) and its aggregates under
	// Scheme (nil for a failed task). The sink keeps neither aggs nor
	// the memory it points to after Add returns.
	Add(row TaskRow, aggs []metrics.Aggregate)
	// Files returns the files to write once every task was added, in
	// order, each with its name in the output directory and its writer.
	Files() []TableFile
}

// TableFile is one file of a [TableSink]: its name in the output
// directory and the function that writes it.
type TableFile struct {
	Name  string
	Write func(io.Writer) error
}

// WithTables tells [StreamOutputs] to write the tables made by t beside
// the Parquet files; without it no tables are written.
func WithTables(t Tables) StreamOption { return func(o *streamOpts) { o.tables = t } }

// tableSink passes the rows of the outputs o to a [TableSink].
type tableSink struct {
	o  *outputs
	ts TableSink
	s  *metrics.Scheme
	si int // index of s among o.schemes, or -1
}

// newTableSink returns the sink of the tables t makes of the outputs o,
// or nil when t is nil.
func (o *outputs) newTableSink(t Tables) (*tableSink, error) {
	if t == nil {
		return nil, nil
	}
	ts, err := t(o.spec, len(o.tasks))
	if err != nil {
		return nil, err
	}
	s := &tableSink{o: o, ts: ts, s: ts.Scheme(), si: -1}
	for i, x := range o.schemes {
		if x.Name == s.s.Name {
			s.si = i
		}
	}
	return s, nil
}

// add adds the rows of task t with result r; aggs are r's aggregates per
// scheme of the sweep.
func (ts *tableSink) add(t *sweep.Task, r *TaskResult, aggs [][]metrics.Aggregate) {
	var a []metrics.Aggregate
	switch {
	case r.Err != "":
	case ts.si >= 0:
		a = aggs[ts.si]
	default:
		a = r.Summary(ts.s)
	}
	ts.ts.Add(TaskRow{TaskCols: ts.o.taskCols(t, r), Stats: r.Stats, Error: r.Err}, a)
}

// taskCols returns the task columns of task t with result r as the
// Parquet files hold them (see appendTaskCols), so that tables made at the
// end of a run equal tables made from the files.
func (o *outputs) taskCols(t *sweep.Task, r *TaskResult) TaskCols {
	tc := TaskCols{
		TaskID: t.ID, TaskIndex: t.Index, Sweep: o.spec.Name, Trace: t.Workload.Trace,
		Policy: t.Policy, Label: t.Name(), Params: t.ParamString(), ParamValues: map[string]any{},
		MachineProcs: t.Workload.Procs, Load: t.Workload.Load, LoadMode: t.Workload.LoadMode,
		Estimates: t.Workload.Estimates, Skip: t.Workload.Skip, Count: t.Workload.Count,
		Replication: t.Replication, Seed: t.Seed,
	}
	if r != nil && r.Err == "" {
		tc.MachineProcs = r.Stats.Procs
	}
	for _, c := range o.pcs {
		v, ok := t.Params[c.name]
		if !ok {
			continue
		}
		f, isNum := number(v)
		switch {
		case c.asText:
			text := fmt.Sprint(v)
			if isNum {
				text = strconv.FormatFloat(f, 'g', -1, 64)
			}
			tc.ParamValues[c.name] = text
		case c.kind == policy.Bool:
			if bv, ok := v.(bool); ok {
				tc.ParamValues[c.name] = bv
			}
		case c.kind == policy.Int:
			if isNum {
				tc.ParamValues[c.name] = int64(f)
			}
		default:
			if isNum {
				tc.ParamValues[c.name] = f
			}
		}
	}
	return tc
}
