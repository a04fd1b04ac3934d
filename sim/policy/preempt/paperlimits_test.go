package preempt

import (
	"errors"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

// TestTSS_PaperLimits: with TSSPaperLimits the baseline is the paper's
// Table 4 (430 processors) or Table 5 (128), keyed by the ss16 labels, and
// other machine sizes are refused.
func TestTSS_PaperLimits(t *testing.T) {
	s, err := metrics.LookupScheme("ss16")
	if err != nil {
		t.Fatal(err)
	}
	labels := s.Labels()
	slices.Sort(labels)
	jobs := []sim.Job{{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 1}}
	for procs, want := range map[int]map[string]float64{
		430: {"VS Seq": 2.6, "VS VW": 34.07, "L N": 1.43, "VL VW": 1.15},
		128: {"VS Seq": 2.53, "VS VW": 113.31, "L N": 1.24, "VL VW": 1.43},
	} {
		cfg := DefaultSSConfig()
		cfg.Tunable, cfg.TSSPaperLimits = true, true
		p, err := NewSS(cfg, procs, jobs)
		if err != nil {
			t.Fatal(err)
		}
		b := p.Baseline()
		var keys []string
		for k := range b {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, labels) {
			t.Errorf("%d processors: baseline keys %v, want the ss16 labels %v", procs, keys, labels)
		}
		for k, v := range want {
			if b[k] != v {
				t.Errorf("%d processors: %s = %v, want %v", procs, k, b[k], v)
			}
		}
	}
	cfg := DefaultSSConfig()
	cfg.Tunable, cfg.TSSPaperLimits = true, true
	if _, err := NewSS(cfg, 338, jobs); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("338 processors: error %v, want ErrInvalidConfig", err)
	}
}
