package claims

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/yamlerr"
)

// Class says what a claim is about, and so whether it counts in a
// reproduction's figures.
type Class string

// The classes of claims.
const (
	// ClassResult: what the scheduling policies do. Only results count
	// in the reproduction figures.
	ClassResult Class = "result"
	// ClassSetup: a check of the setup no policy changes (workload
	// statistics, a calibration target, a fitted window).
	ClassSetup Class = "setup"
	// ClassInvariant: a property that holds by construction (a policy's
	// guarantee), checked so that a defect shows.
	ClassInvariant Class = "invariant"
)

// Classes lists the classes in documentation order.
var Classes = []Class{ClassResult, ClassSetup, ClassInvariant}

// Rule is the grading rule a vocabulary word carries, the same for every
// paper (docs/claims.md, "One vocabulary").
type Rule string

// The rules of the vocabulary. Fold is how many times a is better than b
// in the claim's direction: a/b for a claimed increase, b/a for a
// claimed decrease (see fold).
const (
	// RuleSlight: the claimed direction, by a fold of at most 1.25.
	RuleSlight Rule = "slight"
	// RuleDirection: the claimed direction by at least 5% (fold >= 1.05);
	// partly when in the direction by less.
	RuleDirection Rule = "direction"
	// RuleLarge: a fold of at least 1.25; partly at least 1.05.
	RuleLarge Rule = "large"
	// RuleMagnitude: a fold of at least 5; partly at least 3.
	RuleMagnitude Rule = "magnitude"
	// RuleAbout: within 10% of the paper's number; partly within 25%.
	RuleAbout Rule = "about"
	// RuleSimilar: a within 10% of b (a ratio of 1 within 10%), or a
	// value within 10% of the paper's; partly within 25%.
	RuleSimilar Rule = "similar"
	// RuleNoWorse: a no worse than b by more than 5% (fold >= 1/1.05);
	// partly within 25% (fold >= 0.8).
	RuleNoWorse Rule = "no_worse"
	// RuleNotMuch: not worse than b by the significance fold (a fold in
	// the claimed direction of at least 1/1.25): "without affecting",
	// "no significant deterioration", "minimal impact".
	RuleNotMuch Rule = "not_much"
	// RuleTrend: Spearman's rho with the points' order at least 0.8 in
	// the direction and a total change (last against first) of at least
	// 5% of the first value; partly rho >= 0.5 with that change.
	RuleTrend Rule = "trend"
	// RuleBound: a bound the paper states ("most", "more than twice",
	// "at least 90%"), graded exactly as written, without tolerance.
	RuleBound Rule = "bound"
	// RuleExact: an invariant, in every row.
	RuleExact Rule = "exact"
)

// Rule thresholds (docs/claims.md): change them only with a reason there,
// and then for every paper at once.
const (
	SlightMax    = 1.25 // slightly: a fold of at most this
	DirectionMin = 1.05 // better, worse, higher, lower: a fold of at least this
	LargeMin     = 1.25 // significantly, much, considerably: at least this
	MagnitudeMin = 5.0  // an order of magnitude: at least this ...
	MagnitudeMid = 3.0  // ... partly at least this
	AboutAgree   = 0.10 // about, approximately, similar: relative distance
	AboutPartly  = 0.25
	TrendRho     = 0.8  // monotonic: Spearman's rho at least this ...
	TrendPartly  = 0.5  // ... partly at least this
	TrendChange  = 0.05 // ... and a total change of at least this of the first value
)

// Word is one word of the vocabulary: the paper's word and its rule.
type Word struct {
	Name string
	Rule Rule
	// Kinds are the claim kinds the word can grade.
	Kinds []Kind
	// Doc is the word's line in docs/claims.md.
	Doc string
}

var comparisonKinds = []Kind{KindRatio, KindOrder, KindCount}

// Vocabulary lists every word a claim can name, in documentation order.
var Vocabulary = func() []Word {
	var ws []Word
	add := func(rule Rule, kinds []Kind, doc string, names ...string) {
		for _, n := range names {
			ws = append(ws, Word{Name: n, Rule: rule, Kinds: kinds, Doc: doc})
		}
	}
	dirs := []string{"better", "worse", "higher", "lower", "more", "less"}
	with := func(prefix string) []string {
		var out []string
		for _, d := range dirs {
			out = append(out, prefix+d)
		}
		return out
	}
	add(RuleSlight, comparisonKinds, "the claimed direction, at most 1.25x", with("slightly_")...)
	add(RuleDirection, comparisonKinds, "the claimed direction by at least 5% (1.05x); partly in the direction by less",
		append(with(""), "increases", "decreases", "improves", "reduces", "outperforms")...)
	add(RuleLarge, comparisonKinds, "at least 1.25x in the claimed direction; partly at least 1.05x",
		append(append(with("significantly_"), with("much_")...), with("considerably_")...)...)
	add(RuleMagnitude, comparisonKinds, "at least 5x in the claimed direction; partly at least 3x", "order_of_magnitude")
	add(RuleAbout, []Kind{KindValue, KindRatio}, "within 10% of the paper's number; partly within 25%", "about", "approximately", "number")
	add(RuleSimilar, []Kind{KindValue, KindRatio, KindOrder}, "a within 10% of b (or of the paper's number); partly within 25%", "similar", "same", "comparable")
	add(RuleNoWorse, comparisonKinds, "not worse than b by more than 5%; partly by at most 25%", "no_worse", "at_least_as_good")
	add(RuleNotMuch, comparisonKinds, "not worse than b by 1.25x or more (the significance fold)",
		"not_significantly_worse", "not_significantly_higher", "not_significantly_lower", "without_affecting", "minimal_impact", "limited_benefit")
	add(RuleTrend, []Kind{KindMonotonic}, "Spearman's rho >= 0.8 in the direction and a total change of at least 5% of the first value; partly rho >= 0.5 with that change",
		"monotonic_increase", "monotonic_decrease", "trend_increase", "trend_decrease")
	add(RuleBound, []Kind{KindValue, KindRatio, KindOrder, KindCount}, "the bound as written, without tolerance",
		"most", "all", "at_least", "at_most", "more_than", "less_than", "positive", "negative", "within")
	add(RuleExact, []Kind{KindInvariant}, "holds in every row", "never", "always", "none", "every")
	return ws
}()

// LookupWord returns the vocabulary word name.
func LookupWord(name string) (Word, bool) {
	i := slices.IndexFunc(Vocabulary, func(w Word) bool { return w.Name == name })
	if i < 0 {
		return Word{}, false
	}
	return Vocabulary[i], true
}

// wordNames lists the vocabulary's names.
func wordNames() []string {
	var out []string
	for _, w := range Vocabulary {
		out = append(out, w.Name)
	}
	return out
}

// ruled reports whether the claim is graded by its word's rule: it has a
// word whose rule replaces the claim's own tolerances, and no departure.
func (c *Claim) ruled() bool {
	if c.Departure != "" || c.SingleRun {
		return false
	}
	w, ok := LookupWord(c.Word)
	if !ok {
		return false
	}
	switch w.Rule {
	case RuleBound, RuleExact:
		return false // graded as written, without tolerance: the claim's encoding is the rule
	}
	return true
}

// rule returns the claim's word's rule ("" for an unknown word).
func (c *Claim) rule() Rule {
	w, _ := LookupWord(c.Word)
	return w.Rule
}

// lessIsClaimed reports the claimed direction of a comparison: true when
// the claim says a is below b (op < or <=; a ratio expected below 1, or a
// percent change or difference or sym ratio below 0).
func (c *Claim) lessIsClaimed() bool {
	if c.Kind == KindOrder || c.Kind == KindCount {
		return c.Op == "<" || c.Op == "<="
	}
	return !math.IsInf(c.Expected.Hi, 1)
}

// foldOf returns how many times a is above b (a/b) for comparisons of
// positive numbers; for signed numbers (percent changes compared by an
// order), a that is on the other side of 0 from b, or b that is 0, is
// +Inf when a > b and 0 when a < b (1 when equal).
func foldOf(a, b float64) float64 {
	switch {
	case a == b:
		return 1
	case b != 0 && a/b > 0:
		if b < 0 { // two negative numbers: -10 is above -20 by 2x
			return b / a
		}
		return a / b
	case a > b:
		return math.Inf(1)
	}
	return 0
}

// SlowdownFloor is the least value a slowdown takes: a job's slowdown
// and bounded slowdown are at least 1 by definition (docs/claims.md,
// "Metrics with a floor").
const SlowdownFloor = 1.0

// floorOf returns the floor of selection s's number when it is one of a
// metric with a floor: a slowdown or bounded slowdown column (bsd, bsd_*,
// slowdown, slowdown_*) read as itself, a row's value or a mean, maximum,
// minimum or median of such values. A selection compared with a baseline
// (a percent change, a ratio), or combined by a sum, count or
// coefficient of variation, has no floor.
func floorOf(s Selection) (float64, bool) {
	m := s.Metric
	if !readsValues(s) || m != "bsd" && m != "slowdown" && !strings.HasPrefix(m, "bsd_") && !strings.HasPrefix(m, "slowdown_") {
		return 0, false
	}
	return SlowdownFloor, true
}

// readsValues reports whether selection s's number is its metric's value
// as it is, or a mean, maximum, minimum or median of such values (over
// rows, then replications): the numbers a floor or a ceiling bounds. A
// selection compared with a baseline, or combined by a sum, count or
// coefficient of variation, is not.
func readsValues(s Selection) bool {
	if s.Baseline != nil || s.Per != "" {
		return false
	}
	switch s.Agg {
	case "", "mean", "max", "min", "median":
	default:
		return false
	}
	switch s.Reps {
	case "", "mean", "max", "min":
		return true
	}
	return false
}

// AcceptanceCeiling is the largest value the acceptance of a task takes,
// the share of its jobs admitted: every job admitted (docs/claims.md,
// "Metrics with a ceiling").
const AcceptanceCeiling = 1.0

// ceilingOf returns the ceiling of selection s's number when it is one of
// a share that a schedule can raise to its bound: the acceptance column
// (admitted jobs over jobs) read as itself or as a mean, maximum, minimum
// or median of values. Utilization has no ceiling here: its bound is 1,
// but a workload's offered load keeps it below that under any schedule,
// so the distance to 1 is not the scheduler's to close. A selection
// compared with a baseline, or combined by a sum, count or coefficient of
// variation, has none either.
func ceilingOf(s Selection) (float64, bool) {
	if !readsValues(s) || s.Metric != "acceptance" {
		return 0, false
	}
	return AcceptanceCeiling, true
}

// bounded reports whether selection s's number is of a metric with a
// floor or a ceiling, which foldAbove compares by their distances to it.
func bounded(s Selection) bool {
	_, floor := floorOf(s)
	_, ceiling := ceilingOf(s)
	return floor || ceiling
}

// foldAbove returns how many times a is above b, as foldOf, for the
// numbers of selections sa and sb; when both are of a metric with a
// floor, it is the fold of their excesses over it, (a - 1) / (b - 1) for
// slowdowns: a bounded slowdown cannot fall below 1, so a fold of the
// values themselves would ask of a job category near the floor a gain it
// cannot make. When both are of a metric with a ceiling, a is above b by
// the fold of their distances below it, (1 - b) / (1 - a) for acceptance:
// 0.98 is 2x above 0.96, as 2% of the jobs rejected is half of 4%.
func foldAbove(sa, sb Selection, a, b float64) float64 {
	fa, okA := floorOf(sa)
	fb, okB := floorOf(sb)
	if okA && okB && fa == fb {
		return foldOf(a-fa, b-fb)
	}
	ca, okA := ceilingOf(sa)
	cb, okB := ceilingOf(sb)
	if okA && okB && ca == cb {
		return foldOf(cb-b, ca-a)
	}
	return foldOf(a, b)
}

// ratioOf returns a/b from a ratio claim's value in its form: the ratio
// itself, 1 + pct/100, or from sym's (a-b)/min(a,b). ok is false for
// diff, which says nothing of the ratio.
func ratioOf(form string, v float64) (float64, bool) {
	switch form {
	case "", "ratio":
		return v, true
	case "pct":
		return 1 + v/100, true
	case "sym":
		if v >= 0 {
			return 1 + v, true
		}
		return 1 / (1 - v), true
	}
	return 0, false
}

// gradeFold grades a comparison by rule r, given how many times a is
// above b (up) and whether the claim says a is below b.
func gradeFold(r Rule, up float64, less bool) Verdict {
	f := up // the fold in the claimed direction
	if less {
		switch {
		case up == 0:
			f = math.Inf(1)
		case math.IsInf(up, 1):
			f = 0
		default:
			f = 1 / up
		}
	}
	const eps = 1e-9
	switch r {
	case RuleSlight:
		switch {
		case f > 1+eps && f <= SlightMax+eps:
			return Agree
		case f > 1+eps:
			return Partly // the direction, by more than slightly
		}
	case RuleDirection:
		switch {
		case f >= DirectionMin-eps:
			return Agree
		case f > 1+eps:
			return Partly
		}
	case RuleLarge:
		switch {
		case f >= LargeMin-eps:
			return Agree
		case f >= DirectionMin-eps:
			return Partly
		}
	case RuleMagnitude:
		switch {
		case f >= MagnitudeMin-eps:
			return Agree
		case f >= MagnitudeMid-eps:
			return Partly
		}
	case RuleNoWorse:
		switch {
		case f >= 1/DirectionMin-eps:
			return Agree
		case f >= 1/SlightMax-eps:
			return Partly
		}
	case RuleNotMuch:
		if f > 1/LargeMin+eps {
			return Agree
		}
	case RuleSimilar:
		return gradeNear(up, 1)
	}
	return Disagree
}

// gradeNear grades v against the number target by the about rule: agree
// within 10%, partly within 25%.
func gradeNear(v, target float64) Verdict {
	d := math.Abs(v - target)
	if target != 0 {
		d /= math.Abs(target)
	} else if d != 0 {
		d = math.Inf(1)
	}
	switch {
	case d <= AboutAgree+1e-9:
		return Agree
	case d <= AboutPartly+1e-9:
		return Partly
	}
	return Disagree
}

// gradeTrend grades a series by the trend rule in the direction (sign 1
// increasing, -1 decreasing) given its Spearman rho.
func gradeTrend(vals []float64, rho, sign float64) Verdict {
	if len(vals) < 2 {
		return Disagree
	}
	first, last := vals[0], vals[len(vals)-1]
	change := sign * (last - first)
	ref := math.Abs(first)
	moved := change > 0 && (ref == 0 || change >= TrendChange*ref-1e-12)
	switch {
	case moved && sign*rho >= TrendRho-1e-12:
		return Agree
	case moved && sign*rho >= TrendPartly-1e-12:
		return Partly
	}
	return Disagree
}

// ruleText describes the rule a ruled claim is graded by, for the
// scorecard's expected column.
func ruleText(c *Claim) string {
	w, _ := LookupWord(c.Word)
	return c.Word + ": " + w.Doc
}

// departureKeys are the keys whose tolerances a ruled claim's word
// replaces: a claim with any of them departs from its word's rule and
// must say why.
func departureKeys(in *claimInput, c *Claim) []string {
	var keys []string
	if in.grade != nil {
		keys = append(keys, "grade")
	}
	if in.have["factor"] && c.rule() != RuleBound {
		keys = append(keys, "factor")
	}
	if in.have["spearman"] {
		keys = append(keys, "spearman")
	}
	return keys
}

// checkWord checks a claim's word, class and departure (the kind is
// known): the word is in the vocabulary and grades the kind; a claim that
// keeps tolerances of its own, or a comparison the word cannot grade
// (a difference, a target ratio for a direction word), says why in
// departure.
func (k *kindCheck) checkWord() {
	c, in, p, path, n := k.c, k.in, k.p, k.path, k.n
	if !in.have["word"] {
		p.add(path+".word", n, problem(yamlerr.ErrRequired, "missing: the paper's word for the claim, from the vocabulary (docs/claims.md)"))
	}
	if !in.have["class"] {
		p.add(path+".class", n, problem(yamlerr.ErrRequired, "missing: result, setup or invariant"))
	}
	w, ok := LookupWord(c.Word)
	if !ok || c.Kind == "" {
		return
	}
	if !slices.Contains(w.Kinds, c.Kind) {
		p.add(path+".word", n, problem(yamlerr.ErrValue, "%q (%s) does not grade %s claim (it grades %s)", c.Word, w.Rule, article(c.Kind), joinStrings(w.Kinds)))
		return
	}
	if c.Departure != "" {
		return
	}
	var why []string
	if keys := departureKeys(in, c); len(keys) > 0 && w.Rule != RuleBound {
		why = append(why, fmt.Sprintf("has %s, which the word's rule replaces", strings.Join(keys, " and ")))
	}
	if w.Rule == RuleBound && in.grade != nil {
		why = append(why, "has grade, but a bound is graded as written")
	}
	switch w.Rule {
	case RuleSlight, RuleDirection, RuleLarge, RuleMagnitude, RuleNoWorse, RuleNotMuch:
		switch {
		case c.Kind == KindRatio && c.Pairwise:
			why = append(why, "is a pairwise ratio (a share of periods), which a direction word does not grade")
		case c.Kind == KindRatio && c.Form == "diff":
			why = append(why, "compares by a difference, which says nothing of a fold")
		case c.Kind == KindRatio && (c.Expected.IsTarget || (!math.IsInf(c.Expected.Lo, -1) && !math.IsInf(c.Expected.Hi, 1))):
			why = append(why, "expects a number or a range, not a direction")
		}
	case RuleAbout:
		if !c.Expected.IsTarget {
			why = append(why, "expects a bound, not a number")
		}
	case RuleSimilar:
		if c.Kind == KindValue && !c.Expected.IsTarget {
			why = append(why, "expects a bound, not a number")
		}
	case RuleTrend:
		up := strings.HasSuffix(c.Word, "increase")
		if up != (c.Direction == "increasing") {
			p.add(path+".word", n, problem(yamlerr.ErrValue, "%q does not match direction %s", c.Word, c.Direction))
		}
	}
	if c.SingleRun && w.Rule != RuleAbout && w.Rule != RuleBound {
		why = append(why, "is a single run, graded among our replications")
	}
	if len(why) > 0 {
		p.add(path+".departure", n, problem(yamlerr.ErrRequired, "missing: the claim departs from the rule of %q (%s): it %s; say why in departure",
			c.Word, w.Doc, strings.Join(why, "; it ")))
	}
}
