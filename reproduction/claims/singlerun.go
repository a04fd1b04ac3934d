package claims

import (
	"fmt"
	"math"
	"slices"
)

// MinSingleRunReps is the fewest replications with a value a single_run
// claim needs: with fewer, the central 90% of our values is not an
// interval one can place the paper's run in.
const MinSingleRunReps = 10

// spread summarises our replications' values of one selection: their
// mean, the 5th and 95th percentiles and the extremes.
type spread struct {
	n                     int
	mean, median, p5, p95 float64
	lowest, highest       float64
}

// spreadOf computes the spread of vals (at least one value). Percentiles
// interpolate linearly between order statistics (the p-quantile of n
// sorted values x_0..x_{n-1} is at position p·(n-1)), the usual default
// of statistics packages.
func spreadOf(vals []float64) spread {
	v := slices.Clone(vals)
	slices.Sort(v)
	return spread{
		n: len(v), mean: combine("mean", v), median: quantile(v, 0.5),
		p5: quantile(v, 0.05), p95: quantile(v, 0.95),
		lowest: v[0], highest: v[len(v)-1],
	}
}

// quantile returns the p-quantile of sorted values by linear
// interpolation between the two order statistics around p·(n-1).
func quantile(sorted []float64, p float64) float64 {
	pos := p * float64(len(sorted)-1)
	i := int(math.Floor(pos))
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	frac := pos - float64(i)
	return sorted[i] + frac*(sorted[i+1]-sorted[i])
}

// String is the scorecard's ours column of a single_run claim: the mean,
// the central 90% interval and the range, with the number of
// replications, e.g. "6472 (P5-P95 2113..14020, range 1502..20110, 30 runs)".
func (s spread) String() string {
	return fmt.Sprintf("%s (P5-P95 %s..%s, range %s..%s, %d runs)",
		fmtNum(s.mean), fmtNum(s.p5), fmtNum(s.p95), fmtNum(s.lowest), fmtNum(s.highest), s.n)
}

// meets reports whether the expectation (the paper's single value, or
// the range it lies in when the paper gives a bound such as "> 2293")
// has a point in [lo, hi].
func (e Expect) meets(lo, hi float64) bool {
	switch {
	case hi < e.Lo || (e.LoStrict && hi == e.Lo):
		return false
	case lo > e.Hi || (e.HiStrict && lo == e.Hi):
		return false
	}
	return true
}

// gradeSingleRun grades the paper's single run against our replications:
// agree when its value lies within the central 90% of ours (P5-P95),
// partly when within their full range, else disagree. A paper value that
// is only bounded ("> 2293" for a run with unfinished jobs) counts where
// some value it allows does.
func gradeSingleRun(e Expect, s spread) Verdict {
	switch {
	case e.meets(s.p5, s.p95):
		return Agree
	case e.meets(s.lowest, s.highest):
		return Partly
	}
	return Disagree
}

// singleRunValues returns the selection's value in every replication that
// has one; it fails with fewer than MinSingleRunReps.
func (o *Outputs) singleRunValues(s Selection) ([]float64, error) {
	vals, _, err := o.repValues(s)
	if err != nil {
		return nil, err
	}
	var ok []float64
	for _, v := range vals {
		if !math.IsNaN(v) {
			ok = append(ok, v)
		}
	}
	if len(ok) < MinSingleRunReps {
		return nil, fmt.Errorf("%w: single_run places the paper's value among our replications and needs at least %d with a value, got %d",
			ErrFewReplications, MinSingleRunReps, len(ok))
	}
	return ok, nil
}

// PowerFold is the factor a single-run test must be able to reject: a
// value this many times ours (or ours divided by it) must fall outside
// the central 90% of our replications.
const PowerFold = 2.0

// powerful reports whether the spread's test would reject a paper value
// PowerFold times off ours: the median times PowerFold and divided by it
// both lie outside P5-P95. A claim without that power is shown with its
// verdict but does not count in the figures.
func (s spread) powerful() bool {
	m := s.median
	if m <= 0 {
		return false
	}
	return PowerFold*m > s.p95 && m/PowerFold < s.p5
}

// evaluatePaired grades a single-run ratio claim: the paper's number is a
// ratio of two numbers of its one run (two disciplines that saw the same
// job sequence), so it is placed among our per-replication ratios of the
// same two numbers (a and b of one replication share its workload), by
// the single-run rule.
func evaluatePaired(c *Claim, o *Outputs, r Row) Row {
	av, _, err := o.repValues(c.A)
	if err != nil {
		return failRow(c, r, "a", c.A, err)
	}
	bv, _, err := o.repValues(c.B)
	if err != nil {
		return failRow(c, r, "b", c.B, err)
	}
	if len(av) != len(bv) {
		return failRow(c, r, "a, b", c.A, fmt.Errorf("%w: a has %d replications with a value, b %d: a paired ratio needs both in every replication", ErrFewReplications, len(av), len(bv)))
	}
	var ratios []float64
	for i := range av {
		if x, ok := compare(c.Form, av[i], bv[i]); ok && !math.IsNaN(x) {
			ratios = append(ratios, x)
		}
	}
	if len(ratios) < MinSingleRunReps {
		return failRow(c, r, "a, b", c.A, fmt.Errorf("%w: a paired single_run ratio needs at least %d replications with both values, got %d",
			ErrFewReplications, MinSingleRunReps, len(ratios)))
	}
	st := spreadOf(ratios)
	r.Value, r.Ours = st.mean, "paired "+st.String()
	r.Verdict = gradeSingleRun(c.Expected, st)
	r.LowPower = !st.powerful()
	if r.LowPower {
		r.Ours += lowPowerNote
	}
	return r
}

// lowPowerNote ends the ours column of a single-run claim without power.
const lowPowerNote = "; low power (a value 2x off would not be rejected): not counted"
