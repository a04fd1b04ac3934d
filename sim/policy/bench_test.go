package policy_test

import (
	"context"
	"testing"

	"github.com/schedfarm/schedfarm/internal/rusage"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// benchPolicy simulates a policy over the whole CTC trace (77k jobs) per
// iteration; the trace is read outside the timed region.
// Run: go test ./sim/policy -run '^$' -bench . -benchmem
func benchPolicy(b *testing.B, name string, est workload.EstimateModel, params map[string]any) {
	wl := loadSubset(b, "ctc", est, 0, 0)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := rusage.CPU()
	for i := 0; i < b.N; i++ {
		p, err := policy.New(name, params, policy.Env{Procs: wl.Procs, Jobs: wl.Jobs, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((rusage.CPU()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(len(wl.Jobs)), "jobs")
}

func BenchmarkCTC_FCFS(b *testing.B) { benchPolicy(b, "fcfs", workload.EstimateAccurate, nil) }
func BenchmarkCTC_EASY_Accurate(b *testing.B) {
	benchPolicy(b, "easy", workload.EstimateAccurate, nil)
}
func BenchmarkCTC_EASY_Trace(b *testing.B) { benchPolicy(b, "easy", workload.EstimateTrace, nil) }
func BenchmarkCTC_Conservative_Accurate(b *testing.B) {
	benchPolicy(b, "conservative", workload.EstimateAccurate, nil)
}
func BenchmarkCTC_Conservative_Trace(b *testing.B) {
	benchPolicy(b, "conservative", workload.EstimateTrace, nil)
}
