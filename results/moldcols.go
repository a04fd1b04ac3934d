package results

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

// moldFields are the job columns of moldable scheduling, after kills:
// procs_chosen and base_runtime always, the annotation null for rigid jobs.
var moldFields = []arrow.Field{
	{Name: "procs_chosen", Type: arrow.PrimitiveTypes.Int64},
	{Name: "base_runtime", Type: arrow.PrimitiveTypes.Int64},
	{Name: "min_procs", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "max_procs", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "work", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "speedup", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}

// appendMoldCols appends j's moldable columns to the builders bs (in
// moldFields order).
func appendMoldCols(bs []array.Builder, j *metrics.Record) {
	bs[0].(*array.Int64Builder).Append(int64(j.Chosen()))
	bs[1].(*array.Int64Builder).Append(int64(j.Base()))
	if !j.Moldable {
		for _, b := range bs[2:] {
			b.AppendNull()
		}
		return
	}
	bs[2].(*array.Int64Builder).Append(int64(j.MinProcs))
	bs[3].(*array.Int64Builder).Append(int64(j.MaxProcs))
	bs[4].(*array.Float64Builder).Append(j.Work)
	bs[5].(*array.Float64Builder).Append(j.Speedup)
}

// moldBuilders returns the builders of the moldable columns, which start
// at field first of b.
func moldBuilders(b *array.RecordBuilder, first int) []array.Builder {
	bs := make([]array.Builder, len(moldFields))
	for i := range bs {
		bs[i] = b.Field(first + i)
	}
	return bs
}

// readMoldCols sets j's moldable fields from row k of the columns cs (in
// moldFields order); a null min_procs marks a rigid job.
func readMoldCols(cs []arrow.Array, k int, j *metrics.Record) {
	j.ProcsChosen = int(int64At(cs[0], k))
	j.BaseRuntime = sim.Time(int64At(cs[1], k))
	if cs[2] != nil && cs[2].IsValid(k) {
		j.Moldable = true
		j.MinProcs, j.MaxProcs = int(int64At(cs[2], k)), int(int64At(cs[3], k))
		j.Work, j.Speedup = float64At(cs[4], k), float64At(cs[5], k)
	}
}
