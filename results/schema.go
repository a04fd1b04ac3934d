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
// with kinds from the policy registry: one column per parameter of any
// policy of the sweep (looked up once per policy), whether or not a task
// gives it a value (an elided parameter has none).
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
	seen := map[string]bool{}
	for i := range tasks {
		if seen[tasks[i].Policy] {
			continue
		}
		seen[tasks[i].Policy] = true
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
	f := fieldsOf(taskHeadColumns, false)
	for _, c := range pcs {
		f = append(f, arrow.Field{Name: ParamPrefix + c.name, Type: c.dataType(), Nullable: true})
	}
	return append(f, fieldsOf(taskTailColumns, false)...)
}

// jobFields are the per-job columns of jobs.parquet after the task
// columns, before the category columns.
var jobFields = fieldsOf(jobColumns, false)

// summaryFields are the columns of summary.parquet after the task columns.
var summaryFields = fieldsOf(summaryColumns, false)

// tasksFields are the columns of tasks.parquet after the task columns.
var tasksFields = fieldsOf(tasksColumns, false)

// appendTaskCols appends the task columns of t (with result r, which may
// be a failed one) n times to the first fields of b. Where dicts (which may
// be nil) has a column for a string field, its values go there instead of
// to b.
func appendTaskCols(b *array.RecordBuilder, dicts []*dictCol, pcs []paramCol, sweepName string, t *sweep.Task, r *TaskResult, n int) {
	src := taskSrc{sweep: sweepName, t: t, r: r}
	i := 0
	dict := func() *dictCol {
		if i < len(dicts) {
			return dicts[i]
		}
		return nil
	}
	str := func(v string) {
		if d := dict(); d != nil {
			d.appendN(v, n)
		} else {
			strs(b.Field(i), v, n)
		}
		i++
	}
	put := func(cs []taskCol) {
		for _, c := range cs {
			if d := dict(); d != nil {
				if v, ok := c.strValue(&src); ok {
					d.appendN(v, n)
				} else {
					d.appendNulls(n)
				}
			} else {
				c.appendN(b.Field(i), &src, n, false)
			}
			i++
		}
	}
	put(taskHeadColumns)
	for _, c := range pcs {
		v, ok := t.Params[c.name]
		switch {
		case !ok:
			if d := dict(); d != nil {
				d.appendNulls(n)
			} else {
				b.Field(i).AppendNulls(n)
			}
			i++
		case c.asText:
			text := fmt.Sprint(v)
			if f, ok := number(v); ok {
				text = strconv.FormatFloat(f, 'g', -1, 64) // the same for int64 and float64
			}
			str(text)
		default:
			appendParam(b.Field(i), c.kind, v, n)
			i++
		}
	}
	put(taskTailColumns)
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
