package results

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/klauspost/compress/zstd"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sweep"
)

// TimeseriesFile is the output of a spec with outputs.timeseries: one row
// per (task, step) of every successful task's time series.
const TimeseriesFile = "timeseries.parquet"

// seriesCol is a column of timeseries.parquet after the task columns:
// one row per sample of a task's time series.
type seriesCol = colAccess[sim.Sample, sim.Sample]

func sedef[T cellValue](name, unit, doc string, get func(*sim.Sample) T, set func(*sim.Sample, T)) seriesCol {
	return def(name, unit, doc, get, set)
}

// seriesColumns are the columns of timeseries.parquet after the task
// columns.
var seriesColumns = []seriesCol{
	sedef("time", "s", "start of the step",
		func(x *sim.Sample) int64 { return int64(x.Time) }, func(x *sim.Sample, v int64) { x.Time = sim.Time(v) }),
	sedef("waiting", "jobs", "jobs that arrived and hold no processors, suspended ones apart: never started, killed, or checkpointed",
		func(x *sim.Sample) int64 { return int64(x.Waiting) }, func(x *sim.Sample, v int64) { x.Waiting = int(v) }),
	sedef("running", "jobs", "jobs holding processors (working, or in a suspend, resume or checkpoint overhead)",
		func(x *sim.Sample) int64 { return int64(x.Running) }, func(x *sim.Sample, v int64) { x.Running = int(v) }),
	sedef("suspended", "jobs", "suspended jobs (0 under policies that never suspend)",
		func(x *sim.Sample) int64 { return int64(x.Suspended) }, func(x *sim.Sample, v int64) { x.Suspended = int(v) }),
	sedef("busy_procs", "processors", "processors held by jobs",
		func(x *sim.Sample) int64 { return int64(x.Busy) }, func(x *sim.Sample, v int64) { x.Busy = int(v) }),
	sedef("utilization", "", "processor-seconds held by jobs over the step / (`machine_procs` x the step's length), 0..1",
		func(x *sim.Sample) float64 { return x.Utilization }, func(x *sim.Sample, v float64) { x.Utilization = v }),
}

// seriesFields are the Arrow fields of seriesColumns.
var seriesFields = fieldsOf(seriesColumns, false)

// newTimeseries returns the writer of timeseries.parquet. A successful
// task without a series is an [ErrMismatch]: its result was made for
// another spec.
func (o *outputs) newTimeseries(w io.Writer) (*parquetFile, error) {
	pf, err := o.newParquet(w, append(taskFields(o.pcs), seriesFields...), chunkRows, chunkRows, rowGroupRows)
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
			for k, c := range seriesColumns {
				fb := b.Field(nTask + k)
				for i := range s[:n] {
					c.appendN(fb, &s[i], 1, false)
				}
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
