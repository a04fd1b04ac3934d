package lsf_test

import (
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/lsf"
)

// TestGolden_PreemptADNewRow is a hand-derived LSF-PREEMPT-AD schedule
// (no knowledge, 16 processors, unit 8, min_run 60 s) of the rule behind
// its whole-machine starts: §5, "processors in the selected row available
// for pending jobs are distributed as before (i.e., equi-allocation ...)".
// A (minimum 8, D 16000, f = 0) arrives alone at 0 and gets all 16
// processors. B (minimum 8, D 800) arrives at 100: row 0 (A) has no gap,
// so B gets the new row; A's processors overlap B's, so A cannot join
// it, and B, the only pending job it starts, takes the row's other 8 as
// leftover: 16 processors. Its key (0 acquired) is below A's (1600), so
// that row runs: A is suspended at 100 (it has run more than 60 s), B runs
// [100,150), and A resumes on its processors with 900 s of work left.
func TestGolden_PreemptADNewRow(t *testing.T) {
	mk := func(id int64, submit sim.Time, d float64) sim.Job {
		rt := sim.Time(d / 16)
		return sim.Job{ID: id, Submit: submit, Runtime: rt, Estimate: rt, Procs: 8,
			Elastic: &sim.Elastic{Work: d, SeqFrac: 0, Min: 8, Max: 16, Unit: 8, Tagged: true}}
	}
	jobs := []sim.Job{mk(1, 0, 16000), mk(2, 100, 800)}
	res := run(t, lsf.PreemptAD, 16, jobs, nil)
	want := "1 [0,100) 16 work\n2 [100,150) 16 work\n1 [150,1050) 16 work\n"
	if got := byStart(segments(res)); got != want {
		t.Errorf("segments:\n%s\nwant:\n%s", got, want)
	}
}
