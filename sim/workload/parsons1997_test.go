package workload

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// h2CDF is the balanced-means hyperexponential's distribution function.
func h2CDF(x, m, cv float64) float64 {
	p1, m1, m2 := H2(m, cv)
	return p1*(1-math.Exp(-x/m1)) + (1-p1)*(1-math.Exp(-x/m2))
}

// h2Quantile inverts h2CDF by bisection.
func h2Quantile(q, m, cv float64) float64 {
	lo, hi := 0.0, 1e7
	for range 200 {
		mid := (lo + hi) / 2
		if h2CDF(mid, m, cv) < q {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

func TestH2_PaperQuartiles(t *testing.T) {
	p1, m1, m2 := H2(8000, 4)
	if math.Abs(p1-0.969668) > 1e-6 || math.Abs(m1-4125.1) > 0.1 || math.Abs(m2-131875) > 1 {
		t.Errorf("H2(8000, 4) = %v, %v, %v; want 0.969668, 4125.1, 131875", p1, m1, m2)
	}
	// The paper gives only the quartiles 1230/2985/6100.
	for i, want := range []float64{1230, 2985, 6100} {
		got := h2Quantile(float64(i+1)/4, 8000, 4)
		if math.Abs(got-want)/want > 0.002 {
			t.Errorf("quartile %d = %.1f, paper %v", i+1, got, want)
		}
	}
}

func TestAmdahl_Paper(t *testing.T) {
	// §6: good speedup 114 on 128 processors; poor: 58% efficiency on 8.
	s := func(f float64, k int) float64 { return 1 / (f + (1-f)/float64(k)) }
	if got := s(0.001, 128); math.Abs(got-113.6) > 0.05 {
		t.Errorf("S(128; 0.001) = %v, want 113.6", got)
	}
	if got := s(0.1, 128); math.Abs(got-9.34) > 0.01 {
		t.Errorf("S(128; 0.1) = %v, want 9.34", got)
	}
	if got := s(0.1, 8) / 8; math.Abs(got-0.588) > 0.001 {
		t.Errorf("efficiency on 8 with f 0.1 = %v, want 0.588", got)
	}
	if got := Amdahl(16000, 0, 16); got != 1000 {
		t.Errorf("T(16; D 16000, f 0) = %d, want 1000", got)
	}
	if got := Amdahl(0.001, 0.1, 128); got != 1 {
		t.Errorf("T of a tiny job = %d, want 1", got)
	}
}

// TestParsons1997_Statistics draws 10^6 jobs and compares them with the model.
func TestParsons1997_Statistics(t *testing.T) {
	if testing.Short() {
		t.Skip("10^6 draws")
	}
	g := NewParsons1997()
	g.MeanInterarrival = 300
	g.Seed = 42
	dr := g.drawer()
	const n = 1_000_000
	ds := make([]float64, n)
	var sum, sum2, gaps float64
	good := 0
	minCount := make([]int, 17)
	desOK := true
	for i := range n {
		x := dr.next(i + 1) // every draw with a gap
		ds[i] = x.d
		sum += x.d
		sum2 += x.d * x.d
		gaps += x.gap
		if x.f == g.GoodSeq {
			good++
		}
		minCount[x.minU]++
		if x.desU < x.minU || x.desU > 16 {
			desOK = false
		}
	}
	mean := sum / n
	sd := math.Sqrt(sum2/n - mean*mean)
	if math.Abs(mean-8000)/8000 > 0.02 {
		t.Errorf("mean demand %v, want 8000 ±2%%", mean)
	}
	if cv := sd / mean; math.Abs(cv-4)/4 > 0.05 {
		t.Errorf("demand CV %v, want 4 ±5%%", cv)
	}
	slices.Sort(ds)
	for i, want := range []float64{1228, 2984, 6099} {
		q := ds[(i+1)*n/4]
		if math.Abs(q-want)/want > 0.01 {
			t.Errorf("quartile %d = %v, want %v ±1%%", i+1, q, want)
		}
	}
	if share := float64(good) / n; math.Abs(share-0.75) > 0.005 {
		t.Errorf("good share %v, want 0.75±0.005", share)
	}
	if g := gaps / n; math.Abs(g-300)/300 > 0.01 {
		t.Errorf("mean gap %v, want 300 ±1%%", g)
	}
	// min uniform over 1..16 units: chi-square with 15 degrees of freedom
	// (0.999 quantile 37.7).
	chi := 0.0
	for u := 1; u <= 16; u++ {
		e := float64(n) / 16
		chi += (float64(minCount[u]) - e) * (float64(minCount[u]) - e) / e
	}
	if minCount[0] != 0 || chi > 37.7 {
		t.Errorf("min units not uniform: counts %v, chi-square %v", minCount, chi)
	}
	if !desOK {
		t.Error("a desired allocation outside [min, 16 units]")
	}
}

func TestParsons1997_Generate(t *testing.T) {
	g := NewParsons1997()
	g.MeanInterarrival = 300
	g.Seed = 7
	w, err := g.Generate()
	if err != nil {
		t.Fatal(err)
	}
	if w.Procs != 128 {
		t.Errorf("procs %d, want 128", w.Procs)
	}
	tagged := 0
	for i, j := range w.Jobs {
		e := j.Elastic
		if e == nil {
			t.Fatalf("job %d not elastic", j.ID)
		}
		if e.Tagged {
			tagged++
		}
		if e.Tagged != (i < 200) {
			t.Errorf("job %d tagged %v", j.ID, e.Tagged)
		}
		if j.Procs%8 != 0 || e.Min%8 != 0 || e.Min < 8 || e.Min > j.Procs || e.Max != 128 || e.Unit != 8 {
			t.Errorf("job %d: min %d desired %d max %d unit %d", j.ID, e.Min, j.Procs, e.Max, e.Unit)
		}
		if j.Runtime != Amdahl(e.Work, e.SeqFrac, j.Procs) || j.Estimate != j.Runtime {
			t.Errorf("job %d: runtime %d, estimate %d, want T(desired) %d", j.ID, j.Runtime, j.Estimate, Amdahl(e.Work, e.SeqFrac, j.Procs))
		}
		if i == 0 && j.Submit != 0 {
			t.Errorf("first job at %d", j.Submit)
		}
		if i > 0 && j.Submit < w.Jobs[i-1].Submit {
			t.Errorf("job %d submits before its predecessor", j.ID)
		}
		if i >= 200 && j.Submit >= 259200 {
			t.Errorf("untagged job %d after the horizon", j.ID)
		}
	}
	if tagged != 200 || len(w.Jobs) < 600 {
		t.Errorf("%d tagged of %d jobs, want 200 of about 860", tagged, len(w.Jobs))
	}
	again, _ := g.Generate()
	for i := range w.Jobs {
		a, b := w.Jobs[i], again.Jobs[i]
		if a.Submit != b.Submit || *a.Elastic != *b.Elastic || a.Procs != b.Procs {
			t.Fatalf("job %d differs between two generations with the same seed", a.ID)
		}
	}
	// Load 2 halves the gaps; horizon 0 gives only the tagged jobs.
	g.Load, g.Horizon = 2, 0
	w2, err := g.Generate()
	if err != nil {
		t.Fatal(err)
	}
	if len(w2.Jobs) != 200 || w2.Jobs[199].Submit > w.Jobs[199].Submit/2+1 || w2.Jobs[199].Submit < w.Jobs[199].Submit/2-1 {
		t.Errorf("load 2, horizon 0: %d jobs, last at %d (was %d)", len(w2.Jobs), w2.Jobs[199].Submit, w.Jobs[199].Submit)
	}
}

func TestParseParsons1997_Err(t *testing.T) {
	for _, tc := range []struct {
		name  string
		procs int
		load  float64
		gen   map[string]any
		want  string
	}{
		{"cv", 0, 0, map[string]any{"mean_interarrival": 300, "demand_cv": 0.5}, "gen.demand_cv: must be >= 1, got 0.5"},
		{"missing rate", 0, 0, map[string]any{}, "gen.mean_interarrival: must be > 0 (required), got 0"},
		{"unit", 100, 0, map[string]any{"mean_interarrival": 300}, "gen.unit: must divide procs 100, got 8"},
		{"horizon", 0, 0, map[string]any{"mean_interarrival": 300, "horizon": -1}, "gen.horizon: must be 0 (no cut-off)"},
		{"fraction", 0, 0, map[string]any{"mean_interarrival": 300, "good_fraction": 1.5}, "gen.good_fraction: must be in [0, 1], got 1.5"},
		{"poor min", 0, 0, map[string]any{"mean_interarrival": 300, "poor_min_units": 17}, "gen.poor_min_units: must be 0 (independent) or 1..procs/unit, got 17"},
		{"seq", 0, 0, map[string]any{"mean_interarrival": 300, "poor_seq": -0.1}, "gen.poor_seq: must be in [0, 1], got -0.1"},
		{"unknown", 0, 0, map[string]any{"mean_interarrival": 300, "rate": 1}, "gen.rate: unknown key"},
		{"text", 0, 0, map[string]any{"mean_interarrival": "fast"}, `gen.mean_interarrival: "fast" is not a number`},
		{"whole", 0, 0, map[string]any{"mean_interarrival": 300, "tagged": 2.5}, "gen.tagged: must be a whole number, got 2.5"},
		{"load", 0, -1, map[string]any{"mean_interarrival": 300}, "load: must be 0 (none) or 0.01..100, got -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseParsons1997(tc.procs, tc.load, tc.gen)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			var ge *GenError
			if !errors.As(err, &ge) || !errors.Is(err, ErrInvalidOption) {
				t.Errorf("err %v is not a *GenError wrapping ErrInvalidOption", err)
			}
		})
	}
	if _, err := Synthetic("downey", 0, 0, nil, 1); !errors.Is(err, ErrUnknownSynthetic) {
		t.Errorf("unknown synthetic: %v", err)
	}
	w, err := Synthetic(SyntheticParsons1997, 0, 0, map[string]any{"mean_interarrival": "300", "tagged": 5, "horizon": 0}, 1)
	if err != nil || len(w.Jobs) != 5 {
		t.Fatalf("Synthetic with text values: %v", err)
	}
}

// TestParsons1997_PoorMinUnits checks the size-tied speedup classes: with
// poor_min_units 4 every job whose minimum is at most 32 processors has
// f = 0.1 and every other f = 0.001, while the arrivals, demands and sizes
// are those of the default generator (the class uniform is still drawn).
func TestParsons1997_PoorMinUnits(t *testing.T) {
	g := NewParsons1997()
	g.MeanInterarrival, g.Seed, g.Horizon = 300, 7, 0
	base, err := g.Generate()
	if err != nil {
		t.Fatal(err)
	}
	g.PoorMinUnits = 4
	tied, err := g.Generate()
	if err != nil {
		t.Fatal(err)
	}
	if len(tied.Jobs) != len(base.Jobs) {
		t.Fatalf("%d jobs, want %d", len(tied.Jobs), len(base.Jobs))
	}
	poor := 0
	for i, j := range tied.Jobs {
		b := base.Jobs[i]
		if j.Submit != b.Submit || j.Elastic.Work != b.Elastic.Work || j.Elastic.Min != b.Elastic.Min || j.Procs != b.Procs {
			t.Fatalf("job %d: submit %d, D %v, min %d, desired %d; default draws %d, %v, %d, %d",
				j.ID, j.Submit, j.Elastic.Work, j.Elastic.Min, j.Procs, b.Submit, b.Elastic.Work, b.Elastic.Min, b.Procs)
		}
		want := DefaultParsonsGoodSeq
		if j.Elastic.Min <= 32 {
			want = DefaultParsonsPoorSeq
			poor++
		}
		if j.Elastic.SeqFrac != want {
			t.Errorf("job %d (min %d): f = %v, want %v", j.ID, j.Elastic.Min, j.Elastic.SeqFrac, want)
		}
		if j.Runtime != Amdahl(j.Elastic.Work, want, j.Procs) {
			t.Errorf("job %d: runtime %d, want T(desired) %d", j.ID, j.Runtime, Amdahl(j.Elastic.Work, want, j.Procs))
		}
	}
	if poor == 0 || poor == len(tied.Jobs) {
		t.Errorf("%d of %d jobs poor: the test needs both classes", poor, len(tied.Jobs))
	}
	g2, err := ParseParsons1997(0, 0, map[string]any{"mean_interarrival": 300, "poor_min_units": 4})
	if err != nil || g2.PoorMinUnits != 4 {
		t.Errorf("gen poor_min_units 4: %+v, %v", g2.PoorMinUnits, err)
	}
}
