package results

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

// qosJobFields are the admission and charge columns of every job: in the
// wire format and in jobs.parquet, after the multiqueue columns. Under
// policies without admission control every job is admitted without a
// deadline, and the QoPS-only columns are null.
var qosJobFields = []arrow.Field{
	{Name: "origin_id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "admitted", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "deadline_job", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "deadline_requested", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "deadline_earliest", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "deadline_offered", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "deadline", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "tolerance", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "met_deadline", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "category_bsd", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "resource_charge", Type: arrow.PrimitiveTypes.Float64},
	{Name: "qos_charge", Type: arrow.PrimitiveTypes.Float64},
	{Name: "lost_work", Type: arrow.PrimitiveTypes.Int64},
}

// rejectedNull names the job columns that are null for a rejected job in
// jobs.parquet (in the wire format they hold -1 or 0).
var rejectedNull = map[string]bool{"start": true, "end": true, "wait": true, "turnaround": true, "bsd": true, "slowdown": true}

// qosSummaryFields are the admission and charge columns of
// summary.parquet, after the slowdown columns.
var qosSummaryFields = []arrow.Field{
	{Name: "admitted", Type: arrow.PrimitiveTypes.Int64},
	{Name: "resource_charge", Type: arrow.PrimitiveTypes.Float64},
	{Name: "qos_charge", Type: arrow.PrimitiveTypes.Float64},
	{Name: "deadline_misses", Type: arrow.PrimitiveTypes.Int64},
}

// qosTaskFields are the admission and charge columns of tasks.parquet.
var qosTaskFields = []arrow.Field{
	{Name: "admitted", Type: arrow.PrimitiveTypes.Int64},
	{Name: "resource_charge", Type: arrow.PrimitiveTypes.Float64},
	{Name: "qos_charge", Type: arrow.PrimitiveTypes.Float64},
	{Name: "deadline_misses", Type: arrow.PrimitiveTypes.Int64},
	{Name: "acceptance", Type: arrow.PrimitiveTypes.Float64},
	{Name: "proc_seconds", Type: arrow.PrimitiveTypes.Float64},
	{Name: "wasted_proc_seconds", Type: arrow.PrimitiveTypes.Float64},
	{Name: "offers", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "offers_taken", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "schedule_mean_n", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "schedule_max_n", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}

// appendTime appends t, or null when t <= 0 (absent).
func appendTime(b array.Builder, t sim.Time) {
	if t <= 0 {
		b.AppendNull()
		return
	}
	b.(*array.Int64Builder).Append(int64(t))
}

// appendQoSJob appends a record's qosJobFields to the builders of b from
// field index first on.
func appendQoSJob(b *array.RecordBuilder, first int, j *metrics.Record) {
	f := func(k int) array.Builder { return b.Field(first + k) }
	q := j.QoS
	f(0).(*array.Int64Builder).Append(j.OriginID())
	f(1).(*array.BooleanBuilder).Append(!j.Rejected)
	f(2).(*array.BooleanBuilder).Append(q != nil && q.DeadlineJob)
	if q != nil {
		appendTime(f(3), q.Requested)
		appendTime(f(4), q.Earliest)
		appendTime(f(5), q.Offered)
	} else {
		f(3).AppendNull()
		f(4).AppendNull()
		f(5).AppendNull()
	}
	appendTime(f(6), j.Deadline)
	if q != nil && q.Tolerance > 0 {
		f(7).(*array.Float64Builder).Append(q.Tolerance)
	} else {
		f(7).AppendNull()
	}
	if met, ok := j.MetDeadline(); ok {
		f(8).(*array.BooleanBuilder).Append(met)
	} else {
		f(8).AppendNull()
	}
	if q != nil {
		f(9).(*array.Float64Builder).Append(q.CategoryBSD)
	} else {
		f(9).AppendNull()
	}
	f(10).(*array.Float64Builder).Append(j.ResourceCharge())
	f(11).(*array.Float64Builder).Append(j.QoSCharge())
	f(12).(*array.Int64Builder).Append(int64(j.LostWork))
}

// readQoSJob reads row k of the qosJobFields columns of rec, from column
// first on, into r.
func readQoSJob(rec arrow.RecordBatch, first, k int, r *metrics.Record) {
	col := func(c int) arrow.Array { return rec.Column(first + c) }
	i64 := func(c int) sim.Time { return sim.Time(int64At(col(c), k)) }
	f64 := func(c int) float64 { return float64At(col(c), k) }
	if id := int64At(col(0), k); id != r.JobID {
		r.Origin = id
	}
	r.Rejected = !boolAt(col(1), k)
	r.Deadline = i64(6)
	r.LostWork = i64(12)
	if col(9).IsNull(k) {
		return
	}
	r.QoS = &metrics.QoS{
		DeadlineJob: boolAt(col(2), k),
		Requested:   i64(3), Earliest: i64(4), Offered: i64(5),
		Tolerance: f64(7), CategoryBSD: f64(9), Charge: f64(11),
	}
}

// appendQoSSummary appends an aggregate's qosSummaryFields from field
// index first of b on.
func appendQoSSummary(b *array.RecordBuilder, first int, a *metrics.Aggregate) {
	b.Field(first).(*array.Int64Builder).Append(int64(a.Admitted))
	b.Field(first + 1).(*array.Float64Builder).Append(a.ResourceCharge)
	b.Field(first + 2).(*array.Float64Builder).Append(a.QoSCharge)
	b.Field(first + 3).(*array.Int64Builder).Append(int64(a.DeadlineMisses))
}

// appendQoSTask appends a task's qosTaskFields from field index first of
// b on.
func appendQoSTask(b *array.RecordBuilder, first int, st *metrics.RunStats) {
	f := func(k int) array.Builder { return b.Field(first + k) }
	f(0).(*array.Int64Builder).Append(int64(st.Admitted))
	f(1).(*array.Float64Builder).Append(st.ResourceCharge)
	f(2).(*array.Float64Builder).Append(st.QoSCharge)
	f(3).(*array.Int64Builder).Append(int64(st.DeadlineMisses))
	acc := 0.0
	if st.Jobs > 0 {
		acc = float64(st.Admitted) / float64(st.Jobs)
	}
	f(4).(*array.Float64Builder).Append(acc)
	f(5).(*array.Float64Builder).Append(st.ProcSeconds)
	f(6).(*array.Float64Builder).Append(st.WastedProcSeconds)
	if q := st.QoPS; q != nil {
		f(7).(*array.Int64Builder).Append(int64(q.Offers))
		f(8).(*array.Int64Builder).Append(int64(q.OffersTaken))
		f(9).(*array.Float64Builder).Append(q.MeanN)
		f(10).(*array.Int64Builder).Append(int64(q.MaxN))
	} else {
		for k := 7; k < len(qosTaskFields); k++ {
			f(k).AppendNull()
		}
	}
}

// readQoSRow reads the qosJobFields of row i of jobs.parquet into j; a
// rejected job's null start and end read as -1.
func readQoSRow(c *cols, i int, j *metrics.Record) {
	if id := c.i64("origin_id", i); id != j.JobID {
		j.Origin = id
	}
	j.Rejected = !c.boolean("admitted", i)
	if j.Rejected {
		j.Start, j.End = -1, -1
	}
	j.Deadline = sim.Time(c.i64("deadline", i))
	j.LostWork = sim.Time(c.i64("lost_work", i))
	if !c.valid("category_bsd", i) {
		return
	}
	j.QoS = &metrics.QoS{
		DeadlineJob: c.boolean("deadline_job", i),
		Requested:   sim.Time(c.i64("deadline_requested", i)),
		Earliest:    sim.Time(c.i64("deadline_earliest", i)),
		Offered:     sim.Time(c.i64("deadline_offered", i)),
		Tolerance:   c.f64("tolerance", i), CategoryBSD: c.f64("category_bsd", i),
		Charge: c.f64("qos_charge", i),
	}
}
