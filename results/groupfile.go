package results

import (
	"fmt"
	"io"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sweep"
)

// groupFile streams the rows of jobs.parquet or summary.parquet. It does
// not keep its current row group in Arrow form: it keeps references to
// the rows (slices of the task results' records, or of their aggregates)
// and, once a row group is full, builds and writes it one range of
// columns at a time, so that only one range's Arrow arrays are in memory.
// The ranges follow the appenders that fill them (the task columns; for
// jobs.parquet the base and multiqueue job columns, the moldable, QoS and
// elastic ones and the category labels). The column writers get the same
// values as if the row group had been built whole, so the bytes are the
// same.
type groupFile struct {
	fw     *pqarrow.FileWriter
	meta   [][2]string
	ranges []*colRange
	segs   []rowSeg // rows of the current row group
	rows   int
	fill   func(t *sweep.Task, r *TaskResult, aggs [][]metrics.Aggregate) error
	mem    memory.Allocator
	freed  bool
	// With keepDone, the results whose last rows are written are kept in
	// done until takeDone.
	keepDone bool
	done     []*TaskResult
}

// takeDone returns the results whose last rows were written since the last
// call, and forgets them.
func (g *groupFile) takeDone() []*TaskResult {
	d := g.done
	g.done = g.done[:0]
	return d
}

// rowSeg is a run of rows of the current row group: jobs lo to hi of
// task t's result r, or for summary.parquet aggregates lo to hi of aggs,
// under scheme s (r then holds only what the task columns need).
type rowSeg struct {
	t      *sweep.Task
	r      *TaskResult
	aggs   []metrics.Aggregate
	s      *metrics.Scheme
	lo, hi int
}

// colRange is a range of consecutive columns and the builder of one row
// group of them; fill appends a segment's rows. The string columns that
// dicts has (by index in the range) are built as dictionary indices (see
// [dictCol]); b has a column of type null in their place, left empty.
type colRange struct {
	fields []arrow.Field
	b      *array.RecordBuilder
	dicts  []*dictCol
	fill   func(cr *colRange, s *rowSeg)
}

// newGroupFile returns a writer of an output file with columns fields.
func (o *outputs) newGroupFile(w io.Writer, fields []arrow.Field) (*groupFile, error) {
	fw, err := o.newFileWriter(w, fields)
	if err != nil {
		return nil, err
	}
	return &groupFile{fw: fw, meta: o.meta, mem: o.mem}, nil
}

// addRange adds the range of the next n of fields, filled by fill; with
// dicts, its string columns are built as dictionary indices.
func (g *groupFile) addRange(mem memory.Allocator, fields []arrow.Field, n int, dicts bool, fill func(cr *colRange, s *rowSeg)) {
	at := 0
	for _, cr := range g.ranges {
		at += len(cr.fields)
	}
	cr := &colRange{fields: fields[at : at+n], fill: fill}
	built := slices.Clone(cr.fields)
	if dicts {
		cr.dicts = make([]*dictCol, n)
		for i, f := range cr.fields {
			if f.Type.ID() == arrow.STRING {
				cr.dicts[i] = newDictCol()
				built[i] = arrow.Field{Name: f.Name, Type: arrow.Null, Nullable: true}
			}
		}
	}
	cr.b = array.NewRecordBuilder(mem, arrow.NewSchema(built, nil))
	g.ranges = append(g.ranges, cr)
}

// checkRanges returns an error unless the ranges cover n columns.
func (g *groupFile) checkRanges(n int) error {
	at := 0
	for _, cr := range g.ranges {
		at += len(cr.fields)
	}
	if at != n {
		g.release()
		return fmt.Errorf("%d of %d columns have an appender", at, n)
	}
	return nil
}

// taskRange is the fill of the task columns, appended a segment at a
// time.
func (o *outputs) taskRange(cr *colRange, s *rowSeg) {
	appendTaskCols(cr.b, cr.dicts, o.pcs, o.spec.Name, s.t, s.r, s.hi-s.lo)
}

// jobRangeCols is the most job columns of jobs.parquet built at once.
const jobRangeCols = 16

// newJobs returns the writer of jobs.parquet.
func (o *outputs) newJobs(w io.Writer) (*groupFile, error) {
	tf := taskFields(o.pcs)
	fields := append(append([]arrow.Field(nil), tf...), jobFields...)
	for _, s := range o.schemes {
		fields = append(fields, arrow.Field{Name: CategoryPrefix + s.Name, Type: arrow.BinaryTypes.String})
	}
	g, err := o.newGroupFile(w, fields)
	if err != nil {
		return nil, err
	}
	// perJob adds the range of the next n columns; newRow returns the
	// function appending one job's row to the range's builder. The
	// builders of a RecordBuilder stay the same from batch to batch:
	// newRow looks them up once.
	g.addRange(o.mem, fields, len(tf), true, o.taskRange)
	// The job columns in ranges of at most jobRangeCols, so that a row
	// group's builders of a few columns are in memory at a time.
	for lo := 0; lo < len(jobColumns); lo += jobRangeCols {
		cs := jobColumns[lo:min(len(jobColumns), lo+jobRangeCols)]
		g.addRange(o.mem, fields, len(cs), false, func(cr *colRange, s *rowSeg) {
			for i, c := range cs {
				b := cr.b.Field(i)
				for k := s.lo; k < s.hi; k++ {
					c.appendN(b, &s.r.Jobs[k], 1, false)
				}
			}
		})
	}
	cats := o.categoryRows()
	g.addRange(o.mem, fields, len(o.schemes), true, func(cr *colRange, s *rowSeg) {
		for si := range cats {
			cats[si].add(cr.dicts[si], s.r.Jobs[s.lo:s.hi])
		}
	})
	if err := g.checkRanges(len(fields)); err != nil {
		return nil, err
	}
	g.fill = func(t *sweep.Task, r *TaskResult, _ [][]metrics.Aggregate) error {
		if r.Err != "" {
			return nil
		}
		// The writer keeps r until its last row is written.
		return g.addSeg(rowSeg{t: t, r: r, lo: 0, hi: len(r.Jobs)})
	}
	return g, nil
}

// summaryRangeCols is the most summary columns of summary.parquet built
// at once.
const summaryRangeCols = 8

// newSummary returns the writer of summary.parquet.
func (o *outputs) newSummary(w io.Writer) (*groupFile, error) {
	tf := taskFields(o.pcs)
	fields := append(append([]arrow.Field(nil), tf...), summaryFields...)
	g, err := o.newGroupFile(w, fields)
	if err != nil {
		return nil, err
	}
	g.addRange(o.mem, fields, len(tf), true, o.taskRange)
	// empty holds each scheme's aggregates of a task without jobs: those
	// of the categories a row group's segments leave out.
	empty := make(map[*metrics.Scheme][]metrics.Aggregate, len(o.schemes))
	for _, s := range o.schemes {
		empty[s] = metrics.Summarize(s, nil)
	}
	// The summary columns in ranges of at most summaryRangeCols, as the
	// job columns are, so that a row group's builders of a few columns
	// are in memory at a time.
	for lo := 0; lo < len(summaryColumns); lo += summaryRangeCols {
		cs := summaryColumns[lo:min(len(summaryColumns), lo+summaryRangeCols)]
		g.addRange(o.mem, fields, len(cs), false, func(cr *colRange, s *rowSeg) {
			if s.s.PerTask() {
				// Its categories are the task's own: every one is kept.
				for k := s.lo; k < s.hi; k++ {
					src := summarySrc{s: s.s, a: &s.aggs[k]}
					for i, c := range cs {
						c.appendN(cr.b.Field(i), &src, 1, false)
					}
				}
				return
			}
			all := empty[s.s]
			at := func(a *metrics.Aggregate) int { // a's index among all
				if a.Row < 0 {
					return len(all) - 1
				}
				return a.Row*len(s.s.Cols) + a.Col
			}
			j := 0 // the next kept aggregate: s.aggs[j]
			for j < len(s.aggs) && at(&s.aggs[j]) < s.lo {
				j++
			}
			for k := s.lo; k < s.hi; k++ {
				src := summarySrc{s: s.s, a: &all[k]}
				if j < len(s.aggs) && at(&s.aggs[j]) == k {
					src.a = &s.aggs[j]
					j++
				}
				for i, c := range cs {
					c.appendN(cr.b.Field(i), &src, 1, false)
				}
			}
		})
	}
	if err := g.checkRanges(len(fields)); err != nil {
		return nil, err
	}
	g.fill = func(t *sweep.Task, r *TaskResult, aggs [][]metrics.Aggregate) error {
		if r.Err != "" {
			return nil
		}
		// What the task columns need of r, not its jobs.
		cols := &TaskResult{Stats: metrics.RunStats{Procs: r.Stats.Procs}}
		for si, s := range o.schemes {
			// The segment's rows are all of s's categories; it keeps
			// the aggregates of those with jobs (and the overall one), the
			// others being those of empty[s].
			kept := keptAggregates(aggs[si])
			if s.PerTask() {
				kept = aggs[si]
			}
			if err := g.addSeg(rowSeg{t: t, r: cols, aggs: kept, s: s, lo: 0, hi: len(aggs[si])}); err != nil {
				return err
			}
		}
		return nil
	}
	return g, nil
}

// keptAggregates returns a copy of the aggregates of aggs whose category
// has jobs, and the overall one. Those left out equal the aggregates of a
// task without jobs (category, grid cell and every figure 0): a sweep of
// small tasks has mostly empty categories.
func keptAggregates(aggs []metrics.Aggregate) []metrics.Aggregate {
	n := 0
	for i := range aggs {
		if aggs[i].Count != 0 || aggs[i].Row < 0 {
			n++
		}
	}
	kept := make([]metrics.Aggregate, 0, n)
	for i := range aggs {
		if aggs[i].Count != 0 || aggs[i].Row < 0 {
			kept = append(kept, aggs[i])
		}
	}
	return kept
}

// add appends the rows of task t with result r (and its aggregates per
// scheme), writing each row group as it fills.
func (g *groupFile) add(t *sweep.Task, r *TaskResult, aggs [][]metrics.Aggregate) error {
	return g.fill(t, r, aggs)
}

// addSeg appends the rows of s, split at row group boundaries.
func (g *groupFile) addSeg(s rowSeg) error {
	for s.lo < s.hi {
		part := s
		part.hi = min(s.hi, s.lo+rowGroupRows-g.rows)
		g.segs = append(g.segs, part)
		g.rows += part.hi - part.lo
		if g.rows == rowGroupRows {
			if err := g.writeGroup(); err != nil {
				return err
			}
		}
		s.lo = part.hi
	}
	return nil
}

// writeGroup writes the current row group, one range of columns at a
// time, and drops its rows.
func (g *groupFile) writeGroup() error {
	if g.rows == 0 {
		return nil
	}
	defer func() {
		if g.keepDone {
			for _, s := range g.segs {
				if s.hi == len(s.r.Jobs) {
					g.done = append(g.done, s.r)
				}
			}
		}
		clear(g.segs)
		g.segs = g.segs[:0]
		g.rows = 0
	}()
	if err := g.fw.NewRowGroupChecked(); err != nil {
		return err
	}
	for _, cr := range g.ranges {
		cr.b.Reserve(g.rows)
		for _, d := range cr.dicts {
			if d != nil {
				d.idx = slices.Grow(d.idx, g.rows)
			}
		}
		for i := range g.segs {
			cr.fill(cr, &g.segs[i])
		}
		if err := cr.write(g.fw, g.mem, g.rows); err != nil {
			return err
		}
	}
	return nil
}

// write writes the range's rows, rows of them, as the next column chunks
// of the current row group, and empties its builders.
func (cr *colRange) write(fw *pqarrow.FileWriter, mem memory.Allocator, rows int) error {
	for i, f := range cr.fields {
		var col arrow.Array
		if cr.dicts != nil && cr.dicts[i] != nil {
			col = cr.dicts[i].newArray(mem)
		} else {
			col = cr.b.Field(i).NewArray()
		}
		ch := arrow.NewChunked(col.DataType(), []arrow.Array{col})
		col.Release()
		err := fw.WriteColumnChunked(ch, 0, int64(rows))
		ch.Release()
		if cr.dicts != nil && cr.dicts[i] != nil {
			cr.dicts[i].reset()
		}
		if err != nil {
			return fmt.Errorf("column %s: %w", f.Name, err)
		}
	}
	return nil
}

// close writes the last row group and the metadata and closes the file.
func (g *groupFile) close() error {
	if err := g.writeGroup(); err != nil {
		return err
	}
	for _, kv := range g.meta {
		if err := g.fw.AppendKeyValueMetadata(kv[0], kv[1]); err != nil {
			return err
		}
	}
	return g.fw.Close()
}

// release frees the builders and drops the rows; it may be called more
// than once.
func (g *groupFile) release() {
	if !g.freed {
		g.freed = true
		clear(g.segs)
		for _, cr := range g.ranges {
			cr.b.Release()
		}
	}
}

// catCol fills the category column of a scheme: the label of each job's
// grid cell, the labels made once per cell rather than once per job.
type catCol struct {
	s      *metrics.Scheme
	labels []string // by cell, row by row
	ncols  int
	at     []int32 // by cell: its label's index in the row group's dictionary, or -1
}

// categoryRows returns the fills of the category columns, one per scheme.
func (o *outputs) categoryRows() []*catCol {
	cats := make([]*catCol, len(o.schemes))
	for i, s := range o.schemes {
		c := &catCol{s: s, labels: s.Labels(), ncols: len(s.Cols)}
		c.at = make([]int32, len(c.labels))
		cats[i] = c
	}
	return cats
}

// add appends the labels of jobs to d.
func (c *catCol) add(d *dictCol, jobs []metrics.Record) {
	if len(d.values) == 0 {
		// A new row group: its dictionary is empty.
		for i := range c.at {
			c.at[i] = -1
		}
	}
	for k := range jobs {
		j := &jobs[k]
		row, col := c.s.Cell(j)
		cell := row*c.ncols + col
		if row < 0 || col < 0 || col >= c.ncols || cell >= len(c.labels) {
			d.appendN(c.s.Classify(j), 1) // not a cell of the grid
			continue
		}
		if c.at[cell] < 0 {
			c.at[cell] = d.index(c.labels[cell])
		}
		d.idx = append(d.idx, c.at[cell])
		d.raw += len(c.labels[cell]) + arrow.Uint32SizeBytes
	}
}
