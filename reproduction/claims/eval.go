package claims

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// Verdict is a claim's grade on the scorecard.
type Verdict string

// The verdicts.
const (
	Agree    Verdict = "agree"
	Partly   Verdict = "partly"
	Disagree Verdict = "disagree"
	// Error: the claim could not be evaluated (its selection matches
	// nothing, or is ambiguous); the message is in the row's Error.
	Error Verdict = "error"
)

// Groups returns the figure groups a claim reads, in order.
func (c *Claim) Groups() []string {
	var out []string
	for _, s := range selectionsOf(c) {
		if !slices.Contains(out, s.s.Group) {
			out = append(out, s.s.Group)
		}
	}
	return out
}

// Evaluate grades every claim of f whose figure groups all have outputs
// in o; the others are listed in the scorecard's NotRun. A claim that
// cannot be evaluated gets the verdict [Error] with the reason in its
// row, naming the claim and its selection.
func Evaluate(f *File, o *Outputs) *Scorecard {
	sc := &Scorecard{Paper: f.Paper, Headlines: f.Headlines}
	o.prepare(f.Claims)
	for i := range f.Claims {
		c := &f.Claims[i]
		run := true
		for _, g := range c.Groups() {
			if !o.Has(g) {
				run = false
			}
		}
		if !run {
			sc.NotRun = append(sc.NotRun, c.ID)
			continue
		}
		sc.Rows = append(sc.Rows, evaluate(c, o))
	}
	return sc
}

// evaluate grades one claim.
func evaluate(c *Claim, o *Outputs) Row {
	r := Row{
		ID: c.ID, Figure: c.Figure, Quote: c.Quote, Kind: c.Kind, Must: c.Must, Reason: c.Reason,
		Expected: expectedText(c), Value: math.NaN(),
		Word: c.Word, Class: c.Class, Departure: c.Departure, Source: c.Source, Target: math.NaN(),
	}
	if c.Kind == KindValue && c.Expected.IsTarget {
		r.Target = c.Expected.Target
	}
	if grade, ok := evaluators[c.Kind]; ok {
		return grade(c, o, r)
	}
	return r
}

// evaluators grade a claim of each kind, given the row r that carries the
// claim's own fields.
var evaluators = map[Kind]func(c *Claim, o *Outputs, r Row) Row{
	KindValue:     evaluateValue,
	KindRatio:     evaluateRatio,
	KindOrder:     evaluateOrder,
	KindCount:     evaluateCount,
	KindMonotonic: evaluateMonotonic,
	KindInvariant: evaluateInvariant,
}

// failRow is the row r of claim c whose selection s (which: the claim's
// key) could not be evaluated.
func failRow(c *Claim, r Row, which string, s Selection, err error) Row {
	r.Verdict = Error
	r.Ours = "error"
	r.Error = fmt.Sprintf("claim %s: %s (%s): %v", c.ID, which, s, err)
	return r
}

// operands reads the numbers of a claim's selections a and b (each
// compared with its baseline when it has one). When one cannot be read,
// ok is false and failed is the claim's error row naming it.
func operands(c *Claim, o *Outputs, r Row) (a, b measured, failed Row, ok bool) {
	a, err := o.measure(c.A, c.Form)
	if err != nil {
		return a, b, failRow(c, r, "a", c.A, err), false
	}
	b, err = o.measure(c.B, c.Form)
	if err != nil {
		return a, b, failRow(c, r, "b", c.B, err), false
	}
	return a, b, r, true
}

// measured is a selection's number: its value, or for a selection with a
// baseline, the form of its value and its baseline's (both kept, to show
// them).
type measured struct {
	v           float64
	form        string
	value, base float64
	hasBase     bool
}

// measure returns the number of selection s: its value, or with a
// baseline, form (ratio, pct, diff or sym) of its value and the
// baseline's. A baseline that cannot be read is named in the error.
func (o *Outputs) measure(s Selection, form string) (measured, error) {
	v, err := o.Value(s.plain())
	if err != nil || s.Baseline == nil {
		return measured{v: v}, err
	}
	bs := s.base()
	b, err := o.Value(bs)
	if err != nil {
		return measured{}, fmt.Errorf("baseline (%s): %w", bs, err)
	}
	x, ok := compare(form, v, b)
	if !ok {
		return measured{}, fmt.Errorf("cannot take the %s of %s and its baseline's %s", form, fmtNum(v), fmtNum(b))
	}
	return measured{v: x, form: form, value: v, base: b, hasBase: true}, nil
}

// String shows the number, and for a comparison with a baseline both
// values: "-12.5% (875 vs 1000)".
func (m measured) String() string {
	if !m.hasBase {
		return fmtNum(m.v)
	}
	return comparedText(m.form, m.v, m.value, m.base)
}

// comparedText shows form's comparison v of a with b and both values:
// "0.05 (1.6 / 35.68)", "-12.5% (875 vs 1000)".
func comparedText(form string, v, a, b float64) string {
	sep, unit := " vs ", ""
	switch form {
	case "ratio":
		sep = " / "
	case "pct":
		unit = "%"
	}
	return fmt.Sprintf("%s%s (%s%s%s)", fmtNum(v), unit, fmtNum(a), sep, fmtNum(b))
}

// evaluateValue grades a value claim: its selection's value (or, for a
// single-run claim, the spread of the runs' values) against the expected.
func evaluateValue(c *Claim, o *Outputs, r Row) Row {
	if c.SingleRun {
		vals, err := o.singleRunValues(c.Select)
		if err != nil {
			return failRow(c, r, "select", c.Select, err)
		}
		st := spreadOf(vals)
		r.Value, r.Ours = st.mean, st.String()
		r.Verdict = gradeSingleRun(c.Expected, st)
		r.LowPower = !st.powerful()
		if r.LowPower {
			r.Ours += lowPowerNote
		}
		return r
	}
	v, err := o.Value(c.Select)
	if err != nil {
		return failRow(c, r, "select", c.Select, err)
	}
	r.Value, r.Ours = v, fmtNum(v)
	r.Verdict = gradeDistance(c.Expected, v, c.Grade)
	if c.ruled() {
		r.Verdict = gradeNear(v, c.Expected.Target)
	}
	return r
}

// evaluateRatio grades a ratio claim: the form (ratio, pct, diff, sym) of
// a's value and b's against the expected; a pairwise claim takes it over
// the pairs of periods.
func evaluateRatio(c *Claim, o *Outputs, r Row) Row {
	if c.Pairwise {
		return evaluatePairwise(c, o, r)
	}
	if c.SingleRun {
		return evaluatePaired(c, o, r)
	}
	ma, mb, failed, ok := operands(c, o, r)
	if !ok {
		return failed
	}
	a, b := ma.v, mb.v
	v, ok := compare(c.Form, a, b)
	if !ok {
		return failRow(c, r, "b", c.B, fmt.Errorf("cannot take the %s of %s and %s", c.Form, fmtNum(a), fmtNum(b)))
	}
	r.Value = v
	r.Ours = comparedText(c.Form, v, a, b)
	r.Verdict = gradeDistance(c.Expected, v, c.Grade)
	if c.ruled() {
		r.Verdict = gradeRatioByWord(c, v)
		if rule := c.rule(); rule != RuleAbout && rule != RuleSimilar && c.Form != "diff" {
			if bounded(c.A) {
				r.Verdict = gradeFold(rule, foldAbove(c.A, c.B, a, b), c.lessIsClaimed())
			}
		}
	}
	return r
}

// gradeRatioByWord grades a ratio claim's value v (in its form) by its
// word's rule: about against the paper's number; similar against it, or
// against a ratio of 1; a direction word by the fold of a over b.
func gradeRatioByWord(c *Claim, v float64) Verdict {
	rule := c.rule()
	if (rule == RuleAbout || rule == RuleSimilar) && c.Expected.IsTarget {
		return gradeNear(v, c.Expected.Target)
	}
	up, ok := ratioOf(c.Form, v)
	if !ok {
		return Disagree // the validator asks a departure of a difference
	}
	return gradeFold(rule, up, c.lessIsClaimed())
}

// evaluatePairwise grades a pairwise ratio claim: the form of a against b
// over the periods (a.Per) both have.
func evaluatePairwise(c *Claim, o *Outputs, r Row) Row {
	v, n, err := o.pairwise(c.Form, c.A, c.B)
	if err != nil {
		return failRow(c, r, "a, b", c.A, err)
	}
	r.Value, r.Ours = v, fmt.Sprintf("%s (%d %ses)", fmtNum(v), n, c.A.Per)
	if c.A.Per == PerWeek {
		r.Ours = fmt.Sprintf("%s (%d weeks)", fmtNum(v), n)
	}
	r.Verdict = gradeDistance(c.Expected, v, c.Grade)
	return r
}

// evaluateOrder grades an order claim: a op factor x b, where each side
// is its selection's value or, with baselines, its comparison with its
// baseline. Its value is a / b (a when b is 0).
func evaluateOrder(c *Claim, o *Outputs, r Row) Row {
	ma, mb, failed, ok := operands(c, o, r)
	if !ok {
		return failed
	}
	a, b := ma.v, mb.v
	r.Value = a
	if b != 0 {
		r.Value = a / b
	}
	r.Ours = fmt.Sprintf("%s vs %s", ma, mb)
	if c.Factor != 1 {
		r.Ours = fmt.Sprintf("%s vs %s x %s", ma, fmtNum(c.Factor), mb)
	}
	r.Verdict = gradeDistance(orderExpect(c.Op, c.Factor, b), a, c.Grade)
	if c.ruled() {
		r.Verdict = gradeFold(c.rule(), foldAbove(c.A, c.B, a, b), c.lessIsClaimed())
	}
	return r
}

// evaluateMonotonic grades a trend claim: the selection's values (or,
// with a baseline, their comparisons with the baseline's at the same
// point) along its key, in the order of the claim's values. Its value is
// their Spearman rank correlation with that order.
func evaluateMonotonic(c *Claim, o *Outputs, r Row) Row {
	pts, err := o.series(c.Select, c.Along, c.Values, c.Form)
	if err != nil {
		return failRow(c, r, "select", c.Select, err)
	}
	vals := make([]float64, len(pts))
	var parts []string
	for i, p := range pts {
		vals[i] = p.value.v
		parts = append(parts, p.value.String())
	}
	rho := spearman(vals)
	r.Value = rho
	r.Ours = fmt.Sprintf("%s (rho %s)", strings.Join(parts, ", "), fmtRho(rho))
	r.Verdict = trendVerdict(c, vals, rho)
	if c.ruled() {
		sign := 1.0
		if c.Direction == "decreasing" {
			sign = -1
		}
		r.Verdict = gradeTrend(vals, rho, sign)
	}
	return r
}

// trendVerdict is the verdict of a trend claim on vals, whose rank
// correlation is rho: agree when no step goes against the direction by
// more than the agree tolerance and rho reaches the claim's spearman (if
// any), partly when rho reaches the partly grade's.
func trendVerdict(c *Claim, vals []float64, rho float64) Verdict {
	sign := 1.0
	if c.Direction == "decreasing" {
		sign = -1
	}
	stepsOK := true
	for i := 1; i < len(vals); i++ {
		back := sign * (vals[i-1] - vals[i]) // > 0: a step against the direction
		if back <= 0 {
			continue
		}
		if !c.Grade.Agree.within(back, back/math.Max(math.Abs(vals[i-1]), 1e-300)) {
			stepsOK = false
		}
	}
	switch {
	case stepsOK && (c.Spearman == 0 || sign*rho >= c.Spearman-1e-12):
		return Agree
	case c.Grade.HasPartlyRho && sign*rho >= c.Grade.PartlyRho-1e-12:
		return Partly
	default:
		return Disagree
	}
}

// evaluateInvariant grades an invariant claim: the expectation must hold
// in every row the selection matches. Its value is the worst row's (the
// first row's when all hold).
func evaluateInvariant(c *Claim, o *Outputs, r Row) Row {
	vals, desc, err := o.rowValues(c.Select)
	if err != nil {
		return failRow(c, r, "select", c.Select, err)
	}
	r.Verdict = Agree
	worst, wi := 0.0, -1
	for i, v := range vals {
		abs, _, inside := c.Expected.distance(v)
		if !inside && (wi < 0 || abs > worst) {
			worst, wi = abs, i
		}
	}
	if wi < 0 {
		r.Value = vals[0]
		r.Ours = fmt.Sprintf("holds in all %d rows", len(vals))
		if lo, hi := slices.Min(vals), slices.Max(vals); lo == hi {
			r.Ours = fmt.Sprintf("%s in all %d rows", fmtNum(lo), len(vals))
		}
		return r
	}
	r.Verdict = Disagree
	r.Value = vals[wi]
	bad := 0
	for _, v := range vals {
		if _, _, in := c.Expected.distance(v); !in {
			bad++
		}
	}
	r.Ours = fmt.Sprintf("%s in %s (%d of %d rows fail)", fmtNum(vals[wi]), desc[wi], bad, len(vals))
	return r
}

// orderExpect returns what the a side of an order must satisfy: op
// factor x b.
func orderExpect(op string, factor, b float64) Expect {
	return comparison(op, factor*b)
}

// evaluateCount grades a count claim: the order a op factor x b is graded
// at each of the claim's values (with the claim's tolerances, as an order
// claim is); the claim agrees when the number of values whose order
// agrees satisfies the expectation, and is partly when the number whose
// order agrees or is partly does. Its value is the first number.
func evaluateCount(c *Claim, o *Outputs, r Row) Row {
	agree, near := 0, 0
	var misses []string
	for _, v := range c.Values {
		as, bs := c.A.at(c.Along, v), c.B.at(c.Along, v)
		a, err := o.Value(as)
		if err != nil {
			return countFail(c, r, "a", as, v, err)
		}
		b, err := o.Value(bs)
		if err != nil {
			return countFail(c, r, "b", bs, v, err)
		}
		verdict := gradeDistance(orderExpect(c.Op, c.Factor, b), a, c.Grade)
		if c.ruled() {
			verdict = gradeFold(c.rule(), foldAbove(as, bs, a, b), c.lessIsClaimed())
		}
		switch verdict {
		case Agree:
			agree++
			near++
			continue
		case Partly:
			near++
		}
		miss := v + ": " + fmtNum(a) + " vs "
		if c.Along != "category" {
			miss = c.Along + " " + miss
		}
		if c.Factor != 1 {
			miss += fmtNum(c.Factor) + " x "
		}
		miss += fmtNum(b)
		misses = append(misses, miss)
	}
	r.Value = float64(agree)
	r.Ours = fmt.Sprintf("%d of %d", agree, len(c.Values))
	if near > agree {
		r.Ours += fmt.Sprintf(" (%d within tolerance)", near)
	}
	if len(misses) > 0 {
		r.Ours += "; not in " + strings.Join(misses, ", ")
	}
	_, _, in := c.Expected.distance(float64(agree))
	_, _, inNear := c.Expected.distance(float64(near))
	switch {
	case in:
		r.Verdict = Agree
	case inNear:
		r.Verdict = Partly
	default:
		r.Verdict = Disagree
	}
	return r
}

// countFail is the row of a count claim whose selection at one value
// could not be evaluated.
func countFail(c *Claim, r Row, which string, s Selection, v string, err error) Row {
	r.Verdict = Error
	r.Ours = "error"
	r.Value = math.NaN()
	r.Error = fmt.Sprintf("claim %s: %s at %s=%s (%s): %v", c.ID, which, c.Along, v, s, err)
	return r
}

// compare applies a ratio form.
func compare(form string, a, b float64) (float64, bool) {
	switch form {
	case "pct":
		if b == 0 {
			return 0, false
		}
		return 100 * (a - b) / b, true
	case "diff":
		return a - b, true
	case "sym":
		m := math.Min(a, b)
		if m <= 0 {
			return 0, false
		}
		return (a - b) / m, true
	}
	if b == 0 {
		return 0, false
	}
	return a / b, true
}

// gradeDistance grades v against an expectation with tolerances. A value
// on a strict bound (0 for "< 0") is outside the expectation at distance
// 0: a zero tolerance does not admit it, so "< 0" with agree 0 needs a
// real decrease, not an unchanged value.
func gradeDistance(e Expect, v float64, g Grade) Verdict {
	abs, rel, inside := e.distance(v)
	admits := func(t Tol) bool {
		return t.within(abs, rel) && (abs > 0 || t.Value > 0)
	}
	switch {
	case inside:
		return Agree
	case admits(g.Agree):
		return Agree
	case admits(g.Partly):
		return Partly
	}
	return Disagree
}

// spearman returns the Spearman rank correlation of vals with their
// position (ties get their mean rank); 0 when vals are all equal.
func spearman(vals []float64) float64 {
	n := len(vals)
	if n < 2 {
		return 0
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return vals[idx[a]] < vals[idx[b]] })
	rank := make([]float64, n)
	for i := 0; i < n; {
		j := i
		for j+1 < n && vals[idx[j+1]] == vals[idx[i]] {
			j++
		}
		for k := i; k <= j; k++ {
			rank[idx[k]] = float64(i+j)/2 + 1
		}
		i = j + 1
	}
	mean := float64(n+1) / 2
	var sxy, sxx, syy float64
	for i := range n {
		x, y := float64(i+1)-mean, rank[i]-mean
		sxy += x * y
		sxx += x * x
		syy += y * y
	}
	if syy == 0 {
		return 0
	}
	return sxy / math.Sqrt(sxx*syy)
}

func fmtRho(r float64) string {
	s := fmt.Sprintf("%.2f", r)
	if s == "-0.00" {
		s = "0.00"
	}
	return s
}

// expectedText describes what a claim expects, with its tolerances.
func expectedText(c *Claim) string {
	if c.ruled() {
		return ruledText(c)
	}
	if text, ok := expectedTexts[c.Kind]; ok {
		return text(c)
	}
	return c.Expected.Text
}

// ruledText describes what a claim graded by its word's rule expects:
// its comparison without tolerances, then the word and its rule.
func ruledText(c *Claim) string {
	var s string
	switch c.Kind {
	case KindValue:
		s = "= " + c.Expected.Text
		if c.SingleRun {
			s += " (one run)"
		}
	case KindRatio:
		s = ratioText(c) + " " + exprText(c.Expected)
	case KindOrder:
		an, rhs := orderSides(c)
		s = an + " " + c.Op + " " + rhs
	case KindCount:
		an, rhs := orderSides(c)
		s = fmt.Sprintf("%s %s %s in %s of %d values of %s", an, c.Op, rhs, strings.TrimPrefix(c.Expected.Text, "== "), len(c.Values), c.Along)
	case KindMonotonic:
		s = c.Direction + " along " + c.Along
		if c.Select.Baseline != nil {
			s = baselineText(c.Form, c.Select) + " " + s
		}
		if len(c.Values) > 0 {
			s += " (" + strings.Join(c.Values, ", ") + ")"
		}
	}
	return s + " [" + ruleText(c) + "]"
}

// expectedTexts describe what a claim of each kind expects.
var expectedTexts = map[Kind]func(c *Claim) string{
	KindValue: func(c *Claim) string {
		if c.SingleRun {
			return c.Expected.Text + " (one run: agree in our P5-P95, partly in our range)"
		}
		return c.Expected.Text + tolText(c)
	},
	KindRatio: func(c *Claim) string {
		if c.SingleRun {
			return ratioText(c) + " " + exprText(c.Expected) + " (one run, paired by replication: agree in our P5-P95, partly in our range)"
		}
		return ratioText(c) + " " + exprText(c.Expected) + tolText(c)
	},
	KindOrder: func(c *Claim) string {
		an, rhs := orderSides(c)
		return an + " " + c.Op + " " + rhs + tolText(c)
	},
	KindMonotonic: trendText,
	KindInvariant: func(c *Claim) string { return exprText(c.Expected) + " in every row" },
	KindCount:     countText,
}

// tolText gives a claim's tolerances: " (±agree, partly ±partly)", the
// agree one only when it is not 0 or the claim has a target; "" for none.
func tolText(c *Claim) string {
	var parts []string
	if c.Grade.Agree.Set && (c.Grade.Agree.Value != 0 || c.Expected.IsTarget) {
		parts = append(parts, "±"+c.Grade.Agree.String())
	}
	if c.Grade.Partly.Set {
		parts = append(parts, "partly ±"+c.Grade.Partly.String())
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// ratioText is the left-hand side of a ratio claim: its form of a and b,
// taken per period for a pairwise claim.
func ratioText(c *Claim) string {
	an, bn := sides(c.A, c.B)
	lhs := formText(c.Form, an, bn)
	if c.Pairwise {
		lhs = c.A.Over + " of per-" + c.A.Per + " " + lhs
	}
	return lhs
}

// formText names form's comparison of the selections named an and bn:
// "an / bn", "% change of an from bn", "an - bn" or "(an - bn) / min".
func formText(form, an, bn string) string {
	switch form {
	case "pct":
		return "% change of " + an + " from " + bn
	case "diff":
		return an + " - " + bn
	case "sym":
		return "(" + an + " - " + bn + ") / min"
	}
	return an + " / " + bn
}

// baselineText names the comparison of a selection with its baseline in
// form, by the fields in which they differ: "% change of TSS SF=2 from
// NS".
func baselineText(form string, s Selection) string {
	an, bn := sides(s.plain(), s.base())
	return formText(form, an, bn)
}

// orderSides names the two sides of an order or count claim's order, the
// right one with its factor; sides with baselines are named by their
// comparison, and by what tells the sides apart:
// "% change of TSS SF=2 from NS: fig19-30" and "0.8 x fig15-18".
func orderSides(c *Claim) (an, rhs string) {
	an, bn := sides(c.A.plain(), c.B.plain())
	if c.A.Baseline != nil && c.B.Baseline != nil {
		ta, tb := baselineText(c.Form, c.A), baselineText(c.Form, c.B)
		if ta == tb {
			an = ta + ": " + an
		} else {
			an, bn = ta+" ("+an+")", tb+" ("+bn+")"
		}
	}
	rhs = bn
	if c.Factor != 1 {
		rhs = fmtNum(c.Factor) + " x " + bn
	}
	return an, rhs
}

// trendText describes a trend claim: its direction along its key, the
// Spearman bound and the steps back it tolerates.
func trendText(c *Claim) string {
	s := c.Direction + " along " + c.Along
	if c.Select.Baseline != nil {
		s = baselineText(c.Form, c.Select) + " " + s
	}
	if len(c.Values) > 0 {
		s += " (" + strings.Join(c.Values, ", ") + ")"
	}
	if c.Spearman != 0 {
		s += fmt.Sprintf(", Spearman >= %s", fmtNum(c.Spearman))
	}
	if c.Grade.Agree.Set && c.Grade.Agree.Value != 0 {
		s += ", steps back up to " + c.Grade.Agree.String()
	}
	if c.Grade.HasPartlyRho {
		s += fmt.Sprintf("; partly if Spearman >= %s", fmtNum(c.Grade.PartlyRho))
	}
	return s
}

// countText describes a count claim: its order, in how many of its values
// it must hold, and the tolerances of each value's order.
func countText(c *Claim) string {
	an, rhs := orderSides(c)
	of := fmt.Sprintf("%d values of %s", len(c.Values), c.Along)
	if c.Along == "category" {
		of = fmt.Sprintf("%d categories", len(c.Values))
	}
	var each []string
	if c.Grade.Agree.Set && c.Grade.Agree.Value != 0 {
		each = append(each, "±"+c.Grade.Agree.String())
	}
	if c.Grade.Partly.Set {
		each = append(each, "partly ±"+c.Grade.Partly.String())
	}
	t := ""
	if len(each) > 0 {
		t = " (each " + strings.Join(each, ", ") + ")"
	}
	return an + " " + c.Op + " " + rhs + " in " + strings.TrimPrefix(c.Expected.Text, "== ") + " of " + of + t
}

// exprText writes an expectation after a left-hand side: "< 1", "in
// 0.8..1.2", "= 2.6".
func exprText(e Expect) string {
	switch {
	case e.IsTarget:
		return "= " + e.Text
	case strings.Contains(e.Text, ".."):
		return "in " + e.Text
	}
	return e.Text
}

// sides names the two selections of a comparison by the fields in which
// they differ, for example "SS SF=2" and "NS".
func sides(a, b Selection) (string, string) {
	var an, bn []string
	add := func(x, y string) {
		if x != y {
			an = append(an, x)
			bn = append(bn, y)
		}
	}
	add(a.Group, b.Group)
	add(a.Metric, b.Metric)
	add(a.Scheme, b.Scheme)
	add(a.Category, b.Category)
	add(a.Setting, b.Setting)
	add(a.Over, b.Over)
	add(a.Across, b.Across)
	keys := map[string]bool{}
	for _, f := range a.Where {
		keys[f.Key] = true
	}
	for _, f := range b.Where {
		keys[f.Key] = true
	}
	var ks []string
	for k := range keys {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	get := func(s Selection, k string) string {
		for _, f := range s.Where {
			if f.Key == k {
				return k + "=" + strings.Join(f.Values, "|")
			}
		}
		return ""
	}
	for _, k := range ks {
		add(get(a, k), get(b, k))
	}
	join := func(parts []string) string {
		var out []string
		for _, p := range parts {
			if p != "" {
				out = append(out, p)
			}
		}
		return strings.Join(out, " ")
	}
	as, bs := join(an), join(bn)
	if as == "" || bs == "" {
		return "a", "b"
	}
	return as, bs
}
