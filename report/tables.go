package report

import (
	"fmt"
	"github.com/schedfarm/schedfarm/results"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sweep"
)

// Workload identifies the jobs a task simulates: its task columns without
// the policy, its parameters, the replication and the seed. Tasks of one
// workload and one setting are replications of each other.
type Workload struct {
	Trace string
	// Procs is the machine size (0 when unknown).
	Procs       int
	Skip, Count int
	Estimates   string
	LoadMode    string
	// Load is the load factor; 0 in a workload made by
	// [Workload.WithoutLoad].
	Load float64
	// Moldable marks a moldable workload with Downey variance Sigma and
	// range factor RangeFactor (both 0 for a rigid one).
	Moldable           bool
	Sigma, RangeFactor float64
}

// WorkloadOf returns the workload of a row's task columns.
func WorkloadOf(tc *results.TaskCols) Workload {
	return Workload{
		Trace: tc.Trace, Procs: tc.MachineProcs, Skip: tc.Skip, Count: tc.Count,
		Estimates: tc.Estimates, LoadMode: tc.LoadMode, Load: tc.Load,
		Moldable: tc.Moldable, Sigma: tc.Sigma, RangeFactor: tc.RangeFactor,
	}
}

// WithoutLoad returns w with Load 0: the key of the workloads that differ
// only in their load factor.
func (w Workload) WithoutLoad() Workload {
	w.Load = 0
	return w
}

// String describes the workload, for example "ctc, jobs 0+5000, 430
// processors, estimates accurate, load 1.2"; a duplicated load reads
// "load 1.2 duplicate", and Load 0 leaves the load out.
func (w Workload) String() string {
	var b strings.Builder
	b.WriteString(w.Trace)
	switch {
	case w.Count > 0:
		fmt.Fprintf(&b, ", jobs %d+%d", w.Skip, w.Count)
	case w.Skip > 0:
		fmt.Fprintf(&b, ", jobs %d+all", w.Skip)
	default:
		b.WriteString(", all jobs")
	}
	if w.Procs > 0 {
		fmt.Fprintf(&b, ", %d processors", w.Procs)
	}
	fmt.Fprintf(&b, ", estimates %s", w.Estimates)
	dup := w.LoadMode != "" && w.LoadMode != "arrival"
	switch {
	case w.Load != 0:
		fmt.Fprintf(&b, ", load %s", fmtFloat(w.Load))
		if dup {
			b.WriteString(" " + w.LoadMode)
		}
	case dup:
		fmt.Fprintf(&b, ", load mode %s", w.LoadMode)
	}
	if w.Moldable {
		fmt.Fprintf(&b, ", sigma %s, RF %s", fmtFloat(w.Sigma), fmtFloat(w.RangeFactor))
	}
	return b.String()
}

// Setting identifies a policy setting: a policy entry's label with one
// point of its parameter grid.
type Setting struct {
	Policy string
	Label  string
	// Params is the canonical name=value text of the parameters.
	Params string
	// Name is the display name: the label, followed by the parameters
	// that tell apart the settings sharing the label, for example
	// "SS (suspension_factor=1.5)". It is set by [Collate] and unique
	// within a [Collation].
	Name string
}

// SettingOf returns the setting of a row's task columns, without a Name.
func SettingOf(tc *results.TaskCols) Setting {
	label := tc.Label
	if label == "" {
		label = tc.Policy
	}
	return Setting{Policy: tc.Policy, Label: label, Params: tc.Params}
}

// fixedFilterKeys are the task columns [Filter] can select on besides the
// policy parameters: the task keys of [sweep.TaskKeys].
var fixedFilterKeys = sweep.TaskKeys

// Filter selects rows whose task column Key has one of Values. Key is
// one of trace, policy, label, estimates, load, load_mode, skip, count,
// replication, procs (the machine size), sigma, range_factor (never
// matching a rigid workload) or a policy parameter's name
// (with or without the "param_" prefix). A trace is its name in the
// outputs or a shipped trace's short name (ctc for CTC-SP2-1996-3.1-cln).
// Numbers compare as numbers (load 1 matches 1.0); a parameter filter
// never matches a row whose policy has no such parameter.
type Filter struct {
	Key    string
	Values []string
}

// ParseFilters parses "key=value" arguments; arguments with the same key
// merge into one Filter whose values are alternatives, and filters on
// different keys must all match.
func ParseFilters(args []string) ([]Filter, error) {
	var out []Filter
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		k = strings.TrimPrefix(strings.TrimSpace(k), results.ParamPrefix)
		if !ok || k == "" {
			return nil, fmt.Errorf("filter %q: want key=value", a)
		}
		if k == "machine_procs" {
			k = "procs"
		}
		v = strings.TrimSpace(v)
		switch k {
		case "load", "skip", "count", "replication", "procs", "sigma", "range_factor":
			if _, err := strconv.ParseFloat(v, 64); err != nil {
				return nil, fmt.Errorf("filter %q: %s takes a number", a, k)
			}
		}
		i := slices.IndexFunc(out, func(f Filter) bool { return f.Key == k })
		if i < 0 {
			out = append(out, Filter{Key: k})
			i = len(out) - 1
		}
		out[i].Values = append(out[i].Values, v)
	}
	return out, nil
}

// String returns the filter as key=value text, alternatives joined by "|".
func (f Filter) String() string { return f.Key + "=" + strings.Join(f.Values, "|") }

// Match reports whether a row's task columns pass the filter.
func (f Filter) Match(tc *results.TaskCols) bool {
	for _, v := range f.Values {
		if f.match1(tc, v) {
			return true
		}
	}
	return false
}

func (f Filter) match1(tc *results.TaskCols, v string) bool {
	num := func(x float64) bool {
		y, err := strconv.ParseFloat(v, 64)
		return err == nil && x == y
	}
	switch f.Key {
	case "trace":
		if f, ok := sweep.ShippedTraceFile(v); ok && tc.Trace == sweep.TraceName(f) {
			return true
		}
		return tc.Trace == v
	case "policy":
		return tc.Policy == v
	case "label":
		return tc.Label == v
	case "estimates":
		return tc.Estimates == v
	case "load_mode":
		return tc.LoadMode == v
	case "load":
		return num(tc.Load)
	case "skip":
		return num(float64(tc.Skip))
	case "count":
		return num(float64(tc.Count))
	case "replication":
		return num(float64(tc.Replication))
	case "procs":
		return num(float64(tc.MachineProcs))
	case "sigma":
		return tc.Moldable && num(tc.Sigma)
	case "range_factor":
		return tc.Moldable && num(tc.RangeFactor)
	}
	switch p := tc.ParamValues[f.Key].(type) {
	case float64:
		return num(p)
	case int64:
		return num(float64(p))
	case bool:
		b, err := strconv.ParseBool(v)
		return err == nil && b == p
	case string:
		return p == v
	}
	return false
}

// matchAll reports whether tc passes every filter.
func matchAll(fs []Filter, tc *results.TaskCols) bool {
	for _, f := range fs {
		if !f.Match(tc) {
			return false
		}
	}
	return true
}

// checkFilterKeys returns an error naming a filter key that is neither a
// fixed key nor a parameter of any row.
func checkFilterKeys(fs []Filter, summary summaryRows, tasks taskRows) error {
	if len(fs) == 0 {
		return nil
	}
	params := map[string]bool{}
	for tc := range summary {
		for k := range tc.ParamValues {
			params[k] = true
		}
	}
	for t := range tasks.each {
		for k := range t.ParamValues {
			params[k] = true
		}
	}
	for _, f := range fs {
		if slices.Contains(fixedFilterKeys, f.Key) || params[f.Key] {
			continue
		}
		valid := slices.Clone(fixedFilterKeys)
		for k := range params {
			valid = append(valid, k)
		}
		slices.Sort(valid[len(fixedFilterKeys):])
		return fmt.Errorf("unknown filter key %q (valid: %s)", f.Key, strings.Join(valid, ", "))
	}
	return nil
}

// CollateOptions choose what [Collate] gathers.
type CollateOptions struct {
	// Scheme is the category scheme (default: the first scheme of the
	// summary rows).
	Scheme string
	// Metric is one of [metrics.Metrics] (default "bsd_mean").
	Metric string
	// Where keeps the rows that pass every filter (default: all rows).
	Where []Filter
}

// DefaultMetric is the metric of tables and figures when none is given.
const DefaultMetric = "bsd_mean"

// Cell is one category of one (workload, setting) with its replications
// combined: metrics that are means are averaged over the replications in
// which the category has jobs, maxima take the maximum, job counts and
// shares are averaged over every replication.
type Cell struct {
	Category string
	// Row and Col are the grid cell; -1, -1 for the overall cell.
	Row, Col int
	// Jobs is the mean number of jobs of the category per replication.
	Jobs float64
	// Value is the metric; NaN when the category is empty in every
	// replication (never for a metric that counts jobs).
	Value float64
	// Half is the half-width of the 95% confidence interval of Value
	// across the replications with a value (Student's t, see
	// [metrics.MeanInterval]); NaN for fewer than two such replications
	// and for a maximum.
	Half float64
	// vals holds the metric in each replication, by replication number
	// (NaN where the category is empty or the replication is missing).
	vals []float64
}

// Collation is a sweep's results grouped by workload and setting, with
// the replications of each pair combined, for one scheme and metric.
// Workloads and settings are in order of first appearance (task order).
type Collation struct {
	Scheme    *metrics.Scheme
	Metric    *metrics.Metric
	Workloads []Workload
	Settings  []Setting
	pairs     map[[2]int]*pair
}

// pair holds the tasks of one (workload, setting).
type pair struct {
	cells    []Cell // categories in grid order, then overall; nil when no results
	reps     int
	repNums  []int // the replication number of each task of combine's reps
	failures []string
	util     []float64
	// acc accumulates the cells while replications are added (see
	// addRep); finish makes cells of it.
	acc []cellAcc
}

// cellAcc is a cell of a pair being combined: the sums over the
// replications added so far.
type cellAcc struct {
	jobs  float64 // job counts summed
	sum   float64 // values summed (not for a max metric)
	value float64 // the largest value (a max metric)
	used  int     // replications with a value
	vals  []float64
}

// Collate groups summary rows (and, when given, task rows: failures and
// utilization) by workload and setting. It fails when the scheme is not in
// the summary or when no row passes the filters.
func Collate(summary []results.SummaryRow, tasks []results.TaskRow, opts CollateOptions) (*Collation, error) {
	return collate(rowsOf(summary), taskRowsOf(tasks), opts)
}

// summaryRows yields summary rows one at a time: a row's task columns,
// with its scheme and aggregate. Rows of one task may share their task
// columns. The pointers stay valid as long as the rows' holder does,
// except those of rows that keep one metric (see [schemeAgg]): they are
// valid until the next row, and the rows of a task come one after the
// other.
type summaryRows func(yield func(tc *results.TaskCols, a schemeAgg) bool)

// schemeAgg is the aggregate of a summary row, with its scheme. A row
// kept for the tables of one metric (kept, not "") has in Aggregate only
// its category, grid cell and job count, and in value the metric kept,
// as [metrics.Metric.Value] gave it with the task's overall job count.
type schemeAgg struct {
	scheme string
	*metrics.Aggregate
	kept  string
	value float64
}

// metric returns m's value of the row; total is the job count of its
// task's overall row. A row that keeps another metric than m has its job
// count alone, enough for the metrics that count jobs: callers check that
// they ask such rows for the metric kept (see [SweepTables]).
func (a schemeAgg) metric(m *metrics.Metric, total int) float64 {
	if a.kept == m.Name {
		return a.value
	}
	return m.Value(a.Aggregate, total)
}

// taskRows yields n task rows one at a time; a row is valid until the
// next one.
type taskRows struct {
	n    int
	each func(yield func(*results.TaskRow) bool)
}

// taskRowsOf returns the rows of a slice of task rows.
func taskRowsOf(tasks []results.TaskRow) taskRows {
	return taskRows{n: len(tasks), each: func(yield func(*results.TaskRow) bool) {
		for i := range tasks {
			if !yield(&tasks[i]) {
				return
			}
		}
	}}
}

// rowsOf returns the rows of a slice of summary rows.
func rowsOf(summary []results.SummaryRow) summaryRows {
	return func(yield func(*results.TaskCols, schemeAgg) bool) {
		for i := range summary {
			r := &summary[i]
			if !yield(&r.TaskCols, schemeAgg{scheme: r.Scheme, Aggregate: &r.Aggregate}) {
				return
			}
		}
	}
}

// collate is [Collate] of summary rows given one at a time, so that they
// need not be held as [results.SummaryRow] values, each with a copy of its task's
// columns.
func collate(summary summaryRows, tasks taskRows, opts CollateOptions) (*Collation, error) {
	if opts.Metric == "" {
		opts.Metric = DefaultMetric
	}
	m, err := metrics.LookupMetric(opts.Metric)
	if err != nil {
		return nil, err
	}
	s, err := collateScheme(summary, tasks.n, opts.Scheme)
	if err != nil {
		return nil, err
	}
	if err := checkFilterKeys(opts.Where, summary, tasks); err != nil {
		return nil, err
	}
	c := &Collation{Scheme: s, Metric: m, pairs: map[[2]int]*pair{}}
	ix := newPairIndex(c, summary)
	ix.addTasks(tasks, opts.Where)
	if err := ix.gatherAggregates(summary, opts.Where); err != nil {
		return nil, err
	}
	if len(c.Workloads) == 0 {
		return nil, noResults(opts.Where)
	}
	for _, p := range c.pairs {
		p.finish(s, m)
	}
	nameSettings(c.Settings)
	return c, nil
}

// pairIndex finds the (workload, setting) pair of a task in a collation
// being built, adding its workload, setting and pair on first sight.
type pairIndex struct {
	c      *Collation
	procs  map[Workload]int // machine size of each workload (by its other fields)
	wIndex map[Workload]int
	sIndex map[Setting]int
}

// newPairIndex returns the pair index of c. A failed task knows its
// machine size only when the spec gave one: it gets the size its workload
// has in the successful tasks (those of summary).
func newPairIndex(c *Collation, summary summaryRows) *pairIndex {
	procs := map[Workload]int{}
	for tc := range summary {
		w := WorkloadOf(tc)
		n := w.Procs
		w.Procs = 0
		procs[w] = n
	}
	return &pairIndex{c: c, procs: procs, wIndex: map[Workload]int{}, sIndex: map[Setting]int{}}
}

// at returns the pair of the task with columns tc.
func (ix *pairIndex) at(tc *results.TaskCols) *pair {
	c := ix.c
	w, st := WorkloadOf(tc), SettingOf(tc)
	if w.Procs == 0 {
		w.Procs = ix.procs[w]
	}
	wi, ok := ix.wIndex[w]
	if !ok {
		wi = len(c.Workloads)
		ix.wIndex[w] = wi
		c.Workloads = append(c.Workloads, w)
	}
	si, ok := ix.sIndex[st]
	if !ok {
		si = len(c.Settings)
		ix.sIndex[st] = si
		c.Settings = append(c.Settings, st)
	}
	p := c.pairs[[2]int{wi, si}]
	if p == nil {
		p = &pair{}
		c.pairs[[2]int{wi, si}] = p
	}
	return p
}

// addTasks adds the tasks that pass where to their pairs: a failed task's
// failure, or a successful one's utilization.
func (ix *pairIndex) addTasks(tasks taskRows, where []Filter) {
	for t := range tasks.each {
		if !matchAll(where, &t.TaskCols) {
			continue
		}
		p := ix.at(&t.TaskCols)
		if t.Error != "" {
			p.failures = append(p.failures, fmt.Sprintf("task %d (replication %d) failed: %s", t.TaskIndex, t.Replication, describeErr(t.Error)))
			continue
		}
		p.util = append(p.util, t.Stats.Utilization)
	}
}

// gatherAggregates adds the aggregates of the collation's scheme of each
// task that passes where to the task's pair, by grid cell, one task at a
// time in the order tasks first appear (see [pair.addRep]). The rows of
// a task that keep one metric come one after the other and are added as
// the next task's begin; other rows may come in any order and are held
// until every row was seen.
func (ix *pairIndex) gatherAggregates(summary summaryRows, where []Filter) error {
	s, m := ix.c.Scheme, ix.c.Metric
	n := len(s.Rows) * len(s.Cols)
	// A task being gathered: its pair, replication and rows by grid cell,
	// then the overall one.
	type taskAggs struct {
		p    *pair
		rep  int
		aggs []schemeAgg
	}
	var (
		order  []*taskAggs
		byTask = map[string]*taskAggs{}
		// cur is the task whose kept rows are being gathered, aggs a
		// buffer of their aggregates.
		cur     *taskAggs
		curID   string
		curAggs []metrics.Aggregate
	)
	add := func(ta *taskAggs) {
		ta.p.repNums = append(ta.p.repNums, ta.rep)
		ta.p.addRep(ta.aggs, ta.rep, s, m)
	}
	for tc, a := range summary {
		if a.scheme != s.Name || !matchAll(where, tc) {
			continue
		}
		k := n
		if a.Row >= 0 {
			k = a.Row*len(s.Cols) + a.Col
			if a.Row >= len(s.Rows) || a.Col < 0 || a.Col >= len(s.Cols) {
				return fmt.Errorf("task %d: %s category %q at row %d col %d is outside the grid", tc.TaskIndex, s.Name, a.Category, a.Row, a.Col)
			}
		}
		var ta *taskAggs
		switch {
		case a.kept != "":
			if cur == nil || tc.TaskID != curID {
				if cur != nil {
					add(cur)
				} else {
					cur = &taskAggs{aggs: make([]schemeAgg, n+1)}
					curAggs = make([]metrics.Aggregate, n+1)
				}
				cur.p, cur.rep, curID = ix.at(tc), tc.Replication, tc.TaskID
				clear(cur.aggs)
			}
			ta = cur
			// The row's aggregate is valid until the next row: keep a
			// copy of its few fields.
			curAggs[k] = *a.Aggregate
			a.Aggregate = &curAggs[k]
		default:
			ta = byTask[tc.TaskID]
			if ta == nil {
				ta = &taskAggs{p: ix.at(tc), rep: tc.Replication, aggs: make([]schemeAgg, n+1)}
				byTask[tc.TaskID] = ta
				order = append(order, ta)
			}
		}
		ta.aggs[k] = a
	}
	if cur != nil {
		add(cur)
	}
	for _, ta := range order {
		add(ta)
	}
	return nil
}

// collateScheme returns the category scheme to collate: name's, or when
// name is "" the first scheme of the summary. It fails when there are no
// results (no summary row and no task rows) or when the summary has rows
// but none of the scheme.
func collateScheme(summary summaryRows, tasks int, name string) (*metrics.Scheme, error) {
	var have []string
	rows := 0
	for _, a := range summary {
		rows++
		if !slices.Contains(have, a.scheme) {
			have = append(have, a.scheme)
		}
	}
	if rows == 0 && tasks == 0 {
		return nil, fmt.Errorf("no results")
	}
	if name == "" {
		if len(have) == 0 {
			return nil, fmt.Errorf("no results: every task failed")
		}
		name = have[0]
		for _, h := range have { // the first with a fixed grid
			if sc, err := metrics.LookupScheme(h); err == nil && !sc.PerTask() {
				name = h
				break
			}
		}
	}
	s, err := metrics.LookupScheme(name)
	if err != nil {
		return nil, err
	}
	if s.PerTask() {
		return nil, fmt.Errorf("scheme %s has one category per user of each task, no grid to lay out: its rows are in summary.parquet (scheme = '%s')", name, name)
	}
	if !slices.Contains(have, s.Name) && rows > 0 {
		return nil, fmt.Errorf("scheme %s is not in the summary (have: %s)", s.Name, strings.Join(have, ", "))
	}
	return s, nil
}

// noResults is the error of a collation that no row passed: it names the
// filters, if any.
func noResults(where []Filter) error {
	if len(where) == 0 {
		return fmt.Errorf("no results")
	}
	var fs []string
	for _, f := range where {
		fs = append(fs, f.String())
	}
	return fmt.Errorf("no results match %s", strings.Join(fs, " and "))
}

// addRep adds a replication to p's cells: aggs holds the aggregates of
// scheme s's grid cells in grid order, then the overall one (a nil
// Aggregate where a category has no row), rep is its replication number.
// A cell's value is the mean over the replications with jobs in it (any
// replication for a metric that counts), or their largest for a max
// metric; its Jobs the mean job count (see finish).
func (p *pair) addRep(aggs []schemeAgg, rep int, s *metrics.Scheme, m *metrics.Metric) {
	n := len(s.Rows) * len(s.Cols)
	if p.acc == nil {
		p.acc = make([]cellAcc, n+1)
	}
	p.reps++
	total := orEmpty(aggs[n].Aggregate).Count
	for k := range p.acc {
		c := &p.acc[k]
		a := aggs[k]
		if a.Aggregate == nil {
			a = schemeAgg{Aggregate: &noAggregate}
		}
		c.jobs += float64(a.Count)
		if a.Count == 0 && !m.Counts {
			continue
		}
		v := a.metric(m, total)
		c.vals = setRep(c.vals, rep, v)
		c.used++
		if m.Max {
			if c.used == 1 || v > c.value {
				c.value = v
			}
		} else {
			c.sum += v
		}
	}
}

// finish sets p's cells from the replications added (none when no
// replication was).
func (p *pair) finish(s *metrics.Scheme, m *metrics.Metric) {
	if p.reps == 0 {
		return
	}
	p.cells = make([]Cell, len(p.acc))
	for k := range p.cells {
		c := &p.acc[k]
		cell := Cell{Category: metrics.Overall, Row: -1, Col: -1, Value: math.NaN(), vals: c.vals}
		if k < len(p.acc)-1 {
			cell.Row, cell.Col = k/len(s.Cols), k%len(s.Cols)
			cell.Category = s.Label(cell.Row, cell.Col)
		}
		if m.Max && c.used > 0 {
			cell.Value = c.value
		}
		cell.Jobs = c.jobs / float64(p.reps)
		if !m.Max && c.used > 0 {
			cell.Value = c.sum / float64(c.used)
		}
		cell.Half = math.NaN()
		if !m.Max {
			cell.Half = metrics.MeanInterval(cell.vals).Half
		}
		p.cells[k] = cell
	}
	p.acc = nil
}

// setRep sets vals[i] = v, growing vals with NaNs.
func setRep(vals []float64, i int, v float64) []float64 {
	for len(vals) <= i {
		vals = append(vals, math.NaN())
	}
	vals[i] = v
	return vals
}

// noAggregate is the aggregate of a category without a summary row.
var noAggregate metrics.Aggregate

// orEmpty returns a, or an empty aggregate when a is nil.
func orEmpty(a *metrics.Aggregate) *metrics.Aggregate {
	if a == nil {
		return &noAggregate
	}
	return a
}

// nameSettings sets the display names: the label, plus the parameters
// that differ among the settings sharing it.
func nameSettings(ss []Setting) {
	byLabel := map[string][]int{}
	for i := range ss {
		byLabel[ss[i].Label] = append(byLabel[ss[i].Label], i)
	}
	for _, idx := range byLabel {
		if len(idx) == 1 {
			ss[idx[0]].Name = ss[idx[0]].Label
			continue
		}
		parsed := make([]map[string]string, len(idx))
		var keys []string
		for n, i := range idx {
			parsed[n] = map[string]string{}
			for kv := range strings.SplitSeq(ss[i].Params, ",") {
				k, v, _ := strings.Cut(kv, "=")
				if k == "" {
					continue
				}
				parsed[n][k] = v
				if !slices.Contains(keys, k) {
					keys = append(keys, k)
				}
			}
		}
		slices.Sort(keys)
		var differ []string
		for _, k := range keys {
			for n := 1; n < len(parsed); n++ {
				if parsed[n][k] != parsed[0][k] {
					differ = append(differ, k)
					break
				}
			}
		}
		for n, i := range idx {
			var parts []string
			for _, k := range differ {
				parts = append(parts, k+"="+parsed[n][k])
			}
			if ss[i].Policy != ss[idx[0]].Policy || len(parts) == 0 {
				parts = append([]string{ss[i].Policy}, parts...)
			}
			ss[i].Name = ss[i].Label + " (" + strings.Join(parts, ", ") + ")"
		}
	}
}

// Cells returns the cells of workload wi under setting si: the scheme's
// categories in grid order, then the overall cell. It is nil when the pair
// has no successful replication.
func (c *Collation) Cells(wi, si int) []Cell {
	if p := c.pairs[[2]int{wi, si}]; p != nil {
		return p.cells
	}
	return nil
}

// Replications returns the number of successful replications of a pair.
func (c *Collation) Replications(wi, si int) int {
	if p := c.pairs[[2]int{wi, si}]; p != nil {
		return p.reps
	}
	return 0
}

// Failures describes the failed tasks of a pair (known only when Collate
// was given task rows).
func (c *Collation) Failures(wi, si int) []string {
	if p := c.pairs[[2]int{wi, si}]; p != nil {
		return p.failures
	}
	return nil
}

// Has reports whether a pair has any task, successful or failed.
func (c *Collation) Has(wi, si int) bool { return c.pairs[[2]int{wi, si}] != nil }

// Utilization returns the mean utilization of a pair's successful
// replications, or NaN when unknown (no task rows given, or every task
// failed).
func (c *Collation) Utilization(wi, si int) float64 {
	p := c.pairs[[2]int{wi, si}]
	if p == nil || len(p.util) == 0 {
		return math.NaN()
	}
	var sum float64
	for _, u := range p.util {
		sum += u
	}
	return sum / float64(len(p.util))
}

// FindSetting returns the index of the setting called name: its display
// name, else its label, else its policy name. It fails when none or
// several settings match.
func (c *Collation) FindSetting(name string) (int, error) {
	for _, by := range []func(s *Setting) string{
		func(s *Setting) string { return s.Name },
		func(s *Setting) string { return s.Label },
		func(s *Setting) string { return s.Policy },
	} {
		var hits []int
		for i := range c.Settings {
			if by(&c.Settings[i]) == name {
				hits = append(hits, i)
			}
		}
		switch len(hits) {
		case 0:
			continue
		case 1:
			return hits[0], nil
		default:
			var names []string
			for _, i := range hits {
				names = append(names, strconv.Quote(c.Settings[i].Name))
			}
			return 0, fmt.Errorf("%q matches several settings: %s", name, strings.Join(names, ", "))
		}
	}
	var names []string
	for i := range c.Settings {
		names = append(names, strconv.Quote(c.Settings[i].Name))
	}
	return 0, fmt.Errorf("no setting is called %q (have: %s)", name, strings.Join(names, ", "))
}

// Table layouts and comparisons of [TableOptions].
const (
	// LayoutGrid lays out one table per (workload, setting) as the
	// scheme's grid, like the papers' tables.
	LayoutGrid = "grid"
	// LayoutWide lays out one table per workload: a row per category and
	// the overall row, a column per setting.
	LayoutWide = "wide"
	// CompareRatio compares a value with the baseline's as value / baseline.
	CompareRatio = "ratio"
	// ComparePct compares as 100 x (value - baseline) / baseline.
	ComparePct = "pct"
	// CompareR is Lawson and Smirni's slowdown ratio R = (s1 - sm) /
	// min(s1, sm), s1 the baseline's value and sm the setting's: positive
	// when the setting is better (lower), symmetric in gains and losses.
	CompareR = "r"
)

// TableOptions choose the tables of [BuildTables].
type TableOptions struct {
	// Metric, Scheme and Where are as in [CollateOptions].
	Metric string
	Scheme string
	Where  []Filter
	// Baseline names a setting to compare the others with (see
	// [Collation.FindSetting]); "" compares nothing.
	Baseline string
	// Compare is [CompareRatio] (the default), [ComparePct] or
	// [CompareR]; it needs a Baseline.
	Compare string
	// Layout is [LayoutGrid] (the default) or [LayoutWide].
	Layout string
}

func (o *TableOptions) check() error {
	switch o.Layout {
	case "":
		o.Layout = LayoutGrid
	case LayoutGrid, LayoutWide:
	default:
		return fmt.Errorf("unknown layout %q (valid: %s, %s)", o.Layout, LayoutGrid, LayoutWide)
	}
	switch o.Compare {
	case "":
		o.Compare = CompareRatio
	case CompareRatio, ComparePct, CompareR:
		if o.Baseline == "" {
			return fmt.Errorf("compare %s needs a baseline", o.Compare)
		}
	default:
		return fmt.Errorf("unknown comparison %q (valid: %s, %s, %s)", o.Compare, CompareRatio, ComparePct, CompareR)
	}
	return nil
}

// Table is one rendered table with the values behind it.
type Table struct {
	// Section describes the workload; consecutive tables of one workload
	// share it.
	Section string
	// Title says what the table shows ("" for the only table of a
	// section).
	Title string
	// Rows are the cell texts, the header row first; nil when there is
	// nothing to show but notes.
	Rows [][]string
	// Notes are sentences shown under the table.
	Notes []string
	// Values are the numbers behind the cells, in long form.
	Values []TableValue
}

// TableValue is one number of a table: a metric of a category of one
// (workload, setting), and its comparison with the baseline.
type TableValue struct {
	Workload Workload
	Setting  Setting
	Scheme   string
	Category string
	Row, Col int
	// Reps is the number of replications combined; Jobs the mean number
	// of jobs in the category.
	Reps int
	Jobs float64
	// Metric names the metric; Value is NaN for an empty category.
	Metric string
	Value  float64
	// Baseline is the baseline setting's display name ("" when there is
	// none, and for the baseline's own values); BaselineValue its value
	// and Compared the comparison (NaN when undefined) by Compare.
	Baseline      string
	BaselineValue float64
	Compare       string
	Compared      float64
	// Half is Value's 95% confidence half-width across replications
	// (NaN for fewer than two, and for maxima). Diff and DiffHalf are
	// the paired difference from the baseline, setting - baseline
	// replication by replication, and its half-width (NaN without a
	// baseline or with fewer than two pairs).
	Half, Diff, DiffHalf float64
	// Failed is the number of failed replications of the (workload,
	// setting) and Errors describes them. A pair whose every replication
	// failed has one value, with an empty Category, Row and Col -1 and a
	// NaN Value.
	Failed int
	Errors string
}

// BuildTables lays out a sweep's results (task rows are optional: they
// add notes about failed tasks) as tables of the chosen metric per
// category, one section per workload.
func BuildTables(summary []results.SummaryRow, tasks []results.TaskRow, opts TableOptions) ([]Table, error) {
	return buildTables(rowsOf(summary), taskRowsOf(tasks), opts)
}

// buildTables is [BuildTables] of summary and task rows given one at a
// time.
func buildTables(summary summaryRows, tasks taskRows, opts TableOptions) ([]Table, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	c, err := collate(summary, tasks, CollateOptions{Scheme: opts.Scheme, Metric: opts.Metric, Where: opts.Where})
	if err != nil {
		return nil, err
	}
	base := -1
	if opts.Baseline != "" {
		if base, err = c.FindSetting(opts.Baseline); err != nil {
			return nil, fmt.Errorf("baseline: %w", err)
		}
	}
	b := &tableBuilder{c: c, opts: opts, base: base}
	var out []Table
	for wi := range c.Workloads {
		if opts.Layout == LayoutWide {
			if t, ok := b.wide(wi); ok {
				out = append(out, t)
			}
			continue
		}
		out = append(out, b.grids(wi)...)
	}
	return out, nil
}

type tableBuilder struct {
	c    *Collation
	opts TableOptions
	base int
}

// format formats a metric value; "-" for NaN.
func (b *tableBuilder) format(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf(b.c.Metric.Format, v)
}

// compare returns v compared with the baseline value bv (NaN when
// undefined).
func (b *tableBuilder) compare(v, bv float64) float64 {
	if math.IsNaN(v) || math.IsNaN(bv) || bv == 0 {
		return math.NaN()
	}
	switch b.opts.Compare {
	case ComparePct:
		return 100 * (v - bv) / bv
	case CompareR:
		return SlowdownRatio(bv, v)
	}
	return v / bv
}

// CompareWord describes a comparison: "ratio", "change in percent" or
// "R = (s1 - sm) / min(s1, sm)".
func CompareWord(compare string) string {
	switch compare {
	case ComparePct:
		return "change in percent"
	case CompareR:
		return "R = (s1 - sm) / min(s1, sm), s1 the baseline's value"
	}
	return "ratio"
}

// SlowdownRatio returns R = (s1 - sm) / min(s1, sm) (Lawson and Smirni
// 2002): s1 a baseline's value, sm the compared one's; NaN when either is
// NaN or the smaller is not positive.
func SlowdownRatio(s1, sm float64) float64 {
	lo := min(s1, sm)
	if math.IsNaN(s1) || math.IsNaN(sm) || lo <= 0 {
		return math.NaN()
	}
	return (s1 - sm) / lo
}

func (b *tableBuilder) formatCompared(x float64) string {
	switch {
	case math.IsNaN(x):
		return "-"
	case b.opts.Compare == ComparePct:
		// Round first so that a tiny change reads "+0.0%", not "-0.0%".
		return fmt.Sprintf("%+.1f%%", math.Round(x*10)/10+0)
	case b.opts.Compare == CompareR:
		return fmt.Sprintf("%+.3f", math.Round(x*1000)/1000+0)
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}

// compareWord names the comparison of s with the baseline.
func (b *tableBuilder) compareWord(s, base string) string {
	switch b.opts.Compare {
	case ComparePct:
		return s + " vs " + base + " (%)"
	case CompareR:
		return "R(" + s + " vs " + base + ")"
	}
	return s + " / " + base
}

// baseCells returns the baseline's cells in workload wi (nil when it has
// none there or there is no baseline).
func (b *tableBuilder) baseCells(wi int) []Cell {
	if b.base < 0 {
		return nil
	}
	return b.c.Cells(wi, b.base)
}

// values returns the long-form values of a pair, compared with base
// (which may be nil).
func (b *tableBuilder) values(wi, si int, cells, base []Cell) []TableValue {
	c := b.c
	fails := c.Failures(wi, si)
	if cells == nil {
		if len(fails) == 0 {
			return nil
		}
		cells = []Cell{{Row: -1, Col: -1, Value: math.NaN()}}
	}
	out := make([]TableValue, 0, len(cells))
	for k, cell := range cells {
		tv := TableValue{
			Workload: c.Workloads[wi], Setting: c.Settings[si], Scheme: c.Scheme.Name,
			Category: cell.Category, Row: cell.Row, Col: cell.Col,
			Reps: c.Replications(wi, si), Jobs: cell.Jobs, Metric: c.Metric.Name, Value: cell.Value,
			BaselineValue: math.NaN(), Compared: math.NaN(),
			Half: cell.Half, Diff: math.NaN(), DiffHalf: math.NaN(),
			Failed: len(fails), Errors: strings.Join(fails, "; "),
		}
		if cell.Category == "" {
			tv.Half = math.NaN()
		}
		if base != nil && cell.Category == "" {
			base = nil
		}
		if base != nil && si != b.base {
			tv.Baseline = c.Settings[b.base].Name
			tv.BaselineValue = base[k].Value
			tv.Compare = b.opts.Compare
			tv.Compared = b.compare(cell.Value, base[k].Value)
			if iv, ok := b.diff(cell, base[k]); ok {
				tv.Diff, tv.DiffHalf = iv.Mean, iv.Half
			}
		}
		out = append(out, tv)
	}
	return out
}

// repsNote says how replications were combined, or "" for one.
func (b *tableBuilder) repsNote(reps int) string {
	if reps <= 1 {
		return ""
	}
	how := "mean"
	if b.c.Metric.Max {
		how = "maximum"
	}
	return fmt.Sprintf(" (%s of %d replications)", how, reps)
}

// grids returns the grid tables of workload wi: the baseline first (when
// it has results there), then every other setting.
func (b *tableBuilder) grids(wi int) []Table {
	c := b.c
	section := c.Workloads[wi].String()
	base := b.baseCells(wi)
	order := make([]int, 0, len(c.Settings))
	if b.base >= 0 && c.Has(wi, b.base) {
		order = append(order, b.base)
	}
	for si := range c.Settings {
		if si != b.base && c.Has(wi, si) {
			order = append(order, si)
		}
	}
	var out []Table
	for _, si := range order {
		st := c.Settings[si]
		t := Table{Section: section, Title: st.Name}
		cells := c.Cells(wi, si)
		compared := base != nil && si != b.base
		if compared {
			t.Title = b.compareWord(st.Name, c.Settings[b.base].Name)
		}
		if cells != nil {
			cellText := func(k int) string {
				if !compared {
					return b.valueText(cells[k])
				}
				cmp := b.formatCompared(b.compare(cells[k].Value, base[k].Value))
				if d := b.diffText(cells[k], base[k]); d != "" {
					cmp += "; " + d
				}
				return fmt.Sprintf("%s / %s (%s)", b.valueText(cells[k]), b.valueText(base[k]), cmp)
			}
			s := c.Scheme
			t.Rows = metrics.GridText(s, func(i, j int) string { return cellText(i*len(s.Cols) + j) })
			all := len(cells) - 1
			t.Notes = append(t.Notes, fmt.Sprintf("Overall: %s over %s jobs%s.", cellText(all),
				fmtJobs(cells[all].Jobs), b.repsNote(c.Replications(wi, si))))
			if compared {
				word := CompareWord(b.opts.Compare)
				t.Notes = append(t.Notes, fmt.Sprintf("Cells: %s / %s (%s).", st.Name, c.Settings[b.base].Name, word))
			}
			if n := b.intervalNote(cells, base, compared); n != "" {
				t.Notes = append(t.Notes, n)
			}
		}
		t.Values = b.values(wi, si, cells, base)
		t.Notes = append(t.Notes, c.Failures(wi, si)...)
		out = append(out, t)
	}
	return out
}

// wide returns the wide table of workload wi: a row per category and the
// overall row, a column per setting (and per comparison).
func (b *tableBuilder) wide(wi int) (Table, bool) {
	c := b.c
	t := Table{Section: c.Workloads[wi].String()}
	base := b.baseCells(wi)
	var cols []int // settings with results, the baseline first
	if base != nil {
		cols = append(cols, b.base)
	}
	var failedOnly []int // settings whose every replication failed
	for si := range c.Settings {
		switch {
		case si == b.base && base != nil:
		case c.Cells(wi, si) != nil && si != b.base:
			cols = append(cols, si)
		case c.Has(wi, si):
			failedOnly = append(failedOnly, si)
		}
		t.Notes = append(t.Notes, c.Failures(wi, si)...)
	}
	for _, si := range failedOnly {
		t.Values = append(t.Values, b.values(wi, si, nil, nil)...)
	}
	if len(cols) == 0 {
		return t, len(t.Notes) > 0
	}
	head := []string{"category"}
	withJobs := !c.Metric.Counts
	if withJobs {
		head = append(head, "jobs")
	}
	for _, si := range cols {
		head = append(head, c.Settings[si].Name)
		if base != nil && si != b.base {
			head = append(head, b.compareWord(c.Settings[si].Name, c.Settings[b.base].Name))
		}
	}
	t.Rows = append(t.Rows, head)
	first := c.Cells(wi, cols[0])
	for k := range first {
		label := first[k].Category
		if label == metrics.Overall {
			label = "overall"
		}
		row := []string{label}
		if withJobs {
			row = append(row, fmtJobs(first[k].Jobs))
		}
		for _, si := range cols {
			cell := c.Cells(wi, si)[k]
			row = append(row, b.valueText(cell))
			if base != nil && si != b.base {
				cmp := b.formatCompared(b.compare(cell.Value, base[k].Value))
				if d := b.diffText(cell, base[k]); d != "" {
					cmp += "; " + d
				}
				row = append(row, cmp)
			}
		}
		t.Rows = append(t.Rows, row)
	}
	var reps []string
	note := ""
	for _, si := range cols {
		if n := b.intervalNote(c.Cells(wi, si), base, base != nil && si != b.base); len(n) > len(note) {
			note = n
		}
		t.Values = append(t.Values, b.values(wi, si, c.Cells(wi, si), base)...)
		if n := c.Replications(wi, si); n > 1 {
			reps = append(reps, fmt.Sprintf("%s %d", c.Settings[si].Name, n))
		}
	}
	if len(reps) > 0 {
		how := "Means"
		if c.Metric.Max {
			how = "Maxima"
		}
		head := []string{fmt.Sprintf("%s over replications: %s.", how, strings.Join(reps, ", "))}
		if note != "" {
			head = append(head, note)
		}
		t.Notes = append(head, t.Notes...)
	}
	return t, true
}

// valueText formats a cell's value, with " ± " and its 95% confidence
// half-width across replications when it has one.
func (b *tableBuilder) valueText(cell Cell) string {
	if math.IsNaN(cell.Half) || math.IsNaN(cell.Value) {
		return b.format(cell.Value)
	}
	return b.format(cell.Value) + " ± " + b.format(cell.Half)
}

// diff returns the paired difference of cell from the baseline's cell,
// replication by replication, and whether it has an interval (two pairs
// or more; never for a maximum).
func (b *tableBuilder) diff(cell, base Cell) (metrics.Interval, bool) {
	if b.c.Metric.Max {
		return metrics.Interval{}, false
	}
	iv := metrics.PairedDifference(cell.vals, base.vals)
	return iv, !math.IsNaN(iv.Half)
}

// diffText formats the paired difference of cell from the baseline's,
// "diff +d ± h" with " *" where the interval excludes 0; "" without an
// interval.
func (b *tableBuilder) diffText(cell, base Cell) string {
	iv, ok := b.diff(cell, base)
	if !ok {
		return ""
	}
	f := b.c.Metric.Format
	t := "diff " + fmt.Sprintf(strings.Replace(f, "%", "%+", 1), iv.Mean+0) + " ± " + fmt.Sprintf(f, iv.Half)
	if iv.Excludes0() {
		t += " *"
	}
	return t
}

// intervalNote says what the intervals of a table's cells are, or ""
// when none has one.
func (b *tableBuilder) intervalNote(cells, base []Cell, compared bool) string {
	halves, diffs := false, false
	for k := range cells {
		halves = halves || !math.IsNaN(cells[k].Half)
		if compared && k < len(base) {
			_, ok := b.diff(cells[k], base[k])
			diffs = diffs || ok
		}
	}
	if !halves && !diffs {
		return ""
	}
	n := "± is the 95% confidence half-width of the mean across replications, Student's t"
	if diffs {
		n += "; diff is the paired difference from " + b.c.Settings[b.base].Name +
			" (setting - baseline, replication by replication) with its half-width, * where the interval excludes 0"
	}
	return n + " (docs/statistics.md)."
}

// fmtFloat formats a number in its shortest exact form ("1.2", "5000").
func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// fmtJobs formats a (mean) number of jobs: whole numbers as integers,
// others with one decimal.
func fmtJobs(v float64) string {
	if v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// describeErr shortens an error for a table cell: its first line.
func describeErr(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}
