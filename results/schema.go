package results

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sweep"
)

// Output file names written by [WriteOutputs].
const (
	JobsFile    = "jobs.parquet"
	SummaryFile = "summary.parquet"
	TasksFile   = "tasks.parquet"
	TablesMD    = "tables.md"
	TablesCSV   = "tables.csv"
)

// Key-value metadata keys of every Parquet file.
const (
	MetaSpec       = "schedfarm.spec"        // the spec's YAML re-serialised, comments removed (sweep.Spec.Canonical)
	MetaSpecSHA256 = "schedfarm.spec_sha256" // hex sha256 of the spec
	MetaSweep      = "schedfarm.sweep"       // the sweep's name
	MetaVersion    = "schedfarm.version"     // the tool version
	MetaSimVersion = "schedfarm.sim_version" // sim.Version of the tasks
	MetaTraces     = "schedfarm.traces"      // JSON object: trace name -> sha256
	MetaParams     = "schedfarm.params"      // JSON list of the param_* columns
)

// ParamPrefix prefixes the per-parameter columns: a policy parameter x
// gets the column "param_x".
const ParamPrefix = "param_"

// CategoryPrefix prefixes the category label columns of jobs.parquet: the
// scheme ss16 gets the column "cat_ss16".
const CategoryPrefix = "cat_"

// paramCol is one parameter column: the parameter's name and kind. A name
// that is an int in one policy and a float in another is a float column;
// one that is a bool in one and a number in another, or a string
// parameter anywhere, is a string column.
type paramCol struct {
	name   string
	kind   policy.Kind
	asText bool
}

func (c paramCol) dataType() arrow.DataType {
	switch {
	case c.asText:
		return arrow.BinaryTypes.String
	case c.kind == policy.Bool:
		return arrow.FixedWidthTypes.Boolean
	case c.kind == policy.Int:
		return arrow.PrimitiveTypes.Int64
	}
	return arrow.PrimitiveTypes.Float64
}

// paramColumns returns the parameter columns of a sweep, sorted by name,
// with kinds from the policy registry.
func paramColumns(tasks []sweep.Task) []paramCol {
	// An elided parameter (policy.Param.Elide) has a column only when a
	// task sets it to another value than its default.
	set := map[string]bool{}
	for i := range tasks {
		for k := range tasks[i].Params {
			set[k] = true
		}
	}
	kinds := map[string]paramCol{}
	for i := range tasks {
		e, err := policy.Lookup(tasks[i].Policy)
		if err != nil {
			continue
		}
		for _, p := range e.Params {
			if p.Elide && !set[p.Name] {
				continue
			}
			c, ok := kinds[p.Name]
			switch {
			case !ok:
				c = paramCol{name: p.Name, kind: p.Kind, asText: p.Kind == policy.String}
			case c.kind == p.Kind:
			case c.kind == policy.String || p.Kind == policy.String:
				c.asText = true
			case c.kind != policy.Bool && p.Kind != policy.Bool:
				c.kind = policy.Float
			default:
				c.asText = true
			}
			kinds[p.Name] = c
		}
	}
	out := make([]paramCol, 0, len(kinds))
	for _, c := range kinds {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b paramCol) int {
		if a.name < b.name {
			return -1
		}
		if a.name > b.name {
			return 1
		}
		return 0
	})
	return out
}

// taskFields returns the leading columns every output file shares: the
// task's identity and parameters.
func taskFields(pcs []paramCol) []arrow.Field {
	f := []arrow.Field{
		{Name: "task_id", Type: arrow.BinaryTypes.String},
		{Name: "task_index", Type: arrow.PrimitiveTypes.Int64},
		{Name: "sweep", Type: arrow.BinaryTypes.String},
		{Name: "trace", Type: arrow.BinaryTypes.String},
		{Name: "policy", Type: arrow.BinaryTypes.String},
		{Name: "label", Type: arrow.BinaryTypes.String},
		{Name: "params", Type: arrow.BinaryTypes.String},
	}
	for _, c := range pcs {
		f = append(f, arrow.Field{Name: ParamPrefix + c.name, Type: c.dataType(), Nullable: true})
	}
	return append(f,
		arrow.Field{Name: "machine_procs", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: "load", Type: arrow.PrimitiveTypes.Float64},
		arrow.Field{Name: "load_mode", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "estimates", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "skip", Type: arrow.PrimitiveTypes.Int64},
		arrow.Field{Name: "count", Type: arrow.PrimitiveTypes.Int64},
		arrow.Field{Name: "replication", Type: arrow.PrimitiveTypes.Int64},
		arrow.Field{Name: "seed", Type: arrow.PrimitiveTypes.Uint64},
		arrow.Field{Name: "sigma", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		arrow.Field{Name: "range_factor", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	)
}

// jobFields are the per-job columns of jobs.parquet after the task
// columns, before the category columns: the wire format's, with the
// columns a rejected job has no value for made nullable.
var jobFields = func() []arrow.Field {
	f := recordSchema.Fields()
	for i := range f {
		if rejectedNull[f[i].Name] {
			f[i].Nullable = true
		}
	}
	return f
}()

// summaryFields are the columns of summary.parquet after the task columns.
// The number of jobs of a category is "jobs", as in tasks.parquet ("count"
// is the subset size among the task columns).
var summaryFields = append([]arrow.Field{
	{Name: "scheme", Type: arrow.BinaryTypes.String},
	{Name: "category", Type: arrow.BinaryTypes.String},
	{Name: "row", Type: arrow.PrimitiveTypes.Int64},
	{Name: "col", Type: arrow.PrimitiveTypes.Int64},
	{Name: "jobs", Type: arrow.PrimitiveTypes.Int64},
	{Name: "bsd_mean", Type: arrow.PrimitiveTypes.Float64},
	{Name: "bsd_max", Type: arrow.PrimitiveTypes.Float64},
	{Name: "turnaround_mean", Type: arrow.PrimitiveTypes.Float64},
	{Name: "turnaround_max", Type: arrow.PrimitiveTypes.Float64},
	{Name: "wait_mean", Type: arrow.PrimitiveTypes.Float64},
	{Name: "wait_max", Type: arrow.PrimitiveTypes.Float64},
	{Name: "slowdown_mean", Type: arrow.PrimitiveTypes.Float64},
	{Name: "slowdown_max", Type: arrow.PrimitiveTypes.Float64},
}, append(slices.Clone(qosSummaryFields), percentileFields...)...)

// percentileFields are the percentile columns of summary.parquet, last
// (see metrics.Stat): per quantity, the median and the 90th and 99th
// percentiles.
var percentileFields = func() []arrow.Field {
	var f []arrow.Field
	for _, q := range []string{"bsd", "wait", "turnaround"} {
		for _, p := range []string{"p50", "p90", "p99"} {
			f = append(f, arrow.Field{Name: q + "_" + p, Type: arrow.PrimitiveTypes.Float64})
		}
	}
	return f
}()

// tasksFields are the columns of tasks.parquet after the task columns.
var tasksFields = append([]arrow.Field{
	{Name: "jobs", Type: arrow.PrimitiveTypes.Int64},
	{Name: "makespan", Type: arrow.PrimitiveTypes.Int64},
	{Name: "utilization", Type: arrow.PrimitiveTypes.Float64},
	{Name: "suspensions", Type: arrow.PrimitiveTypes.Int64},
	{Name: "kills", Type: arrow.PrimitiveTypes.Int64},
	{Name: "drops", Type: arrow.PrimitiveTypes.Int64},
	{Name: "drops_detail", Type: arrow.BinaryTypes.String},
	{Name: "baseline", Type: arrow.BinaryTypes.String},
	{Name: "wall_time_ms", Type: arrow.PrimitiveTypes.Float64},
	{Name: "worker", Type: arrow.BinaryTypes.String},
	{Name: "error", Type: arrow.BinaryTypes.String},
}, append(append(append(slices.Clone(queueTaskFields), elasticTaskFields...), qosTaskFields...), provenanceFields...)...)

// provenanceFields are the last columns of tasks.parquet: what produced
// each result.
var provenanceFields = []arrow.Field{
	{Name: "build", Type: arrow.BinaryTypes.String},
}

// appendTaskCols appends the task columns of t (with result r, which may
// be a failed one) n times to the first fields of b. Where dicts (which may
// be nil) has a column for a string field, its values go there instead of
// to b.
func appendTaskCols(b *array.RecordBuilder, dicts []*dictCol, pcs []paramCol, sweepName string, t *sweep.Task, r *TaskResult, n int) {
	i := 0
	next := func() array.Builder { f := b.Field(i); i++; return f }
	dict := func() *dictCol {
		if i < len(dicts) {
			return dicts[i]
		}
		return nil
	}
	str := func(v string) {
		if d := dict(); d != nil {
			d.appendN(v, n)
			i++
			return
		}
		strs(next(), v, n)
	}
	str(t.ID)
	ints(next(), int64(t.Index), n)
	str(sweepName)
	str(t.Workload.Trace)
	str(t.Policy)
	str(t.Name())
	str(t.ParamString())
	for _, c := range pcs {
		v, ok := t.Params[c.name]
		if !ok {
			if d := dict(); d != nil {
				d.appendNulls(n)
				i++
			} else {
				next().AppendNulls(n)
			}
			continue
		}
		if c.asText {
			text := fmt.Sprint(v)
			if f, ok := number(v); ok {
				text = strconv.FormatFloat(f, 'g', -1, 64) // the same for int64 and float64
			}
			str(text)
			continue
		}
		appendParam(next(), c.kind, v, n)
	}
	procs := int64(t.Workload.Procs)
	if r != nil && r.Err == "" {
		procs = int64(r.Stats.Procs)
	}
	if procs > 0 {
		ints(next(), procs, n)
	} else {
		next().AppendNulls(n)
	}
	floats(next(), t.Workload.Load, n)
	str(t.Workload.LoadMode)
	str(t.Workload.Estimates)
	ints(next(), int64(t.Workload.Skip), n)
	ints(next(), int64(t.Workload.Count), n)
	ints(next(), int64(t.Replication), n)
	ub := next().(*array.Uint64Builder)
	for range n {
		ub.Append(t.Seed)
	}
	for _, v := range []*float64{t.Workload.Sigma, t.Workload.RangeFactor} {
		if fb := next(); v != nil {
			floats(fb, *v, n)
		} else {
			fb.AppendNulls(n)
		}
	}
}

// appendParam appends the value v of a parameter of the given kind n
// times to its typed column b (bool, int64 or float64); a value not of
// the column's type is a null.
func appendParam(b array.Builder, kind policy.Kind, v any, n int) {
	switch kind {
	case policy.Bool:
		bv, ok := v.(bool)
		if !ok {
			b.AppendNulls(n)
			return
		}
		bb := b.(*array.BooleanBuilder)
		for range n {
			bb.Append(bv)
		}
	case policy.Int:
		f, ok := number(v)
		if !ok {
			b.AppendNulls(n)
			return
		}
		ints(b, int64(f), n)
	default:
		f, ok := number(v)
		if !ok {
			b.AppendNulls(n)
			return
		}
		floats(b, f, n)
	}
}

// number converts a parameter value to float64.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}

func strs(b array.Builder, v string, n int) {
	sb := b.(*array.StringBuilder)
	for range n {
		sb.Append(v)
	}
}

func ints(b array.Builder, v int64, n int) {
	ib := b.(*array.Int64Builder)
	for range n {
		ib.Append(v)
	}
}

func floats(b array.Builder, v float64, n int) {
	fb := b.(*array.Float64Builder)
	for range n {
		fb.Append(v)
	}
}
