package preempt

import (
	"context"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestTSS_BaselineSS: with TSSBaselineSS the TSS limits come from the
// category means of a plain SS run of the same jobs (same SF), which
// differ from EASY's on a real trace subset.
func TestTSS_BaselineSS(t *testing.T) {
	wl := loadTrace(t, "SDSC-SP2-1998-4.2-cln.swf.gz", 0, workload.EstimateAccurate, 0, 1000)
	cfg := DefaultSSConfig()
	cfg.SuspensionFactor = 3
	cfg.Tunable, cfg.TSSBaselineSS = true, true
	p, err := NewSS(cfg, wl.Procs, wl.Jobs)
	if err != nil {
		t.Fatal(err)
	}
	plain := DefaultSSConfig()
	plain.SuspensionFactor = 3
	q, err := NewSS(plain, wl.Procs, wl.Jobs)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, q, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := metrics.LookupScheme("ss16")
	want := map[string]float64{}
	for _, a := range metrics.Summarize(s, metrics.Records(res)) {
		if a.Category != metrics.Overall && a.Count > 0 {
			want[a.Category] = a.BSD.Mean
		}
	}
	got := p.Baseline()
	easy, err := Baseline(wl.Procs, wl.Jobs)
	if err != nil {
		t.Fatal(err)
	}
	differ := false
	for cat, w := range want {
		if got[cat] != w {
			t.Errorf("%s: limit base %v, want the SS mean %v", cat, got[cat], w)
		}
		differ = differ || easy[cat] != w
	}
	if len(got) != len(want) || !differ {
		t.Errorf("baseline %v: %d categories (want %d), differs from EASY's: %v", got, len(got), len(want), differ)
	}
}
