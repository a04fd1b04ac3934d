package moldable_test

import (
	"context"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestSubmitCompress: moldable-submit compresses its schedule as
// conservative backfilling does, in the order its compress parameter
// names. On jobs that cannot change size (min = max = trace size) it must
// give conservative's schedule, job for job, under each order; and the two
// orders must give different schedules on this subset, so the parameter
// reaches the policy.
func TestSubmitCompress(t *testing.T) {
	count := 1500
	if testing.Short() {
		count = 500
	}
	w := load(t, sdscTrace, 128, count, workload.EstimateTrace, 1.25, nil)
	fixed := make([]sim.Job, len(w.Jobs))
	for i, j := range w.Jobs {
		fixed[i] = rigid(t, j.ID, j.Submit, j.Runtime, j.Estimate, j.Procs)
	}
	run := func(name, order string, jobs []sim.Job) *sim.Result {
		t.Helper()
		p, err := policy.New(name, map[string]any{"compress": order}, policy.Env{Procs: w.Procs, Jobs: jobs})
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(context.Background(), w.Procs, jobs, p, sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	starts := map[string][]sim.Time{}
	for _, order := range []string{"start_order", "queue_order"} {
		a, b := run("conservative", order, w.Jobs), run("moldable-submit", order, fixed)
		for i := range a.Tasks {
			x, y := a.Tasks[i], b.Tasks[i]
			if x.ID != y.ID || x.FirstStart != y.FirstStart || x.End != y.End || x.Procs != y.Procs {
				t.Fatalf("%s: job %d: [%d,%d) on %d under conservative, [%d,%d) on %d under moldable-submit",
					order, x.ID, x.FirstStart, x.End, x.Procs, y.FirstStart, y.End, y.Procs)
			}
			starts[order] = append(starts[order], x.FirstStart)
		}
	}
	differ := 0
	for i, s := range starts["start_order"] {
		if s != starts["queue_order"][i] {
			differ++
		}
	}
	if differ == 0 {
		t.Errorf("start_order and queue_order give the same schedule on %d jobs; the test cannot tell them apart", len(w.Jobs))
	}
}

// TestSubmitCompressBad: a compression order that does not exist is an
// error naming the valid ones.
func TestSubmitCompressBad(t *testing.T) {
	_, err := policy.New("moldable-submit", map[string]any{"compress": "arrival"}, policy.Env{Procs: 8})
	if err == nil || !strings.Contains(err.Error(), "start_order, queue_order") {
		t.Fatalf("compress: arrival: err = %v, want one naming start_order, queue_order", err)
	}
}
