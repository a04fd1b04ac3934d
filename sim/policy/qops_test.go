package policy_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/simcheck"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// loadDuplicated returns count jobs of a shipped trace after skip, with
// the duplicate load transform at load.
func loadDuplicated(tb testing.TB, name string, est workload.EstimateModel, skip, count int, load float64) *workload.Workload {
	tb.Helper()
	loadSubset(tb, name, est, skip, count) // reads and caches the trace
	traceMu.Lock()
	tr := traceCache[name]
	traceMu.Unlock()
	wl, err := tr.Build(workload.Options{Estimates: est, Skip: skip, Count: count, Load: load, LoadMode: workload.LoadDuplicate, Seed: 3})
	if err != nil {
		tb.Fatal(err)
	}
	return wl
}

// runQoPS runs qops with params on wl with segment recording and
// returns the result and the records with the policy's QoS facts.
func runQoPS(tb testing.TB, wl *workload.Workload, params map[string]any) (*sim.Result, []metrics.Record) {
	tb.Helper()
	p, err := policy.New("qops", params, policy.Env{Procs: wl.Procs, Jobs: wl.Jobs, Seed: 3})
	if err != nil {
		tb.Fatal(err)
	}
	res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{Segments: true, CheckEvery: 97})
	if err != nil {
		tb.Fatal(err)
	}
	recs := metrics.Records(res)
	st := metrics.Stats(wl.Procs, recs)
	p.(metrics.Annotator).Annotate(recs, &st)
	return res, recs
}

// TestQoPS_Invariants runs qops over the configurations of the
// guarantee (TF 1 and 4, random TF, SF 1 and 2, kill-and-restart on and
// off, every job or 20% of them with deadlines) on subsets of all four
// traces, with accurate and trace estimates, at loads 1.0 and 1.6
// (duplicate), and checks with simcheck that rejected jobs never hold
// processors, every job is decided at its arrival, no deadline changes
// and every admitted job ends by its deadline. The guarantee holds
// because no estimate is below its runtime.
func TestQoPS_Invariants(t *testing.T) {
	count := 400
	if testing.Short() {
		count = 150
	}
	type cfg struct {
		tf     float64
		random bool
	}
	tfs := []cfg{{1, false}, {4, false}, {2, true}}
	for _, trace := range []string{"ctc", "sdsc", "kth", "sdsc-par"} {
		for _, est := range []workload.EstimateModel{workload.EstimateAccurate, workload.EstimateTrace} {
			for _, load := range []float64{1.0, 1.6} {
				t.Run(fmt.Sprintf("%s/%v/load%g", trace, est, load), func(t *testing.T) {
					t.Parallel()
					wl := loadDuplicated(t, trace, est, 1000, count, load)
					admitted, killed, offered := 0, 0, 0
					for _, tf := range tfs {
						for _, sf := range []float64{1, 2} {
							for _, kr := range []bool{false, true} {
								for _, frac := range []float64{1, 0.2} {
									params := map[string]any{"tolerance": tf.tf, "tolerance_random": tf.random,
										"slack": sf, "kill_restart": kr, "deadline_fraction": frac}
									res, recs := runQoPS(t, wl, params)
									if err := simcheck.Check(wl.Jobs, res); err != nil {
										t.Fatalf("%v: invariants: %v", params, err)
									}
									for i := range recs {
										r := &recs[i]
										if r.Missed() {
											t.Fatalf("%v: job %d missed its deadline", params, r.JobID)
										}
										if !r.Rejected {
											admitted++
										}
										killed += r.Kills
										if r.QoS.Offered > 0 {
											offered++
										}
									}
								}
							}
						}
					}
					if admitted == 0 {
						t.Errorf("no job admitted: the deadline invariant was vacuous")
					}
					t.Logf("admitted %d, killed %d, offers %d", admitted, killed, offered)
				})
			}
		}
	}
}

// TestQoPS_ToleranceBelowSlack: with a fixed TF <= SF no offer is ever
// made (section 7: "behaves like our original QoPS"), so the per-job
// output equals that of TF = SF = 1.
func TestQoPS_ToleranceBelowSlack(t *testing.T) {
	wl := loadDuplicated(t, "ctc", workload.EstimateAccurate, 0, 1500, 1.6)
	out := func(params map[string]any) []byte {
		_, recs := runQoPS(t, wl, params)
		var b bytes.Buffer
		if err := metrics.WriteCSV(&b, recs, metrics.Schemes()); err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			fmt.Fprintf(&b, "%d %v %d %+v\n", r.JobID, r.Rejected, r.Deadline, *r.QoS)
		}
		return b.Bytes()
	}
	base := out(map[string]any{"tolerance": 1, "slack": 1})
	for _, p := range []map[string]any{{"tolerance": 2, "slack": 2}, {"tolerance": 1.5, "slack": 3}, {"tolerance": 3, "slack": 4}} {
		if got := out(p); !bytes.Equal(got, base) {
			t.Errorf("%v: per-job output differs from TF = SF = 1", p)
		}
	}
	if got := out(map[string]any{"tolerance": 4, "slack": 2}); bytes.Equal(got, base) {
		t.Errorf("TF 4 > SF 2 gave the output of TF = SF = 1: the identity is vacuous")
	}
}
