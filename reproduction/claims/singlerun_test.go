package claims

import (
	"math"
	"testing"
)

// TestQuantile checks the linear interpolation between order statistics
// against values computed by hand: the p-quantile of n sorted values is
// at position p·(n-1).
func TestQuantile(t *testing.T) {
	ten := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, tc := range []struct {
		vals []float64
		p    float64
		want float64
	}{
		{ten, 0.05, 1.45}, // position 0.45: 1 + 0.45·(2-1)
		{ten, 0.95, 9.55}, // position 8.55: 9 + 0.55·(10-9)
		{ten, 0.5, 5.5},
		{ten, 0, 1},
		{ten, 1, 10},
		{[]float64{7}, 0.05, 7},
		{[]float64{0, 100}, 0.95, 95},
	} {
		if got := quantile(tc.vals, tc.p); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("quantile(%v, %v) = %v, want %v", tc.vals, tc.p, got, tc.want)
		}
	}
}

// TestGradeSingleRun places paper values among ten replications 1..10
// (P5 1.45, P95 9.55, range 1..10): inside the central 90% agrees,
// between it and the extremes is partly, outside the range disagrees; a
// bound counts where some value it allows falls, and a strict bound on
// an edge does not reach it.
func TestGradeSingleRun(t *testing.T) {
	s := spreadOf([]float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1})
	if s.mean != 5.5 || s.p5 != 1.45 || math.Abs(s.p95-9.55) > 1e-12 || s.lowest != 1 || s.highest != 10 || s.n != 10 {
		t.Fatalf("spread = %+v", s)
	}
	if got, want := s.String(), "5.5 (P5-P95 1.45..9.55, range 1..10, 10 runs)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	for _, tc := range []struct {
		expect string
		want   Verdict
	}{
		{"5.5", Agree},
		{"1.45", Agree},
		{"9.5", Agree},
		{"9.6", Partly},
		{"1.2", Partly},
		{"10", Partly},
		{"10.01", Disagree},
		{"0.99", Disagree},
		{"> 9", Agree},
		{"> 9.55", Partly},
		{">= 10", Partly},
		{"> 10", Disagree},
		{"< 1", Disagree},
		{"<= 1", Partly},
		{"< 1.5", Agree},
		{"12..20", Disagree},
		{"9.8..20", Partly},
		{"0..1.3", Partly},
		{"0..100", Agree},
	} {
		e, err := ParseExpect(tc.expect)
		if err != nil {
			t.Fatalf("ParseExpect(%q): %v", tc.expect, err)
		}
		if got := gradeSingleRun(e, s); got != tc.want {
			t.Errorf("paper %s among 1..10: got %s, want %s", tc.expect, got, tc.want)
		}
	}
}
