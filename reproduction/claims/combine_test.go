package claims

import (
	"math"
	"testing"
)

// TestCombine checks the median and cv aggregates against hand values.
func TestCombine(t *testing.T) {
	for _, c := range []struct {
		how  string
		vals []float64
		want float64
	}{
		{"median", []float64{5, 1, 3}, 3},
		{"median", []float64{4, 1, 3, 2}, 2.5},
		{"cv", []float64{2, 4, 4, 4, 5, 5, 7, 9}, 0.4}, // mean 5, population sd 2
		{"cv", []float64{0, 0}, math.NaN()},
		{"mean", []float64{1, 2}, 1.5},
	} {
		got := combine(c.how, c.vals)
		if math.IsNaN(c.want) != math.IsNaN(got) || !math.IsNaN(got) && math.Abs(got-c.want) > 1e-12 {
			t.Errorf("combine(%s, %v) = %v, want %v", c.how, c.vals, got, c.want)
		}
	}
}
