package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sweep"
)

// WriteMarkdown writes tables as Markdown: a heading of level hashes for
// each new section, a heading one level deeper for each titled table, the
// table and its notes.
func WriteMarkdown(w io.Writer, tables []Table, level int) error {
	var b strings.Builder
	h := strings.Repeat("#", level)
	section := ""
	for i := range tables {
		t := &tables[i]
		if i == 0 || t.Section != section {
			section = t.Section
			fmt.Fprintf(&b, "%s %s\n\n", h, section)
		}
		if t.Title != "" {
			fmt.Fprintf(&b, "%s# %s\n\n", h, t.Title)
		}
		if t.Rows != nil {
			if err := metrics.WriteTable(&b, t.Rows); err != nil {
				return err
			}
			b.WriteByte('\n')
		}
		for _, n := range t.Notes {
			b.WriteString(n)
			b.WriteByte('\n')
		}
		if len(t.Notes) > 0 {
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// TablesCSVHeader is the header row of [WriteTablesCSV].
var TablesCSVHeader = []string{
	"trace", "machine_procs", "skip", "count", "estimates", "load_mode", "load", "sigma", "range_factor",
	"setting", "policy", "label", "params",
	"scheme", "category", "row", "col", "reps", "jobs", "metric", "value",
	"baseline", "baseline_value", "compare", "compared", "failed", "errors",
	"half", "diff", "diff_half",
}

// WriteTablesCSV writes the values behind tables in long form, one line
// per value (see [TablesCSVHeader]); undefined numbers are empty.
func WriteTablesCSV(w io.Writer, tables []Table) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(TablesCSVHeader); err != nil {
		return err
	}
	num := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return fmtFloat(v)
	}
	for i := range tables {
		for _, v := range tables[i].Values {
			wl, st := v.Workload, v.Setting
			sigma, rf := "", ""
			if wl.Moldable {
				sigma, rf = fmtFloat(wl.Sigma), fmtFloat(wl.RangeFactor)
			}
			rec := []string{
				wl.Trace, strconv.Itoa(wl.Procs), strconv.Itoa(wl.Skip), strconv.Itoa(wl.Count), wl.Estimates, wl.LoadMode, fmtFloat(wl.Load), sigma, rf,
				st.Name, st.Policy, st.Label, st.Params,
				v.Scheme, v.Category, strconv.Itoa(v.Row), strconv.Itoa(v.Col), strconv.Itoa(v.Reps), num(v.Jobs), v.Metric, num(v.Value),
				v.Baseline, num(v.BaselineValue), v.Compare, num(v.Compared), strconv.Itoa(v.Failed), v.Errors,
				num(v.Half), num(v.Diff), num(v.DiffHalf),
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// SweepTables are the tables of a sweep as tables.md shows them.
type SweepTables struct {
	// Name and Description are the sweep's.
	Name, Description string
	// Summary and Tasks are the sweep's rows (as [results.ReadSummary] and
	// [results.ReadTasks] return them); Summary needs only the rows of Scheme.
	Summary []results.SummaryRow
	Tasks   []results.TaskRow
	// Metric and Scheme choose what the tables show (defaults as in
	// [CollateOptions]).
	Metric, Scheme string

	// kept, when not nil, holds the rows instead of Summary and Tasks:
	// what the tables show of each, no more. The tables made while
	// outputs are written keep their rows so.
	kept *keptRows
}

// keptRows are the rows of a sweep's tables, kept for the tables of one
// scheme and metric: of each task, the columns the tables show (those it
// shares with the other tasks of its workload and setting held once) and
// of each category with jobs its job count and the metric's value. A
// category without jobs has no row: the tables show the same for a
// category whose aggregate has a count of 0 as for a category without a
// row, and a sweep of small tasks has mostly empty categories. Blocks of
// a fixed size hold the categories, so that they are neither allocated
// for every category of every task up front nor copied as they grow.
type keptRows struct {
	s      *metrics.Scheme
	m      *metrics.Metric
	scheme string   // the scheme's name as the spec gives it
	labels []string // the scheme's category labels in grid order
	// points holds the columns tasks share (TaskID, TaskIndex,
	// Replication and Seed zero), pointIx the index of each.
	points  []results.TaskCols
	pointIx map[pointKey]int32
	tasks   []keptTask
	blocks  [][]keptAgg
	// err is the first category outside the scheme's grid.
	err error
}

// pointKey identifies the columns of a task that its replications share.
type pointKey struct {
	sweep, trace, policy, label, params, loadMode, estimates string
	procs, skip, count                                       int
	load, sigma, rangeFactor                                 float64
	moldable                                                 bool
}

// keptTask is a task of [keptRows]: its own columns, the statistics the
// tables show, its error and the number of its categories with jobs.
type keptTask struct {
	point       int32
	n           int32
	id          string
	index       int
	replication int
	seed        uint64
	jobs        int
	makespan    sim.Time
	utilization float64
	err         string
}

// keptAgg is a category of a task of [keptRows]: its grid cell (-1, -1
// for the overall row), its job count and the metric's value.
type keptAgg struct {
	row, col int16
	count    int32
	value    float64
}

// aggBlock is the number of categories per block of [keptRows].
const aggBlock = 4096

// newKeptRows returns the rows of the tables of scheme s (a fixed grid)
// and metric m, for n tasks.
func newKeptRows(s *metrics.Scheme, m *metrics.Metric, n int) *keptRows {
	return &keptRows{s: s, m: m, labels: s.Labels(), pointIx: map[pointKey]int32{}, tasks: make([]keptTask, 0, n)}
}

// add adds the next task: its row and its aggregates (nil for a failed
// task), of which it keeps those whose category has jobs, and the
// overall one.
func (kr *keptRows) add(row *results.TaskRow, aggs []metrics.Aggregate) {
	tc := &row.TaskCols
	key := pointKey{sweep: tc.Sweep, trace: tc.Trace, policy: tc.Policy, label: tc.Label, params: tc.Params,
		loadMode: tc.LoadMode, estimates: tc.Estimates, procs: tc.MachineProcs, skip: tc.Skip, count: tc.Count,
		load: tc.Load, sigma: tc.Sigma, rangeFactor: tc.RangeFactor, moldable: tc.Moldable}
	pi, ok := kr.pointIx[key]
	if !ok {
		pi = int32(len(kr.points))
		kr.pointIx[key] = pi
		p := *tc
		p.TaskID, p.TaskIndex, p.Replication, p.Seed = "", 0, 0, 0
		kr.points = append(kr.points, p)
	}
	kt := keptTask{point: pi, id: tc.TaskID, index: tc.TaskIndex, replication: tc.Replication, seed: tc.Seed,
		jobs: row.Stats.Jobs, makespan: row.Stats.Makespan, utilization: row.Stats.Utilization, err: row.Error}
	total := 0
	for i := range aggs {
		if aggs[i].Row < 0 {
			total = aggs[i].Count
		}
	}
	for i := range aggs {
		a := &aggs[i]
		if a.Count == 0 && a.Row >= 0 {
			continue
		}
		overall := a.Row < 0 && a.Col < 0
		inGrid := a.Row >= 0 && a.Row < len(kr.s.Rows) && a.Col >= 0 && a.Col < len(kr.s.Cols)
		if (!overall && !inGrid) || a.Count > math.MaxInt32 {
			if kr.err == nil {
				kr.err = fmt.Errorf("task %d: %s category %q at row %d col %d is outside the grid", tc.TaskIndex, kr.s.Name, a.Category, a.Row, a.Col)
				if a.Count > math.MaxInt32 {
					kr.err = fmt.Errorf("task %d: %s category %q has %d jobs, more than the tables count", tc.TaskIndex, kr.s.Name, a.Category, a.Count)
				}
			}
			continue
		}
		last := len(kr.blocks) - 1
		if last < 0 || len(kr.blocks[last]) == aggBlock {
			kr.blocks = append(kr.blocks, make([]keptAgg, 0, aggBlock))
			last++
		}
		kr.blocks[last] = append(kr.blocks[last], keptAgg{row: int16(a.Row), col: int16(a.Col), count: int32(a.Count), value: kr.m.Value(a, total)})
		kt.n++
	}
	kr.tasks = append(kr.tasks, kt)
}

// cols sets tc to the columns of task kt.
func (kr *keptRows) cols(tc *results.TaskCols, kt *keptTask) {
	*tc = kr.points[kt.point]
	tc.TaskID, tc.TaskIndex, tc.Replication, tc.Seed = kt.id, kt.index, kt.replication, kt.seed
}

// taskRows returns the task rows.
func (kr *keptRows) taskRows() taskRows {
	return taskRows{n: len(kr.tasks), each: func(yield func(*results.TaskRow) bool) {
		var row results.TaskRow
		for i := range kr.tasks {
			kt := &kr.tasks[i]
			kr.cols(&row.TaskCols, kt)
			row.Stats = metrics.RunStats{Jobs: kt.jobs, Procs: row.MachineProcs, Makespan: kt.makespan, Utilization: kt.utilization}
			row.Error = kt.err
			if !yield(&row) {
				return
			}
		}
	}}
}

// summaryRows returns the summary rows: each with its category, grid
// cell and job count, and the metric's value; the rows of a task come
// one after the other.
func (kr *keptRows) summaryRows() summaryRows {
	return func(yield func(*results.TaskCols, schemeAgg) bool) {
		var (
			tc  results.TaskCols
			agg metrics.Aggregate
		)
		b, j := 0, 0 // the next category: kr.blocks[b][j]
		for i := range kr.tasks {
			kt := &kr.tasks[i]
			if kt.n > 0 {
				kr.cols(&tc, kt)
			}
			for range kt.n {
				if j == len(kr.blocks[b]) {
					b, j = b+1, 0
				}
				ka := &kr.blocks[b][j]
				agg = metrics.Aggregate{Category: metrics.Overall, Row: int(ka.row), Col: int(ka.col), Count: int(ka.count)}
				if ka.row >= 0 {
					agg.Category = kr.labels[int(ka.row)*len(kr.s.Cols)+int(ka.col)]
				}
				if !yield(&tc, schemeAgg{scheme: kr.s.Name, Aggregate: &agg, kept: kr.m.Name, value: ka.value}) {
					return
				}
				j++
			}
		}
	}
}

// rows returns the summary rows of the tables.
func (st *SweepTables) rows() summaryRows {
	if st.kept == nil {
		return rowsOf(st.Summary)
	}
	return st.kept.summaryRows()
}

// taskRows returns the task rows of the tables.
func (st *SweepTables) taskRows() taskRows {
	if st.kept == nil {
		return taskRowsOf(st.Tasks)
	}
	return st.kept.taskRows()
}

// check returns an error when st keeps its rows for other tables than
// it is asked for, or kept a category outside the grid.
func (st *SweepTables) check() error {
	if kr := st.kept; kr != nil {
		if kr.err != nil {
			return kr.err
		}
		if st.Metric != kr.m.Name || st.Scheme != kr.scheme {
			return fmt.Errorf("tables of %s by %s: the rows were kept for %s by %s", st.Metric, st.Scheme, kr.m.Name, kr.scheme)
		}
	}
	return nil
}

// WriteMarkdown writes tables.md: an overview with one line per task,
// the job mix of each distinct job set, the metric per category of every
// (workload, setting) laid out as the scheme's grid, and, when a workload
// has several settings, one table per workload comparing them.
func (st *SweepTables) WriteMarkdown(w io.Writer) error {
	if err := st.check(); err != nil {
		return err
	}
	c, err := collate(st.rows(), st.taskRows(), CollateOptions{Scheme: st.Scheme, Metric: st.Metric})
	if err != nil {
		return err
	}
	s, m := c.Scheme, c.Metric
	opts := TableOptions{Metric: m.Name, Scheme: s.Name}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: %s by %s category\n\n", st.Name, m.Title, s.Name)
	if st.Description != "" {
		fmt.Fprintf(&b, "%s\n\n", metrics.EscapeCell(st.Description))
	}
	fmt.Fprintf(&b, "Scheme %s: %s.\n\n", s.Name, s.Doc)

	b.WriteString("## Overall\n\n")
	if err := metrics.WriteTable(&b, st.overview(s, m)); err != nil {
		return err
	}

	b.WriteString("\n## Job mix\n\nShare of jobs per category (percent) of each distinct job set (scaling arrivals does not change it).\n")
	if err := st.writeMix(&b, s); err != nil {
		return err
	}

	fmt.Fprintf(&b, "\n## Per setting\n\n%s per category; \"-\" marks an empty category. Replications are combined: means by their mean, maxima by their maximum.\n\n",
		capitalize(m.Title))
	grids, err := buildTables(st.rows(), st.taskRows(), opts)
	if err != nil {
		return err
	}
	if err := WriteMarkdown(&b, grids, 3); err != nil {
		return err
	}
	several := false
	for wi := range c.Workloads {
		n := 0
		for si := range c.Settings {
			if c.Cells(wi, si) != nil {
				n++
			}
		}
		several = several || n > 1
	}
	if several {
		fmt.Fprintf(&b, "## Comparison\n\n%s per category (rows) and setting (columns); \"jobs\" is the number of jobs per category.\n\n", capitalize(m.Title))
		opts.Layout = LayoutWide
		wide, err := buildTables(st.rows(), st.taskRows(), opts)
		if err != nil {
			return err
		}
		if err := WriteMarkdown(&b, wide, 3); err != nil {
			return err
		}
	}
	_, err = io.WriteString(w, strings.TrimRight(b.String(), "\n")+"\n")
	return err
}

// WriteCSV writes tables.csv: the values of the per-setting grids of
// [SweepTables.WriteMarkdown] by [WriteTablesCSV].
func (st *SweepTables) WriteCSV(w io.Writer) error {
	if err := st.check(); err != nil {
		return err
	}
	grids, err := buildTables(st.rows(), st.taskRows(), TableOptions{Metric: st.Metric, Scheme: st.Scheme})
	if err != nil {
		return err
	}
	return WriteTablesCSV(w, grids)
}

// overview returns the overview table: one line per task with its
// overall metric, utilization and makespan.
func (st *SweepTables) overview(s *metrics.Scheme, m *metrics.Metric) [][]string {
	overall := map[string]float64{}
	for tc, a := range st.rows() {
		if a.scheme == s.Name && a.Category == metrics.Overall {
			overall[tc.TaskID] = a.metric(m, a.Count)
		}
	}
	rows := [][]string{{"task", "trace", "jobs", "estimates", "load", "policy", "params", "rep", m.Name, "utilization", "makespan (s)"}}
	for t := range st.taskRows().each {
		load := fmtFloat(t.Load)
		if t.LoadMode != sweep.DefaultLoadMode {
			load += " " + t.LoadMode
		}
		row := []string{strconv.Itoa(t.TaskIndex), t.Trace, strconv.Itoa(t.Stats.Jobs), t.Estimates, load, t.Label, t.Params, strconv.Itoa(t.Replication)}
		v, ok := overall[t.TaskID]
		switch {
		case t.Error != "":
			row = append(row, "failed: "+describeErr(t.Error), "", "")
		case !ok:
			row = append(row, "-", "", "")
		default:
			row = append(row, fmt.Sprintf(m.Format, v),
				strconv.FormatFloat(t.Stats.Utilization, 'f', 4, 64), strconv.FormatInt(int64(t.Stats.Makespan), 10))
		}
		rows = append(rows, row)
	}
	return rows
}

// writeMix writes the share of jobs per category of each distinct job
// set: the jobs depend on the trace, machine, subset and estimates, and
// on the load only when it duplicates jobs (then on the seed too).
func (st *SweepTables) writeMix(b *strings.Builder, s *metrics.Scheme) error {
	share, err := metrics.LookupMetric("share")
	if err != nil {
		return err
	}
	n := len(s.Rows) * len(s.Cols)
	seen := map[string]bool{}
	var cur string
	var aggs []metrics.Aggregate
	flush := func() error {
		if aggs == nil {
			return nil
		}
		defer func() { aggs = nil }()
		return metrics.WriteGrid(b, s, aggs, share)
	}
	for tc, r := range st.rows() {
		if r.scheme != s.Name {
			continue
		}
		if tc.TaskID != cur {
			if err := flush(); err != nil {
				return err
			}
			cur = tc.TaskID
			w := WorkloadOf(tc)
			dup := w.LoadMode == "duplicate" && w.Load != 1
			if !dup {
				w.Load, w.LoadMode = 0, ""
			}
			title := w.String()
			if dup {
				title += fmt.Sprintf(", seed %d", tc.Seed)
			}
			if seen[title] {
				continue
			}
			seen[title] = true
			fmt.Fprintf(b, "\n### %s\n\n", title)
			aggs = make([]metrics.Aggregate, n+1)
		}
		if aggs == nil {
			continue
		}
		k := n
		if r.Row >= 0 {
			k = r.Row*len(s.Cols) + r.Col
		}
		if k < 0 || k > n {
			return fmt.Errorf("task %d: %s category %q at row %d col %d is outside the grid", tc.TaskIndex, s.Name, r.Category, r.Row, r.Col)
		}
		aggs[k] = *r.Aggregate
	}
	return flush()
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// tableScheme returns the scheme and metric names spec's tables use.
func tableScheme(spec *sweep.Spec) (scheme, metric string) {
	t := spec.Outputs.Tables
	metric = t.Metric
	if metric == "" {
		metric = sweep.DefaultTableMetric
	}
	scheme = t.Scheme
	if scheme == "" {
		scheme = sweep.DefaultScheme
		if len(spec.Categories) > 0 {
			scheme = spec.Categories[0]
		}
	}
	return scheme, metric
}

// Tables is the [results.Tables] hook of tables.md and tables.csv: pass
// it to [results.StreamOutputs] with [results.WithTables]. The sink it
// returns collects the rows as results stream by, task by task, and
// keeps of them what the tables show (see [keptRows]): of each task its
// own columns and statistics (about 100 bytes, the columns of its
// workload and setting held once), and of each category with jobs under
// the table scheme its job count and the table metric's value (16 bytes).
// The tables are laid out from those: for a sweep of 100,000 tasks of 10
// jobs about 20 MB, where the task rows and the whole aggregates of the
// categories were about 195 MB.
func Tables(spec *sweep.Spec, n int) (results.TableSink, error) {
	return newTableSink(spec, n)
}

// tableSink is the [results.TableSink] of [Tables].
type tableSink struct {
	st *SweepTables
	s  *metrics.Scheme
}

func newTableSink(spec *sweep.Spec, n int) (*tableSink, error) {
	scheme, metric := tableScheme(spec)
	return newTableSinkOf(spec, n, scheme, metric)
}

// newTableSinkOf returns the sink of the tables of spec's n tasks by
// scheme and metric.
func newTableSinkOf(spec *sweep.Spec, n int, scheme, metric string) (*tableSink, error) {
	s, err := metrics.LookupScheme(scheme)
	if err != nil {
		return nil, err
	}
	if s.PerTask() {
		return nil, fmt.Errorf("scheme %s has one category per user of each task, no grid for the tables", scheme)
	}
	m, err := metrics.LookupMetric(metric)
	if err != nil {
		return nil, err
	}
	st := &SweepTables{Name: spec.Name, Description: spec.Description, Metric: metric, Scheme: scheme,
		kept: newKeptRows(s, m, n)}
	st.kept.scheme = scheme
	return &tableSink{s: s, st: st}, nil
}

// Scheme is the table scheme.
func (ts *tableSink) Scheme() *metrics.Scheme { return ts.s }

// Add adds the rows of the next task.
func (ts *tableSink) Add(row results.TaskRow, aggs []metrics.Aggregate) {
	ts.st.kept.add(&row, aggs)
}

// Files returns tables.md and tables.csv.
func (ts *tableSink) Files() []results.TableFile {
	return []results.TableFile{
		{Name: results.TablesMD, Write: ts.st.WriteMarkdown},
		{Name: results.TablesCSV, Write: ts.st.WriteCSV},
	}
}

// tables returns the tables of the rows added.
func (ts *tableSink) tables() *SweepTables { return ts.st }
