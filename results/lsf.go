package results

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/schedfarm/schedfarm/sim/metrics"
)

// elasticJobFields are the per-job columns of elastic jobs (the LSF
// disciplines on the parsons1997 workload), null for rigid jobs. They
// follow the moldable columns (which elastic jobs share: procs_chosen,
// min_procs, max_procs, work, speedup) in the wire format and in
// jobs.parquet.
var elasticJobFields = []arrow.Field{
	{Name: "tagged", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "finished", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "seq_fraction", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "procs_last", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "work_done", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "checkpoints", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "migrations", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "reconfigurations", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}

// elasticTaskFields are the per-task columns of a run of elastic jobs,
// null otherwise and for failed tasks.
var elasticTaskFields = []arrow.Field{
	{Name: "mrt", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "makespan_tagged", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "unfinished", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "max_queue", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "makespan_lb", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "queue_p90", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "queue_mean", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}

// appendElasticJob appends a record's elastic columns to the fields of b
// from index first on: nulls for a rigid job.
func appendElasticJob(b *array.RecordBuilder, first int, j *metrics.Record) {
	e := j.Elastic
	if e == nil {
		for k := range elasticJobFields {
			b.Field(first + k).AppendNull()
		}
		return
	}
	bl := func(k int, v bool) { b.Field(first + k).(*array.BooleanBuilder).Append(v) }
	in := func(k int, v int) { b.Field(first + k).(*array.Int64Builder).Append(int64(v)) }
	fl := func(k int, v float64) { b.Field(first + k).(*array.Float64Builder).Append(v) }
	bl(0, e.Tagged)
	bl(1, e.Finished)
	fl(2, e.SeqFraction)
	in(3, e.ProcsLast)
	fl(4, e.WorkDone)
	in(5, e.Checkpoints)
	in(6, e.Migrations)
	in(7, e.Reconfigurations)
}

// readElasticJob reads row k of the elastic columns of rec, which start
// at column first; nil for a rigid job.
func readElasticJob(rec arrow.RecordBatch, first, k int) *metrics.ElasticInfo {
	col := func(i int) arrow.Array { return rec.Column(first + i) }
	if col(0).IsNull(k) {
		return nil
	}
	bl := func(i int) bool { return boolAt(col(i), k) }
	in := func(i int) int { return int(int64At(col(i), k)) }
	fl := func(i int) float64 { return float64At(col(i), k) }
	return &metrics.ElasticInfo{
		Tagged: bl(0), Finished: bl(1), SeqFraction: fl(2), ProcsLast: in(3),
		WorkDone: fl(4), Checkpoints: in(5), Migrations: in(6), Reconfigurations: in(7),
	}
}

// appendElasticTask appends the elastic task columns from field index
// first of b on.
func appendElasticTask(b *array.RecordBuilder, first int, st *metrics.ElasticStats) {
	if st == nil {
		for k := range elasticTaskFields {
			b.Field(first + k).AppendNull()
		}
		return
	}
	b.Field(first).(*array.Float64Builder).Append(st.MRT)
	b.Field(first + 1).(*array.Int64Builder).Append(st.MakespanTagged)
	b.Field(first + 2).(*array.Int64Builder).Append(int64(st.Unfinished))
	b.Field(first + 3).(*array.Int64Builder).Append(int64(st.MaxQueue))
	b.Field(first + 4).(*array.Int64Builder).Append(st.MakespanLB)
	b.Field(first + 5).(*array.Int64Builder).Append(int64(st.QueueP90))
	b.Field(first + 6).(*array.Float64Builder).Append(st.QueueMean)
}
