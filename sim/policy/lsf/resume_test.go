package lsf_test

import (
	"context"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/lsf"
)

// TestGolden_MigResumePreemptsSeveral is a hand-derived LSF-MIG schedule
// (no knowledge: key = acquired processor-seconds; 16 processors, unit 8,
// quantum 60 s, min_run 600 s, checkpoint 60 s) for §6's resume rule: "In
// order to resume such a job once stopped, the scheduler must be capable
// of preempting a sufficient number of running jobs to satisfy the stopped
// job's processor requirement". All jobs have f = 0.
//
// A (desired 16, D 80000: 5000 s) starts at 0. B (desired 8) arrives at
// 100 while A is protected; the quantum then decides at 160, 220, ... At
// 640 A has run 640 s (unprotected, key 10240) and B (key 0) comes
// first: A is checkpointed [640,700). At 700 C (desired 8) arrives; B and
// C (key 0) fill the 16 processors and run from 700, A stopped. Their keys
// pass A's 10240 when 8·(t − 700) > 10240, t > 1980: at the quantum of
// 2020 (keys 10560) A is first, both are unprotected and A's 16 fit, so
// both are checkpointed [2020,2080) and A restarts at 2080 on 16 with 4360
// s of work left. The run stops at the horizon 2100.
func TestGolden_MigResumePreemptsSeveral(t *testing.T) {
	mk := func(id int64, submit sim.Time, procs int, rt sim.Time) sim.Job {
		return sim.Job{ID: id, Submit: submit, Runtime: rt, Estimate: rt, Procs: procs,
			Elastic: &sim.Elastic{Work: float64(rt) * float64(procs), SeqFrac: 0, Min: 8, Max: 16, Unit: 8, Tagged: true}}
	}
	jobs := []sim.Job{mk(1, 0, 16, 5000), mk(2, 100, 8, 3000), mk(3, 700, 8, 3000)}
	p, err := lsf.New(lsf.DefaultConfig(lsf.Mig))
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background(), 16, jobs, p, sim.Options{Segments: true, CheckEvery: 1, Horizon: 2100})
	if err != nil {
		t.Fatal(err)
	}
	want := "1 [0,640) 16 work\n1 [640,700) 16 idle\n2 [700,2020) 8 work\n3 [700,2020) 8 work\n" +
		"2 [2020,2080) 8 idle\n3 [2020,2080) 8 idle\n1 [2080,2100) 16 work\n"
	if got := byStart(segments(res)); got != want {
		t.Errorf("segments:\n%s\nwant:\n%s", got, want)
	}
}
