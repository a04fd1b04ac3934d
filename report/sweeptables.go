package report

import (
	"encoding/csv"
	"fmt"
	"github.com/schedfarm/schedfarm/results"
	"io"
	"math"
	"strconv"
	"strings"

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

	// byTask, when not nil, holds the summary rows instead of Summary,
	// without a copy of their task's columns each. The tables made while
	// outputs are written keep their rows so.
	byTask *taskAggregates
}

// taskAggregates are the summary rows of a sweep's tables, task by task:
// Tasks[i]'s rows are the next n[i] aggregates of blocks (of scheme
// scheme). A category without jobs has no row: the tables show the same
// for a category whose aggregate has a count of 0 (all its figures are 0)
// as for a category without a row, and a sweep of small tasks has mostly
// empty categories. Blocks of a fixed size hold the aggregates, so that
// they are neither allocated for every category of every task up front
// nor copied as they grow.
type taskAggregates struct {
	scheme string
	blocks [][]metrics.Aggregate
	n      []int32
}

// aggBlock is the number of aggregates per block of [taskAggregates].
const aggBlock = 4096

// add adds the rows of the next task: the aggregates of aggs whose
// category has jobs, and the overall one.
func (ta *taskAggregates) add(aggs []metrics.Aggregate) {
	n := 0
	for i := range aggs {
		a := &aggs[i]
		if a.Count == 0 && a.Row >= 0 {
			continue
		}
		last := len(ta.blocks) - 1
		if last < 0 || len(ta.blocks[last]) == aggBlock {
			ta.blocks = append(ta.blocks, make([]metrics.Aggregate, 0, aggBlock))
			last++
		}
		ta.blocks[last] = append(ta.blocks[last], *a)
		n++
	}
	ta.n = append(ta.n, int32(n))
}

// rows returns the summary rows of the tables.
func (st *SweepTables) rows() summaryRows {
	if st.byTask == nil {
		return rowsOf(st.Summary)
	}
	ta := st.byTask
	return func(yield func(*results.TaskCols, schemeAgg) bool) {
		b, j := 0, 0 // the next aggregate: ta.blocks[b][j]
		for i, n := range ta.n {
			tc := &st.Tasks[i].TaskCols
			for range n {
				if j == len(ta.blocks[b]) {
					b, j = b+1, 0
				}
				if !yield(tc, schemeAgg{ta.scheme, &ta.blocks[b][j]}) {
					return
				}
				j++
			}
		}
	}
}

// WriteMarkdown writes tables.md: an overview with one line per task,
// the job mix of each distinct job set, the metric per category of every
// (workload, setting) laid out as the scheme's grid, and, when a workload
// has several settings, one table per workload comparing them.
func (st *SweepTables) WriteMarkdown(w io.Writer) error {
	c, err := collate(st.rows(), st.Tasks, CollateOptions{Scheme: st.Scheme, Metric: st.Metric})
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
	grids, err := buildTables(st.rows(), st.Tasks, opts)
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
		wide, err := buildTables(st.rows(), st.Tasks, opts)
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
	grids, err := buildTables(st.rows(), st.Tasks, TableOptions{Metric: st.Metric, Scheme: st.Scheme})
	if err != nil {
		return err
	}
	return WriteTablesCSV(w, grids)
}

// overview returns the overview table: one line per task with its
// overall metric, utilization and makespan.
func (st *SweepTables) overview(s *metrics.Scheme, m *metrics.Metric) [][]string {
	overall := map[string]*metrics.Aggregate{}
	for tc, a := range st.rows() {
		if a.scheme == s.Name && a.Category == metrics.Overall {
			overall[tc.TaskID] = a.Aggregate
		}
	}
	rows := [][]string{{"task", "trace", "jobs", "estimates", "load", "policy", "params", "rep", m.Name, "utilization", "makespan (s)"}}
	for i := range st.Tasks {
		t := &st.Tasks[i]
		load := fmtFloat(t.Load)
		if t.LoadMode != sweep.DefaultLoadMode {
			load += " " + t.LoadMode
		}
		row := []string{strconv.Itoa(t.TaskIndex), t.Trace, strconv.Itoa(t.Stats.Jobs), t.Estimates, load, t.Label, t.Params, strconv.Itoa(t.Replication)}
		a := overall[t.TaskID]
		switch {
		case t.Error != "":
			row = append(row, "failed: "+describeErr(t.Error), "", "")
		case a == nil:
			row = append(row, "-", "", "")
		default:
			row = append(row, fmt.Sprintf(m.Format, m.Value(a, a.Count)),
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
// returns collects the rows as results stream by: one task row per task
// and the summary rows of the table scheme, the same rows the Parquet
// files hold. It keeps each summary row's aggregate alone (with the
// number of rows of each task), not a copy of its task's columns, and
// the tables take the rows in that form (see [SweepTables] and
// [taskAggregates]): for a sweep of 10,000 tasks under a scheme of 16
// categories that is at most 23 MB (136 bytes per aggregate, fewer for
// tasks whose categories are partly empty), where [results.SummaryRow]
// values were 65 MB more.
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
	s, err := metrics.LookupScheme(scheme)
	if err != nil {
		return nil, err
	}
	if _, err := metrics.LookupMetric(metric); err != nil {
		return nil, err
	}
	// One task row per task, allocated once rather than grown by
	// doubling; the summary rows grow by blocks.
	return &tableSink{s: s,
		st: &SweepTables{Name: spec.Name, Description: spec.Description, Metric: metric, Scheme: scheme,
			Tasks:  make([]results.TaskRow, 0, n),
			byTask: &taskAggregates{scheme: s.Name, n: make([]int32, 0, n)}}}, nil
}

// Scheme is the table scheme.
func (ts *tableSink) Scheme() *metrics.Scheme { return ts.s }

// Add adds the rows of the next task.
func (ts *tableSink) Add(row results.TaskRow, aggs []metrics.Aggregate) {
	ts.st.Tasks = append(ts.st.Tasks, row)
	ts.st.byTask.add(aggs)
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
