package moldable

import (
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// TestXFactorBase: a job with est_work 2400, work L 1200 and estimate 300
// on its trace size, threshold 4, so it qualifies once it has waited more
// than 3 x its ESRT: 7200 s (est_work), 3600 s (work) or 900 s (estimate).
func TestXFactorBase(t *testing.T) {
	a := &sim.Moldable{Min: 8, Max: 8, BaseProcs: 8, BaseRuntime: 150, BaseEstimate: 300, Speedup: sim.Downey{A: 8}, Work: 1200, EstWork: 2400}
	for _, c := range []struct {
		base Base
		wait sim.Time
		want bool
	}{
		{EstWork, 7200, false}, {EstWork, 7201, true},
		{Work, 3600, false}, {Work, 3601, true}, {Work, 1000, false},
		{Estimate, 900, false}, {Estimate, 901, true},
	} {
		ch := chooser{cfg: Config{XFactorThreshold: 4, XFactorBase: c.base}}
		if got := ch.overXFactor(a, c.wait); got != c.want {
			t.Errorf("base %d, waited %d: over = %v, want %v", c.base, c.wait, got, c.want)
		}
	}
}

// TestWeightsBase: the fair-share weight follows Weights. Two jobs in the
// sum (est_work 800 and 600, work 400 and 600) on 8 processors: the first
// job's limit is floor(8 x 800/1400) = 4 by est_work, floor(8 x 400/1000)
// = 3 by work; with sqrt weights floor(8 x 20/(20+24.49...)) = 3 by work.
func TestWeightsBase(t *testing.T) {
	j1 := &sim.Moldable{Min: 1, Max: 8, EstWork: 800, Work: 400}
	j2 := &sim.Moldable{Min: 1, Max: 8, EstWork: 600, Work: 600}
	for _, c := range []struct {
		cfg  Config
		want int
	}{
		{Config{FairShare: true, WeightFactor: 1, Gap: 0.9, Weights: EstWork}, 4},
		{Config{FairShare: true, WeightFactor: 1, Gap: 0.9, Weights: Work}, 3},
		{Config{FairShare: true, WeightFactor: 1, Gap: 0.9, Weights: Work, SqrtWeights: true}, 3},
	} {
		ch := chooser{cfg: c.cfg, size: 8}
		ch.sumW = ch.weight(j1) + ch.weight(j2)
		if got := ch.limit(j1); got != c.want {
			t.Errorf("%+v: limit %d, want %d", c.cfg, got, c.want)
		}
	}
	if err := (Config{WeightFactor: 1, Gap: 1, Choices: 2, XFactorThreshold: 1, Weights: Estimate}).Validate(); err == nil {
		t.Error("Weights: Estimate validated")
	}
}
