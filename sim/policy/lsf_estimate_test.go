package policy_test

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy"
)

// TestLSF_demandEstimateDefault checks the registry's default remaining
// demand with demand knowledge and no speedup knowledge: D − Σdt
// (working_time), with D − Σk·dt (processor_seconds) as a parameter.
// lsf-mig, 8 processors, unit 8, checkpoint 60 s, min_run 600 s. X: submit
// 0, D 4000, f = 1/7, so S(8) = 4 and it runs 1000 s; Y: submit 700, D
// 3000, f = 0 (375 s). At 700 X has worked 700 s: its key is 4000 − 700 =
// 3300 under working_time, above Y's 3000, so X is checkpointed
// [700,760), Y runs [760,1135) and X restarts with 1200 of its 4000 left
// (300 s) [1135,1435). Under processor_seconds X's key is 4000 − 5600 =
// −1600: X runs on to 1000 and Y follows [1000,1375).
func TestLSF_demandEstimateDefault(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 1000, Estimate: 1000, Procs: 8,
			Elastic: &sim.Elastic{Work: 4000, SeqFrac: 1.0 / 7, Min: 8, Max: 8, Unit: 8, Tagged: true}},
		{ID: 2, Submit: 700, Runtime: 375, Estimate: 375, Procs: 8,
			Elastic: &sim.Elastic{Work: 3000, SeqFrac: 0, Min: 8, Max: 8, Unit: 8, Tagged: true}},
	}
	for _, tc := range []struct {
		params map[string]any
		want   string
	}{
		{map[string]any{"know_demand": true}, "1 [0,700) 1 [700,760) idle 2 [760,1135) 1 [1135,1435)"},
		{map[string]any{"know_demand": true, "demand_estimate": "working_time"}, "1 [0,700) 1 [700,760) idle 2 [760,1135) 1 [1135,1435)"},
		{map[string]any{"know_demand": true, "demand_estimate": "processor_seconds"}, "1 [0,1000) 2 [1000,1375)"},
	} {
		t.Run(fmt.Sprint(tc.params), func(t *testing.T) {
			p, err := policy.New("lsf-mig", tc.params, policy.Env{Procs: 8, Jobs: jobs, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			res, err := sim.Run(context.Background(), 8, jobs, p, sim.Options{Segments: true, CheckEvery: 1})
			if err != nil {
				t.Fatal(err)
			}
			segs := slices.Clone(res.Segments)
			slices.SortStableFunc(segs, func(a, b sim.Segment) int { return cmp.Compare(a.Start, b.Start) })
			var b strings.Builder
			for _, s := range segs {
				fmt.Fprintf(&b, "%d [%d,%d)", jobs[s.Task].ID, s.Start, s.End)
				if !s.Working {
					b.WriteString(" idle")
				}
				b.WriteString(" ")
			}
			if got := strings.TrimSpace(b.String()); got != tc.want {
				t.Errorf("segments %s, want %s", got, tc.want)
			}
		})
	}
}
