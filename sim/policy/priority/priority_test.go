package priority_test

import (
	"context"
	"math"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/priority"
	"github.com/schedfarm/schedfarm/sim/simcheck"
)

// TestFairShare_TwoUsersDecay is a two-user scenario computed by hand on
// one processor, with only the fair-share factor weighted (weight 1) and
// a half-life of 100 s (H/ln 2 = 144.2695 processor-seconds):
//
//	job user submit runtime
//	J1  B    0      200
//	J2  A    1      100
//	J3  A    2      100
//	J4  B    3      100
//
// At 200 B has used 144.27 (1 - 2^-2) = 108.20, A nothing: F_A = 1,
// F_B = 2^(-1*2) = 0.25, and J2 (A, before J3) starts. At 300 B's usage
// has decayed to 54.10 and A's is 144.27 (1 - 2^-1) = 72.13: U_A =
// 0.5714, U_B = 0.4286, F_A = 2^(-1.1429) = 0.453, F_B = 2^(-0.857) =
// 0.552, so J4 (B) passes J3. Without decay (a half-life of 10^9 s) the
// usages at 300 are 200 and 100, F_B = 2^(-4/3) < F_A = 2^(-2/3), and J3
// goes first. At 500, with decay, A's usage is 144.27 ((2^-2 - 2^-3) +
// (1 - 2^-1)) = 90.168 and B's 144.27 ((2^-3 - 2^-5) + (2^-1 - 2^-2)) =
// 49.593.
func TestFairShare_TwoUsersDecay(t *testing.T) {
	const a, b = 1, 2
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 200, Estimate: 200, Procs: 1, Info: sim.JobInfo{User: b}},
		{ID: 2, Submit: 1, Runtime: 100, Estimate: 100, Procs: 1, Info: sim.JobInfo{User: a}},
		{ID: 3, Submit: 2, Runtime: 100, Estimate: 100, Procs: 1, Info: sim.JobInfo{User: a}},
		{ID: 4, Submit: 3, Runtime: 100, Estimate: 100, Procs: 1, Info: sim.JobInfo{User: b}},
	}
	for _, c := range []struct {
		halfLife sim.Time
		starts   []sim.Time
	}{
		{100, []sim.Time{0, 200, 400, 300}},
		{1e9, []sim.Time{0, 200, 300, 400}},
	} {
		p := priority.New(priority.Config{WeightFairShare: 1, MaxAge: 1, HalfLife: c.halfLife})
		res, err := sim.Run(context.Background(), 1, jobs, p, sim.Options{Segments: true, CheckEvery: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := simcheck.Check(jobs, res); err != nil {
			t.Fatal(err)
		}
		for i, want := range c.starts {
			if got := res.Tasks[i].FirstStart; got != want {
				t.Errorf("half-life %d: job %d starts at %d, want %d", c.halfLife, res.Tasks[i].ID, got, want)
			}
		}
		if c.halfLife != 100 {
			continue
		}
		k := 100 / math.Ln2
		for _, u := range []struct {
			job  int // a job of the user
			want float64
		}{
			{1, k * ((0.25 - 0.125) + (1 - 0.5))},
			{0, k * ((0.125 - 0.03125) + (0.5 - 0.25))},
		} {
			if got := p.Usage(u.job); math.Abs(got-u.want) > 1e-9*u.want {
				t.Errorf("usage of job %d's user at 500: %.6f, want %.6f", jobs[u.job].ID, got, u.want)
			}
		}
	}
}
