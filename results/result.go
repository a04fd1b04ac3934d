package results

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/klauspost/compress/zstd"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// ErrCorrupt is wrapped by [Unmarshal] errors about malformed bytes.
var ErrCorrupt = errors.New("corrupt task result")

// TaskResult is the outcome of one task: the per-job records and the
// whole-run figures, or the error that made it fail. Category labels and
// per-category aggregates are not stored: they are pure functions of the
// records ([TaskResult.Labels], [TaskResult.Summary]) and are computed
// when outputs are written, so a result does not depend on the schemes a
// sweep reports.
type TaskResult struct {
	// TaskID and Index identify the task (sweep.Task's ID and Index).
	TaskID string
	Index  int
	// Err is non-empty when the task failed deterministically; then only
	// TaskID, Index, Worker and WallTime are set.
	Err string
	// Worker names where the task ran and WallTime how long it took. They
	// vary between runs and appear only in tasks.parquet.
	Worker   string
	WallTime time.Duration
	// SimVersion is the sim.Version of the simulator that produced the
	// result, and Build the producing worker's build identity (module
	// version, VCS revision and a hash of its executable; "" when not
	// run by a worker). The coordinator refuses a result whose SimVersion
	// is not its task's; Build appears only in tasks.parquet.
	SimVersion string
	Build      string
	// Stats are the whole-run figures.
	Stats metrics.RunStats
	// Drops counts the trace's jobs that could not run.
	Drops Drops
	// Jobs holds one record per job in the run's job order (submit order).
	Jobs []metrics.Record
	// Series is the run's time series when the task asked for one
	// (sweep.Task.SeriesStep); nil otherwise.
	Series []sim.Sample
	// Baseline is what a policy computed from a reference run of the same
	// workload and used to decide (TSS: the mean bounded slowdown of each
	// ss16 category under EASY); nil for other policies.
	Baseline map[string]float64
}

// Drops counts the jobs of a trace left out of a workload, by reason (see
// package workload's DropReport).
type Drops struct {
	Runtime int `json:"runtime"` // runtime <= 0
	Procs   int `json:"procs"`   // size <= 0
	TooBig  int `json:"too_big"` // larger than the machine
}

// Total returns the number of dropped jobs.
func (d Drops) Total() int { return d.Runtime + d.Procs + d.TooBig }

// String returns the counts as the workload package words them, for
// example "dropped 3 jobs: 2 with runtime <= 0, 1 with procs <= 0".
func (d Drops) String() string {
	return workload.DropReport{Runtime: d.Runtime, Procs: d.Procs, TooBig: d.TooBig}.String()
}

// Labels returns the category label of every job under scheme s.
func (r *TaskResult) Labels(s *metrics.Scheme) []string {
	out := make([]string, len(r.Jobs))
	for i := range r.Jobs {
		out[i] = s.Classify(&r.Jobs[i])
	}
	return out
}

// Summary returns the per-category aggregates of the jobs under scheme s,
// in grid order, then the overall aggregate (see metrics.Summarize).
func (r *TaskResult) Summary(s *metrics.Scheme) []metrics.Aggregate {
	return metrics.Summarize(s, r.Jobs)
}

// Wire format of a marshalled result:
//
//	magic "SFTR", format version byte,
//	uint32 big-endian length of the header, the header as JSON,
//	the time series when there is one (see marshalSeries),
//	one zstd frame holding the jobs as an Arrow IPC stream of record
//	batches of at most 16,384 jobs (absent for a failed task).
//
// The whole stream is compressed with one shared zstd encoder rather than
// with Arrow's per-buffer compression, which builds a new encoder per
// writer: for 5000 jobs it is faster and about 30% smaller (94 KB).
const (
	magic         = "SFTR"
	formatVersion = 1
	// maxHeader bounds the header length Unmarshal accepts.
	maxHeader = 1 << 20
	// maxJobsBytes bounds the decompressed jobs Unmarshal accepts (about
	// 8 million jobs).
	maxJobsBytes = 1 << 30
	// maxBytesPerJob bounds the IPC bytes of one job (28 8-byte values,
	// bits and validity bits).
	maxBytesPerJob = 512
	// minBytesPerJob is less than the IPC bytes of one job (15 columns
	// of 8-byte values that are never null).
	minBytesPerJob = 64
)

// marshalBatch is the most jobs in one record batch of a marshalled
// result (results of up to this many jobs have one batch).
const marshalBatch = 1 << 14

// codecMem recycles the Arrow buffers of [TaskResult.Marshal] and
// [Unmarshal] (one record batch at a time) from one batch and result to
// the next.
var codecMem = newRecycler(8 << 20)

// zstdReaders are streaming decoders of marshalled jobs: a result's jobs
// are decoded batch by batch, never whole in memory.
var zstdReaders = sync.Pool{New: func() any {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxJobsBytes))
	if err != nil {
		panic(err) // only for invalid options
	}
	return d
}}

// The zstd encoder is safe for concurrent use and expensive to build, so
// it is shared.
var zstdEnc, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest))

// zstdWriters are the streaming encoders of marshalled jobs (one
// goroutine each, so a frame's bytes do not depend on the machine).
var zstdWriters = sync.Pool{New: func() any {
	e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	if err != nil {
		panic(err) // only for invalid options
	}
	return e
}}

// header is the JSON part of a marshalled result.
type header struct {
	TaskID     string             `json:"task_id"`
	Index      int                `json:"index"`
	Err        string             `json:"err,omitempty"`
	Worker     string             `json:"worker,omitempty"`
	WallTimeNS int64              `json:"wall_time_ns"`
	SimVersion string             `json:"sim_version,omitempty"`
	Build      string             `json:"build,omitempty"`
	Stats      metrics.RunStats   `json:"stats"`
	Drops      Drops              `json:"drops"`
	Jobs       int                `json:"jobs"`
	Baseline   map[string]float64 `json:"baseline,omitempty"`
	// Series and SeriesBytes are the samples of the time series and
	// their bytes after the header (see marshalSeries); absent without one.
	Series      int `json:"series,omitempty"`
	SeriesBytes int `json:"series_bytes,omitempty"`
}

// recordSchema is the schema of the per-job rows in a marshalled result:
// the job columns, with the wire format's nullability.
var recordSchema = arrow.NewSchema(fieldsOf(jobColumns, true), nil)

// Marshal encodes the result: a small JSON header and the per-job rows as
// an Arrow IPC stream with zstd compression. Equal results give equal
// bytes.
func (r *TaskResult) Marshal() ([]byte, error) {
	h := header{
		TaskID: r.TaskID, Index: r.Index, Err: r.Err, Worker: r.Worker,
		WallTimeNS: int64(r.WallTime), SimVersion: r.SimVersion, Build: r.Build,
		Stats: r.Stats, Drops: r.Drops, Jobs: len(r.Jobs), Baseline: r.Baseline,
	}
	var series []byte
	if r.Err == "" && len(r.Series) > 0 {
		series = marshalSeries(r.Series)
		h.Series, h.SeriesBytes = len(r.Series), len(series)
	}
	hj, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("marshal result header: %w", err)
	}
	var buf bytes.Buffer
	buf.WriteString(magic)
	buf.WriteByte(formatVersion)
	buf.Write(binary.BigEndian.AppendUint32(nil, uint32(len(hj))))
	buf.Write(hj)
	buf.Write(series)
	if r.Err != "" {
		return buf.Bytes(), nil
	}
	// The jobs go to the zstd frame as the IPC stream is written, never
	// whole in memory uncompressed (a whole-trace result's stream is
	// tens of MB). Unmarshal wants the frame's content size in its
	// header, so a first pass counts the stream's bytes.
	var n countWriter
	if err := r.writeJobs(&n); err != nil {
		return nil, err
	}
	enc := zstdWriters.Get().(*zstd.Encoder)
	defer zstdWriters.Put(enc)
	enc.ResetContentSize(&buf, int64(n))
	err = r.writeJobs(enc)
	if cerr := enc.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("marshal result jobs: %w", cerr)
	}
	enc.Reset(nil)
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeJobs writes r's jobs as an Arrow IPC stream to w, in record
// batches of at most marshalBatch jobs, so that neither side holds a
// second copy of a large result's jobs in Arrow form.
func (r *TaskResult) writeJobs(w io.Writer) error {
	iw := ipc.NewWriter(w, ipc.WithSchema(recordSchema), ipc.WithAllocator(codecMem))
	for lo := 0; lo == 0 || lo < len(r.Jobs); lo += marshalBatch {
		rec := recordsBatch(codecMem, r.Jobs[lo:min(len(r.Jobs), lo+marshalBatch)])
		err := iw.Write(rec)
		rec.Release()
		if err != nil {
			return fmt.Errorf("marshal result jobs: %w", err)
		}
	}
	if err := iw.Close(); err != nil {
		return fmt.Errorf("marshal result jobs: %w", err)
	}
	return nil
}

// countWriter counts the bytes written to it.
type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

// recordsBatch builds an Arrow record batch of recs under recordSchema.
func recordsBatch(mem memory.Allocator, recs []metrics.Record) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, recordSchema)
	defer b.Release()
	b.Reserve(len(recs))
	for i, c := range jobColumns {
		fb := b.Field(i)
		for k := range recs {
			c.appendN(fb, &recs[k], 1, true)
		}
	}
	return b.NewRecordBatch()
}

// Unmarshal decodes bytes made by [TaskResult.Marshal]. Malformed input
// gives an error wrapping [ErrCorrupt].
func Unmarshal(b []byte) (*TaskResult, error) {
	if len(b) < len(magic)+5 || string(b[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: bad magic", ErrCorrupt)
	}
	if v := b[len(magic)]; v != formatVersion {
		return nil, fmt.Errorf("%w: format version %d, want %d", ErrCorrupt, v, formatVersion)
	}
	b = b[len(magic)+1:]
	n := binary.BigEndian.Uint32(b)
	b = b[4:]
	if n > maxHeader || int(n) > len(b) {
		return nil, fmt.Errorf("%w: header length %d of %d bytes", ErrCorrupt, n, len(b))
	}
	var h header
	dec := json.NewDecoder(bytes.NewReader(b[:n]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("%w: header: %w", ErrCorrupt, err)
	}
	b = b[n:]
	r := &TaskResult{
		TaskID: h.TaskID, Index: h.Index, Err: h.Err, Worker: h.Worker,
		WallTime: time.Duration(h.WallTimeNS), SimVersion: h.SimVersion, Build: h.Build,
		Stats: h.Stats, Drops: h.Drops, Baseline: h.Baseline,
	}
	if h.Err != "" {
		if len(b) != 0 || h.Jobs != 0 {
			return nil, fmt.Errorf("%w: failed task with %d jobs and %d trailing bytes", ErrCorrupt, h.Jobs, len(b))
		}
		return r, nil
	}
	if h.Jobs < 0 {
		return nil, fmt.Errorf("%w: %d jobs", ErrCorrupt, h.Jobs)
	}
	if h.Series != 0 || h.SeriesBytes != 0 {
		if h.SeriesBytes <= 0 || h.SeriesBytes > len(b) {
			return nil, fmt.Errorf("%w: series of %d bytes in %d", ErrCorrupt, h.SeriesBytes, len(b))
		}
		series, err := unmarshalSeries(b[:h.SeriesBytes], h.Series)
		if err != nil {
			return nil, err
		}
		r.Series = series
		b = b[h.SeriesBytes:]
	}
	jobs, err := readRecords(b, h.Jobs)
	if err != nil {
		return nil, err
	}
	r.Jobs = jobs
	return r, nil
}

// readRecords decodes the IPC stream of a marshalled result.
func readRecords(b []byte, want int) (recs []metrics.Record, err error) {
	defer func() {
		// The IPC reader trusts buffer sizes in its input; corrupt bytes
		// must not take the process down.
		if p := recover(); p != nil {
			recs, err = nil, fmt.Errorf("%w: jobs: %v", ErrCorrupt, p)
		}
	}()
	// The frame header says how much the frame decompresses to; check it
	// against the job count before the decoder allocates that much.
	var zh zstd.Header
	if err := zh.Decode(b); err != nil {
		return nil, fmt.Errorf("%w: jobs: %w", ErrCorrupt, err)
	}
	if limit := uint64(want)*maxBytesPerJob + 1<<16; !zh.HasFCS || zh.FrameContentSize > limit || zh.FrameContentSize > maxJobsBytes {
		return nil, fmt.Errorf("%w: jobs: frame of %d bytes (known: %v) for %d jobs", ErrCorrupt, zh.FrameContentSize, zh.HasFCS, want)
	}
	zr := zstdReaders.Get().(*zstd.Decoder)
	if err := zr.Reset(bytes.NewReader(b)); err != nil {
		return nil, fmt.Errorf("%w: jobs: %w", ErrCorrupt, err)
	}
	defer func() {
		zr.Reset(nil) //nolint:errcheck // releases the input
		zstdReaders.Put(zr)
	}()
	rd, err := ipc.NewReader(zr, ipc.WithSchema(recordSchema), ipc.WithAllocator(codecMem))
	if err != nil {
		return nil, fmt.Errorf("%w: jobs: %w", ErrCorrupt, err)
	}
	defer rd.Release()
	// want is untrusted, but the frame, already in memory, holds at
	// least minBytesPerJob per job.
	recs = spareJobs.take(min(want, int(zh.FrameContentSize)/minBytesPerJob+1))
	for rd.Next() {
		if recs, err = appendBatch(recs, rd.RecordBatch(), want); err != nil {
			return nil, err
		}
	}
	if err := rd.Err(); err != nil {
		return nil, fmt.Errorf("%w: jobs: %w", ErrCorrupt, err)
	}
	if len(recs) != want {
		return nil, fmt.Errorf("%w: %d jobs, header says %d", ErrCorrupt, len(recs), want)
	}
	if n, err := io.Copy(io.Discard, zr); n != 0 || err != nil {
		return nil, fmt.Errorf("%w: %d bytes after the jobs (%v)", ErrCorrupt, n, err)
	}
	return recs, nil
}

// appendBatch appends the jobs of one record batch of a marshalled
// result to recs; a batch of another schema, a null in a column that has
// none, or more than want jobs in all is an [ErrCorrupt].
func appendBatch(recs []metrics.Record, rec arrow.RecordBatch, want int) ([]metrics.Record, error) {
	if !rec.Schema().Equal(recordSchema) {
		return nil, fmt.Errorf("%w: jobs schema %v", ErrCorrupt, rec.Schema())
	}
	for i := range int(rec.NumCols()) {
		if rec.Column(i).NullN() > 0 && !recordSchema.Field(i).Nullable {
			return nil, fmt.Errorf("%w: null in jobs column %s", ErrCorrupt, recordSchema.Field(i).Name)
		}
	}
	n := int(rec.NumRows())
	if len(recs)+n > want {
		return nil, fmt.Errorf("%w: more than %d jobs", ErrCorrupt, want)
	}
	at := len(recs)
	recs = slices.Grow(recs, n)[:at+n]
	clear(recs[at:])
	for i, c := range jobColumns {
		c.readAll(rec.Column(i), recs[at:])
	}
	return recs, nil
}
