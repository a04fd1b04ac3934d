package moldable_test

import (
	"context"
	"testing"

	"github.com/schedfarm/schedfarm/internal/rusage"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// bench simulates a moldable policy on w per iteration (the workload is
// built outside the timed region) and reports the CPU time per run (the
// wall time is unreliable on a shared machine) and the peak RSS. The
// policy runs with the readings the srinivasan2003 reproduction sets
// (weights: work; keep_reservations: true where the policy takes it).
// Run: go test ./sim/policy/moldable -run '^$' -bench . -benchtime 3x -benchmem
func bench(b *testing.B, w *workload.Workload, name string) {
	params := map[string]any{"weights": "work"}
	if name != "moldable-submit" {
		params["keep_reservations"] = true
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := rusage.CPU()
	for range b.N {
		p, err := policy.New(name, params, policy.Env{Procs: w.Procs, Jobs: w.Jobs})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := sim.Run(context.Background(), w.Procs, w.Jobs, p, sim.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((rusage.CPU()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(rusage.MaxRSS())/1e6, "peak-MB")
	b.ReportMetric(float64(len(w.Jobs)), "jobs")
}

// wholeCTC is the whole CTC trace (77,205 jobs, 338 processors), sigma 0,
// RF 1, trace estimates.
func wholeCTC(b *testing.B) *workload.Workload {
	w, err := workload.Load(ctcTrace, workload.Options{Moldable: &workload.Moldability{Sigma: 0, RangeFactor: 1}})
	if err != nil {
		b.Fatal(err)
	}
	return w
}

// task5000 is one task of the reproduction: the first 5000 SDSC jobs at
// LF 125, sigma 1, RF 2.
func task5000(b *testing.B) *workload.Workload {
	w, err := workload.Load(sdscTrace, workload.Options{Count: 5000, Load: 1.25, Moldable: &workload.Moldability{Sigma: 1, RangeFactor: 2}})
	if err != nil {
		b.Fatal(err)
	}
	return w
}

func BenchmarkCTC_Combined(b *testing.B) { bench(b, wholeCTC(b), "moldable-combined") }
func BenchmarkCTC_Schedule(b *testing.B) { bench(b, wholeCTC(b), "moldable-schedule") }
func BenchmarkCTC_Submit(b *testing.B)   { bench(b, wholeCTC(b), "moldable-submit") }
func BenchmarkTask5000_Combined(b *testing.B) {
	bench(b, task5000(b), "moldable-combined")
}
func BenchmarkTask5000_Submit(b *testing.B) { bench(b, task5000(b), "moldable-submit") }
