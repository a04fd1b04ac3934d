package preempt

import (
	"context"
	"fmt"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/simcheck"
)

// TestTSS_Readings checks hand-computed schedules under SS and both
// readings of the TSS rule, with the fast pass and the reference pass.
// The jobs are those of the scenarios tss-protect, tss-reentry and
// short-suspends-long under sim/policy/testdata/scenarios, whose comments
// derive every time; the formula reading has no golden file there (the
// scenarios run with default parameters).
func TestTSS_Readings(t *testing.T) {
	ss := DefaultSSConfig()
	victim := DefaultSSConfig()
	victim.Tunable = true
	formula := victim
	formula.TSSProtectVictim = false
	cases := []struct {
		name  string
		procs int
		jobs  []sim.Job
		cfg   SSConfig
		want  []span // by job, in order
		susp  int
	}{
		// A job resumed above its limit is protected from a fresh job.
		{"protect/ss", 4, protectJobs, ss, []span{{0, 1660}, {720, 1320}, {1440, 1500}}, 2},
		{"protect/victim", 4, protectJobs, victim, []span{{0, 1600}, {720, 1320}, {1600, 1660}}, 1},
		{"protect/formula", 4, protectJobs, formula, []span{{0, 1000}, {1000, 1660}, {1560, 1620}}, 1},
		// A protected holder keeps a suspended job out until it ends.
		{"reentry/ss", 1, reentryJobs, ss, []span{{0, 2620}, {1200, 2680}, {600, 1200}, {100000, 100700}}, 2},
		{"reentry/victim", 1, reentryJobs, victim, []span{{0, 2680}, {1200, 2580}, {600, 1200}, {100000, 100700}}, 1},
		{"reentry/formula", 1, reentryJobs, formula, []span{{0, 700}, {1300, 2680}, {700, 1300}, {100000, 100700}}, 0},
		// A job that has not waited is not protected; the formula reading
		// refuses the suspender whose priority passed the victim's limit.
		{"short-long/victim", 4, shortLongJobs, victim, []span{{0, 10100}, {240, 340}}, 1},
		{"short-long/formula", 4, shortLongJobs, formula, []span{{0, 10000}, {10000, 10100}}, 0},
	}
	for _, tc := range cases {
		checkSSSpans(t, tc.name, tc.cfg, tc.procs, tc.jobs, tc.want, tc.susp)
	}
}

// span is a job's first start and end in a hand-computed schedule.
type span struct{ start, end sim.Time }

// checkSSSpans runs jobs under cfg with the fast pass and with the
// reference pass, checks the invariants, and compares each job's first
// start and end with want (by job, in order) and the total number of
// suspensions with susp.
func checkSSSpans(t *testing.T, name string, cfg SSConfig, procs int, jobs []sim.Job, want []span, susp int) {
	t.Helper()
	for _, ref := range []bool{false, true} {
		t.Run(fmt.Sprintf("%s/reference=%v", name, ref), func(t *testing.T) {
			p, err := NewSS(cfg, procs, jobs)
			if err != nil {
				t.Fatal(err)
			}
			p.reference = ref
			res, err := sim.Run(context.Background(), procs, jobs, p, sim.Options{Segments: true, CheckEvery: 1})
			if err != nil {
				t.Fatal(err)
			}
			if err := simcheck.Check(jobs, res); err != nil {
				t.Fatalf("invariants: %v", err)
			}
			n := 0
			for i, w := range want {
				task := &res.Tasks[i]
				n += task.Suspensions
				if task.FirstStart != w.start || task.End != w.end {
					t.Errorf("job %d: %d-%d, want %d-%d", task.ID, task.FirstStart, task.End, w.start, w.end)
				}
			}
			if n != susp {
				t.Errorf("%d suspensions, want %d", n, susp)
			}
		})
	}
}

var (
	protectJobs = []sim.Job{
		{ID: 1, Submit: 0, Runtime: 1000, Estimate: 1000, Procs: 4},
		{ID: 2, Submit: 100, Runtime: 600, Estimate: 600, Procs: 4},
		{ID: 3, Submit: 1300, Runtime: 60, Estimate: 60, Procs: 4},
	}
	reentryJobs = []sim.Job{
		{ID: 1, Submit: 0, Runtime: 700, Estimate: 700, Procs: 1},
		{ID: 2, Submit: 0, Runtime: 1380, Estimate: 1380, Procs: 1},
		{ID: 3, Submit: 0, Runtime: 600, Estimate: 600, Procs: 1},
		{ID: 4, Submit: 100000, Runtime: 700, Estimate: 700, Procs: 1},
	}
	shortLongJobs = []sim.Job{
		{ID: 1, Submit: 0, Runtime: 10000, Estimate: 10000, Procs: 4},
		{ID: 2, Submit: 100, Runtime: 100, Estimate: 100, Procs: 4},
	}
)
