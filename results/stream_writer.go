package results

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/schedfarm/schedfarm/sim/metrics"
)

// streamWriter is the state of one [StreamOutputs] call: the output
// directory, the temporary files written so far, the Parquet sinks and
// the tables.
type streamWriter struct {
	dir     string
	created bool // dir did not exist before
	o       *outputs
	ts      *tableSink
	temps   []*tempFile
	sinks   []namedSink
	jobs    *groupFile            // the jobs sink, when its results are the writer's (OwnResults)
	aggs    [][]metrics.Aggregate // the current task's aggregates per scheme
}

// namedSink is a Parquet sink with its output name and temporary file.
type namedSink struct {
	name string
	tf   *tempFile
	s    fileSink
}

// newStreamWriter creates dir if needed and returns a writer of the
// outputs o and tables ts into it.
func newStreamWriter(dir string, o *outputs, ts *tableSink) (*streamWriter, error) {
	created := false
	if _, serr := os.Stat(dir); errors.Is(serr, os.ErrNotExist) {
		created = true
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("write outputs: %w", err)
	}
	return &streamWriter{dir: dir, created: created, o: o, ts: ts, aggs: make([][]metrics.Aggregate, len(o.schemes))}, nil
}

// cleanup frees the sinks' buffers and removes the temporary files that
// were not renamed into place; after an error (err is the call's) it also
// removes dir if the call created it and it is empty.
func (w *streamWriter) cleanup(err error) {
	for i := len(w.sinks) - 1; i >= 0; i-- {
		w.sinks[i].s.release()
	}
	for _, t := range w.temps {
		t.abort() // no-op after a successful rename
	}
	if err != nil && w.created {
		os.Remove(w.dir) // only if empty
	}
}

// open starts the temporary file of output name.
func (w *streamWriter) open(name string) (*tempFile, error) {
	t, err := newTempFile(w.dir, name)
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", name, err)
	}
	w.temps = append(w.temps, t)
	return t, nil
}

// openParquet starts jobs.parquet, summary.parquet and tasks.parquet, in
// that order, then timeseries.parquet when the spec asks for it. With own (OwnResults), the jobs sink keeps the results
// whose rows are written, for writeTask to recycle.
func (w *streamWriter) openParquet(own bool) error {
	type sinkMaker struct {
		name string
		make func(io.Writer) (fileSink, error)
	}
	files := []sinkMaker{
		{JobsFile, func(iw io.Writer) (fileSink, error) {
			g, err := w.o.newJobs(iw)
			if err == nil && own {
				w.jobs = g
				g.keepDone = true
			}
			return g, err
		}},
		{SummaryFile, func(iw io.Writer) (fileSink, error) { return w.o.newSummary(iw) }},
		{TasksFile, func(iw io.Writer) (fileSink, error) { return w.o.newTasks(iw) }},
	}
	if w.o.spec.Outputs.Timeseries.Step > 0 {
		files = append(files, sinkMaker{TimeseriesFile, func(iw io.Writer) (fileSink, error) { return w.o.newTimeseries(iw) }})
	}
	for _, f := range files {
		tf, err := w.open(f.name)
		if err != nil {
			return err
		}
		pf, err := f.make(tf.w)
		if err != nil {
			return fmt.Errorf("write %s: %w", f.name, err)
		}
		w.sinks = append(w.sinks, namedSink{f.name, tf, pf})
	}
	return nil
}

// writeTask takes the result of task i from get, checks that it belongs
// to the task, and adds the task's rows to every Parquet sink and the
// tables.
func (w *streamWriter) writeTask(i int, get ResultFunc) error {
	t := &w.o.tasks[i]
	r, err := get(i)
	switch {
	case err != nil:
		return fmt.Errorf("write outputs: result of task %d: %w", t.Index, err)
	case r == nil:
		return fmt.Errorf("write outputs: %w: task %d has no result", ErrMismatch, t.Index)
	case r.TaskID != t.ID:
		return fmt.Errorf("write outputs: %w: result %d is for task %.12s, not %.12s", ErrMismatch, i, r.TaskID, t.ID)
	}
	w.aggregate(r)
	for _, s := range w.sinks {
		if err := s.s.add(t, r, w.aggs); err != nil {
			return fmt.Errorf("write %s: %w", s.name, err)
		}
	}
	if w.ts != nil {
		w.ts.add(t, r, w.aggs)
	}
	w.recycleDone()
	return nil
}

// aggregate computes r's aggregates once per scheme, for summary.parquet
// and the tables alike; a failed task has none.
func (w *streamWriter) aggregate(r *TaskResult) {
	for si, s := range w.o.schemes {
		w.aggs[si] = nil
		if r.Err == "" {
			w.aggs[si] = r.Summary(s)
		}
	}
}

// recycleDone hands the job records of the results whose rows are all
// written to a later [Unmarshal] (only with OwnResults): nothing holds
// them any more.
func (w *streamWriter) recycleDone() {
	if w.jobs == nil {
		return
	}
	for _, d := range w.jobs.takeDone() {
		spareJobs.give(d.Jobs)
		d.Jobs = nil
	}
}

// closeParquet writes what is left of each Parquet file, frees its
// sink's buffers and finishes its temporary file.
func (w *streamWriter) closeParquet() error {
	for _, s := range w.sinks {
		if err := s.s.close(); err != nil {
			return fmt.Errorf("write %s: %w", s.name, err)
		}
		s.s.release()
		if err := s.tf.finish(); err != nil {
			return fmt.Errorf("write %s: %w", s.name, err)
		}
	}
	return nil
}

// writeTables writes tables.md and tables.csv. The tables need their
// memory more than the Parquet writers' buffers and page encoder, which
// are dropped first.
func (w *streamWriter) writeTables() error {
	if w.ts == nil {
		return nil
	}
	w.o.mem.drain()
	pageEnc.drop()
	for _, f := range w.ts.ts.Files() {
		tf, err := w.open(f.Name)
		if err != nil {
			return err
		}
		if err := f.Write(tf.w); err != nil {
			return fmt.Errorf("write %s: %w", f.Name, err)
		}
		if err := tf.finish(); err != nil {
			return fmt.Errorf("write %s: %w", f.Name, err)
		}
	}
	return nil
}

// commit renames every finished temporary file into place, and removes
// a timeseries.parquet of an earlier sweep that the spec no longer asks
// for (its rows would not be this sweep's).
func (w *streamWriter) commit() error {
	for _, t := range w.temps {
		if err := t.rename(); err != nil {
			return fmt.Errorf("write outputs: %w", err)
		}
	}
	if w.o.spec.Outputs.Timeseries.Step == 0 {
		if err := os.Remove(filepath.Join(w.dir, TimeseriesFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("write outputs: remove stale %s: %w", TimeseriesFile, err)
		}
	}
	return nil
}
