package backfill_test

import (
	"fmt"
	"testing"

	"github.com/schedfarm/schedfarm/sim/policy/backfill"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestEASY_IndexAgainstPlain runs EASY with its wait index and with the
// plain scan of every waiting job on long stretches of all four traces,
// with the users' estimates at loads 1.0 and 1.6, where queues of hundreds
// to thousands of jobs build up: every job must start at the same time.
func TestEASY_IndexAgainstPlain(t *testing.T) {
	count := 15000
	if testing.Short() {
		count = 4000
	}
	for _, name := range traceNames {
		tr := readTrace(t, name)
		for _, load := range []float64{1, 1.6} {
			t.Run(fmt.Sprintf("%s/load%g", name, load), func(t *testing.T) {
				wl, err := tr.Build(workload.Options{Estimates: workload.EstimateTrace, Count: count, Load: load})
				if err != nil {
					t.Fatal(err)
				}
				plain := backfill.NewEASY()
				backfill.PlainEASY(plain)
				a := sameStarts(t, wl, backfill.NewEASY(), plain, "plain scan")
				t.Logf("longest queue %d", a.MaxQueue)
				if load > 1.5 && a.MaxQueue < 100 {
					t.Errorf("longest queue %d: too short to test the index", a.MaxQueue)
				}
			})
		}
	}
}

// TestEASY_DynamicAgainstSorted runs EASY under the dynamic orders (with
// and without SJBF and runtime predictions) and under runtime predictions
// in every static order, as it schedules (the head and the candidates
// that can start taken by key; passes where no job fits skipped; with
// predictions, passes where only corrections or arrivals came since the
// last one skipped or limited to the jobs that arrived, corrections
// while no job fits deferred) and sorting its whole queue at every pass,
// on stretches of all four traces at loads 1.0 and 1.6: every job must
// start at the same time.
func TestEASY_DynamicAgainstSorted(t *testing.T) {
	count := 10000
	if testing.Short() {
		count = 3000
	}
	type setting struct {
		rank           backfill.Rank
		sjbf, predicts bool
	}
	settings := []setting{
		{backfill.RankWFP3, false, false}, {backfill.RankUNICEP, false, false}, {backfill.RankXFactor, false, false},
		{backfill.RankWFP3, true, false}, {backfill.RankWFP3, false, true}, {backfill.RankXFactor, true, true},
		{backfill.RankFCFS, true, true}, {backfill.RankFCFS, false, true}, {backfill.RankSJF, false, true},
		{backfill.RankLJF, false, true}, {backfill.RankSAF, true, true}, {backfill.RankLAF, false, true},
		{backfill.RankF1, false, true}, {backfill.RankUNICEP, false, true},
	}
	for _, name := range traceNames {
		tr := readTrace(t, name)
		for _, load := range []float64{1, 1.6} {
			for _, s := range settings {
				t.Run(fmt.Sprintf("%s/load%g/%s/sjbf=%v/predict=%v", name, load, s.rank, s.sjbf, s.predicts), func(t *testing.T) {
					est := workload.EstimateTrace
					if s.predicts {
						est = workload.EstimatePredicted
					}
					wl, err := tr.Build(workload.Options{Estimates: est, Count: count, Load: load})
					if err != nil {
						t.Fatal(err)
					}
					mk := func() *backfill.EASY {
						e := backfill.NewEASY()
						e.Rank, e.BackfillSJF, e.Predict = s.rank, s.sjbf, s.predicts
						return e
					}
					sorted := mk()
					backfill.SortAllEASY(sorted)
					sameStarts(t, wl, mk(), sorted, "sorting the whole queue")
				})
			}
		}
	}
}

// TestEASY_LazyCorrections runs EASY with runtime predictions (with and
// without SJBF, in arrival, sjf, f1, saf and wfp3 order) as it schedules
// (a correction put into the profile when the profile is next read, a
// pass skipped without reading it when every correction since the head's
// shadow time was computed ends by it, and under a static order an
// instant only for the corrections that may start a job) and with a
// timer for every correction, put into the profile at once, on stretches
// of all four traces at loads 1.0 and 1.6: every job must start at the
// same time.
func TestEASY_LazyCorrections(t *testing.T) {
	count := 15000
	if testing.Short() {
		count = 4000
	}
	type setting struct {
		rank backfill.Rank
		sjbf bool
	}
	for _, name := range traceNames {
		tr := readTrace(t, name)
		for _, load := range []float64{1, 1.6} {
			wl, err := tr.Build(workload.Options{Estimates: workload.EstimatePredicted, Count: count, Load: load})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []setting{{backfill.RankFCFS, true}, {backfill.RankFCFS, false}, {backfill.RankSJF, false}, {backfill.RankF1, false}, {backfill.RankSAF, true}, {backfill.RankWFP3, true}} {
				t.Run(fmt.Sprintf("%s/load%g/%s/sjbf=%v", name, load, s.rank, s.sjbf), func(t *testing.T) {
					mk := func() *backfill.EASY {
						e := backfill.NewEASY()
						e.Rank, e.BackfillSJF, e.Predict = s.rank, s.sjbf, true
						return e
					}
					eager := mk()
					backfill.EagerCorrections(eager)
					sameStarts(t, wl, mk(), eager, "corrections put into the profile at once")
				})
			}
		}
	}
}
