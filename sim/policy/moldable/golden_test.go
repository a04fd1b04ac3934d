package moldable_test

import (
	"context"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/simcheck"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// mjob is a moldable job of trace size p, runtime r and estimate e, whose
// size may be lo..hi, with Downey speedup (average parallelism a, sigma 0).
func mjob(t *testing.T, id int64, submit, r, e sim.Time, p, lo, hi int, a float64) sim.Job {
	t.Helper()
	m, err := sim.NewMoldable(p, r, e, lo, hi, sim.Downey{A: a})
	if err != nil {
		t.Fatal(err)
	}
	return sim.Job{ID: id, Submit: submit, Runtime: r, Estimate: e, Procs: p, Mold: m}
}

// rigid is a job that can only take its own size p.
func rigid(t *testing.T, id int64, submit, r, e sim.Time, p int) sim.Job {
	return mjob(t, id, submit, r, e, p, p, p, float64(p))
}

// want is a job's expected size and life.
type want struct {
	id         int64
	k          int
	start, end sim.Time
}

func runPolicy(t *testing.T, name string, params map[string]any, procs int, jobs []sim.Job) *sim.Result {
	t.Helper()
	p, err := policy.New(name, params, policy.Env{Procs: procs, Jobs: jobs})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background(), procs, jobs, p, sim.Options{Segments: true, CheckEvery: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := simcheck.Check(jobs, res); err != nil {
		t.Fatalf("invariants: %v", err)
	}
	return res
}

func check(t *testing.T, res *sim.Result, wants []want) {
	t.Helper()
	for i, w := range wants {
		got := res.Tasks[i]
		if got.ID != w.id || got.Procs != w.k || got.FirstStart != w.start || got.End != w.end {
			t.Errorf("job %d: %d processors over [%d,%d), want job %d on %d over [%d,%d)", got.ID, got.Procs, got.FirstStart, got.End, w.id, w.k, w.start, w.end)
		}
	}
}

// TestGolden_TwoJobs is the hand-computed scenario: 8 processors,
// sigma 0, RF 1 (S(k) = k), accurate estimates; J1 (4 x 100) and J2
// (2 x 300) arrive at 0, so L1 = 400, L2 = 600 and sum w = 1000.
func TestGolden_TwoJobs(t *testing.T) {
	jobs := []sim.Job{{ID: 1, Runtime: 100, Estimate: 100, Procs: 4}, {ID: 2, Runtime: 300, Estimate: 300, Procs: 2}}
	if err := workload.Annotate(jobs, 8, workload.Moldability{Sigma: 0, RangeFactor: 1}); err != nil {
		t.Fatal(err)
	}
	t.Run("Greedy", func(t *testing.T) {
		// No fair share, every profile step: J1 takes all 8 (ends 50);
		// J2's best is 8 processors from 50 (600/8 = 75), reserved, then
		// started when J1 ends.
		res := runPolicy(t, "moldable-schedule", map[string]any{"fair_share": false, "choices": 0}, 8, jobs)
		check(t, res, []want{{1, 8, 0, 50}, {2, 8, 50, 125}})
	})
	t.Run("Defaults", func(t *testing.T) {
		// lim1 = floor(8 x min(0.9, 400/1000)) = 3: 400/3 -> 134.
		// lim2 = floor(8 x 0.6) = 4: 600/4 = 150, on the 5 free.
		res := runPolicy(t, "moldable-schedule", nil, 8, jobs)
		check(t, res, []want{{1, 3, 0, 134}, {2, 4, 0, 150}})
	})
}

// categoryJobs: A (6 x 100) runs at 0; H (6 x 100, weight 600: W1) is
// reserved at 100 when A ends; X (8 x 300, weight 2400: W2) fits only
// from 200; Y (2 x 400, weight 800: W1) could start at once on the 2
// processors left, but then holds them past 200. All sizes are fixed
// (min = max), so only the reservations matter.
func categoryJobs(t *testing.T, ySubmit sim.Time) []sim.Job {
	return []sim.Job{
		rigid(t, 1, 0, 100, 100, 6),
		rigid(t, 2, 0, 100, 100, 6),
		rigid(t, 3, 0, 300, 300, 8),
		rigid(t, 4, ySubmit, 400, 400, 2),
	}
}

// TestGolden_CategoryReservation: with category reservations X, the first
// W2 job that cannot start, is reserved at 200, so Y cannot start at 0
// (it would hold 2 processors until 400) and waits until X ends at 500.
// Without them Y backfills at 0 and X waits for it until 400.
func TestGolden_CategoryReservation(t *testing.T) {
	base := map[string]any{"fair_share": false, "choices": 0}
	res := runPolicy(t, "moldable-schedule", base, 8, categoryJobs(t, 0))
	check(t, res, []want{{1, 6, 0, 100}, {2, 6, 100, 200}, {3, 8, 400, 700}, {4, 2, 0, 400}})
	with := map[string]any{"fair_share": false, "choices": 0, "category_reservations": true}
	res = runPolicy(t, "moldable-schedule", with, 8, categoryJobs(t, 0))
	check(t, res, []want{{1, 6, 0, 100}, {2, 6, 100, 200}, {3, 8, 200, 500}, {4, 2, 500, 900}})
}

// TestGolden_XFactorReservation: the same jobs with Y arriving at 10. At
// 10, X has waited 10 s on an est_work of 2400: xfactor 2410/2400 > 1, so
// with threshold 1 it is reserved at 200 and Y waits; with the default
// threshold 4 it is not, and Y backfills at 10.
func TestGolden_XFactorReservation(t *testing.T) {
	res := runPolicy(t, "moldable-schedule", map[string]any{"fair_share": false, "choices": 0, "xfactor_reservations": true, "xfactor_threshold": 1}, 8, categoryJobs(t, 10))
	check(t, res, []want{{1, 6, 0, 100}, {2, 6, 100, 200}, {3, 8, 200, 500}, {4, 2, 500, 900}})
	res = runPolicy(t, "moldable-schedule", map[string]any{"fair_share": false, "choices": 0, "xfactor_reservations": true}, 8, categoryJobs(t, 10))
	check(t, res, []want{{1, 6, 0, 100}, {2, 6, 100, 200}, {3, 8, 410, 710}, {4, 2, 10, 410}})
}

// TestGolden_SubmitCompression: moldable-submit. A (4 x 50, estimate 100)
// starts at 0; B (8 x 100) is reserved at 100. C (size 4 of 1..8, S(k) =
// k, 100 s on 4: est_work 400) arrives at 1: on 4 processors it could
// start only at 200 (end 300), on 8 at 200 for 50 s (end 250), so it is
// molded to 8 and reserved at 200. A ends early at 50: compression moves
// B to 50 and C, its size kept, to 150.
func TestGolden_SubmitCompression(t *testing.T) {
	jobs := []sim.Job{
		rigid(t, 1, 0, 50, 100, 4),
		rigid(t, 2, 0, 100, 100, 8),
		mjob(t, 3, 1, 100, 100, 4, 1, 8, 8),
	}
	res := runPolicy(t, "moldable-submit", map[string]any{"fair_share": false, "choices": 0}, 8, jobs)
	check(t, res, []want{{1, 4, 0, 50}, {2, 8, 50, 150}, {3, 8, 150, 200}})
}

// TestGolden_Weights: the two jobs of TestGolden_TwoJobs with J1's
// estimate 200 (est_work 800, work 400), fair share, 12 choices. By
// est_work (the default; sum 1400): lim1 = floor(8 x 800/1400) = 4, its
// trace size, so it runs 100 s over [0,100) (planned 200); lim2 = floor(8 x
// 600/1400) = 3: 600/3 = 200 on 3 of the 4 left. By work (sum 1000) as in
// TestGolden_TwoJobs: J1 on 3 (400/3 -> 134), J2 on 4 (150).
func TestGolden_Weights(t *testing.T) {
	jobs := []sim.Job{{ID: 1, Runtime: 100, Estimate: 200, Procs: 4}, {ID: 2, Runtime: 300, Estimate: 300, Procs: 2}}
	if err := workload.Annotate(jobs, 8, workload.Moldability{Sigma: 0, RangeFactor: 1}); err != nil {
		t.Fatal(err)
	}
	res := runPolicy(t, "moldable-schedule", nil, 8, jobs)
	check(t, res, []want{{1, 4, 0, 100}, {2, 3, 0, 200}})
	res = runPolicy(t, "moldable-schedule", map[string]any{"weights": "est_work"}, 8, jobs)
	check(t, res, []want{{1, 4, 0, 100}, {2, 3, 0, 200}})
	res = runPolicy(t, "moldable-schedule", map[string]any{"weights": "work"}, 8, jobs)
	check(t, res, []want{{1, 3, 0, 134}, {2, 4, 0, 150}})
}

// TestGolden_KeepReservations: 8 processors, WF 2, every profile step. R
// (8 x 100, est_work 800) runs over [0,100). H (size 4 of 1..8, S(k) = k,
// 100 s: work 400) arrives at 0 with lim floor(8 x 2 x 400/1200) = 5 and
// is reserved on 5 over [100,180). N (size 4 of 1..8, 300 s: work 1200)
// arrives at 50, so H's limit falls to floor(8 x 2 x 400/2400) = 2.
//
// Planning afresh, H is re-reserved on 2 over [100,300) at 50 and starts
// at 100 on floor(8 x 800/1600) = 4 over [100,200); N, reserved on 7 from
// 200 (its 4 processors from 100 would end at 400), runs over [200,372).
// Keeping reservations (keep_reservations: true), H keeps 5 at 50 (ending 180,
// before 300) and at 100 (180 is before the 200 of a fresh choice on 4):
// [100,180); N is reserved on 7 from 180 and runs over [180,352).
func TestGolden_KeepReservations(t *testing.T) {
	jobs := func() []sim.Job {
		return []sim.Job{
			rigid(t, 1, 0, 100, 100, 8),
			mjob(t, 2, 0, 100, 100, 4, 1, 8, 8),
			mjob(t, 3, 50, 300, 300, 4, 1, 8, 8),
		}
	}
	params := map[string]any{"weight_factor": 2, "choices": 0}
	res := runPolicy(t, "moldable-schedule", params, 8, jobs())
	check(t, res, []want{{1, 8, 0, 100}, {2, 4, 100, 200}, {3, 7, 200, 372}})
	params["keep_reservations"] = false
	res = runPolicy(t, "moldable-schedule", params, 8, jobs())
	check(t, res, []want{{1, 8, 0, 100}, {2, 4, 100, 200}, {3, 7, 200, 372}})
	params["keep_reservations"] = true
	res = runPolicy(t, "moldable-schedule", params, 8, jobs())
	check(t, res, []want{{1, 8, 0, 100}, {2, 5, 100, 180}, {3, 7, 180, 352}})
}
