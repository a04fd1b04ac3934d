package policy_test

import (
	"fmt"
	"testing"

	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestConformance_HighLoad checks the invariants of [TestConformance] on
// every registered policy (and conservative's queue_order compression,
// every queue order of fcfs, easy and conservative, and EASY-SJBF) at
// load 1.4 (arrival_scale), where queues are long, on subsets of the four
// traces with accurate and trace estimates.
func TestConformance_HighLoad(t *testing.T) {
	count := 1500
	if testing.Short() {
		count = 400
	}
	type setting struct {
		name   string
		params map[string]any
		e      *policy.Entry
	}
	var settings []setting
	for _, e := range policy.Entries() {
		if e.Family == "lsf" {
			continue // elastic jobs; see package lsf
		}
		settings = append(settings, setting{e.Name, nil, e})
		if e.Name == "conservative" {
			settings = append(settings, setting{"conservative@queue_order", map[string]any{"compress": "queue_order"}, e})
		}
		switch e.Name {
		case "fcfs", "easy", "conservative":
			// Every queue order other than the default.
			for _, o := range backfill.RankNames()[1:] {
				settings = append(settings, setting{e.Name + "@" + o, map[string]any{"order": o}, e})
			}
		}
		if e.Name == "easy" {
			settings = append(settings,
				setting{"easy@sjbf", map[string]any{"backfill_order": "sjf"}, e},
				setting{"easy@wfp3+sjbf", map[string]any{"order": "wfp3", "backfill_order": "sjf"}, e})
		}
	}
	for _, s := range settings {
		for _, trace := range []string{"ctc", "sdsc", "kth", "sdsc-par"} {
			for _, est := range []workload.EstimateModel{workload.EstimateAccurate, workload.EstimateTrace} {
				t.Run(fmt.Sprintf("%s/%s/%v", s.name, trace, est), func(t *testing.T) {
					t.Parallel()
					opts := workload.Options{Estimates: est, Skip: 2000, Count: count, Load: 1.4}
					if s.e.Moldable {
						opts.Moldable = &workload.Moldability{Sigma: 1, RangeFactor: 2}
					}
					wl := loadWorkload(t, trace, opts)
					runChecked(t, s.e.Name, s.params, 1, wl, 97)
				})
			}
		}
	}
}
