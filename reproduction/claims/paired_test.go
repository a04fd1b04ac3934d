package claims_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/reproduction/claims"
)

// TestPaired_Power checks the single-run paired test on the 12
// replications of the fixture's g3 (40 measured jobs under LSF-RTC and
// LSF-MIG, the same workload for both in each replication): the paper's
// ratio of two numbers of one run (MIG's mean response time over RTC's)
// is placed among our per-replication ratios. A value drawn from our own replications (the median
// replication's ratio, read claim by claim) agrees; a value 2x off it,
// either way, is rejected; and the test has the power to say so.
func TestPaired_Power(t *testing.T) {
	dir := fixture(t)
	grade := func(body string) claims.Row {
		t.Helper()
		src := "paper: fixture\ndefaults: {group: g3, metric: mrt}\nclaims:\n" + body
		f, err := claims.Parse([]byte(src), claims.Options{Paper: fixturePaper})
		if err != nil {
			t.Fatal(err)
		}
		sc := claims.Evaluate(f, claims.NewOutputs(dir))
		if len(sc.Rows) != 1 || sc.Rows[0].Verdict == claims.Error {
			t.Fatalf("rows %+v", sc.Rows)
		}
		return sc.Rows[0]
	}
	// Our per-replication ratios, one claim per replication.
	var ratios []float64
	for rep := range 12 {
		r := grade(fmt.Sprintf(`  - {id: r, figure: T, quote: q, kind: ratio, word: better, class: result, departure: reads one replication,
     a: {setting: MIG, where: {replication: %d}}, b: {setting: RTC, where: {replication: %d}}, expected: "> 0"}
`, rep, rep))
		ratios = append(ratios, r.Value)
	}
	sorted := slices.Clone(ratios)
	slices.Sort(sorted)
	drawn := sorted[5] // a replication's own ratio near the middle
	paired := func(paper float64) claims.Row {
		return grade(fmt.Sprintf(`  - {id: p, figure: T, quote: q, kind: ratio, word: number, class: result, single_run: true,
     a: {setting: MIG}, b: {setting: RTC}, expected: %v}
`, paper))
	}
	r := paired(drawn)
	if r.Verdict != claims.Agree || r.LowPower {
		t.Errorf("our own replication's ratio %v: %s (low power %v), want agree with power; ours %s", drawn, r.Verdict, r.LowPower, r.Ours)
	}
	if !strings.HasPrefix(r.Ours, "paired ") {
		t.Errorf("ours %q does not say the ratio is paired", r.Ours)
	}
	for _, off := range []float64{2, 0.5} {
		if r := paired(drawn * off); r.Verdict == claims.Agree {
			t.Errorf("a paper value %vx ours (%v): %s, want rejected; ours %s", off, drawn*off, r.Verdict, r.Ours)
		}
	}
	// The mean of the paired ratios is the mean of the ratios read one
	// replication at a time.
	var sum float64
	for _, x := range ratios {
		sum += x
	}
	if got, want := r.Value, sum/float64(len(ratios)); math.Abs(got-want) > 1e-9*want {
		t.Errorf("paired mean %v, want %v", got, want)
	}
}
