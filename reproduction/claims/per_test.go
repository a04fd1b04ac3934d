package claims_test

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/reproduction/claims"
	"github.com/schedfarm/schedfarm/results"
)

// TestPerBatch_Independent checks per-batch selections against batch
// means computed here from the raw columns of jobs.parquet (read by
// results.ReadJobSeries, not by the claims package): batches of 128 of
// the 300 jobs of one task drop the last 44, and a per-batch pairwise
// ratio's share of positive batches is the share computed by hand.
func TestPerBatch_Independent(t *testing.T) {
	dir := fixture(t)
	sweepDir := filepath.Join(dir, fixtureGroup, "sweep")
	tasks, err := results.ReadTasks(filepath.Join(sweepDir, results.TasksFile))
	if err != nil {
		t.Fatal(err)
	}
	// The replication-0 tasks of NS and FCFS on CTC at load 1.4.
	index := map[string]int{}
	for _, tr := range tasks {
		tc := tr.TaskCols
		if tc.Trace != "" && tc.Load == 1.4 && tc.Replication == 0 && (tc.Label == "NS" || tc.Label == "FCFS") {
			index[tc.Label] = tc.TaskIndex
		}
	}
	if len(index) != 2 {
		t.Fatalf("fixture tasks not found: %v", index)
	}
	bsd := map[int][]float64{}
	err = results.ReadJobSeries(filepath.Join(sweepDir, results.JobsFile), []string{"bsd"}, func(task int, cols [][]float64) error {
		bsd[task] = append([]float64(nil), cols[0]...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	batchMeans := func(v []float64, size int) []float64 {
		var out []float64
		for b := 0; (b+1)*size <= len(v); b++ {
			m := 0.0
			for _, x := range v[b*size : (b+1)*size] {
				m += x
			}
			out = append(out, m/float64(size))
		}
		return out
	}
	ns, fcfs := bsd[index["NS"]], bsd[index["FCFS"]]
	if len(ns) != 300 || len(fcfs) != 300 {
		t.Fatalf("want 300 jobs per task, got %d and %d", len(ns), len(fcfs))
	}

	o := claims.NewOutputs(dir)
	sel := func(setting string, batch int, over string) claims.Selection {
		return claims.Selection{
			Group: fixtureGroup, Table: claims.TableJobs, Metric: "bsd", Agg: "mean", Setting: setting,
			Where: []claims.Filter{{Key: "trace", Values: []string{"ctc"}}, {Key: "load", Values: []string{"1.4"}}, {Key: "replication", Values: []string{"0"}}},
			Per:   claims.PerBatch, Batch: batch, Over: over,
		}
	}
	m := batchMeans(ns, 128)
	want := (m[0] + m[1]) / 2
	got, err := o.Value(sel("NS", 128, "mean"))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("mean of the 128-job batch means = %v, want %v (batches %v)", got, want, m)
	}
	got, err = o.Value(sel("NS", 128, "max"))
	if err != nil {
		t.Fatal(err)
	}
	if want := math.Max(m[0], m[1]); math.Abs(got-want) > 1e-9 {
		t.Errorf("max of the 128-job batch means = %v, want %v", got, want)
	}

	// Pairwise: FCFS against NS per batch of 50, Lawson's R.
	a, b := batchMeans(fcfs, 50), batchMeans(ns, 50)
	pos, neg := 0, 0
	for k := range a {
		r := (a[k] - b[k]) / math.Min(a[k], b[k])
		switch {
		case r > 0:
			pos++
		case r < 0:
			neg++
		}
	}
	f, err := claims.Parse([]byte(`
paper: fixture
defaults: {group: g1, table: jobs, metric: bsd, agg: mean, per: batch, batch: 50, where: {trace: ctc, load: 1.4, replication: 0}}
claims:
  - {id: pos, figure: F, quote: "q", kind: ratio, word: better, class: result, departure: tests the claim's own tolerances, form: sym, pairwise: true, select: {over: pos_share}, a: {setting: FCFS}, b: {setting: NS}, expected: "> 0"}
  - {id: neg, figure: F, quote: "q", kind: ratio, word: better, class: result, departure: tests the claim's own tolerances, form: sym, pairwise: true, select: {over: neg_share}, a: {setting: FCFS}, b: {setting: NS}, expected: ">= 0"}
`), claims.Options{Paper: fixturePaper})
	if err != nil {
		t.Fatal(err)
	}
	sc := claims.Evaluate(f, o)
	if len(sc.Rows) != 2 {
		t.Fatalf("want 2 rows, got %+v", sc.Rows)
	}
	for i, want := range []float64{float64(pos) / 6, float64(neg) / 6} {
		if r := sc.Rows[i]; r.Verdict == claims.Error || math.Abs(r.Value-want) > 1e-12 {
			t.Errorf("%s: value %v (%s), want %v", r.ID, r.Value, r.Error, want)
		}
	}
}

// TestPerBatch_ParseErrors checks the rules of per, batch, over, across
// and pairwise, each reported at its key path.
func TestPerBatch_ParseErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{`select: {group: g, table: jobs, metric: bsd, agg: mean, over: mean}`, "claims[0].select.over: over combines per-batch or per-week values: it needs per"},
		{`select: {group: g, metric: bsd_mean, scheme: ss16, category: all, per: batch, over: mean}`, "claims[0].select.table: per groups job rows: it needs table jobs"},
		{`select: {group: g, table: jobs, metric: bsd, agg: mean, per: batch}`, "claims[0].select.over: a per-batch selection needs an over"},
		{`select: {group: g, table: jobs, metric: bsd, agg: mean, per: week, batch: 10, over: mean}`, "claims[0].select.batch: batch is the size of per batch, not per week"},
		{`select: {group: g, table: jobs, metric: bsd, agg: mean, per: day, over: mean}`, `claims[0].select.per: unknown per "day"`},
		{`select: {group: g, table: jobs, metric: bsd, agg: mean, per: batch, batch: 0.5, over: mean}`, "claims[0].select.batch: a batch is a whole number of jobs >= 1"},
		{`select: {group: g, table: jobs, metric: bsd, agg: mean, per: batch, over: mode}`, `claims[0].select.over: unknown over "mode"`},
		{`select: {group: g, table: jobs, metric: bsd, agg: mean, per: batch, over: mean}
    pairwise: true`, "claims[0].pairwise: not used by a value claim"},
	} {
		src := "paper: fixture\nclaims:\n  - id: x\n    figure: F\n    quote: q\n    kind: value\n    word: number\n    class: result\n    departure: tests the claim's own tolerances\n    expected: \"> 0\"\n    " + c.yaml + "\n"
		_, err := claims.Parse([]byte(src), claims.Options{Paper: fixturePaper})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %q", c.yaml, err, c.want)
		}
	}
	// A pairwise ratio needs per on both sides.
	src := `paper: fixture
claims:
  - {id: x, figure: F, quote: q, kind: ratio, word: better, class: result, departure: tests the claim's own tolerances, form: sym, pairwise: true, select: {group: g, table: jobs, metric: bsd, agg: mean}, a: {setting: A}, b: {setting: B}, expected: "> 0"}
`
	if _, err := claims.Parse([]byte(src), claims.Options{Paper: fixturePaper}); err == nil || !strings.Contains(err.Error(), "a pairwise ratio compares per-batch or per-week values: it needs per") {
		t.Errorf("pairwise without per: %v", err)
	}
}

// TestRepsCV checks reps: cv against the coefficient of variation of the
// makespans of g2's 12 replications computed here from tasks.parquet
// (read by results.ReadTasks, not by the claims package), and that an
// order claim compares two such numbers.
func TestRepsCV(t *testing.T) {
	dir := fixture(t)
	tasks, err := results.ReadTasks(filepath.Join(dir, fixtureRepsGroup, "sweep", results.TasksFile))
	if err != nil {
		t.Fatal(err)
	}
	var ms []float64
	for _, tr := range tasks {
		if tr.Stats.Elastic == nil {
			t.Fatalf("task %d has no elastic stats", tr.TaskIndex)
		}
		ms = append(ms, float64(tr.Stats.Elastic.MakespanTagged))
	}
	if len(ms) != 12 {
		t.Fatalf("want 12 replications, got %d", len(ms))
	}
	mean := 0.0
	for _, x := range ms {
		mean += x
	}
	mean /= float64(len(ms))
	ss := 0.0
	for _, x := range ms {
		ss += (x - mean) * (x - mean)
	}
	want := math.Sqrt(ss/float64(len(ms))) / mean
	if !(want > 0) {
		t.Fatalf("fixture makespans do not vary: %v", ms)
	}
	o := claims.NewOutputs(dir)
	sel := claims.Selection{Group: fixtureRepsGroup, Table: claims.TableTasks, Metric: "makespan_tagged", Setting: "RTC", Reps: "cv"}
	got, err := o.Value(sel)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-want) > 1e-12 {
		t.Errorf("reps cv = %v, want %v (makespans %v)", got, want, ms)
	}

	f, err := claims.Parse([]byte(`paper: fixture
defaults: {group: g2, table: tasks, setting: RTC}
claims:
  - id: makespan-varies-more-than-mrt
    figure: Sec 6.2
    quote: "Makespans vary."
    kind: order
    word: better
    class: result
    departure: tests the claim's own tolerances
    a: {metric: makespan_tagged, reps: cv}
    b: {metric: makespan_tagged, reps: mean}
    op: "<"
`), claims.Options{Paper: fixturePaper})
	if err != nil {
		t.Fatal(err)
	}
	sc := claims.Evaluate(f, o)
	if len(sc.Rows) != 1 || sc.Rows[0].Verdict != claims.Agree || math.Abs(sc.Rows[0].Value-want/mean) > 1e-12 {
		t.Errorf("order of cv against mean: %+v, want agree with value %v", sc.Rows, want/mean)
	}
}
