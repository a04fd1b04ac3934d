package policy_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/simcheck"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestConformance_Estimates checks the invariants of [TestConformance]
// with the double and predicted estimate models: fcfs, easy and
// conservative with doubled estimates, and every policy that makes
// runtime predictions with some of its orders under predicted
// estimates, on the four traces at loads 1.0 and 1.4. A policy that
// makes no predictions refuses predicted estimates.
func TestConformance_Estimates(t *testing.T) {
	count := 1500
	if testing.Short() {
		count = 400
	}
	type setting struct {
		name   string
		params map[string]any
		est    workload.EstimateModel
	}
	var settings []setting
	for _, name := range []string{"fcfs", "easy", "conservative"} {
		settings = append(settings, setting{name, nil, workload.EstimateDouble})
	}
	for _, e := range policy.Entries() {
		if !e.Predicts {
			if _, err := policy.New(e.Name, nil, policy.Env{Predict: true}); !errors.Is(err, policy.ErrNoPredictions) {
				t.Errorf("%s with predictions: %v, want %v", e.Name, err, policy.ErrNoPredictions)
			}
			continue
		}
		settings = append(settings, setting{e.Name, nil, workload.EstimatePredicted})
		has := func(name string) bool {
			return slices.ContainsFunc(e.Params, func(p policy.Param) bool { return p.Name == name })
		}
		if has("order") {
			for _, o := range []string{"sjf", "wfp3", "f1"} {
				settings = append(settings, setting{e.Name + "@" + o, map[string]any{"order": o}, workload.EstimatePredicted})
			}
		}
		if has("backfill_order") {
			settings = append(settings, setting{e.Name + "@sjbf", map[string]any{"backfill_order": "sjf"}, workload.EstimatePredicted})
		}
	}
	for _, s := range settings {
		for _, trace := range []string{"ctc", "sdsc", "kth", "sdsc-par"} {
			for _, load := range []float64{1, 1.4} {
				t.Run(fmt.Sprintf("%s/%v/%s/%g", s.name, s.est, trace, load), func(t *testing.T) {
					t.Parallel()
					wl := loadWorkload(t, trace, workload.Options{Estimates: s.est, Skip: 2000, Count: count, Load: load})
					name, _, _ := strings.Cut(s.name, "@")
					p, err := policy.New(name, s.params, policy.Env{Procs: wl.Procs, Jobs: wl.Jobs, Seed: 1, Predict: s.est == workload.EstimatePredicted})
					if err != nil {
						t.Fatal(err)
					}
					res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{Segments: true, CheckEvery: 97})
					if err != nil {
						t.Fatal(err)
					}
					if err := simcheck.Check(wl.Jobs, res); err != nil {
						t.Fatalf("invariants: %v", err)
					}
				})
			}
		}
	}
}
