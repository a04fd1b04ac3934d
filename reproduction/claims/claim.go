package claims

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/report"
)

// Kind is what a claim asserts.
type Kind string

// The kinds of claims.
const (
	// KindValue: one selected number is close to the paper's.
	KindValue Kind = "value"
	// KindRatio: a comparison of two selections (a / b, or the form
	// chosen) is close to, or within, the paper's.
	KindRatio Kind = "ratio"
	// KindOrder: a < b (or <=, >, >=), optionally a against factor x b.
	KindOrder Kind = "order"
	// KindMonotonic: a selection increases or decreases along a
	// parameter, a task column or an ordered list of categories.
	KindMonotonic Kind = "monotonic"
	// KindInvariant: every selected row satisfies the expectation
	// exactly, in every replication (for example zero deadline misses).
	KindInvariant Kind = "invariant"
	// KindCount: an order (a against factor x b) holds for a number of
	// the values of a key, such as "in most of the categories": the
	// count of values where it holds must satisfy the expectation.
	KindCount Kind = "count"
)

// Kinds lists the kinds in documentation order.
var Kinds = []Kind{KindValue, KindRatio, KindOrder, KindMonotonic, KindInvariant, KindCount}

// Output tables a selection reads: the files of a sweep's output
// directory.
const (
	TableSummary = "summary" // summary.parquet: one row per (task, scheme, category)
	TableTasks   = "tasks"   // tasks.parquet: one row per task
	TableJobs    = "jobs"    // jobs.parquet: one row per (task, job); needs an agg
)

// Aggregations of the rows a selection matches within one replication.
var aggs = []string{"mean", "max", "min", "sum", "count", "median", "cv"}

// Groupings of job rows a selection can combine per batch or per week
// (Per), and how the per-group values are combined (Over, Across).
const (
	PerBatch = "batch" // consecutive batches of Batch jobs in submit order
	PerWeek  = "week"  // weeks of submit time from the task's first job
)

// DefaultBatch is the batch size of a per-batch selection without batch.
const DefaultBatch = 1000

// overs combine the per-batch or per-week values of one task: the aggs,
// and for signed values (a pairwise ratio) pos_share and neg_share (the
// fraction of groups above and below 0) and pos_minus_neg (the mean of
// the positive values minus the mean magnitude of the negative ones).
var overs = []string{"mean", "max", "min", "sum", "count", "median", "cv", "pos_share", "neg_share", "pos_minus_neg"}

// acrosses combine the per-task numbers of a per-group selection that
// matches several tasks in one replication.
var acrosses = []string{"mean", "max", "min", "sum", "median", "cv"}

// Ratio forms: how a ratio claim compares a with b.
var forms = []string{"ratio", "pct", "diff", "sym"}

// Claim is one statement of a paper with the selection it reads and how it
// is graded. Fields not used by its kind are zero.
type Claim struct {
	// ID is unique in its file; a claim expanded by each gets
	// "id[value,...]".
	ID string
	// Figure is the figure or table the claim comes from ("Table 4",
	// "Fig 7").
	Figure string
	// Quote is the paper's words, at most one sentence.
	Quote string
	Kind  Kind
	// Must marks a claim whose failure is a defect of the project, not a
	// finding: a must claim that does not agree fails the reproduction.
	Must bool
	// Reason explains why the claim does not agree; required (by the
	// scorecard, not the parser) when it does not.
	Reason string
	// Select is the selection of value, monotonic and invariant claims;
	// for ratio and order claims, A and B are Select with their own
	// fields laid over it.
	Select Selection
	A, B   Selection
	// Form is how a ratio claim compares a with b: ratio (a/b, default),
	// pct (100 (a-b)/b), diff (a-b) or sym ((a-b)/min(a,b)). In an order
	// or monotonic claim whose selections have a baseline, it is how each
	// compares its value with its baseline's.
	Form string
	// Pairwise: a ratio claim over per-batch or per-week selections
	// compares a with b group by group (the same batch or week of the same
	// workload), then combines the comparisons by the selection's Over.
	Pairwise bool
	// Op and Factor: an order claim holds when a Op Factor x b; a count
	// claim counts the values of Along at which it holds.
	Op     string
	Factor float64
	// Along, Values, Direction and Spearman describe a monotonic claim:
	// the key the trend runs along, its points in order (default: the
	// key's numeric values ascending), "increasing" or "decreasing", and
	// the Spearman rank correlation the trend must reach (0: none). A
	// count claim sets Along to each of Values in both of its sides.
	Along     string
	Values    []string
	Direction string
	Spearman  float64
	// Expected is the paper's number or the range it implies; for a
	// count claim, the number of values at which the order must hold
	// ("> 8": more than half of 16).
	Expected Expect
	// Grade holds the tolerances (see docs/claims.md for their meaning
	// per kind).
	Grade Grade
	// SingleRun marks a value claim whose expected number is the paper's
	// single run: instead of comparing it with our replications' mean by
	// a tolerance, it asks whether it is a plausible draw from our
	// replications (see gradeSingleRun). Grade is not used.
	SingleRun bool
	// Word is the paper's word for the claim, from the vocabulary
	// ([Vocabulary]); its rule grades the claim unless Departure says why
	// the claim keeps tolerances of its own.
	Word string
	// Class is what the claim is about: a result, a setup check or an
	// invariant. Only results count in the reproduction figures.
	Class Class
	// Departure, when set, says why the claim departs from its word's
	// rule; the claim is then graded by its own encoding, and the
	// scorecard lists it.
	Departure string
	// Source is the claim's id before each expanded it; every expansion
	// of one claim shares it.
	Source string
	// Line is the claim's line in its file.
	Line int
}

// Selection picks numbers from a reproduction's outputs: the rows of one
// output table of one figure group, and a metric column.
type Selection struct {
	// Group is the figure group (the recipe name without the paper, e.g.
	// "fig07-14").
	Group string
	// Table is summary, tasks or jobs; default summary when a scheme or
	// category is given, else tasks.
	Table string
	// Metric is a column of the table (bsd_mean, utilization, ...), or
	// "share" (percent of the task's jobs) in summary.
	Metric string
	// Scheme and Category choose the category rows of summary (or the
	// cat_<scheme> column of jobs); category "all" is the overall row.
	Scheme, Category string
	// Setting is the policy setting's label (the spec's label, else the
	// policy name).
	Setting string
	// Where filters on task columns (trace, load, estimates, load_mode,
	// procs, skip, count, replication, policy), policy parameters, or any
	// other column of the table; several values are alternatives.
	Where []Filter
	// Agg combines the rows matched in one replication: mean, max, min,
	// sum, count, median or cv. Without it a selection must match one row per
	// replication. Required for jobs.
	Agg string
	// Reps combines the replications: mean (default), max, min, or cv
	// (their population standard deviation over their mean: how much
	// the number varies from run to run).
	Reps string
	// Per groups a jobs selection's rows of each task by batch (Batch
	// consecutive jobs in submit order, the final partial batch dropped)
	// or by week of submit time; Agg then combines the rows of each
	// group and Over the groups' values into the task's number.
	Per string
	// Batch is the batch size of Per batch (default DefaultBatch).
	Batch int
	// Over combines a task's per-group values (see overs); required with
	// Per.
	Over string
	// Across combines the numbers of the tasks a per-group selection
	// matches in one replication; without it a per-group selection must
	// match one task per replication.
	Across string
	// Baseline, when not nil, makes the selection's number a comparison:
	// its value against the value of the selection with Baseline's fields
	// laid over it, in the claim's form (the percent change from NS, for
	// example). Only the sides of order claims and the selection of
	// monotonic claims have one.
	Baseline *Selection
}

// plain returns s without its baseline: the selection whose value is
// compared.
func (s Selection) plain() Selection {
	s.Baseline = nil
	return s
}

// base returns the selection s is compared with: s with its baseline's
// fields laid over it. s must have a baseline.
func (s Selection) base() Selection {
	return s.plain().overlay(*s.Baseline)
}

// at returns s with key set to v: the category, the setting (key setting
// or label), or else a where filter on key. It places a trend's points
// and a count claim's values.
func (s Selection) at(key, v string) Selection {
	switch key {
	case "category":
		return s.overlay(Selection{Category: v})
	case "setting", "label":
		return s.overlay(Selection{Setting: v})
	}
	return s.overlay(Selection{Where: []Filter{{Key: key, Values: []string{v}}}})
}

// Filter is one where entry: a key and its alternative values. It is the
// filter of the tables and figures (report.Filter), so a claim selects
// the task rows a table with the same where shows; keys that are no task
// column or parameter select on the table's own columns ([Selection]).
type Filter = report.Filter

// overlay returns s with the fields set in o laid over it; where filters
// merge by key, o's winning.
func (s Selection) overlay(o Selection) Selection {
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&s.Group, o.Group)
	set(&s.Table, o.Table)
	set(&s.Metric, o.Metric)
	set(&s.Scheme, o.Scheme)
	set(&s.Category, o.Category)
	set(&s.Setting, o.Setting)
	set(&s.Agg, o.Agg)
	set(&s.Reps, o.Reps)
	set(&s.Per, o.Per)
	set(&s.Over, o.Over)
	set(&s.Across, o.Across)
	if o.Batch != 0 {
		s.Batch = o.Batch
	}
	s.Where = mergeWhere(s.Where, o.Where)
	if o.Baseline != nil {
		var b Selection
		if s.Baseline != nil {
			b = *s.Baseline
		}
		b = b.overlay(*o.Baseline)
		s.Baseline = &b
	}
	return s
}

func mergeWhere(base, over []Filter) []Filter {
	out := make([]Filter, 0, len(base)+len(over))
	for _, f := range base {
		replaced := false
		for _, g := range over {
			if g.Key == f.Key {
				replaced = true
			}
		}
		if !replaced {
			out = append(out, f)
		}
	}
	return append(out, over...)
}

// table returns the table the selection reads.
func (s *Selection) table() string {
	switch {
	case s.Table != "":
		return s.Table
	case s.Scheme != "" || s.Category != "":
		return TableSummary
	}
	return TableTasks
}

// String describes the selection as key=value words, for example
// "group=table4-5 metric=bsd_mean scheme=ss16 category=VS Seq setting=NS trace=ctc",
// and its baseline's fields, "baseline=(setting=NS)".
func (s Selection) String() string {
	words := s.words(s.table())
	if s.Baseline != nil {
		words += " baseline=(" + s.Baseline.words(s.Baseline.Table) + ")"
	}
	return words
}

// words describes the selection's fields as key=value words, with table
// as its table ("" for none).
func (s Selection) words(table string) string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	add("group", s.Group)
	add("table", table)
	add("metric", s.Metric)
	add("scheme", s.Scheme)
	add("category", s.Category)
	add("setting", s.Setting)
	for _, f := range s.Where {
		add(f.Key, strings.Join(f.Values, "|"))
	}
	add("agg", s.Agg)
	add("per", s.Per)
	if s.Batch != 0 {
		add("batch", strconv.Itoa(s.Batch))
	}
	add("over", s.Over)
	add("across", s.Across)
	add("reps", s.Reps)
	return strings.Join(parts, " ")
}

// Expect is what the paper says: a number (Target) or a range with
// optional open ends.
type Expect struct {
	// Set reports whether an expectation was given.
	Set bool
	// IsTarget: the paper gives a number; ours is graded by its distance
	// to Target.
	IsTarget bool
	Target   float64
	// Lo and Hi bound the range (-Inf and +Inf when open); LoStrict and
	// HiStrict exclude the bound itself.
	Lo, Hi             float64
	LoStrict, HiStrict bool
	// Text is the expectation as written.
	Text string
}

// comparison returns the expectation "op v": op is one of <, <=, >, >=
// and ==.
func comparison(op string, v float64) Expect {
	e := Expect{Set: true, Lo: math.Inf(-1), Hi: math.Inf(1)}
	switch op {
	case "<":
		e.Hi, e.HiStrict = v, true
	case "<=":
		e.Hi = v
	case ">":
		e.Lo, e.LoStrict = v, true
	case ">=":
		e.Lo = v
	case "==":
		e.Lo, e.Hi = v, v
	}
	return e
}

// ParseExpect parses an expectation: a number ("2.6"), a comparison
// ("< 1", "<= 1", "> 0", ">= 0", "== 0") or a closed range ("0.8..1.2").
func ParseExpect(s string) (Expect, error) {
	t := strings.TrimSpace(s)
	e := Expect{Set: true, Lo: math.Inf(-1), Hi: math.Inf(1), Text: t}
	num := func(x string) (float64, error) {
		v, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("%q is not a finite number", strings.TrimSpace(x))
		}
		return v, nil
	}
	for _, op := range []string{"<=", ">=", "==", "<", ">"} {
		rest, ok := strings.CutPrefix(t, op)
		if !ok {
			continue
		}
		v, err := num(rest)
		if err != nil {
			return Expect{}, fmt.Errorf("expectation %q: %w", s, err)
		}
		e = comparison(op, v)
		e.Text = op + " " + strconv.FormatFloat(v, 'g', -1, 64)
		return e, nil
	}
	if lo, hi, ok := strings.Cut(t, ".."); ok {
		a, err := num(lo)
		if err != nil {
			return Expect{}, fmt.Errorf("range %q: %w", s, err)
		}
		b, err := num(hi)
		if err != nil {
			return Expect{}, fmt.Errorf("range %q: %w", s, err)
		}
		if a > b {
			return Expect{}, fmt.Errorf("range %q: low end above high end", s)
		}
		e.Lo, e.Hi = a, b
		e.Text = fmtNum(a) + ".." + fmtNum(b)
		return e, nil
	}
	v, err := num(t)
	if err != nil {
		return Expect{}, fmt.Errorf("expectation %q: want a number, a comparison (< 1, >= 0, == 0) or a range (0.8..1.2)", s)
	}
	e.IsTarget, e.Target = true, v
	e.Lo, e.Hi = v, v
	e.Text = fmtNum(v)
	return e, nil
}

// distance returns how far v is from the expectation: 0 inside the range
// (or at the target), else the gap to the nearest end; rel divides by the
// magnitude of that end (or the target). inside reports strict
// membership.
func (e Expect) distance(v float64) (abs, rel float64, inside bool) {
	var ref float64
	switch {
	case v < e.Lo || (e.LoStrict && v == e.Lo):
		abs, ref = e.Lo-v, e.Lo
	case v > e.Hi || (e.HiStrict && v == e.Hi):
		abs, ref = v-e.Hi, e.Hi
	default:
		return 0, 0, true
	}
	if e.IsTarget {
		ref = e.Target
	}
	rel = math.Inf(1)
	if ref != 0 {
		rel = abs / math.Abs(ref)
	} else if abs == 0 {
		rel = 0
	}
	return abs, rel, false
}

// Tol is a tolerance: absolute, or relative to the expected number.
type Tol struct {
	Set      bool
	Value    float64
	Relative bool
}

// String returns "10%" or "0.5".
func (t Tol) String() string {
	if t.Relative {
		return fmtNum(t.Value*100) + "%"
	}
	return fmtNum(t.Value)
}

// ParseTol parses "10%" (relative) or "0.5" (absolute); it must not be
// negative.
func ParseTol(s string) (Tol, error) {
	t := strings.TrimSpace(s)
	rel := false
	if r, ok := strings.CutSuffix(t, "%"); ok {
		t, rel = strings.TrimSpace(r), true
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return Tol{}, fmt.Errorf("tolerance %q: want a number >= 0 or a percentage like 10%%", s)
	}
	if rel {
		v /= 100
	}
	return Tol{Set: true, Value: v, Relative: rel}, nil
}

// within reports whether a distance passes the tolerance.
func (t Tol) within(abs, rel float64) bool {
	if !t.Set {
		return false
	}
	if t.Relative {
		return rel <= t.Value+1e-12
	}
	return abs <= t.Value+1e-12
}

// Grade holds a claim's tolerances: Agree and Partly for the distance of
// value, ratio and order claims from their expectation (for count claims,
// of each value's order); for monotonic
// claims Agree is the backward step tolerated between neighbours and
// PartlyRho the Spearman rank correlation that still grades partly.
type Grade struct {
	Agree, Partly Tol
	PartlyRho     float64
	HasPartlyRho  bool
}

// fmtNum formats a number with up to 4 significant digits beyond the
// integer part, without trailing zeros.
func fmtNum(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	a := math.Abs(v)
	var s string
	switch {
	case a >= 1000:
		s = strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 100:
		s = strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 1 || a == 0:
		s = strconv.FormatFloat(v, 'f', 2, 64)
	default:
		s = strconv.FormatFloat(v, 'g', 3, 64)
	}
	if strings.Contains(s, ".") && !strings.ContainsAny(s, "e") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}
