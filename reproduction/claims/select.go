package claims

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sweep"
)

// Outputs reads the outputs of a paper's reproduction: one folder per
// figure group, DIR/<group>/sweep/{summary,tasks,jobs}.parquet, as
// `schedfarm reproduce` writes them. Each file is read at most once, when
// a claim first needs it. Not safe for concurrent use.
type Outputs struct {
	// Dir is the paper's output folder (out/reproduce/<paper>).
	Dir string
	// Only, when not nil, limits the groups that count as having
	// outputs.
	Only      []string
	frames    map[string]*results.Frame
	want      map[string][]string // group/table -> columns claims read
	indexes   map[string]*frameIndex
	groupings map[groupKey]*grouping
}

// NewOutputs returns the outputs under dir.
func NewOutputs(dir string) *Outputs {
	return &Outputs{Dir: dir, frames: map[string]*results.Frame{}}
}

// SweepDir returns the sweep output folder of a group.
func (o *Outputs) SweepDir(group string) string {
	return filepath.Join(o.Dir, filepath.FromSlash(group), "sweep")
}

// Has reports whether the group has outputs (its summary.parquet exists).
func (o *Outputs) Has(group string) bool {
	if o.Only != nil && !slices.Contains(o.Only, group) {
		return false
	}
	_, err := os.Stat(filepath.Join(o.SweepDir(group), results.SummaryFile))
	return err == nil
}

// frame returns a group's table with at least the named columns (those
// the file has), reading it on first use and again when a claim needs
// columns not read yet.
func (o *Outputs) frame(group, table string, cols []string) (*results.Frame, error) {
	key := group + "/" + table
	f := o.frames[key]
	if f != nil {
		missing := false
		for _, c := range cols {
			_, num := f.Num[c]
			_, str := f.Str[c]
			missing = missing || (f.File[c] != "" && !num && !str)
		}
		if !missing {
			return f, nil
		}
	}
	want := append(slices.Clone(o.want[key]), cols...)
	if f != nil {
		for c := range f.Num {
			want = append(want, c)
		}
		for c := range f.Str {
			want = append(want, c)
		}
	}
	slices.Sort(want)
	want = slices.Compact(want)
	path := filepath.Join(o.SweepDir(group), table+".parquet")
	var err error
	if table == TableJobs {
		// The job rows take their task columns from tasks.parquet.
		var tf *results.Frame
		if tf, err = o.frame(group, TableTasks, nil); err == nil {
			f, err = results.ReadJobsFrame(path, tf.Tasks, want...)
		}
	} else {
		f, err = results.ReadFrame(path, want...)
	}
	if err != nil {
		return nil, err
	}
	o.frames[key] = f
	return f, nil
}

// columns returns the columns of its table a selection reads besides the
// task columns; along is a trend's key ("" for none).
func (s *Selection) columns(along string) []string {
	out := []string{s.Metric}
	switch t := s.table(); t {
	case TableSummary:
		out = append(out, "scheme", "category", "jobs")
	case TableTasks:
		out = append(out, "error")
	case TableJobs:
		if s.Scheme != "" {
			out = append(out, results.CategoryPrefix+s.Scheme)
		}
		if s.Per != "" {
			out = append(out, "submit")
		}
	}
	for _, w := range s.Where {
		out = append(out, w.Key)
	}
	if along != "" {
		out = append(out, along)
	}
	return out
}

// prepare records the columns every claim reads, so each table is read
// once with all of them.
func (o *Outputs) prepare(cs []Claim) {
	if o.want == nil {
		o.want = map[string][]string{}
	}
	for i := range cs {
		for _, s := range selectionsOf(&cs[i]) {
			key := s.s.Group + "/" + s.s.table()
			o.want[key] = append(o.want[key], s.s.columns(cs[i].Along)...)
		}
	}
}

// taskKeys are the task columns a where filter or along key names
// through report.Filter (besides policy parameters).
var taskKeys = sweep.TaskKeys

// frameTaskCols are task columns of the files that error messages leave
// out of the lists of columns (they are named by taskKeys, or are
// identifiers).
var frameTaskCols = []string{"task_id", "task_index", "sweep", "machine_procs", "seed", "params"}

// picked is the rows of one table a selection matches.
type picked struct {
	f    *results.Frame
	rows []int
	file string
}

// pick returns the rows a selection matches, or an error naming the first
// condition that leaves no row and the values it could have taken; along
// is a trend's key, read too.
func (o *Outputs) pick(s Selection, along string) (*picked, error) {
	t := s.table()
	f, err := o.frame(s.Group, t, s.columns(along))
	if err != nil {
		return nil, err
	}
	file := filepath.ToSlash(filepath.Join(s.Group, "sweep", t+".parquet"))
	if err := checkMetric(s, t, f, file); err != nil {
		return nil, err
	}
	k := key(s.Group, t)
	conds, err := selectionConds(s, t, f, file, o.index(k, f).params)
	if err != nil {
		return nil, err
	}
	if rows := o.matchingRows(k, t, f, conds); len(rows) > 0 {
		slices.Sort(rows)
		return &picked{f: f, rows: rows, file: file}, nil
	}
	return nil, noMatch(t, f, file, conds)
}

// checkMetric returns an error listing the numeric columns of f (of file)
// when the selection's metric is not one of them; the summary's share and
// count are computed, not read.
func checkMetric(s Selection, t string, f *results.Frame, file string) error {
	if s.Metric == "" || (t == TableSummary && (s.Metric == "share" || s.Metric == "count")) || f.File[s.Metric] == "num" {
		return nil
	}
	var have []string
	for _, k := range f.Columns() {
		if f.File[k] == "num" && !strings.HasPrefix(k, results.ParamPrefix) && !slices.Contains(frameTaskCols, k) {
			have = append(have, k)
		}
	}
	slices.Sort(have)
	return fmt.Errorf("%s has no numeric column %q (have: %s)", file, s.Metric, strings.Join(have, ", "))
}

// cond is one condition of a selection on the rows of a table.
type cond struct {
	name string
	// Exactly one of match (a row's column) and matchTask (a task
	// column, the same for all rows of a task) is set.
	match     func(i int) bool
	matchTask func(tc *results.TaskCols) bool
	value     func(i int) string
}

// passes reports whether row i of f passes c.
func (c *cond) passes(f *results.Frame, i int) bool {
	return (c.match != nil && c.match(i)) || (c.matchTask != nil && c.matchTask(f.Task(i)))
}

// selectionConds returns the conditions of a selection on table t (f, of
// file, whose tasks have the policy parameters params), in order: scheme
// and category, setting, then each where filter.
func selectionConds(s Selection, t string, f *results.Frame, file string, params map[string]bool) ([]cond, error) {
	var conds []cond
	switch t {
	case TableSummary:
		conds = append(conds, strCond(f, "scheme", "scheme", s.Scheme), strCond(f, "category", "category", s.Category))
	case TableJobs:
		if s.Scheme != "" && s.Category != metrics.Overall {
			col := results.CategoryPrefix + s.Scheme
			if f.Str[col] == nil {
				return nil, fmt.Errorf("%s has no column %s (the sweep did not report scheme %s)", file, col, s.Scheme)
			}
			conds = append(conds, strCond(f, s.Scheme+" category", col, s.Category))
		}
	}
	if s.Setting != "" {
		want := s.Setting
		conds = append(conds, cond{
			name:      fmt.Sprintf("setting %q", want),
			matchTask: func(tc *results.TaskCols) bool { return tc.Label == want },
			value:     func(i int) string { return f.Task(i).Label },
		})
	}
	for _, w := range s.Where {
		c, err := whereCond(w, f, file, params)
		if err != nil {
			return nil, err
		}
		conds = append(conds, c)
	}
	return conds, nil
}

// strCond is the condition that string column col of f is want, named
// name and want.
func strCond(f *results.Frame, name, col, want string) cond {
	vals := f.Str[col]
	return cond{
		name:  fmt.Sprintf("%s %q", name, want),
		match: func(i int) bool { return vals != nil && vals[i] == want },
		value: func(i int) string {
			if vals == nil {
				return ""
			}
			return vals[i]
		},
	}
}

// whereCond is the condition of where filter w on f (of file): on a task
// column or parameter, else on a numeric or string column of the table;
// an error lists the valid keys when it names none.
func whereCond(w Filter, f *results.Frame, file string, params map[string]bool) (cond, error) {
	name := w.Key + "=" + strings.Join(w.Values, "|")
	switch {
	case slices.Contains(taskKeys, w.Key) || params[w.Key]:
		return cond{
			name:      name,
			matchTask: w.Match,
			value:     func(i int) string { return taskValue(f.Task(i), w.Key) },
		}, nil
	case f.Num[w.Key] != nil:
		col := f.Num[w.Key]
		want := filterNumbers(w.Values)
		return cond{
			name:  name,
			match: func(i int) bool { return slices.Contains(want, col[i]) },
			value: func(i int) string { return fmtNum(col[i]) },
		}, nil
	case f.Str[w.Key] != nil:
		col := f.Str[w.Key]
		return cond{
			name:  name,
			match: func(i int) bool { return slices.Contains(w.Values, col[i]) },
			value: func(i int) string { return col[i] },
		}, nil
	}
	valid := slices.Clone(taskKeys)
	for k := range params {
		valid = append(valid, k)
	}
	for _, c := range f.Columns() {
		if !strings.HasPrefix(c, results.ParamPrefix) && !slices.Contains(frameTaskCols, c) {
			valid = append(valid, c)
		}
	}
	slices.Sort(valid)
	valid = slices.Compact(valid)
	return cond{}, fmt.Errorf("where %s: %s has no such column or parameter (valid: %s)", w.Key, file, strings.Join(valid, ", "))
}

// filterNumbers returns the values of a filter on a numeric column as
// numbers: a boolean is 0 or 1, and a value that is neither is left out.
func filterNumbers(values []string) []float64 {
	var want []float64
	for _, v := range values {
		x, err := strconv.ParseFloat(v, 64)
		if b, berr := strconv.ParseBool(v); berr == nil && err != nil {
			x = 0
			if b {
				x = 1
			}
			err = nil
		}
		if err == nil {
			want = append(want, x)
		}
	}
	return want
}

// failedTaskRow reports whether row i of table t is a failed task's,
// which has no figures (errs is the tasks' error column).
func failedTaskRow(t string, errs []string, i int) bool {
	return t == TableTasks && errs != nil && errs[i] != ""
}

// matchingRows returns the rows of table t (f, cached under cacheKey) that pass
// every condition, task by task: the task conditions are checked once per
// task, the others on the rows of the tasks that pass them, in file
// order.
func (o *Outputs) matchingRows(cacheKey, t string, f *results.Frame, conds []cond) []int {
	byTask := o.index(cacheKey, f).rows
	errs := f.Str["error"]
	var rows []int
	for k := range f.Tasks {
		if !passesTaskConds(conds, &f.Tasks[k]) {
			continue
		}
	row:
		for _, i32 := range byTask[k] {
			i := int(i32)
			if failedTaskRow(t, errs, i) {
				continue
			}
			for _, c := range conds {
				if c.match != nil && !c.match(i) {
					continue row
				}
			}
			rows = append(rows, i)
		}
	}
	return rows
}

// passesTaskConds reports whether a task passes every task condition.
func passesTaskConds(conds []cond, tc *results.TaskCols) bool {
	for _, c := range conds {
		if c.matchTask != nil && !c.matchTask(tc) {
			return false
		}
	}
	return true
}

// noMatch is the error of a selection no row of table t (f, of file)
// passes: the conditions are applied in order to name the first that
// leaves no row, with the values the rows before it have.
func noMatch(t string, f *results.Frame, file string, conds []cond) error {
	errs := f.Str["error"]
	rows := make([]int, 0, f.Len())
	for i := range f.Len() {
		if !failedTaskRow(t, errs, i) {
			rows = append(rows, i)
		}
	}
	if len(rows) == 0 {
		return fmt.Errorf("%s has no rows of successful tasks", file)
	}
	for _, c := range conds {
		kept := rows[:0:0]
		for _, i := range rows {
			if c.passes(f, i) {
				kept = append(kept, i)
			}
		}
		if len(kept) == 0 {
			var have []string
			for _, i := range rows {
				if v := c.value(i); !slices.Contains(have, v) {
					have = append(have, v)
				}
			}
			if len(have) > 12 {
				have = append(have[:12], "...")
			}
			return fmt.Errorf("%w: no row of %s with %s among the rows that pass the conditions before it (they have: %s)",
				ErrNoMatch, file, c.name, strings.Join(have, ", "))
		}
		rows = kept
	}
	return fmt.Errorf("%w: no row of %s passes all conditions", ErrNoMatch, file)
}

// key names a group's table in the caches of [Outputs].
func key(group, table string) string { return group + "/" + table }

// frameIndex is what every selection on one frame reads besides its
// columns: the rows of each task (indexed like f.Tasks, in file order)
// and the names of the tasks' policy parameters. Both are shared;
// callers must not modify them.
type frameIndex struct {
	f      *results.Frame
	rows   [][]int32
	params map[string]bool
}

// index returns the index of frame f (the table named k), computed once
// per frame: a table is read again, as a new frame, when a claim needs
// columns not read yet.
func (o *Outputs) index(k string, f *results.Frame) *frameIndex {
	if ix := o.indexes[k]; ix != nil && ix.f == f {
		return ix
	}
	ix := &frameIndex{f: f, rows: make([][]int32, len(f.Tasks)), params: map[string]bool{}}
	for i, t := range f.TaskOf {
		ix.rows[t] = append(ix.rows[t], int32(i))
	}
	for t := range f.Tasks {
		for name := range f.Tasks[t].ParamValues {
			ix.params[name] = true
		}
	}
	if o.indexes == nil {
		o.indexes = map[string]*frameIndex{}
	}
	o.indexes[k] = ix
	return ix
}

// taskValue returns a row's value of a task key or parameter as text.
func taskValue(tc *results.TaskCols, key string) string {
	switch key {
	case "trace":
		return tc.Trace
	case "policy":
		return tc.Policy
	case "label", "setting":
		return tc.Label
	case "estimates":
		return tc.Estimates
	case "load_mode":
		return tc.LoadMode
	case "load":
		return fmtNum(tc.Load)
	case "skip":
		return strconv.Itoa(tc.Skip)
	case "count":
		return strconv.Itoa(tc.Count)
	case "replication":
		return strconv.Itoa(tc.Replication)
	case "procs":
		return strconv.Itoa(tc.MachineProcs)
	case "sigma":
		if tc.Moldable {
			return fmtNum(tc.Sigma)
		}
		return ""
	case "range_factor":
		if tc.Moldable {
			return fmtNum(tc.RangeFactor)
		}
		return ""
	}
	if v, ok := tc.ParamValues[key]; ok {
		return fmt.Sprint(v)
	}
	return ""
}

// taskNumber returns a row's numeric value of a task key or parameter.
func taskNumber(tc *results.TaskCols, key string) (float64, bool) {
	switch key {
	case "load":
		return tc.Load, true
	case "skip":
		return float64(tc.Skip), true
	case "count":
		return float64(tc.Count), true
	case "replication":
		return float64(tc.Replication), true
	case "procs":
		return float64(tc.MachineProcs), true
	case "sigma":
		return tc.Sigma, tc.Moldable
	case "range_factor":
		return tc.RangeFactor, tc.Moldable
	}
	switch v := tc.ParamValues[key].(type) {
	case float64:
		return v, true
	case int64:
		return float64(v), true
	}
	return 0, false
}

// value returns the metric of row i (NaN for an empty category's
// statistics).
func (p *picked) value(s Selection, i int, overall map[string]float64) float64 {
	f := p.f
	if s.table() == TableSummary {
		jobs := f.Num["jobs"][i]
		switch s.Metric {
		case "count", "jobs":
			return jobs
		case "share":
			all := overall[f.Task(i).TaskID+"\x00"+f.Str["scheme"][i]]
			if all == 0 {
				return math.NaN()
			}
			return 100 * jobs / all
		}
		if jobs == 0 {
			return math.NaN()
		}
	}
	return f.Num[s.Metric][i]
}

// overallJobs maps task id + scheme to the task's number of jobs (the
// overall row of summary), for share.
func overallJobs(f *results.Frame) map[string]float64 {
	out := map[string]float64{}
	cats, schemes, jobs := f.Str["category"], f.Str["scheme"], f.Num["jobs"]
	for i := range f.Len() {
		if cats != nil && cats[i] == metrics.Overall {
			out[f.Task(i).TaskID+"\x00"+schemes[i]] = jobs[i]
		}
	}
	return out
}

// repValues returns the selection's value in each replication (in
// replication order), combining the rows of a replication by the
// selection's agg.
func (o *Outputs) repValues(s Selection) ([]float64, *picked, error) {
	if s.Per != "" {
		return o.perRepValues(s)
	}
	p, err := o.pick(s, "")
	if err != nil {
		return nil, nil, err
	}
	var overall map[string]float64
	if s.Metric == "share" {
		overall = overallJobs(p.f)
	}
	byRep := map[int][]int{}
	var reps []int
	for _, i := range p.rows {
		r := p.f.Task(i).Replication
		if _, ok := byRep[r]; !ok {
			reps = append(reps, r)
		}
		byRep[r] = append(byRep[r], i)
	}
	slices.Sort(reps)
	out := make([]float64, 0, len(reps))
	for _, r := range reps {
		rows := byRep[r]
		if s.Agg == "" {
			if len(rows) > 1 {
				return nil, nil, ambiguity(p, rows)
			}
			out = append(out, p.value(s, rows[0], overall))
			continue
		}
		if s.Agg == "count" {
			out = append(out, float64(len(rows)))
			continue
		}
		vals := make([]float64, 0, len(rows))
		for _, i := range rows {
			if v := p.value(s, i, overall); !math.IsNaN(v) {
				vals = append(vals, v)
			}
		}
		out = append(out, combine(s.Agg, vals))
	}
	return out, p, nil
}

// combine reduces values by mean, max, min, sum, median or cv (the
// population standard deviation over the mean); NaN when empty (0 for a
// sum).
func combine(how string, vals []float64) float64 {
	if len(vals) == 0 {
		if how == "sum" {
			return 0
		}
		return math.NaN()
	}
	switch how {
	case "median":
		v := slices.Clone(vals)
		slices.Sort(v)
		n := len(v)
		if n%2 == 0 {
			return (v[n/2-1] + v[n/2]) / 2
		}
		return v[n/2]
	case "cv":
		mean := combine("mean", vals)
		var ss float64
		for _, x := range vals {
			ss += (x - mean) * (x - mean)
		}
		if mean == 0 {
			return math.NaN()
		}
		return math.Sqrt(ss/float64(len(vals))) / mean
	}
	acc := vals[0]
	if how == "mean" || how == "" || how == "sum" {
		acc = 0
	}
	for _, v := range vals {
		switch how {
		case "max":
			acc = math.Max(acc, v)
		case "min":
			acc = math.Min(acc, v)
		default:
			acc += v
		}
	}
	if how == "mean" || how == "" {
		acc /= float64(len(vals))
	}
	return acc
}

// ambiguity describes rows of one replication that a selection without an
// agg cannot tell apart.
func ambiguity(p *picked, rows []int) error {
	return ambiguityHint(p, rows, "narrow it with setting or where, or combine them with agg")
}

// ambiguityHint is ambiguity with the advice to give.
func ambiguityHint(p *picked, rows []int, hint string) error {
	// The task keys (taskKeys, in their order, but replication: the rows
	// are of one), then the parameters in name order.
	var params []string
	for _, i := range rows {
		for k := range p.f.Task(i).ParamValues {
			if !slices.Contains(params, k) {
				params = append(params, k)
			}
		}
	}
	slices.Sort(params)
	keys := make([]string, 0, len(taskKeys)+len(params))
	for _, k := range taskKeys {
		if k != "replication" {
			keys = append(keys, k)
		}
	}
	var differ []string
	for _, key := range append(keys, params...) {
		var vals []string
		for _, i := range rows {
			if v := taskValue(p.f.Task(i), key); !slices.Contains(vals, v) {
				vals = append(vals, v)
			}
		}
		if len(vals) > 1 {
			differ = append(differ, fmt.Sprintf("%s (%s)", key, strings.Join(vals, ", ")))
		}
	}
	what := "which do not differ in their task columns"
	if len(differ) > 0 {
		what = "which differ in " + strings.Join(differ, " and ")
	}
	return fmt.Errorf("%w: %d rows of %s in one replication, %s; %s",
		ErrAmbiguous, len(rows), p.file, what, hint)
}

// Value returns the selection's number: its value per replication,
// combined by reps (mean by default). It fails when the selection matches
// nothing, matches several rows per replication without an agg, or only
// empty categories.
func (o *Outputs) Value(s Selection) (float64, error) {
	vals, _, err := o.repValues(s)
	if err != nil {
		return 0, err
	}
	var ok []float64
	for _, v := range vals {
		if !math.IsNaN(v) {
			ok = append(ok, v)
		}
	}
	if len(ok) == 0 {
		if s.table() == TableSummary {
			return 0, fmt.Errorf("%w: the selected category has no jobs in any replication", ErrNoMatch)
		}
		return 0, fmt.Errorf("%w: the selected value is null (or, with agg, no row has one) in every replication", ErrNoMatch)
	}
	how := s.Reps
	if how == "" {
		how = "mean"
	}
	return combine(how, ok), nil
}

// point is one point of a trend.
type point struct {
	at    string
	value measured
}

// series returns the selection's number at each point along key (its
// value, or with a baseline, form of its value and the baseline's at
// that point): at the given values in order, else at the distinct
// numeric values of the key among the selected rows, ascending.
func (o *Outputs) series(s Selection, key string, values []string, form string) ([]point, error) {
	if len(values) == 0 {
		p, err := o.pick(s, key)
		if err != nil {
			return nil, err
		}
		var nums []float64
		for _, i := range p.rows {
			x, ok := taskNumber(p.f.Task(i), key)
			if !ok {
				col := p.f.Num[key]
				if col == nil {
					return nil, fmt.Errorf("along %s: not a numeric task column, parameter or column of %s; list the points in values", key, p.file)
				}
				x = col[i]
			}
			if !slices.Contains(nums, x) {
				nums = append(nums, x)
			}
		}
		slices.Sort(nums)
		for _, x := range nums {
			values = append(values, strconv.FormatFloat(x, 'g', -1, 64))
		}
		if len(values) < 2 {
			return nil, fmt.Errorf("along %s: the selected rows have only one value (%s)", key, strings.Join(values, ""))
		}
	}
	out := make([]point, 0, len(values))
	for _, v := range values {
		x, err := o.measure(s.at(key, v), form)
		if err != nil {
			return nil, fmt.Errorf("at %s=%s: %w", key, v, err)
		}
		out = append(out, point{at: v, value: x})
	}
	return out, nil
}

// rowValues returns the value of every selected row (or, with an agg, of
// every replication), for invariants, with a description of each.
func (o *Outputs) rowValues(s Selection) ([]float64, []string, error) {
	if s.Agg != "" {
		vals, p, err := o.repValues(s)
		if err != nil {
			return nil, nil, err
		}
		_ = p
		desc := make([]string, len(vals))
		for i := range vals {
			desc[i] = fmt.Sprintf("replication %d", i)
		}
		return vals, desc, nil
	}
	p, err := o.pick(s, "")
	if err != nil {
		return nil, nil, err
	}
	var overall map[string]float64
	if s.Metric == "share" {
		overall = overallJobs(p.f)
	}
	var vals []float64
	var desc []string
	for _, i := range p.rows {
		v := p.value(s, i, overall)
		if math.IsNaN(v) {
			continue
		}
		tc := p.f.Task(i)
		vals = append(vals, v)
		desc = append(desc, fmt.Sprintf("task %d (%s, %s, load %s, replication %d)", tc.TaskIndex, tc.Label, tc.Trace, fmtNum(tc.Load), tc.Replication))
	}
	if len(vals) == 0 {
		return nil, nil, fmt.Errorf("%w: the selected rows are all empty categories", ErrNoMatch)
	}
	return vals, desc, nil
}
