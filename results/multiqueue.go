package results

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

// queueJobFields are the multiqueue policy's per-job columns, null under
// other policies. They follow the common job columns in the wire format
// and in jobs.parquet.
var queueJobFields = []arrow.Field{
	{Name: "queue", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "delay", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "partition_at_start", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}

// queueTaskFields are the multiqueue policy's per-task columns of
// tasks.parquet, null under other policies and for failed tasks.
var queueTaskFields = []arrow.Field{
	{Name: "partition_mean_1", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "partition_mean_2", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "partition_mean_3", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "partition_mean_4", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "proc_moves", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "delay_updates", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "delay_max", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "delay_final", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}

// appendQueueJob appends a record's multiqueue columns to three Int64
// builders: nulls when the job has no queue.
func appendQueueJob(bs []*array.Int64Builder, j *metrics.Record) {
	if j.MQ.Queue == 0 {
		for _, b := range bs {
			b.AppendNull()
		}
		return
	}
	bs[0].Append(int64(j.MQ.Queue))
	bs[1].Append(int64(j.MQ.Delay))
	bs[2].Append(int64(j.MQ.PartitionAtStart))
}

// readQueueJob reads row k of the three multiqueue columns.
func readQueueJob(cols []*array.Int64, k int) metrics.QueueInfo {
	if cols[0].IsNull(k) {
		return metrics.QueueInfo{}
	}
	return metrics.QueueInfo{Queue: int(cols[0].Value(k)), Delay: sim.Time(cols[1].Value(k)), PartitionAtStart: int(cols[2].Value(k))}
}

// appendQueueTask appends the multiqueue task columns, from field
// index first of b on.
func appendQueueTask(b *array.RecordBuilder, first int, st *metrics.QueueStats) {
	if st == nil {
		for k := range queueTaskFields {
			b.Field(first + k).AppendNull()
		}
		return
	}
	for q := range st.PartitionMean {
		b.Field(first + q).(*array.Float64Builder).Append(st.PartitionMean[q])
	}
	b.Field(first + 4).(*array.Int64Builder).Append(st.ProcMoves)
	b.Field(first + 5).(*array.Int64Builder).Append(int64(st.DelayUpdates))
	b.Field(first + 6).(*array.Float64Builder).Append(st.DelayMax)
	b.Field(first + 7).(*array.Float64Builder).Append(st.DelayFinal)
}
