package results

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sweep"
)

// jobsFile streams the rows of jobs.parquet. Unlike the other files, whose
// rows are few, it does not keep its current row group in Arrow form: it
// keeps references to the rows (slices of the task results' records) and,
// once a row group is full, builds and writes it one range of columns at
// a time, so that only one range's Arrow arrays are in memory. The ranges
// follow the appenders that fill them (the task columns, the base and
// multiqueue job columns, the moldable, QoS and elastic ones, the
// category labels). The column writers get the same values as if the row
// group had been built whole, so the bytes are the same.
type jobsFile struct {
	fw     *pqarrow.FileWriter
	meta   [][2]string
	ranges []*colRange
	segs   []jobSeg // rows of the current row group
	rows   int
	freed  bool
}

// jobSeg is a run of rows of the current row group: jobs lo to hi of
// task t's result r.
type jobSeg struct {
	t      *sweep.Task
	r      *TaskResult
	lo, hi int
}

// colRange is a range of consecutive columns and the builder of one row
// group of them; fill appends a segment's rows.
type colRange struct {
	b    *array.RecordBuilder
	fill func(b *array.RecordBuilder, s *jobSeg)
}

// newJobs returns the writer of jobs.parquet.
func (o *outputs) newJobs(w io.Writer) (*jobsFile, error) {
	tf := taskFields(o.pcs)
	fields := append(append([]arrow.Field(nil), tf...), jobFields...)
	for _, s := range o.schemes {
		fields = append(fields, arrow.Field{Name: CategoryPrefix + s.Name, Type: arrow.BinaryTypes.String})
	}
	fw, err := o.newFileWriter(w, fields)
	if err != nil {
		return nil, err
	}
	jf := &jobsFile{fw: fw, meta: o.meta}
	at := 0
	// add adds the range of the next n columns; newRow returns the
	// function appending one job's row to the range's builder (nil for
	// the task columns, appended a segment at a time).
	add := func(n int, newRow func(b *array.RecordBuilder) func(j *metrics.Record)) {
		b := array.NewRecordBuilder(o.mem, arrow.NewSchema(fields[at:at+n], nil))
		cr := &colRange{b: b}
		if newRow == nil {
			cr.fill = func(b *array.RecordBuilder, s *jobSeg) {
				appendTaskCols(b, o.pcs, o.spec.Name, s.t, s.r, s.hi-s.lo)
			}
		} else {
			// The builders of a RecordBuilder stay the same from batch
			// to batch: row looks them up once.
			row := newRow(b)
			cr.fill = func(_ *array.RecordBuilder, s *jobSeg) {
				for k := s.lo; k < s.hi; k++ {
					row(&s.r.Jobs[k])
				}
			}
		}
		jf.ranges = append(jf.ranges, cr)
		at += n
	}
	add(len(tf), nil)
	add(moldStart, baseJobRow)
	add(qosFirst-moldStart, func(b *array.RecordBuilder) func(*metrics.Record) {
		bs := moldBuilders(b, 0)
		return func(j *metrics.Record) { appendMoldCols(bs, j) }
	})
	add(elasticFirst-qosFirst, func(b *array.RecordBuilder) func(*metrics.Record) {
		return func(j *metrics.Record) { appendQoSJob(b, 0, j) }
	})
	add(len(jobFields)-elasticFirst, func(b *array.RecordBuilder) func(*metrics.Record) {
		return func(j *metrics.Record) { appendElasticJob(b, 0, j) }
	})
	schemes := o.schemes
	add(len(schemes), func(b *array.RecordBuilder) func(*metrics.Record) {
		cats := make([]*array.StringBuilder, len(schemes))
		for i := range cats {
			cats[i] = b.Field(i).(*array.StringBuilder)
		}
		return func(j *metrics.Record) {
			for si, s := range schemes {
				cats[si].Append(s.Classify(j))
			}
		}
	})
	if at != len(fields) {
		jf.release()
		return nil, fmt.Errorf("jobs columns: %d filled of %d", at, len(fields))
	}
	return jf, nil
}

// baseJobRow returns the appender of a job's base and multiqueue columns
// (recordSchema up to moldStart, with the columns a rejected job lacks
// null) to the builder b of those columns.
func baseJobRow(b *array.RecordBuilder) func(j *metrics.Record) {
	ints := make([]*array.Int64Builder, moldStart)
	floats := make([]*array.Float64Builder, moldStart)
	for i := range moldStart {
		switch fb := b.Field(i).(type) {
		case *array.Int64Builder:
			ints[i] = fb
		case *array.Float64Builder:
			floats[i] = fb
		}
	}
	return func(j *metrics.Record) {
		ints[0].Append(j.JobID)
		ints[1].Append(int64(j.Submit))
		if j.Rejected {
			ints[2].AppendNull()
			ints[3].AppendNull()
			ints[4].AppendNull()
		} else {
			ints[2].Append(int64(j.Start))
			ints[3].Append(int64(j.End))
			ints[4].Append(int64(j.Wait))
		}
		ints[5].Append(int64(j.Runtime))
		ints[6].Append(int64(j.Estimate))
		ints[7].Append(int64(j.Procs))
		if j.Rejected {
			ints[8].AppendNull()
			floats[9].AppendNull()
			floats[10].AppendNull()
		} else {
			ints[8].Append(int64(j.Turnaround))
			floats[9].Append(j.BSD)
			floats[10].Append(j.Slowdown)
		}
		ints[11].Append(int64(j.Suspensions))
		ints[12].Append(int64(j.SuspendedTime))
		ints[13].Append(int64(j.OverheadTime))
		ints[14].Append(int64(j.Kills))
		appendQueueJob(ints[15:18], j)
	}
}

// add appends the rows of task t with result r (none for a failed task),
// writing each row group as it fills. The writer keeps r until its last
// row is written.
func (jf *jobsFile) add(t *sweep.Task, r *TaskResult, _ [][]metrics.Aggregate) error {
	if r.Err != "" {
		return nil
	}
	for lo := 0; lo < len(r.Jobs); {
		hi := min(len(r.Jobs), lo+rowGroupRows-jf.rows)
		jf.segs = append(jf.segs, jobSeg{t: t, r: r, lo: lo, hi: hi})
		jf.rows += hi - lo
		if jf.rows == rowGroupRows {
			if err := jf.writeGroup(); err != nil {
				return err
			}
		}
		lo = hi
	}
	return nil
}

// writeGroup writes the current row group, one range of columns at a
// time, and drops its rows.
func (jf *jobsFile) writeGroup() error {
	if jf.rows == 0 {
		return nil
	}
	defer func() {
		clear(jf.segs)
		jf.segs = jf.segs[:0]
		jf.rows = 0
	}()
	if err := jf.fw.NewRowGroupChecked(); err != nil {
		return err
	}
	for _, cr := range jf.ranges {
		cr.b.Reserve(jf.rows)
		for i := range jf.segs {
			cr.fill(cr.b, &jf.segs[i])
		}
		rec := cr.b.NewRecordBatch()
		err := writeColumns(jf.fw, rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// writeColumns writes every column of rec as the next column chunks of the
// current row group.
func writeColumns(fw *pqarrow.FileWriter, rec arrow.RecordBatch) error {
	for i, f := range rec.Schema().Fields() {
		ch := arrow.NewChunked(f.Type, []arrow.Array{rec.Column(i)})
		err := fw.WriteColumnChunked(ch, 0, rec.NumRows())
		ch.Release()
		if err != nil {
			return fmt.Errorf("column %s: %w", f.Name, err)
		}
	}
	return nil
}

// close writes the last row group and the metadata and closes the file.
func (jf *jobsFile) close() error {
	if err := jf.writeGroup(); err != nil {
		return err
	}
	for _, kv := range jf.meta {
		if err := jf.fw.AppendKeyValueMetadata(kv[0], kv[1]); err != nil {
			return err
		}
	}
	return jf.fw.Close()
}

// release frees the builders and drops the rows; it may be called more
// than once.
func (jf *jobsFile) release() {
	if !jf.freed {
		jf.freed = true
		clear(jf.segs)
		for _, cr := range jf.ranges {
			cr.b.Release()
		}
	}
}
