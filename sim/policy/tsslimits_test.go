package policy_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/policy/preempt"
	"github.com/schedfarm/schedfarm/sim/simcheck"
)

// limitsText returns a tss_limits value for one machine of procs
// processors: every ss16 category at 1 but those of set.
func limitsText(t *testing.T, procs int, set map[string]float64) string {
	t.Helper()
	s, err := metrics.LookupScheme("ss16")
	if err != nil {
		t.Fatal(err)
	}
	var cells []string
	for _, l := range s.Labels() {
		v, ok := set[l]
		if !ok {
			v = 1
		}
		cells = append(cells, fmt.Sprintf("%s %v", l, v))
	}
	return fmt.Sprintf("%d: %s", procs, strings.Join(cells, "; "))
}

// TestTSSLimits_DecideSchedule: the limits given in tss_limits are the
// ones TSS uses, on a schedule where the limit alone decides. Four
// processors; job 1 (L N: 10000 s on all 4) runs from 0; job 2 (VS N: 100
// s on 4) arrives at 100. Under the formula reading (tss_protect_victim
// false) job 2 may suspend job 1 when its xfactor, (wait + 100) / 100, is
// at least SF = 2 times job 1's, 1 (it never waited), and at most job 1's
// limit, 1.5 x the L N mean. The routine runs every 60 s: at 180 job 2's
// xfactor is 1.8 < 2, at 240 it is 2.4. With an L N mean of 2 the limit
// is 3 >= 2.4: job 2 suspends job 1 at 240 and runs 240-340, job 1 ends
// at 10100. With 1.5 the limit is 2.25 < 2.4, and later xfactors are
// higher still: job 2 waits for job 1's end, 10000-10100.
func TestTSSLimits_DecideSchedule(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 10000, Estimate: 10000, Procs: 4},
		{ID: 2, Submit: 100, Runtime: 100, Estimate: 100, Procs: 4},
	}
	for _, tc := range []struct {
		ln          float64
		start2, end sim.Time
		end2        sim.Time
		susp        int
	}{
		{2, 240, 10100, 340, 1},
		{1.5, 10000, 10000, 10100, 0},
	} {
		t.Run(fmt.Sprintf("L N=%v", tc.ln), func(t *testing.T) {
			text := limitsText(t, 4, map[string]float64{"L N": tc.ln})
			params := map[string]any{"tss_protect_victim": false, "tss_limits": text}
			p, err := policy.New("tss", params, policy.Env{Procs: 4, Jobs: jobs})
			if err != nil {
				t.Fatal(err)
			}
			if got := p.(*preempt.SS).Baseline()["L N"]; got != tc.ln {
				t.Errorf("L N mean %v, want %v", got, tc.ln)
			}
			res, err := sim.Run(context.Background(), 4, jobs, p, sim.Options{Segments: true, CheckEvery: 1})
			if err != nil {
				t.Fatal(err)
			}
			if err := simcheck.Check(jobs, res); err != nil {
				t.Fatalf("invariants: %v", err)
			}
			j1, j2 := res.Tasks[0], res.Tasks[1]
			if j1.FirstStart != 0 || j1.End != tc.end || j2.FirstStart != tc.start2 || j2.End != tc.end2 || j1.Suspensions != tc.susp {
				t.Errorf("job 1 %d-%d (%d suspensions), job 2 %d-%d; want 0-%d (%d), %d-%d",
					j1.FirstStart, j1.End, j1.Suspensions, j2.FirstStart, j2.End, tc.end, tc.susp, tc.start2, tc.end2)
			}
		})
	}
}

// TestTSSLimits_Params: tss_paper_limits needs the table in tss_limits, a
// bad table is reported on tss_limits when the parameters are checked,
// and a run on a machine size the table does not give is refused.
func TestTSSLimits_Params(t *testing.T) {
	e, err := policy.Lookup("ss")
	if err != nil {
		t.Fatal(err)
	}
	good := limitsText(t, 430, nil) + " / " + limitsText(t, 128, nil)
	for _, tc := range []struct {
		name   string
		params map[string]any
		want   string // "" for no error
	}{
		{"given", map[string]any{"tunable": true, "tss_limits": good}, ""},
		{"paper given", map[string]any{"tunable": true, "tss_paper_limits": true, "tss_limits": good}, ""},
		{"paper missing", map[string]any{"tunable": true, "tss_paper_limits": true}, "tss_paper_limits: true needs the paper's means in tss_limits"},
		{"no machine", map[string]any{"tss_limits": "VS Seq 2"}, "tss_limits: TSS limits \"VS Seq 2\": want PROCS: LABEL MEAN"},
		{"no mean", map[string]any{"tss_limits": "430: VS Seq; VS N 2"}, "tss_limits: TSS limits for 430 processors: \"VS Seq\" is not LABEL MEAN"},
		{"not a cell", map[string]any{"tss_limits": "430: 2"}, "tss_limits: TSS limits for 430 processors: \"2\" is not LABEL MEAN"},
		{"category missing", map[string]any{"tss_limits": "430: VS Seq 2"}, "tss_limits: TSS limits for 430 processors: no mean for VS N"},
		{"unknown category", map[string]any{"tss_limits": "430: XS Seq 2"}, "tss_limits: TSS limits for 430 processors: \"XS Seq\" is no ss16 category"},
		{"below 1", map[string]any{"tss_limits": strings.Replace(good, "VS Seq 1", "VS Seq 0.5", 1)}, "tss_limits: TSS limits for 430 processors: VS Seq 0.5, want a mean bounded slowdown >= 1"},
		{"twice", map[string]any{"tss_limits": limitsText(t, 430, nil) + " / " + limitsText(t, 430, nil)}, "tss_limits: TSS limits: 430 processors given twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := e.Check(tc.params)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Check: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, policy.ErrBadParam)):
				t.Fatalf("Check: error %v, want one wrapping ErrBadParam with %q", err, tc.want)
			case tc.want != "":
				return
			}
			if _, ok := v["tss_limits"]; !ok {
				t.Errorf("tss_limits elided from %v", v)
			}
		})
	}
	v, err := e.Check(map[string]any{"tunable": true, "tss_limits": good})
	if err != nil {
		t.Fatal(err)
	}
	jobs := []sim.Job{{ID: 1, Runtime: 100, Estimate: 100, Procs: 1}}
	if _, err := policy.Build("ss", v, policy.Env{Procs: 338, Jobs: jobs}); !errors.Is(err, policy.ErrBadParam) || !strings.Contains(err.Error(), "machines of 128 or 430 processors, not 338") {
		t.Errorf("338 processors: error %v, want ErrBadParam naming 128 or 430", err)
	}
	// Without tss_limits the value is elided: a task that does not give
	// it keeps its identity.
	v, err = e.Check(map[string]any{"tunable": true})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := v["tss_limits"]; ok {
		t.Errorf("empty tss_limits kept in %v", v)
	}
}
