package preempt

import (
	"context"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestSS_MarksOnly checks a hand-derived schedule with the suspending part
// of the routine at every event and only at multiples of the interval. On
// 10 processors A (9 processors, 1000 s) and D (1, 55 s) start at 0 with
// priority 1. B (5 processors, 20 s) arrives at 30; its xfactor
// (wait+20)/20 reaches SF x 1 = 2 at 50, and A is narrow enough for it
// (9 <= 2 x 5).
//   - At every event: D's end at 55 runs the routine; B suspends A and
//     runs 55-75, and A resumes on its processors at 75 and ends at 1020.
//   - MarksOnly: at 55 B may only start on free processors (1 is free);
//     at 60 it suspends A and runs 60-80, and A resumes at B's end, 80, an
//     event between marks, and ends at 1020.
func TestSS_MarksOnly(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 1000, Estimate: 1000, Procs: 9},
		{ID: 2, Submit: 0, Runtime: 55, Estimate: 55, Procs: 1},
		{ID: 3, Submit: 30, Runtime: 20, Estimate: 20, Procs: 5},
	}
	every := DefaultSSConfig()
	marks := every
	marks.MarksOnly = true
	stop := marks
	stop.StopScan = true
	checkSSSpans(t, "every event", every, 10, jobs, []span{{0, 1020}, {0, 55}, {55, 75}}, 1)
	checkSSSpans(t, "marks only", marks, 10, jobs, []span{{0, 1020}, {0, 55}, {60, 80}}, 1)
	checkSSSpans(t, "marks only/stop scan", stop, 10, jobs, []span{{0, 1020}, {0, 55}, {60, 80}}, 1)
}

// TestSS_MarksOnlyReference compares the fast pass with the plain routine
// under [SSConfig.MarksOnly] (see compareOptionOnTraces).
func TestSS_MarksOnlyReference(t *testing.T) {
	compareOptionOnTraces(t, func(c *SSConfig) { c.MarksOnly = true })
}

// compareOptionOnTraces runs SS and TSS with option set on five settings
// of real traces (set and pseudocode scans, trace and accurate estimates,
// loads up to 1.6, hold rules, overhead) with the fast pass and with the
// plain routine (every idle job at every event and every multiple of the
// interval) and requires the same schedule, job by job.
func compareOptionOnTraces(t *testing.T, option func(*SSConfig)) {
	count := 3000
	if testing.Short() {
		count = 1000
	}
	const (
		ctc  = "CTC-SP2-1996-3.1-cln.swf.gz"
		sdsc = "SDSC-SP2-1998-4.2-cln.swf.gz"
	)
	cases := []struct {
		name  string
		file  string
		procs int
		est   workload.EstimateModel
		cfg   func(*SSConfig)
		load  float64
	}{
		{"ctc430/stopscan", ctc, 430, workload.EstimateAccurate, func(c *SSConfig) { c.StopScan = true }, 0},
		{"sdsc/set", sdsc, 0, workload.EstimateAccurate, func(*SSConfig) {}, 0},
		{"sdsc/tss/stopscan/trace/load1.3", sdsc, 0, workload.EstimateTrace, func(c *SSConfig) { c.Tunable, c.StopScan = true, true }, 1.3},
		{"ctc430/tss/stopscan/hold/backfill/load1.6", ctc, 430, workload.EstimateAccurate, func(c *SSConfig) {
			c.Tunable, c.StopScan, c.HoldRemembered, c.HoldBackfill = true, true, true, true
		}, 1.6},
		{"sdsc/tss/stopscan/overhead", sdsc, 0, workload.EstimateAccurate, func(c *SSConfig) {
			c.Tunable, c.StopScan = true, true
			c.Overhead = DefaultOverhead(23)
		}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wl := loadTraceOpts(t, tc.file, tc.procs, workload.Options{
				Estimates: tc.est, Skip: 1000, Count: count, Load: tc.load, LoadMode: workload.LoadArrival})
			cfg := DefaultSSConfig()
			tc.cfg(&cfg)
			option(&cfg)
			var res [2]*sim.Result
			for i := range res {
				p, err := NewSS(cfg, wl.Procs, wl.Jobs)
				if err != nil {
					t.Fatal(err)
				}
				p.reference = i == 1
				if res[i], err = sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{}); err != nil {
					t.Fatal(err)
				}
			}
			susp := sameJobs(t, res[0], res[1])
			if susp == 0 && !testing.Short() {
				t.Errorf("no suspensions: the comparison proves little")
			}
			t.Logf("%d suspensions; %d instants fast, %d reference", susp, res[0].Instants, res[1].Instants)
		})
	}
}
