package metrics

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestPercentile(t *testing.T) {
	ten := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, tc := range []struct {
		vals []float64
		p    float64
		want float64
	}{
		// Nearest rank: the value at rank ceil(p n).
		{ten, 0.5, 5}, {ten, 0.9, 9}, {ten, 0.99, 10}, {ten, 0.1, 1}, {ten, 1, 10},
		{[]float64{7}, 0.5, 7}, {[]float64{7}, 0.99, 7},
		{[]float64{1, 2, 3}, 0.5, 2}, {[]float64{1, 2, 3, 4}, 0.5, 2}, {[]float64{1, 2, 3}, 0.9, 3},
		{nil, 0.5, 0},
	} {
		if got := Percentile(tc.vals, tc.p); got != tc.want {
			t.Errorf("Percentile(%v, %g) = %g, want %g", tc.vals, tc.p, got, tc.want)
		}
	}
	// 200 values: rank ceil(0.99 * 200) = 198 (0.99 * 200 is 198 in
	// floating point, not 198.00000000000003).
	var many []float64
	for v := range 200 {
		many = append(many, float64(v+1))
	}
	if got := Percentile(many, 0.99); got != 198 {
		t.Errorf("Percentile(1..200, 0.99) = %g, want 198", got)
	}
}

// TestSummarize_Percentiles checks percentiles computed by hand: under
// ss4, four short narrow jobs (one rejected) and three long wide ones.
func TestSummarize_Percentiles(t *testing.T) {
	recs := []Record{
		{Runtime: 100, Procs: 1, Wait: 0, BSD: 1, Turnaround: 100},
		{Runtime: 100, Procs: 1, Wait: 300, BSD: 4, Turnaround: 400},
		{Runtime: 100, Procs: 1, Wait: 100, BSD: 2, Turnaround: 200},
		{Runtime: 100, Procs: 1, Wait: 9999, BSD: 99, Turnaround: 9999, Rejected: true},
		{Runtime: 7200, Procs: 64, Wait: 7200, BSD: 2, Turnaround: 14400},
		{Runtime: 7200, Procs: 64, Wait: 0, BSD: 1, Turnaround: 7200},
		{Runtime: 7200, Procs: 64, Wait: 72000, BSD: 11, Turnaround: 79200},
	}
	s, _ := LookupScheme("ss4")
	got := Summarize(s, recs)
	sn, lw, all := got[0], got[3], got[4]
	// SN admitted: BSD 1, 2, 4 (sorted); ranks ceil(1.5) = 2, ceil(2.7) = 3, ceil(2.97) = 3.
	if want := (Stat{Mean: 7.0 / 3, Max: 4, P50: 2, P90: 4, P99: 4}); sn.BSD != want {
		t.Errorf("SN BSD = %+v, want %+v", sn.BSD, want)
	}
	if sn.Wait.P50 != 100 || sn.Turnaround.P90 != 400 {
		t.Errorf("SN wait %+v, turnaround %+v", sn.Wait, sn.Turnaround)
	}
	// LW: waits 0, 7200, 72000.
	if lw.Wait.P50 != 7200 || lw.Wait.P90 != 72000 || lw.BSD.P50 != 2 {
		t.Errorf("LW = %+v", lw)
	}
	// All six admitted: BSD 1, 1, 2, 2, 4, 11; ranks 3, 6, 6; turnarounds
	// 100, 200, 400, 7200, 14400, 79200.
	if all.BSD.P50 != 2 || all.BSD.P90 != 11 || all.BSD.P99 != 11 || all.Turnaround.P50 != 400 || all.Turnaround.P90 != 79200 {
		t.Errorf("all = %+v", all)
	}
	if got[1].Count != 0 || got[1].BSD != (Stat{}) {
		t.Errorf("empty SW = %+v", got[1])
	}
}

// TestSelectRank checks selectRank against a sort on random values with
// many ties, and the three selections of percentiles against Percentile.
func TestSelectRank(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 500 {
		n := 1 + rng.IntN(300)
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = float64(rng.IntN(1 + trial%20))
		}
		sorted := slices.Clone(vals)
		slices.Sort(sorted)
		k := rng.IntN(n)
		a := slices.Clone(vals)
		if got := selectRank(a, k); got != sorted[k] {
			t.Fatalf("selectRank(%v, %d) = %g, want %g", vals, k, got, sorted[k])
		}
		for i := range a {
			if (i < k && a[i] > a[k]) || (i > k && a[i] < a[k]) {
				t.Fatalf("selectRank(%v, %d) left %v", vals, k, a)
			}
		}
		recs := make([]Record, n)
		for i, v := range vals {
			recs[i] = Record{Runtime: 100, Procs: 1, BSD: v}
		}
		s, _ := LookupScheme("ss4")
		all := Summarize(s, recs)[4].BSD
		if all.P50 != Percentile(sorted, 0.5) || all.P90 != Percentile(sorted, 0.9) || all.P99 != Percentile(sorted, 0.99) {
			t.Fatalf("percentiles of %v: %+v", sorted, all)
		}
	}
}
