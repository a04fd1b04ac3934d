package preempt

import (
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// TestSS_StopScan checks a hand-derived schedule under both readings of
// the candidate scan of section 4.3, with the fast pass and the reference
// pass. On 10 processors, A (6 processors) and B (4) start at 0 with
// priority 1; A ranks first (earlier arrival). C (2 processors, 100 s)
// arrives at 100; its xfactor (wait+100)/100 reaches SF x 1 = 2 at 200,
// and the routine runs at 240. A is too wide for C (6 > 2 x 2), B is not.
//   - As the set C_i: C skips A, suspends B at 240 and runs 240-340; B
//     resumes on its processors at 340 and ends at 5000+100 = 5100.
//   - As the pseudocode (StopScan): C gives up at A, the first running
//     job, at every pass, and starts when B ends at 5000 (5000-5100).
func TestSS_StopScan(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 10000, Estimate: 10000, Procs: 6},
		{ID: 2, Submit: 0, Runtime: 5000, Estimate: 5000, Procs: 4},
		{ID: 3, Submit: 100, Runtime: 100, Estimate: 100, Procs: 2},
	}
	set := DefaultSSConfig()
	stop := set
	stop.StopScan = true
	tssStop := stop
	tssStop.Tunable = true
	cases := []struct {
		name string
		cfg  SSConfig
		want []span
		susp int
	}{
		{"set", set, []span{{0, 10000}, {0, 5100}, {240, 340}}, 1},
		{"stop", stop, []span{{0, 10000}, {0, 5000}, {5000, 5100}}, 0},
		// TSS (limits from the EASY run of these jobs) changes nothing here:
		// A and B, both L N, run at priority 1, below their limit 1.5 x 1,
		// so neither is protected.
		{"tss/stop", tssStop, []span{{0, 10000}, {0, 5000}, {5000, 5100}}, 0},
	}
	for _, tc := range cases {
		checkSSSpans(t, tc.name, tc.cfg, 10, jobs, tc.want, tc.susp)
	}
}
