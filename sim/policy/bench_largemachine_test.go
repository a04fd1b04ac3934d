package policy_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/schedfarm/schedfarm/internal/rusage"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// largeProcs is the machine of the large-machine benchmarks: 2^20
// processors.
const largeProcs = 1 << 20

// scaledCTC returns the first n jobs of the CTC SP2 trace (accurate
// estimates) with every width scaled from the trace's machine to 2^20
// processors (rounded down, at least 1), as sim's BenchmarkLargeMachine
// scales them.
func scaledCTC(tb testing.TB, n int) []sim.Job {
	wl := loadSubset(tb, "ctc", workload.EstimateAccurate, 0, n)
	jobs := make([]sim.Job, len(wl.Jobs))
	for i, j := range wl.Jobs {
		j.Procs = max(1, int(int64(j.Procs)*largeProcs/int64(wl.Procs)))
		jobs[i] = j
	}
	return jobs
}

// BenchmarkLargeMachine_Policies runs the policies that keep per-processor
// state (SS, TSS and IS of package preempt, which remember the processors
// of suspended jobs; multiqueue and QoPS, which keep profiles; the LSF
// disciplines, which place elastic jobs) on a machine of 1,048,576
// processors, and EASY for comparison. The rigid policies get the first
// 10,000 jobs of CTC SP2 with widths scaled to the machine; the LSF
// disciplines get Parsons and Sevcik's synthetic workload on 2^20
// processors in 16 units of 65,536 (the paper's 128 processors in units
// of 8, scaled). It reports the CPU time per run (cpu-s/op), the memory
// the run allocates (MB/op) and the live heap after it (heap-MB).
// Run: go test ./sim/policy -run '^$' -bench LargeMachine_Policies -benchtime 1x
func BenchmarkLargeMachine_Policies(b *testing.B) {
	ctc := scaledCTC(b, 10000)
	g := workload.NewParsons1997()
	g.Procs, g.Unit, g.MeanInterarrival, g.Seed = largeProcs, largeProcs/16, 300, 1
	pw, err := g.Generate()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		jobs []sim.Job
	}{
		{"easy", ctc}, {"ss", ctc}, {"tss", ctc}, {"is", ctc},
		{"multiqueue", ctc}, {"qops", ctc},
		{"lsf-rtc", pw.Jobs}, {"lsf-preempt", pw.Jobs}, {"lsf-preempt-ad", pw.Jobs}, {"lsf-mig", pw.Jobs}, {"lsf-mall-ad", pw.Jobs},
	} {
		b.Run(c.name, func(b *testing.B) {
			var alloc, heap uint64
			cpu0 := rusage.CPU()
			for range b.N {
				p, err := policy.New(c.name, nil, policy.Env{Procs: largeProcs, Jobs: c.jobs, Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				res, err := sim.Run(context.Background(), largeProcs, c.jobs, p, sim.Options{})
				if err != nil {
					b.Fatal(err)
				}
				runtime.ReadMemStats(&after)
				alloc += after.TotalAlloc - before.TotalAlloc
				heap = max(heap, after.HeapAlloc)
				if len(res.Tasks) == 0 {
					b.Fatal("no jobs ran")
				}
			}
			b.ReportMetric((rusage.CPU()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(alloc)/float64(b.N)/(1<<20), "MB/op")
			b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
		})
	}
}
