package preempt

import (
	"context"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// TestSS_HoldBackfill: on 2 processors, S (2 procs) runs from 0; W (1
// proc, priority 2 at 5010) suspends it at 5040 and takes processor 0;
// processor 1 stays free, remembered by S. S can resume no earlier than
// W's end (10040): S needs SF x W's priority (2.006), which takes it
// about 30000 s more. F (1 proc, 10 s) arrives at 5100: plain SS starts
// it at once; under hold_remembered it must reach SF x S's priority
// (1.006 then) and starts at the next run of the routine, 5160; with
// hold_backfill it ends long before S could resume and starts at once.
func TestSS_HoldBackfill(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 10000, Estimate: 10000, Procs: 2},
		{ID: 2, Submit: 10, Runtime: 5000, Estimate: 5000, Procs: 1},
		{ID: 3, Submit: 5100, Runtime: 10, Estimate: 10, Procs: 1},
	}
	for _, tc := range []struct {
		name       string
		hold, bf   bool
		wantFStart sim.Time
	}{
		{"ss", false, false, 5100},
		{"hold", true, false, 5160},
		{"hold+backfill", true, true, 5100},
		{"backfill-alone-ignored", false, true, 5100},
	} {
		for _, ref := range []bool{false, true} {
			cfg := DefaultSSConfig()
			cfg.HoldRemembered, cfg.HoldBackfill = tc.hold, tc.bf
			p, err := NewSS(cfg, 2, jobs)
			if err != nil {
				t.Fatal(err)
			}
			p.reference = ref
			res, err := sim.Run(context.Background(), 2, jobs, p, sim.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Tasks[1].FirstStart; got != 5040 {
				t.Errorf("%s (reference %v): W starts at %d, want 5040", tc.name, ref, got)
			}
			if got := res.Tasks[2].FirstStart; got != tc.wantFStart {
				t.Errorf("%s (reference %v): F starts at %d, want %d", tc.name, ref, got, tc.wantFStart)
			}
		}
	}
}
