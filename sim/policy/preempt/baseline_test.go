package preempt

import (
	"context"
	"sync"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
	"github.com/schedfarm/schedfarm/sim/workload"
)

func TestBaseline(t *testing.T) {
	wl := loadTrace(t, "SDSC-SP2-1998-4.2-cln.swf.gz", 0, workload.EstimateAccurate, 0, 1500)
	// Concurrent first calls simulate once and agree.
	var wg sync.WaitGroup
	got := make([]map[string]float64, 4)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := Baseline(wl.Procs, wl.Jobs)
			if err != nil {
				t.Error(err)
			}
			got[i] = b
		}()
	}
	wg.Wait()
	res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, backfill.NewEASY(), sim.Options{})
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
	if len(want) < 8 {
		t.Fatalf("only %d categories: a weak test", len(want))
	}
	for i, b := range got {
		if len(b) != len(want) {
			t.Fatalf("call %d: %d categories, want %d", i, len(b), len(want))
		}
		for k, v := range want {
			if b[k] != v {
				t.Errorf("call %d: Baseline[%q]=%v, want %v", i, k, b[k], v)
			}
		}
	}
	// The caller owns the map; the cache keeps its own.
	got[0]["VS Seq"] = -1
	if b, _ := Baseline(wl.Procs, wl.Jobs); b["VS Seq"] != want["VS Seq"] {
		t.Error("changing a returned map changed the cache")
	}
	// A TSS policy exposes it; SS has none.
	cfg := DefaultSSConfig()
	cfg.Tunable = true
	p, err := NewSS(cfg, wl.Procs, wl.Jobs)
	if err != nil {
		t.Fatal(err)
	}
	if b := p.Baseline(); b["L W"] != want["L W"] {
		t.Errorf("TSS Baseline()[L W]=%v, want %v", b["L W"], want["L W"])
	}
	if p, _ := NewSS(DefaultSSConfig(), wl.Procs, wl.Jobs); p.Baseline() != nil {
		t.Error("SS has a baseline")
	}
	// The cache stays bounded.
	for n := 10; n < 10+2*baselineCacheSize; n++ {
		if _, err := Baseline(wl.Procs, wl.Jobs[:n]); err != nil {
			t.Fatal(err)
		}
	}
	size := baselines.Len()
	if size > baselineCacheSize {
		t.Errorf("cache holds %d workloads, want at most %d", size, baselineCacheSize)
	}
}
