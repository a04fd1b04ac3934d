package policy_test

import (
	"context"
	"flag"
	"fmt"
	"testing"

	"github.com/schedfarm/schedfarm/internal/rusage"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
	"github.com/schedfarm/schedfarm/sim/workload"
)

var (
	benchLoadCount = flag.Int("loadbench.count", 0, "jobs of the CTC trace BenchmarkPolicyLoad simulates (0: all)")
	benchLoadEst   = flag.String("loadbench.estimates", "trace", "estimate model of BenchmarkPolicyLoad (trace or accurate)")
)

// BenchmarkPolicyLoad simulates every registered policy (default
// parameters; moldable policies are left out: they need moldable
// workloads) over the whole CTC trace with its users' estimates at loads
// 1.0 to 1.6 (arrival_scale): a cost that grows faster than the work
// shows up as a steep row. Conservative runs with both compression orders
// (conservative-queue_order is compress: queue_order), ss, tss and is also
// with suspension overhead (ss-overhead, tss-overhead, is-overhead), easy
// also with every other queue order (easy-sjf, easy-wfp3, ...) with the
// users' estimates and with predicted estimates (easy-sjf-predicted,
// ...), with SJBF, as EASY++ (easy-predicted: predicted estimates, SJBF)
// and with predicted estimates in queue order (easy-predicted-queue). The
// lsf disciplines need elastic jobs: they run on the calibrated
// parsons1997 workload (20,000 measured jobs) with its arrival rate scaled
// by the load. Besides the wall time it reports the process's CPU time
// (user and system) per run, cpu-ms/op, steadier than the wall time on a
// shared machine. One sub-benchmark per policy and load:
//
//	go test ./sim/policy -run '^$' -bench 'PolicyLoad/conservative/' -benchtime 1x
func BenchmarkPolicyLoad(b *testing.B) {
	est, err := workload.ParseEstimateModel(*benchLoadEst)
	if err != nil {
		b.Fatal(err)
	}
	type variant struct {
		name, policy string
		params       map[string]any
		lsf          bool
		predict      bool // predicted estimates (the runtime predictions of EASY++)
	}
	var vs []variant
	for _, e := range policy.Entries() {
		if e.Moldable {
			continue
		}
		vs = append(vs, variant{e.Name, e.Name, nil, e.Family == "lsf", false})
		switch e.Name {
		case "conservative":
			vs = append(vs, variant{"conservative-queue_order", e.Name, map[string]any{"compress": "queue_order"}, false, false})
		case "ss", "tss", "is":
			vs = append(vs, variant{e.Name + "-overhead", e.Name, map[string]any{"overhead": true}, false, false})
		case "easy":
			// Every other queue order, with the users' estimates and
			// with predictions, EASY-SJBF, and EASY++ (runtime
			// predictions with SJBF).
			for _, r := range backfill.RankNames() {
				if r == "fcfs" {
					continue
				}
				order := map[string]any{"order": r}
				vs = append(vs,
					variant{"easy-" + r, e.Name, order, false, false},
					variant{"easy-" + r + "-predicted", e.Name, order, false, true})
			}
			vs = append(vs,
				variant{"easy-sjbf", e.Name, map[string]any{"backfill_order": "sjf"}, false, false},
				variant{"easy-predicted", e.Name, map[string]any{"backfill_order": "sjf"}, false, true},
				variant{"easy-predicted-queue", e.Name, nil, false, true})
		}
	}
	for _, v := range vs {
		for _, load := range []float64{1.0, 1.2, 1.4, 1.6} {
			b.Run(fmt.Sprintf("%s/%.1f", v.name, load), func(b *testing.B) {
				var wl *workload.Workload
				if v.lsf {
					// Elastic jobs: the calibrated parsons1997 workload
					// (20,000 measured jobs, mean gap 300 s at load 1).
					g := workload.NewParsons1997()
					g.MeanInterarrival, g.Tagged, g.Horizon, g.Seed, g.Load = 300, 20000, 0, 1, load
					if *benchLoadCount > 0 {
						g.Tagged = *benchLoadCount
					}
					var err error
					if wl, err = g.Generate(); err != nil {
						b.Fatal(err)
					}
				} else {
					e := est
					if v.predict {
						e = workload.EstimatePredicted
					}
					wl = loadWorkload(b, "ctc", workload.Options{Estimates: e, Count: *benchLoadCount, Load: load})
				}
				b.ReportAllocs()
				b.ResetTimer()
				cpu0 := rusage.CPU()
				for b.Loop() {
					p, err := policy.New(v.policy, v.params, policy.Env{Procs: wl.Procs, Jobs: wl.Jobs, Seed: 1, Predict: v.predict})
					if err != nil {
						b.Fatal(err)
					}
					if _, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64((rusage.CPU()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
				b.ReportMetric(float64(len(wl.Jobs)), "jobs")
			})
		}
	}
}

// loadWorkload builds a workload of a shipped trace (read once per test
// binary, as loadSubset does).
func loadWorkload(tb testing.TB, name string, opts workload.Options) *workload.Workload {
	tb.Helper()
	loadSubset(tb, name, opts.Estimates, 0, 1) // reads and caches the trace
	traceMu.Lock()
	tr := traceCache[name]
	traceMu.Unlock()
	wl, err := tr.Build(opts)
	if err != nil {
		tb.Fatal(err)
	}
	return wl
}
