package lsf

import (
	"fmt"
	"testing"

	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestKeyOrder_Reference runs the run-to-completion, migratable and
// malleable disciplines with their candidates sorted from the last
// decision's sort (keyOrder; LSF-RTC's first fit on the queue index,
// fillRTC) and the plain way (reference: every candidate sorted whole), with and
// without demand and speedup knowledge, the estimate readings and
// in-order scans, on the calibrated workload at loads 1.0 and 1.6 and on
// the table3 workload: job for job and segment for segment the same.
func TestKeyOrder_Reference(t *testing.T) {
	tagged := 3000
	if testing.Short() {
		tagged = 800
	}
	tweaks := map[string]func(*Config){
		"defaults":            func(*Config) {},
		"demand":              func(c *Config) { c.KnowDemand = true },
		"demand,speedup":      func(c *Config) { c.KnowDemand, c.KnowSpeedup = true, true },
		"demand,working_time": func(c *Config) { c.KnowDemand, c.Estimate = true, EstimateWorkingTime },
		"in_order":            func(c *Config) { c.Scan = ScanInOrder },
		"dispatch_delay=30":   func(c *Config) { c.DispatchDelay = 30 },
	}
	loads := []refLoad{
		{"calibrated", tagged, 1.0, 0, 1},
		{"calibrated/load1.6", tagged, 1.6, 0, 1},
		{"table3", workload.DefaultParsonsTagged, 1.0, workload.DefaultParsonsHorizon, 1997},
	}
	for _, l := range loads {
		wl := l.generate(t)
		for _, d := range Disciplines() {
			if d == Preempt || d == PreemptAD {
				continue // TestPreempt_Reference
			}
			for tname, tw := range tweaks {
				name := fmt.Sprintf("%s/%s/%s", l.name, d, tname)
				cfg := DefaultConfig(d)
				tw(&cfg)
				res := runFastAndPlain(t, name, cfg, wl)
				if err := sameRuns(res[0], res[1]); err != nil {
					t.Errorf("%s: kept order against whole sorts: %v", name, err)
				}
			}
		}
	}
}
