package lsf_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/lsf"
)

// scanJobs is a hand-computed scenario for LSF-RTC's scans and the
// decision interval: 24 processors, unit 8, f = 0, no knowledge. A:
// submit 0, D 8000 on 8 (1000 s); B: submit 10, D 24000 on 24 (1000 s),
// so it waits for A; C and D: submit c and 20, D 800 on 8 (100 s) each.
func scanJobs(c sim.Time) []sim.Job {
	mk := func(id int64, submit sim.Time, d float64, k int) sim.Job {
		rt := sim.Time(d / float64(k))
		return sim.Job{ID: id, Submit: submit, Runtime: rt, Estimate: rt, Procs: k,
			Elastic: &sim.Elastic{Work: d, SeqFrac: 0, Min: 8, Max: 24, Unit: 8, Tagged: true}}
	}
	return []sim.Job{mk(1, 0, 8000, 8), mk(2, 10, 24000, 24), mk(3, c, 800, 8), mk(4, 20, 800, 8)}
}

// TestScan checks the three scans of LSF-RTC and the decision interval on
// scanJobs: first_fit lets C and D pass the blocked B at 20; in_order stops
// at B, so C and D start when B ends at 2000; one starts only C at 20 and
// D at the next event (C's departure at 120). With a decision interval of
// 5 s and C submitted at 12, two seconds after the decision for B, C is
// decided at 15.
func TestScan(t *testing.T) {
	for _, tc := range []struct {
		name     string
		scan     lsf.Scan
		interval sim.Time
		c        sim.Time
		want     string
	}{
		{"first_fit", lsf.ScanFirstFit, 0, 20,
			"1 [0,1000) 8 work\n3 [20,120) 8 work\n4 [20,120) 8 work\n2 [1000,2000) 24 work\n"},
		{"in_order", lsf.ScanInOrder, 0, 20,
			"1 [0,1000) 8 work\n2 [1000,2000) 24 work\n3 [2000,2100) 8 work\n4 [2000,2100) 8 work\n"},
		{"one", lsf.ScanOne, 0, 20,
			"1 [0,1000) 8 work\n3 [20,120) 8 work\n4 [120,220) 8 work\n2 [1000,2000) 24 work\n"},
		{"interval", lsf.ScanFirstFit, 5, 12,
			"1 [0,1000) 8 work\n3 [15,115) 8 work\n4 [20,120) 8 work\n2 [1000,2000) 24 work\n"},
		{"interval-idle", lsf.ScanFirstFit, 5, 20,
			"1 [0,1000) 8 work\n3 [20,120) 8 work\n4 [20,120) 8 work\n2 [1000,2000) 24 work\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, lsf.RTC, 24, scanJobs(tc.c), func(c *lsf.Config) {
				c.Scan, c.DecisionInterval = tc.scan, tc.interval
			})
			if got := byStart(segments(res)); got != tc.want {
				t.Errorf("segments:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// byStart orders the lines of segments by start time (then as printed).
func byStart(segs string) string {
	lines := strings.SplitAfter(segs, "\n")
	start := func(l string) string {
		i, j := strings.Index(l, "["), strings.Index(l, ",")
		if i < 0 || j < i {
			return ""
		}
		return strings.Repeat("0", 12-(j-i-1)) + l[i+1:j]
	}
	slices.SortStableFunc(lines, func(a, b string) int { return strings.Compare(start(a), start(b)) })
	return strings.Join(lines, "")
}

// TestScan_Preempt checks that LSF-PREEMPT fills free processors with
// LSF-RTC's scan: in_order leaves C and D behind the blocked B at 20 (they
// start later only by preempting A, after its minimum run), first_fit
// starts them at 20.
func TestScan_Preempt(t *testing.T) {
	res := run(t, lsf.Preempt, 24, scanJobs(20), func(c *lsf.Config) { c.Scan = lsf.ScanInOrder })
	for _, tk := range res.Tasks {
		if tk.ID >= 3 && tk.FirstStart <= 20 {
			t.Errorf("in_order: job %d started at %d, past the blocked B", tk.ID, tk.FirstStart)
		}
	}
	res = run(t, lsf.Preempt, 24, scanJobs(20), nil)
	for _, tk := range res.Tasks {
		if tk.ID >= 3 && tk.FirstStart != 20 {
			t.Errorf("first_fit: job %d started at %d, want 20", tk.ID, tk.FirstStart)
		}
	}
}

// TestConfig_ScanInterval checks the new parameters' bad values.
func TestConfig_ScanInterval(t *testing.T) {
	for _, tweak := range []func(*lsf.Config){
		func(c *lsf.Config) { c.Scan = "fifo" },
		func(c *lsf.Config) { c.DecisionInterval = -1 },
	} {
		cfg := lsf.DefaultConfig(lsf.RTC)
		tweak(&cfg)
		if _, err := lsf.New(cfg); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
}

// TestPreemptDemand checks LSF-PREEMPT's two readings of criterion (2)
// with demand knowledge on 8 processors (f = 0): R (D 8000, 1000 s on 8)
// runs from 0; P (D 7000) arrives at 500, when R's remaining demand is
// estimated as 8000 − 500 = 7500 (D minus the seconds worked, the
// default). Compared with remaining demands, 7000 is not below 0.9 x 7500
// = 6750 and P waits for R (starts at 1000); compared with whole demands,
// 7000 is below 0.9 x 8000 = 7200 and P preempts R at 500.
func TestPreemptDemand(t *testing.T) {
	mk := func(id int64, submit sim.Time, d float64) sim.Job {
		rt := sim.Time(d / 8)
		return sim.Job{ID: id, Submit: submit, Runtime: rt, Estimate: rt, Procs: 8,
			Elastic: &sim.Elastic{Work: d, SeqFrac: 0, Min: 8, Max: 8, Unit: 8, Tagged: true}}
	}
	jobs := []sim.Job{mk(1, 0, 8000), mk(2, 500, 7000)}
	for _, tc := range []struct {
		reading lsf.PreemptDemand
		start   sim.Time
	}{{lsf.DemandRemaining, 1000}, {lsf.DemandTotal, 500}} {
		res := run(t, lsf.Preempt, 8, jobs, func(c *lsf.Config) { c.KnowDemand, c.PreemptDemand = true, tc.reading })
		if got := res.Tasks[1].FirstStart; got != tc.start {
			t.Errorf("%s: P starts at %d, want %d", tc.reading, got, tc.start)
		}
	}
	cfg := lsf.DefaultConfig(lsf.Preempt)
	cfg.PreemptDemand = "whole"
	if _, err := lsf.New(cfg); err == nil {
		t.Error("New accepted preempt_demand \"whole\"")
	}
}
