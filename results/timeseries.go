package results

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/klauspost/compress/zstd"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sweep"
)

// TimeseriesFile is the output of a spec with outputs.timeseries: one row
// per (task, step) of every successful task's time series.
const TimeseriesFile = "timeseries.parquet"

// seriesFields are the columns of timeseries.parquet after the task
// columns (see docs/columns.md and sim.Sample).
var seriesFields = []arrow.Field{
	{Name: "time", Type: arrow.PrimitiveTypes.Int64},
	{Name: "waiting", Type: arrow.PrimitiveTypes.Int64},
	{Name: "running", Type: arrow.PrimitiveTypes.Int64},
	{Name: "suspended", Type: arrow.PrimitiveTypes.Int64},
	{Name: "busy_procs", Type: arrow.PrimitiveTypes.Int64},
	{Name: "utilization", Type: arrow.PrimitiveTypes.Float64},
}

// newTimeseries returns the writer of timeseries.parquet. A successful
// task without a series is an [ErrMismatch]: its result was made for
// another spec.
func (o *outputs) newTimeseries(w io.Writer) (*parquetFile, error) {
	pf, err := o.newParquet(w, append(taskFields(o.pcs), seriesFields...), chunkRows)
	if err != nil {
		return nil, err
	}
	nTask := len(taskFields(o.pcs))
	b := pf.b
	pf.fill = func(t *sweep.Task, r *TaskResult, _ [][]metrics.Aggregate) error {
		if r.Err != "" {
			return nil
		}
		if len(r.Series) == 0 && len(r.Jobs) > 0 {
			return fmt.Errorf("%w: task %d has no time series", ErrMismatch, t.Index)
		}
		for s := r.Series; len(s) > 0; {
			n := min(len(s), chunkRows-pf.rows)
			appendTaskCols(b, nil, o.pcs, o.spec.Name, t, r, n)
			cols := make([]*array.Int64Builder, 5)
			for k := range cols {
				cols[k] = b.Field(nTask + k).(*array.Int64Builder)
			}
			util := b.Field(nTask + 5).(*array.Float64Builder)
			for _, x := range s[:n] {
				cols[0].Append(int64(x.Time))
				cols[1].Append(int64(x.Waiting))
				cols[2].Append(int64(x.Running))
				cols[3].Append(int64(x.Suspended))
				cols[4].Append(int64(x.Busy))
				util.Append(x.Utilization)
			}
			if err := pf.added(n); err != nil {
				return err
			}
			s = s[n:]
		}
		return nil
	}
	return pf, nil
}

// Wire form of a result's time series, between the header and the jobs
// (the header's series and series_bytes say how many samples and bytes):
// one zstd frame of seriesRecord-byte little-endian records, each time,
// waiting, running, suspended, busy (int64) and utilization (float64).
const (
	seriesRecord = 48
	// maxSeries bounds the samples Unmarshal accepts: a 60 s step over
	// 30 years.
	maxSeries = 1 << 24
)

// marshalSeries encodes a time series.
func marshalSeries(s []sim.Sample) []byte {
	raw := make([]byte, 0, len(s)*seriesRecord)
	for _, x := range s {
		raw = binary.LittleEndian.AppendUint64(raw, uint64(x.Time))
		for _, v := range []int{x.Waiting, x.Running, x.Suspended, x.Busy} {
			raw = binary.LittleEndian.AppendUint64(raw, uint64(v))
		}
		raw = binary.LittleEndian.AppendUint64(raw, math.Float64bits(x.Utilization))
	}
	return zstdEnc.EncodeAll(raw, nil)
}

// unmarshalSeries decodes n samples made by marshalSeries; anything else
// is an [ErrCorrupt]: a sample out of time order, a negative count, a
// utilization outside [0, 1].
func unmarshalSeries(b []byte, n int) ([]sim.Sample, error) {
	if n <= 0 || n > maxSeries {
		return nil, fmt.Errorf("%w: series of %d samples", ErrCorrupt, n)
	}
	var zh zstd.Header
	if err := zh.Decode(b); err != nil {
		return nil, fmt.Errorf("%w: series: %w", ErrCorrupt, err)
	}
	if !zh.HasFCS || zh.FrameContentSize != uint64(n*seriesRecord) {
		return nil, fmt.Errorf("%w: series frame of %d bytes for %d samples", ErrCorrupt, zh.FrameContentSize, n)
	}
	zr := zstdReaders.Get().(*zstd.Decoder)
	defer zstdReaders.Put(zr)
	raw, err := zr.DecodeAll(b, make([]byte, 0, n*seriesRecord))
	if err != nil || len(raw) != n*seriesRecord {
		return nil, fmt.Errorf("%w: series: %d bytes for %d samples (%v)", ErrCorrupt, len(raw), n, err)
	}
	out := make([]sim.Sample, n)
	for i := range out {
		r := raw[i*seriesRecord:]
		v := func(k int) int64 { return int64(binary.LittleEndian.Uint64(r[8*k:])) }
		x := sim.Sample{Time: sim.Time(v(0)), Waiting: int(v(1)), Running: int(v(2)), Suspended: int(v(3)), Busy: int(v(4)),
			Utilization: math.Float64frombits(uint64(v(5)))}
		if x.Time < 0 || (i > 0 && x.Time <= out[i-1].Time) || v(1) < 0 || v(2) < 0 || v(3) < 0 || v(4) < 0 ||
			!(x.Utilization >= 0 && x.Utilization <= 1) {
			return nil, fmt.Errorf("%w: series sample %d: %+v", ErrCorrupt, i, x)
		}
		out[i] = x
	}
	return out, nil
}
