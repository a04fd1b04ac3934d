package policy_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/schedfarm/schedfarm/internal/rusage"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// IS under its readings on the workload of the Kettimuthu et al. specs:
// the first 5000 CTC jobs on 430 processors, accurate estimates, with and
// without suspension overhead. Resumption by priority (resume_preempt)
// thrashes on long loaded runs, so the whole-trace benchmarks use the
// default reading only.
// Run: go test ./sim/policy -run '^$' -bench 'CTC5000_IS' -benchmem -cpu 1 -benchtime 3x
func BenchmarkCTC5000_IS_Free(b *testing.B) { benchIS5000(b, nil) }
func BenchmarkCTC5000_IS_Priority(b *testing.B) {
	benchIS5000(b, map[string]any{"resume_preempt": true})
}
func BenchmarkCTC5000_IS_PriorityFactor2(b *testing.B) {
	benchIS5000(b, map[string]any{"resume_preempt": true, "resume_factor": 2.0})
}
func BenchmarkCTC5000_IS_PriorityOverhead(b *testing.B) {
	benchIS5000(b, map[string]any{"resume_preempt": true, "overhead": true})
}
func BenchmarkCTC5000_IS_Anywhere(b *testing.B) {
	benchIS5000(b, map[string]any{"resume_anywhere": true})
}

func benchIS5000(b *testing.B, params map[string]any) {
	tr, err := workload.Read(filepath.Join("..", "..", "traces", traceFiles["ctc"]), 430)
	if err != nil {
		b.Fatal(err)
	}
	wl, err := tr.Build(workload.Options{Estimates: workload.EstimateAccurate, Count: 5000})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var susp int
	cpu0 := rusage.CPU()
	for i := 0; i < b.N; i++ {
		p, err := policy.New("is", params, policy.Env{Procs: wl.Procs, Jobs: wl.Jobs, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{})
		if err != nil {
			b.Fatal(err)
		}
		susp = 0
		for j := range res.Tasks {
			susp += res.Tasks[j].Suspensions
		}
	}
	b.ReportMetric((rusage.CPU()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(len(wl.Jobs)), "jobs")
	b.ReportMetric(float64(susp), "suspensions")
}
