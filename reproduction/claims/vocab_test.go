package claims

import (
	"math"
	"strings"
	"testing"
)

// TestGradeFold_Boundaries grades each comparison rule at and just past
// its boundaries, in both claimed directions: up is a/b.
func TestGradeFold_Boundaries(t *testing.T) {
	const d = 1e-6
	for _, tc := range []struct {
		rule Rule
		up   float64 // a/b for a claimed increase
		want Verdict
	}{
		// slightly: the direction, at most 1.25x.
		{RuleSlight, 1.25, Agree},
		{RuleSlight, 1.25 + d, Partly},
		{RuleSlight, 1 + d, Agree},
		{RuleSlight, 1, Disagree},
		{RuleSlight, 0.9, Disagree},
		{RuleSlight, 2.6, Partly}, // f11-ss-worst-very-long: 2.6x is not "slightly"
		// better, worse, higher, lower: at least 5%.
		{RuleDirection, 1.05, Agree},
		{RuleDirection, 1.05 - d, Partly},
		{RuleDirection, 1, Disagree},
		{RuleDirection, 0.97, Disagree},
		// significantly, much, considerably: at least 1.25x.
		{RuleLarge, 1.25, Agree},
		{RuleLarge, 1.25 - d, Partly},
		{RuleLarge, 1.05, Partly},
		{RuleLarge, 1.05 - d, Disagree},
		{RuleLarge, 1.04, Disagree}, // R = 0.04 is not a significant gain
		// an order of magnitude: 5x, partly 3x.
		{RuleMagnitude, 5, Agree},
		{RuleMagnitude, 5 - d, Partly},
		{RuleMagnitude, 3, Partly},
		{RuleMagnitude, 3 - d, Disagree},
		// no worse: within 5%, partly within 25%.
		{RuleNoWorse, 1, Agree},
		{RuleNoWorse, 1 / 1.05, Agree},
		{RuleNoWorse, 1/1.05 - d, Partly},
		{RuleNoWorse, 0.8, Partly},
		{RuleNoWorse, 0.8 - d, Disagree},
		// not significantly worse: less than 1.25x worse.
		{RuleNotMuch, 0.8 + d, Agree},
		{RuleNotMuch, 0.8, Disagree},
		{RuleNotMuch, 3, Agree},
		// similar: within 10%, partly 25%.
		{RuleSimilar, 1.1, Agree},
		{RuleSimilar, 1.1 + d, Partly},
		{RuleSimilar, 0.9, Agree},
		{RuleSimilar, 1.25, Partly},
		{RuleSimilar, 1.25 + d, Disagree},
	} {
		if got := gradeFold(tc.rule, tc.up, false); got != tc.want {
			t.Errorf("%s at a/b = %v (claimed increase): got %s, want %s", tc.rule, tc.up, got, tc.want)
		}
		// The same fold in the other direction: a/b = 1/up for a claimed decrease.
		if tc.rule == RuleSimilar {
			continue
		}
		if got := gradeFold(tc.rule, 1/tc.up, true); got != tc.want {
			t.Errorf("%s at a/b = %v (claimed decrease): got %s, want %s", tc.rule, 1/tc.up, got, tc.want)
		}
	}
}

// TestGradeNear_Boundaries checks about/approximately: within 10% agree,
// within 25% partly.
func TestGradeNear_Boundaries(t *testing.T) {
	for _, tc := range []struct {
		v, target float64
		want      Verdict
	}{
		{110, 100, Agree}, {90, 100, Agree}, {110.001, 100, Partly}, {125, 100, Partly},
		{125.001, 100, Disagree}, {74.99, 100, Disagree}, {0, 0, Agree}, {0.1, 0, Disagree},
	} {
		if got := gradeNear(tc.v, tc.target); got != tc.want {
			t.Errorf("%v against %v: got %s, want %s", tc.v, tc.target, got, tc.want)
		}
	}
}

// TestGradeTrend_Boundaries checks monotonic: Spearman's rho at 0.8 and
// the 5% total change, and that a flat series is not monotonic.
func TestGradeTrend_Boundaries(t *testing.T) {
	for _, tc := range []struct {
		name string
		vals []float64
		sign float64
		want Verdict
	}{
		{"rising", []float64{10, 11, 12, 13}, 1, Agree},
		{"change exactly 5%", []float64{100, 101, 103, 105}, 1, Agree},
		{"change just under 5%", []float64{100, 101, 103, 104.99}, 1, Disagree},
		{"flat", []float64{10, 10, 10, 10}, 1, Disagree},
		{"flat with noise (f5a: rho -0.10)", []float64{5.00, 5.01, 4.99, 5.00, 5.01}, -1, Disagree},
		{"rho exactly 0.8", []float64{1, 3, 2, 4, 5}, 1, Agree}, // rho = 0.9
		{"rho 0.8", []float64{2, 1, 4, 3, 6, 5}, 1, Agree},
		{"rho below 0.8, above 0.5", []float64{2, 4, 1, 3, 6, 5}, 1, Partly},
		{"wrong direction", []float64{13, 12, 11, 10}, 1, Disagree},
		{"falling", []float64{13, 12, 11, 10}, -1, Agree},
	} {
		rho := spearman(tc.vals)
		if got := gradeTrend(tc.vals, rho, tc.sign); got != tc.want {
			t.Errorf("%s %v (rho %.3f): got %s, want %s", tc.name, tc.vals, rho, got, tc.want)
		}
	}
	// rho exactly at the bound: 0.8 agrees, just under does not.
	if got := gradeTrend([]float64{1, 2}, TrendRho, 1); got != Agree {
		t.Errorf("rho %v: got %s, want agree", TrendRho, got)
	}
	if got := gradeTrend([]float64{1, 2}, TrendRho-1e-6, 1); got != Partly {
		t.Errorf("rho just under %v: got %s, want partly", TrendRho, got)
	}
}

// TestRatioOf checks the fold read from each ratio form: sym's R = 0.25
// is 1.25x either way.
func TestRatioOf(t *testing.T) {
	for _, tc := range []struct {
		form string
		v    float64
		want float64
	}{{"ratio", 0.8, 0.8}, {"pct", -20, 0.8}, {"sym", 0.25, 1.25}, {"sym", -0.25, 0.8}} {
		got, ok := ratioOf(tc.form, tc.v)
		if !ok || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s %v: got %v, want %v", tc.form, tc.v, got, tc.want)
		}
	}
	if _, ok := ratioOf("diff", 1); ok {
		t.Error("diff gave a fold")
	}
	// Signed sides of an order (percent changes): -20% against -50% is 2.5x
	// less of an improvement.
	if got := foldOf(-20, -50); math.Abs(got-2.5) > 1e-12 {
		t.Errorf("foldOf(-20, -50) = %v, want 2.5", got)
	}
}

// TestStatements_Headlines checks statements (all agree: agree; most
// disagree: disagree; else partly), that setup checks and invariants do
// not count, and a headline made of statements.
func TestStatements_Headlines(t *testing.T) {
	row := func(id, src, quote string, v Verdict, cl Class) Row {
		return Row{ID: id, Source: src, Quote: quote, Verdict: v, Class: cl, Kind: KindOrder, Value: 1, Target: math.NaN()}
	}
	s := &Scorecard{Paper: "p", Rows: []Row{
		row("a[1]", "a", "All good.", Agree, ClassResult),
		row("a[2]", "a", "All good.", Agree, ClassResult),
		row("b[1]", "b", "Mixed.", Agree, ClassResult),
		row("b[2]", "b", "Mixed.", Disagree, ClassResult),
		row("c", "c", "Mixed.", Partly, ClassResult),
		row("d[1]", "d", "Mostly not.", Disagree, ClassResult),
		row("d[2]", "d", "Mostly not.", Disagree, ClassResult),
		row("d[3]", "d", "Mostly not.", Agree, ClassResult),
		row("e", "e", "Workload share.", Disagree, ClassSetup),
		row("f", "f", "Never misses.", Agree, ClassInvariant),
	}, Headlines: []Headline{
		{ID: "h1", Text: "good", Claims: []string{"a"}},
		{ID: "h2", Text: "mixed", Claims: []string{"a", "b", "c"}},
		{ID: "h3", Text: "bad", Claims: []string{"d", "b"}},
	}}
	sts := s.Statements()
	want := []struct {
		quote string
		v     Verdict
		n     int
	}{{"All good.", Agree, 2}, {"Mixed.", Partly, 3}, {"Mostly not.", Disagree, 3}}
	if len(sts) != len(want) {
		t.Fatalf("%d statements, want %d: %+v", len(sts), len(want), sts)
	}
	for i, w := range want {
		if sts[i].Quote != w.quote || sts[i].Verdict != w.v || len(sts[i].Rows) != w.n {
			t.Errorf("statement %d: %q %s (%d claims), want %q %s (%d)", i, sts[i].Quote, sts[i].Verdict, len(sts[i].Rows), w.quote, w.v, w.n)
		}
	}
	hs := s.HeadlineResults()
	for i, w := range []Verdict{Agree, Partly, Partly} {
		if hs[i].Verdict != w {
			t.Errorf("headline %s: %s, want %s", hs[i].ID, hs[i].Verdict, w)
		}
	}
	if len(hs[1].Statements) != 2 {
		t.Errorf("headline h2 has %d statements, want 2 (b and c share a quote)", len(hs[1].Statements))
	}
	got := s.Tally().String()
	wantLine := "headlines 1/3 · statements 1/3 agree, 1 partly · setup 0/1 · invariants hold"
	if got != wantLine {
		t.Errorf("figures %q, want %q", got, wantLine)
	}
}

// TestParse_Vocabulary checks that the validator rejects a claim without a
// word or a class, a word that does not grade its kind, and a departure
// from the word's rule that is not explained; and accepts one that is.
func TestParse_Vocabulary(t *testing.T) {
	base := "paper: p\nclaims:\n  - id: a\n    figure: F\n    quote: q\n    kind: order\n    select: {group: g, metric: m}\n    a: {setting: A}\n    b: {setting: B}\n    op: '<'\n"
	for _, tc := range []struct {
		name, extra, mention string
	}{
		{"no word", "    class: result\n", "claims[0].word: missing"},
		{"no class", "    word: better\n", "claims[0].class: missing"},
		{"unknown word", "    word: nicer\n    class: result\n", `unknown word "nicer"`},
		{"unknown class", "    word: better\n    class: finding\n", `unknown class "finding"`},
		{"word for another kind", "    word: about\n    class: result\n", `"about" (about) does not grade an order claim`},
		{"unexplained factor", "    word: significantly_better\n    class: result\n    factor: 0.5\n", "claims[0].departure: missing: the claim departs from the rule of \"significantly_better\""},
		{"unexplained grade", "    word: better\n    class: result\n    grade: {partly: 10%}\n", "has grade, which the word's rule replaces"},
		{"grade on a bound", "    word: at_most\n    class: result\n    grade: {partly: 10%}\n", "a bound is graded as written"},
	} {
		_, err := Parse([]byte(base+tc.extra), Options{})
		if err == nil || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("%s: got %v, want an error mentioning %q", tc.name, err, tc.mention)
		}
	}
	for _, extra := range []string{
		"    word: better\n    class: result\n",
		"    word: at_most\n    class: setup\n    factor: 0.5\n",
		"    word: significantly_better\n    class: result\n    factor: 0.5\n    departure: read as at most half, as the paper's Table 2 shows.\n",
	} {
		f, err := Parse([]byte(base+extra), Options{})
		if err != nil {
			t.Errorf("%q: %v", extra, err)
			continue
		}
		if c := f.Claims[0]; c.Word == "" || c.Class == "" {
			t.Errorf("%q: word %q class %q", extra, c.Word, c.Class)
		}
	}
	// Headlines: 3 to 8, naming result claims.
	hl := "headlines:\n  - {id: h1, text: t, claims: [a]}\n  - {id: h2, text: t, claims: [a]}\n"
	_, err := Parse([]byte(base+"    word: better\n    class: result\n"+hl), Options{})
	if err == nil || !strings.Contains(err.Error(), "2 headline results; a paper has 3 to 8") {
		t.Errorf("two headlines: got %v", err)
	}
	hl += "  - {id: h3, text: t, claims: [zz]}\n"
	_, err = Parse([]byte(base+"    word: better\n    class: result\n"+hl), Options{})
	if err == nil || !strings.Contains(err.Error(), `no claim "zz"`) {
		t.Errorf("unknown claim in a headline: got %v", err)
	}
}

// TestSpread_Power checks the power rule: a spread whose P5-P95 holds
// half or twice the median cannot reject a value 2x off.
func TestSpread_Power(t *testing.T) {
	if s := spreadOf([]float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}); s.powerful() {
		t.Errorf("1..10 (P5 %v, median %v): powerful", s.p5, s.median)
	}
	if s := spreadOf([]float64{9, 9.5, 10, 10, 10.5, 11, 10, 9.8, 10.2, 10.1}); !s.powerful() {
		t.Errorf("9..11: not powerful")
	}
}

// TestFoldAbove_Floor grades comparisons of slowdowns by the fold of their
// excesses over the floor of 1, at and just past the rules' boundaries, and
// checks that the numbers without a floor keep the fold of their values.
func TestFoldAbove_Floor(t *testing.T) {
	const d = 1e-6
	bsd := Selection{Metric: "bsd_mean", Scheme: "ss16", Category: "all"}
	jobs := Selection{Table: "jobs", Metric: "bsd", Agg: "max"}
	turn := Selection{Metric: "turnaround_mean"}
	for _, tc := range []struct {
		name   string
		sa, sb Selection
		a, b   float64
		rule   Rule
		less   bool
		want   Verdict
	}{
		// f23-well-ns: NS at 1.25 asks TSS for an excess of at most 0.2.
		{"significantly at 1.25x the excess", bsd, bsd, 1.2, 1.25, RuleLarge, true, Agree},
		{"significantly just short of it", bsd, bsd, 1.2 + d, 1.25, RuleLarge, true, Partly},
		{"the values' fold would be 1.04", bsd, bsd, 1.2, 1.25, RuleDirection, true, Agree},
		{"better: excess 5% lower", jobs, jobs, 1.0 + 0.2/1.05, 1.2, RuleDirection, true, Agree},
		{"better: by less", jobs, jobs, 1.0 + 0.2/1.05 + d, 1.2, RuleDirection, true, Partly},
		{"both at the floor: no gain", bsd, bsd, 1, 1, RuleDirection, true, Disagree},
		{"nothing to gain below a floor value", bsd, bsd, 1.1, 1, RuleLarge, true, Disagree},
		// The same rule makes the other words stricter near the floor.
		{"slightly: excess 1.25x", bsd, bsd, 1.25, 1.2, RuleSlight, false, Agree},
		{"slightly: past it", bsd, bsd, 1.25 + d, 1.2, RuleSlight, false, Partly},
		{"similar: excess within 10%", bsd, bsd, 1.22, 1.2, RuleSimilar, false, Agree},
		{"similar: 1.38 against 1.21 is not", bsd, bsd, 1.38, 1.21, RuleSimilar, false, Disagree},
		{"not significantly worse at 1.25x the excess", bsd, bsd, 1.25, 1.2, RuleNotMuch, true, Disagree},
		{"not significantly worse below it", bsd, bsd, 1.25 - d, 1.2, RuleNotMuch, true, Agree},
		// No floor: turnaround, a baseline comparison, a coefficient of variation.
		{"turnaround: the values' fold, 1.04", turn, turn, 1.2, 1.25, RuleLarge, true, Disagree},
		{"a percent change has no floor", Selection{Metric: "bsd_mean", Baseline: &Selection{Setting: "NS"}}, Selection{Metric: "bsd_mean", Baseline: &Selection{Setting: "NS"}}, -20, -10, RuleLarge, true, Agree},
		{"a cv has no floor", Selection{Table: "jobs", Metric: "bsd", Agg: "cv"}, Selection{Table: "jobs", Metric: "bsd", Agg: "cv"}, 1.2, 1.25, RuleLarge, true, Disagree},
		{"one side without a floor", bsd, turn, 1.2, 1.25, RuleLarge, true, Disagree},
	} {
		got := gradeFold(tc.rule, foldAbove(tc.sa, tc.sb, tc.a, tc.b), tc.less)
		if got != tc.want {
			t.Errorf("%s: %s of %v against %v: got %s, want %s", tc.name, tc.rule, tc.a, tc.b, got, tc.want)
		}
	}
}

// TestFoldAbove_Ceiling: acceptance is compared by the shares of jobs
// rejected, (1 - b) / (1 - a), at and just past each fold word's bound;
// utilization, percent changes and mixed sides keep the fold of values.
func TestFoldAbove_Ceiling(t *testing.T) {
	const d = 1e-6
	acc := Selection{Metric: "acceptance"}
	accMax := Selection{Metric: "acceptance", Reps: "max"}
	util := Selection{Table: "tasks", Metric: "utilization"}
	for _, tc := range []struct {
		name   string
		sa, sb Selection
		a, b   float64
		rule   Rule
		less   bool
		want   Verdict
	}{
		// 0.968 against 0.96: 3.2% rejected against 4%, 1.25x.
		{"significantly at 1.25x the rejected share", acc, acc, 1 - 0.04/1.25, 0.96, RuleLarge, false, Agree},
		{"significantly just short of it", acc, acc, 1 - 0.04/1.25 - d, 0.96, RuleLarge, false, Partly},
		{"the values' fold would be 1.008", accMax, accMax, 1 - 0.04/1.25, 0.96, RuleDirection, false, Agree},
		{"higher: rejected share 5% lower", acc, acc, 1 - 0.04/1.05, 0.96, RuleDirection, false, Agree},
		{"higher: by less", acc, acc, 1 - 0.04/1.05 - d, 0.96, RuleDirection, false, Partly},
		{"both at the ceiling: no gain", acc, acc, 1, 1, RuleDirection, false, Disagree},
		{"nothing to gain above a ceiling value", acc, acc, 0.99, 1, RuleLarge, false, Disagree},
		{"lower: every job admitted against some rejected", acc, acc, 0.9, 1, RuleLarge, true, Agree},
		// The same rule makes the other words stricter near the ceiling.
		{"slightly: rejected share 1.25x", acc, acc, 1 - 0.04/1.25, 0.96, RuleSlight, false, Agree},
		{"slightly: past it", acc, acc, 1 - 0.04/1.25 + d, 0.96, RuleSlight, false, Partly},
		{"similar: rejected share within 10%", acc, acc, 0.958, 0.96, RuleSimilar, false, Agree},
		{"similar: 0.90 against 0.95 is not", acc, acc, 0.90, 0.95, RuleSimilar, false, Disagree},
		{"not significantly lower at 1.25x the rejected share", acc, acc, 0.95, 0.96, RuleNotMuch, false, Disagree},
		{"not significantly lower below it", acc, acc, 0.95 + d, 0.96, RuleNotMuch, false, Agree},
		// No ceiling: utilization (its bound is the offered load), a
		// baseline comparison, one side of another metric.
		{"utilization: the values' fold, 1.008", util, util, 1 - 0.04/1.25, 0.96, RuleLarge, false, Disagree},
		{"utilization: not significantly higher by values", util, util, 0.969, 0.862, RuleNotMuch, true, Agree},
		{"a percent change has no ceiling", Selection{Metric: "acceptance", Baseline: &Selection{Setting: "EASY"}}, Selection{Metric: "acceptance", Baseline: &Selection{Setting: "EASY"}}, -2, -1, RuleLarge, true, Agree},
		{"one side without a ceiling", acc, util, 1 - 0.04/1.25, 0.96, RuleLarge, false, Disagree},
	} {
		got := gradeFold(tc.rule, foldAbove(tc.sa, tc.sb, tc.a, tc.b), tc.less)
		if got != tc.want {
			t.Errorf("%s: %s of %v against %v: got %s, want %s", tc.name, tc.rule, tc.a, tc.b, got, tc.want)
		}
	}
}
