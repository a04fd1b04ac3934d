package results

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sweep"
)

// rowGroupRows is the number of rows per Parquet row group. Row groups
// hold a fixed number of rows, whatever the tasks' sizes, so a file's
// bytes do not depend on how results were chunked on the way.
const rowGroupRows = 1 << 16

// chunkRows is the number of rows the writers build in memory before
// handing them to the Parquet encoder; it divides rowGroupRows and is a
// multiple of the encoder's batch size (1024), so the encoded pages are
// the same as if each row group had been built whole. It bounds the
// builders' memory to a few megabytes.
const chunkRows = 1 << 14

// tasksGroupRows is the number of rows per row group of tasks.parquet,
// whose rows are few and wide (the task columns, the run's statistics,
// worker and build): a row group of them in Arrow form is about 0.8 KB a
// row, so row groups of [rowGroupRows] would hold over 50 MB until
// written. A sweep of fewer tasks has one row group, as before.
const tasksGroupRows = 1 << 13

// ErrMismatch is wrapped by [WriteOutputs] errors about results that do
// not belong to their tasks.
var ErrMismatch = errors.New("results do not match tasks")

// ResultFunc returns the result of tasks[i] for [StreamOutputs]. It is
// called once per task, in task order; the writer keeps no reference to a
// result after the next call, so a caller that decodes results on demand
// holds one result at a time.
type ResultFunc func(i int) (*TaskResult, error)

// WriteOutputs writes the outputs of [StreamOutputs] from results held in
// memory: res[i] is the result of tasks[i]; every result must be present.
func WriteOutputs(dir string, spec *sweep.Spec, tasks []sweep.Task, res []*TaskResult, toolVersion string, opts ...StreamOption) error {
	if len(tasks) != len(res) {
		return fmt.Errorf("write outputs: %w: %d tasks, %d results", ErrMismatch, len(tasks), len(res))
	}
	return StreamOutputs(dir, spec, tasks, func(i int) (*TaskResult, error) { return res[i], nil }, toolVersion, opts...)
}

// StreamOutputs writes jobs.parquet, summary.parquet, tasks.parquet,
// the files of the tables hook given with [WithTables] (report.Tables:
// tables.md and tables.csv), and timeseries.parquet when the spec asks
// for it (outputs.timeseries), into dir (created if needed), taking the
// result of each task from get, one task at a time in task order. Rows
// are ordered by task Index, then job order; a failed task has a row in
// tasks.parquet only (and a line in the tables).
//
// Memory: the three Parquet files are written side by side as results
// stream by. The jobs writer keeps references to the rows of its current
// row group (at most [rowGroupRows]; it holds the results they belong
// to, at most two for tasks of more than a row group's jobs), and builds
// a full row group in Arrow form one range of columns at a time, written
// column by column. The summary writer keeps references to its tasks'
// aggregates of categories with jobs (an empty category's row is the
// same for every task); the tasks writer, whose rows are few, holds its
// current row group (of [tasksGroupRows]) in Arrow form.
// Only one column's encoder and pages are in memory at a time, and freed
// buffers are reused. The tables hook keeps what the tables show of each
// task (report.Tables: about 100 bytes a task and 16 a category with
// jobs). Nothing grows with the number of job rows.
//
// Every file is written to a temporary file in dir first and renamed into
// place only when all five were written, so a failure (including an error
// from get) leaves the previous outputs (if any) untouched, no partial
// file under an output name, and no directory that did not exist.
//
// For the same spec, tasks and results the bytes of jobs.parquet,
// summary.parquet, tables.md and tables.csv are identical whatever the
// workers and their timing; tasks.parquet differs only in its worker,
// wall_time_ms and build columns. Each row group carries column statistics (min,
// max, null count), so readers skip row groups on task or parameter
// predicates.
//
// With [OwnResults], the memory of each result's job records goes to a
// later [Unmarshal] once the result's rows are written.
func StreamOutputs(dir string, spec *sweep.Spec, tasks []sweep.Task, get ResultFunc, toolVersion string, opts ...StreamOption) (err error) {
	var so streamOpts
	for _, opt := range opts {
		opt(&so)
	}
	defer func() { err = explainWriteErr(dir, err) }()
	o, err := newOutputs(spec, tasks, toolVersion)
	if err != nil {
		return fmt.Errorf("write outputs: %w", err)
	}
	ts, err := o.newTableSink(so.tables)
	if err != nil {
		return fmt.Errorf("write %s: %w", TablesMD, err)
	}
	sw, err := newStreamWriter(dir, o, ts)
	if err != nil {
		return err
	}
	defer func() { sw.cleanup(err) }()
	if err := sw.openParquet(so.own); err != nil {
		return err
	}
	for i := range tasks {
		if err := sw.writeTask(i, get); err != nil {
			return err
		}
	}
	if err := sw.closeParquet(); err != nil {
		return err
	}
	if err := sw.writeTables(); err != nil {
		return err
	}
	return sw.commit()
}

// StreamOption is an option of [StreamOutputs].
type StreamOption func(*streamOpts)

// streamOpts are the options of [StreamOutputs].
type streamOpts struct {
	own    bool   // OwnResults
	tables Tables // WithTables
}

// OwnResults tells [StreamOutputs] that the results its ResultFunc returns
// are the writer's: the caller uses neither them nor their job records
// once it has returned them. The writer then hands the memory of a
// result's job records, once their rows are written, to a later
// [Unmarshal] to decode into, instead of leaving it to the garbage
// collector and allocating it again: a task over a whole trace holds tens
// of megabytes of records.
func OwnResults() StreamOption { return func(o *streamOpts) { o.own = true } }

// fileSink is the writer of one Parquet output.
type fileSink interface {
	// add appends the rows of task t with result r (and its aggregates
	// per scheme, nil for a failed task or when not needed).
	add(t *sweep.Task, r *TaskResult, aggs [][]metrics.Aggregate) error
	// close writes what is left and the metadata, and closes the file.
	close() error
	// release frees the writer's buffers; it may be called more than
	// once.
	release()
}

// newOutputs prepares the writers' shared state.
func newOutputs(spec *sweep.Spec, tasks []sweep.Task, toolVersion string) (*outputs, error) {
	schemes := make([]*metrics.Scheme, len(spec.Categories))
	for i, name := range spec.Categories {
		s, err := metrics.LookupScheme(name)
		if err != nil {
			return nil, err
		}
		schemes[i] = s
	}
	o := &outputs{spec: spec, tasks: tasks, schemes: schemes, pcs: paramColumns(tasks), mem: newRecycler(writeMemHeld)}
	o.meta = o.metadata(toolVersion)
	return o, nil
}

// WriteJobsFile writes only the jobs.parquet of [WriteOutputs], to path,
// through a temporary file in the same directory: on error nothing is
// left under path.
func WriteJobsFile(path string, spec *sweep.Spec, tasks []sweep.Task, res []*TaskResult, toolVersion string) (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("write %s: %w", path, err)
		}
	}()
	if len(tasks) != len(res) {
		return fmt.Errorf("%w: %d tasks, %d results", ErrMismatch, len(tasks), len(res))
	}
	o, err := newOutputs(spec, tasks, toolVersion)
	if err != nil {
		return err
	}
	tf, err := newTempFile(filepath.Dir(path), filepath.Base(path))
	if err != nil {
		return err
	}
	defer tf.abort()
	pf, err := o.newJobs(tf.w)
	if err != nil {
		return err
	}
	defer pf.release()
	for i := range tasks {
		switch r := res[i]; {
		case r == nil:
			return fmt.Errorf("%w: task %d has no result", ErrMismatch, tasks[i].Index)
		case r.TaskID != tasks[i].ID:
			return fmt.Errorf("%w: result %d is for task %.12s, not %.12s", ErrMismatch, i, r.TaskID, tasks[i].ID)
		}
		if err := pf.add(&tasks[i], res[i], nil); err != nil {
			return err
		}
	}
	if err := pf.close(); err != nil {
		return err
	}
	if err := tf.finish(); err != nil {
		return err
	}
	tf.dest = path
	return tf.rename()
}

// tempFile is an output being written to a temporary file next to its
// final name.
type tempFile struct {
	f    *os.File
	w    *bufio.Writer
	dest string
	done bool // renamed into place
}

func newTempFile(dir, name string) (*tempFile, error) {
	// Temporaries of this output left by a killed writer are stale: the
	// outputs of one directory are written by one process at a time.
	if stale, err := filepath.Glob(filepath.Join(dir, "."+name+".tmp-*")); err == nil {
		for _, p := range stale {
			os.Remove(p)
		}
	}
	f, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &tempFile{f: f, w: bufio.NewWriterSize(f, 1<<20), dest: filepath.Join(dir, name)}, nil
}

// finish flushes, syncs and closes the file.
func (t *tempFile) finish() error {
	err := t.w.Flush()
	if err == nil {
		err = t.f.Sync()
	}
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(t.f.Name(), 0o644)
	}
	return err
}

// rename moves the finished file to its final name.
func (t *tempFile) rename() error {
	if err := os.Rename(t.f.Name(), t.dest); err != nil {
		return err
	}
	t.done = true
	return nil
}

// abort closes and removes the file unless it was renamed into place.
func (t *tempFile) abort() {
	if !t.done {
		t.f.Close()
		os.Remove(t.f.Name())
	}
}

// outputs holds what the writers share.
type outputs struct {
	spec    *sweep.Spec
	tasks   []sweep.Task
	schemes []*metrics.Scheme
	pcs     []paramCol
	meta    [][2]string
	mem     *recycler // the writers' Arrow and Parquet buffers
}

// writeMemHeld bounds the freed buffers the writers keep for reuse: about
// one chunk of builders and one row group's page buffers.
const writeMemHeld = 16 << 20

// metadata returns the key-value metadata of every Parquet file, in a
// fixed order.
func (o *outputs) metadata(toolVersion string) [][2]string {
	traces := map[string]string{}
	for _, t := range o.spec.Traces() {
		name := t.Name
		if _, dup := traces[name]; dup {
			name = fmt.Sprintf("%s (%.12s)", name, t.SHA256)
		}
		traces[name] = t.SHA256
	}
	tj, _ := json.Marshal(traces) // a map of strings always marshals
	var simVersions []string
	for i := range o.tasks {
		if v := o.tasks[i].SimVersion; !slices.Contains(simVersions, v) {
			simVersions = append(simVersions, v)
		}
	}
	if len(simVersions) == 0 {
		simVersions = []string{sim.Version}
	}
	params := make([]string, len(o.pcs))
	for i, c := range o.pcs {
		params[i] = ParamPrefix + c.name
	}
	pj, _ := json.Marshal(params)
	return [][2]string{
		{MetaSpec, string(o.spec.Canonical())},
		{MetaSpecSHA256, o.spec.Hash},
		{MetaSweep, o.spec.Name},
		{MetaVersion, toolVersion},
		{MetaSimVersion, strings.Join(simVersions, ",")},
		{MetaTraces, string(tj)},
		{MetaParams, string(pj)},
	}
}

// parquetFile streams the rows of one output file into Parquet: fill
// appends a task's rows to the builder, in slices of at most p.chunk -
// p.rows rows,
// calling added after each slice. Full chunks are kept as Arrow record
// batches until they make a row group, which is then written column by
// column: only one column's Parquet encoder and pages are in memory at a
// time, rather than every column's of the whole row group. The column
// writers get the same values in the same slices as if the row group had
// been buffered, so the bytes are the same.
type parquetFile struct {
	fw    *pqarrow.FileWriter
	left  int // at most this many rows are still to come
	b     *array.RecordBuilder
	meta  [][2]string
	rows  int // rows in the builder
	group int // rows in chunks
	// chunk is the number of rows per chunk, groupRows per row group.
	chunk, groupRows int
	chunks           []arrow.RecordBatch
	fill             func(t *sweep.Task, r *TaskResult, aggs [][]metrics.Aggregate) error
	freed            bool
}

// newParquet returns a writer of an output file with columns fields and
// at most rows rows (more are written correctly, in builders grown by
// doubling), in row groups of groupRows rows built in chunks of chunk
// rows (chunk divides groupRows).
func (o *outputs) newParquet(w io.Writer, fields []arrow.Field, rows, chunk, groupRows int) (*parquetFile, error) {
	fw, err := o.newFileWriter(w, fields)
	if err != nil {
		return nil, err
	}
	b := array.NewRecordBuilder(o.mem, arrow.NewSchema(fields, nil))
	b.Reserve(min(chunk, rows))
	return &parquetFile{fw: fw, b: b, meta: o.meta, left: rows, chunk: chunk, groupRows: groupRows}, nil
}

// newFileWriter returns a Parquet writer of an output file with columns
// fields.
func (o *outputs) newFileWriter(w io.Writer, fields []arrow.Field) (*pqarrow.FileWriter, error) {
	schema := arrow.NewSchema(fields, nil)
	// Dictionary encoding only for the string columns, whose values repeat
	// (names, labels, categories). A numeric column with many distinct
	// values would fall back from dictionary to plain encoding part way,
	// and arrow-go writes the encoding statistics of such a column from a
	// Go map, in an order that varies between runs: the file's bytes would
	// not be reproducible. For the same reason the string columns' limit
	// on their dictionary is out of reach (dictPageLimit).
	opts := []parquet.WriterProperty{
		parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithMaxRowGroupLength(rowGroupRows),
		parquet.WithDictionaryDefault(false),
		parquet.WithDictionaryPageSizeLimit(dictPageLimit),
		parquet.WithStats(true),
		parquet.WithAllocator(o.mem),
	}
	for _, f := range fields {
		if f.Type.ID() == arrow.STRING {
			opts = append(opts, parquet.WithDictionaryFor(f.Name, true))
		}
	}
	props := parquet.NewWriterProperties(opts...)
	return pqarrow.NewFileWriter(schema, w, props, pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(o.mem)))
}

// add appends the rows of task t with result r (and its aggregates per
// scheme, nil for a failed task or when not needed).
func (p *parquetFile) add(t *sweep.Task, r *TaskResult, aggs [][]metrics.Aggregate) error {
	return p.fill(t, r, aggs)
}

// added records that n rows were appended and hands a full chunk to the
// encoder.
func (p *parquetFile) added(n int) error {
	p.rows += n
	if p.rows >= p.chunk {
		return p.flush()
	}
	return nil
}

// flush moves the builder's rows into a chunk of the current row group,
// and writes the row group when it is full.
func (p *parquetFile) flush() error {
	if p.rows == 0 {
		return nil
	}
	p.chunks = append(p.chunks, p.b.NewRecordBatch())
	// The next chunk's buffers at once, rather than grown by doubling,
	// but no more than the rows still to come.
	p.left -= p.rows
	p.b.Reserve(max(0, min(p.chunk, p.left)))
	p.group += p.rows
	p.rows = 0
	if p.group >= p.groupRows {
		return p.writeGroup()
	}
	return nil
}

// writeGroup writes the chunks as one row group, column by column, and
// releases them.
func (p *parquetFile) writeGroup() error {
	if len(p.chunks) == 0 {
		return nil
	}
	defer p.releaseChunks()
	if err := p.fw.NewRowGroupChecked(); err != nil {
		return err
	}
	cols := make([]arrow.Array, len(p.chunks))
	for i, f := range p.chunks[0].Schema().Fields() {
		for k, c := range p.chunks {
			cols[k] = c.Column(i)
		}
		ch := arrow.NewChunked(f.Type, cols)
		err := p.fw.WriteColumnChunked(ch, 0, int64(p.group))
		ch.Release()
		if err != nil {
			return fmt.Errorf("column %s: %w", f.Name, err)
		}
	}
	return nil
}

func (p *parquetFile) releaseChunks() {
	for _, c := range p.chunks {
		c.Release()
	}
	clear(p.chunks)
	p.chunks = p.chunks[:0]
	p.group = 0
}

// close flushes, writes the metadata and closes the file.
func (p *parquetFile) close() error {
	if err := p.flush(); err != nil {
		return err
	}
	if err := p.writeGroup(); err != nil {
		return err
	}
	for _, kv := range p.meta {
		if err := p.fw.AppendKeyValueMetadata(kv[0], kv[1]); err != nil {
			return err
		}
	}
	return p.fw.Close()
}

// release frees the builder and any unwritten chunks; it may be called
// more than once.
func (p *parquetFile) release() {
	if !p.freed {
		p.freed = true
		p.releaseChunks()
		p.b.Release()
	}
}

// newTasks returns the writer of tasks.parquet.
func (o *outputs) newTasks(w io.Writer) (*parquetFile, error) {
	pf, err := o.newParquet(w, append(taskFields(o.pcs), tasksFields...), len(o.tasks), tasksGroupRows, tasksGroupRows)
	if err != nil {
		return nil, err
	}
	nTask := len(taskFields(o.pcs))
	b := pf.b
	pf.fill = func(t *sweep.Task, r *TaskResult, _ [][]metrics.Aggregate) error {
		if _, err := baselineJSON(r); err != nil {
			return fmt.Errorf("task %d: baseline: %w", r.Index, err)
		}
		appendTaskCols(b, nil, o.pcs, o.spec.Name, t, r, 1)
		for i, c := range tasksColumns {
			c.appendN(b.Field(nTask+i), r, 1, false)
		}
		return pf.added(1)
	}
	return pf, nil
}
