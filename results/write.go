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
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sweep"
)

// rowGroupRows is the number of rows per Parquet row group; writers flush
// their builders at this size, which bounds their memory.
const rowGroupRows = 1 << 18

// ErrMismatch is wrapped by [WriteOutputs] errors about results that do
// not belong to their tasks.
var ErrMismatch = errors.New("results do not match tasks")

// WriteOutputs writes jobs.parquet, summary.parquet, tasks.parquet,
// tables.md and tables.csv into dir (created if needed). res[i] is the
// result of tasks[i]; every result must be present. Rows are ordered by
// task Index, then job order; a failed task has a row in tasks.parquet
// only (and a line in the tables).
//
// Every file is written to a temporary file in dir first and renamed into
// place only when all five were written, so a failure leaves the previous
// outputs (if any) untouched and no partial file under an output name.
//
// For the same spec, tasks and results the bytes of jobs.parquet,
// summary.parquet, tables.md and tables.csv are identical whatever the
// workers and their timing; tasks.parquet differs only in its worker and
// wall_time_ms columns.
func WriteOutputs(dir string, spec *sweep.Spec, tasks []sweep.Task, res []*TaskResult, toolVersion string) error {
	o, err := newOutputs(spec, tasks, res, toolVersion)
	if err != nil {
		return fmt.Errorf("write outputs: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write outputs: %w", err)
	}

	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{JobsFile, o.writeJobs},
		{SummaryFile, o.writeSummary},
		{TasksFile, o.writeTasks},
		{TablesMD, o.writeTablesMD},
		{TablesCSV, o.writeTablesCSV},
	}
	var temps []string
	defer func() {
		for _, t := range temps {
			os.Remove(t) // no-op after a successful rename
		}
	}()
	for _, f := range files {
		tmp, err := writeTemp(dir, f.name, f.write)
		if tmp != "" {
			temps = append(temps, tmp)
		}
		if err != nil {
			return fmt.Errorf("write %s: %w", f.name, err)
		}
	}
	for i, f := range files {
		if err := os.Rename(temps[i], filepath.Join(dir, f.name)); err != nil {
			return fmt.Errorf("write outputs: %w", err)
		}
	}
	return nil
}

// newOutputs checks that res[i] belongs to tasks[i] and prepares the
// writers' shared state.
func newOutputs(spec *sweep.Spec, tasks []sweep.Task, res []*TaskResult, toolVersion string) (*outputs, error) {
	if len(tasks) != len(res) {
		return nil, fmt.Errorf("%w: %d tasks, %d results", ErrMismatch, len(tasks), len(res))
	}
	for i := range tasks {
		switch r := res[i]; {
		case r == nil:
			return nil, fmt.Errorf("%w: task %d has no result", ErrMismatch, tasks[i].Index)
		case r.TaskID != tasks[i].ID:
			return nil, fmt.Errorf("%w: result %d is for task %.12s, not %.12s", ErrMismatch, i, r.TaskID, tasks[i].ID)
		}
	}
	schemes := make([]*metrics.Scheme, len(spec.Categories))
	for i, name := range spec.Categories {
		s, err := metrics.LookupScheme(name)
		if err != nil {
			return nil, err
		}
		schemes[i] = s
	}
	o := &outputs{spec: spec, tasks: tasks, res: res, schemes: schemes, pcs: paramColumns(tasks)}
	o.meta = o.metadata(toolVersion)
	return o, nil
}

// WriteJobsFile writes only the jobs.parquet of [WriteOutputs], to path,
// through a temporary file in the same directory: on error nothing is
// left under path.
func WriteJobsFile(path string, spec *sweep.Spec, tasks []sweep.Task, res []*TaskResult, toolVersion string) error {
	o, err := newOutputs(spec, tasks, res, toolVersion)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp, err := writeTemp(filepath.Dir(path), filepath.Base(path), o.writeJobs)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		if tmp != "" {
			os.Remove(tmp)
		}
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// writeTemp writes a temporary file next to name in dir through write,
// syncs and closes it, and returns its path.
func writeTemp(dir, name string, write func(io.Writer) error) (string, error) {
	f, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return "", err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	return f.Name(), err
}

// outputs holds what the writers share.
type outputs struct {
	spec    *sweep.Spec
	tasks   []sweep.Task
	res     []*TaskResult
	schemes []*metrics.Scheme
	pcs     []paramCol
	meta    [][2]string
}

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
		{MetaSpec, string(o.spec.Raw)},
		{MetaSpecSHA256, o.spec.Hash},
		{MetaSweep, o.spec.Name},
		{MetaVersion, toolVersion},
		{MetaSimVersion, strings.Join(simVersions, ",")},
		{MetaTraces, string(tj)},
		{MetaParams, string(pj)},
	}
}

// parquetFile streams record batches of one schema into a Parquet file.
type parquetFile struct {
	fw   *pqarrow.FileWriter
	b    *array.RecordBuilder
	rows int
}

func (o *outputs) newParquet(w io.Writer, fields []arrow.Field) (*parquetFile, error) {
	schema := arrow.NewSchema(fields, nil)
	// Dictionary encoding only for the string columns, whose values repeat
	// (names, labels, categories). A numeric column with many distinct
	// values would fall back from dictionary to plain encoding part way,
	// and arrow-go writes the encoding statistics of such a column from a
	// Go map, in an order that varies between runs: the file's bytes would
	// not be reproducible.
	opts := []parquet.WriterProperty{
		parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithMaxRowGroupLength(rowGroupRows),
		parquet.WithDictionaryDefault(false),
	}
	for _, f := range fields {
		if f.Type.ID() == arrow.STRING {
			opts = append(opts, parquet.WithDictionaryFor(f.Name, true))
		}
	}
	props := parquet.NewWriterProperties(opts...)
	fw, err := pqarrow.NewFileWriter(schema, w, props, pqarrow.DefaultWriterProps())
	if err != nil {
		return nil, err
	}
	return &parquetFile{fw: fw, b: array.NewRecordBuilder(memory.DefaultAllocator, schema)}, nil
}

// added records that n rows were appended and flushes a full row group.
func (p *parquetFile) added(n int) error {
	p.rows += n
	if p.rows >= rowGroupRows {
		return p.flush()
	}
	return nil
}

func (p *parquetFile) flush() error {
	if p.rows == 0 {
		return nil
	}
	rec := p.b.NewRecordBatch()
	defer rec.Release()
	p.rows = 0
	return p.fw.Write(rec)
}

// close flushes, writes the metadata and closes the file; it releases the
// builder even on error.
func (p *parquetFile) close(meta [][2]string) error {
	defer p.b.Release()
	if err := p.flush(); err != nil {
		return err
	}
	for _, kv := range meta {
		if err := p.fw.AppendKeyValueMetadata(kv[0], kv[1]); err != nil {
			return err
		}
	}
	return p.fw.Close()
}

func (o *outputs) writeJobs(w io.Writer) error {
	fields := append(taskFields(o.pcs), jobFields...)
	for _, s := range o.schemes {
		fields = append(fields, arrow.Field{Name: CategoryPrefix + s.Name, Type: arrow.BinaryTypes.String})
	}
	pf, err := o.newParquet(w, fields)
	if err != nil {
		return err
	}
	nTask := len(taskFields(o.pcs))
	b := pf.b
	// Typed builders of the job columns, in recordSchema order.
	ints := make([]*array.Int64Builder, len(jobFields))
	floats := make([]*array.Float64Builder, len(jobFields))
	for k := range jobFields {
		switch fb := b.Field(nTask + k).(type) {
		case *array.Int64Builder:
			ints[k] = fb
		case *array.Float64Builder:
			floats[k] = fb
		}
	}
	mold := moldBuilders(b, nTask+moldStart)
	cats := make([]*array.StringBuilder, len(o.schemes))
	for i := range cats {
		cats[i] = b.Field(nTask + len(jobFields) + i).(*array.StringBuilder)
	}
	for i := range o.tasks {
		r := o.res[i]
		if r.Err != "" {
			continue
		}
		// Append in slices of at most a row group so memory stays bounded
		// for very large tasks.
		for lo := 0; lo < len(r.Jobs); {
			hi := min(len(r.Jobs), lo+rowGroupRows-pf.rows)
			appendTaskCols(b, o.pcs, o.spec.Name, &o.tasks[i], r, hi-lo)
			for k := lo; k < hi; k++ {
				j := &r.Jobs[k]
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
				appendMoldCols(mold, j)
				appendQoSJob(b, nTask+qosFirst, j)
				appendElasticJob(b, nTask+elasticFirst, j)
				for si, s := range o.schemes {
					cats[si].Append(s.Classify(j))
				}
			}
			if err := pf.added(hi - lo); err != nil {
				b.Release()
				return err
			}
			lo = hi
		}
	}
	return pf.close(o.meta)
}

func (o *outputs) writeSummary(w io.Writer) error {
	pf, err := o.newParquet(w, append(taskFields(o.pcs), summaryFields...))
	if err != nil {
		return err
	}
	nTask := len(taskFields(o.pcs))
	b := pf.b
	for i := range o.tasks {
		r := o.res[i]
		if r.Err != "" {
			continue
		}
		for _, s := range o.schemes {
			aggs := r.Summary(s)
			appendTaskCols(b, o.pcs, o.spec.Name, &o.tasks[i], r, len(aggs))
			col := func(k int) array.Builder { return b.Field(nTask + k) }
			for _, a := range aggs {
				col(0).(*array.StringBuilder).Append(s.Name)
				col(1).(*array.StringBuilder).Append(a.Category)
				col(2).(*array.Int64Builder).Append(int64(a.Row))
				col(3).(*array.Int64Builder).Append(int64(a.Col))
				col(4).(*array.Int64Builder).Append(int64(a.Count))
				for k, v := range []float64{a.BSD.Mean, a.BSD.Max, a.Turnaround.Mean, a.Turnaround.Max, a.Wait.Mean, a.Wait.Max, a.Slowdown.Mean, a.Slowdown.Max} {
					col(5 + k).(*array.Float64Builder).Append(v)
				}
				appendQoSSummary(b, nTask+len(summaryFields)-len(qosSummaryFields), &a)
			}
			if err := pf.added(len(aggs)); err != nil {
				b.Release()
				return err
			}
		}
	}
	return pf.close(o.meta)
}

func (o *outputs) writeTasks(w io.Writer) error {
	pf, err := o.newParquet(w, append(taskFields(o.pcs), tasksFields...))
	if err != nil {
		return err
	}
	nTask := len(taskFields(o.pcs))
	b := pf.b
	for i := range o.tasks {
		r := o.res[i]
		appendTaskCols(b, o.pcs, o.spec.Name, &o.tasks[i], r, 1)
		col := func(k int) array.Builder { return b.Field(nTask + k) }
		st := r.Stats
		col(0).(*array.Int64Builder).Append(int64(st.Jobs))
		col(1).(*array.Int64Builder).Append(int64(st.Makespan))
		col(2).(*array.Float64Builder).Append(st.Utilization)
		col(3).(*array.Int64Builder).Append(int64(st.Suspensions))
		col(4).(*array.Int64Builder).Append(int64(st.Kills))
		col(5).(*array.Int64Builder).Append(int64(r.Drops.Total()))
		detail := ""
		if r.Err == "" {
			detail = r.Drops.String()
		}
		col(6).(*array.StringBuilder).Append(detail)
		baseline := ""
		if len(r.Baseline) > 0 {
			j, err := json.Marshal(r.Baseline) // keys sorted: deterministic
			if err != nil {
				b.Release()
				return fmt.Errorf("task %d: baseline: %w", r.Index, err)
			}
			baseline = string(j)
		}
		col(7).(*array.StringBuilder).Append(baseline)
		col(8).(*array.Float64Builder).Append(float64(r.WallTime.Microseconds()) / 1000)
		col(9).(*array.StringBuilder).Append(r.Worker)
		col(10).(*array.StringBuilder).Append(r.Err)
		appendQueueTask(b, nTask+11, r.Stats.MultiQueue)
		appendQoSTask(b, nTask+len(tasksFields)-len(qosTaskFields), &r.Stats)
		appendElasticTask(b, nTask+11+len(queueTaskFields), r.Stats.Elastic)
		if err := pf.added(1); err != nil {
			b.Release()
			return err
		}
	}
	return pf.close(o.meta)
}
