package qops

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/schedfarm/schedfarm/internal/rusage"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// benchWorkload reads a shipped trace with opts, outside the timed region.
func benchWorkload(b *testing.B, file string, procs int, opts workload.Options) *workload.Workload {
	tr, err := workload.Read(filepath.Join("..", "..", "..", "traces", file), procs)
	if err != nil {
		b.Fatal(err)
	}
	wl, err := tr.Build(opts)
	if err != nil {
		b.Fatal(err)
	}
	return wl
}

// benchQoPS simulates wl under cfg per iteration, the EASY runs included
// (their cache is emptied first), and reports the CPU time per run (the
// wall time is unreliable on a shared machine), the process's peak RSS
// and the mean and largest schedule size N.
func benchQoPS(b *testing.B, wl *workload.Workload, cfg Config) {
	b.ReportAllocs()
	var st Stats
	cpu0 := rusage.CPU()
	for b.Loop() {
		easyRuns.Reset()
		p, err := New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{}); err != nil {
			b.Fatal(err)
		}
		st = p.Stats()
	}
	b.ReportMetric((rusage.CPU()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(rusage.MaxRSS())/(1<<20), "maxrss-MB")
	b.ReportMetric(float64(len(wl.Jobs)), "jobs")
	b.ReportMetric(st.MeanN, "meanN")
	b.ReportMetric(float64(st.MaxN), "maxN")
}

const ctcFile = "CTC-SP2-1996-3.1-cln.swf.gz"

// BenchmarkQoPS_CTC: the whole CTC trace (77k jobs, 338 processors),
// accurate estimates, load 1.0. Run:
// go test ./sim/policy/qops -run '^$' -bench CTC -benchtime 1x -benchmem
func BenchmarkQoPS_CTC(b *testing.B) {
	wl := benchWorkload(b, ctcFile, 0, workload.Options{Estimates: workload.EstimateAccurate})
	b.Run("defaults", func(b *testing.B) { benchQoPS(b, wl, DefaultConfig()) })
	b.Run("tolerance4", func(b *testing.B) {
		cfg := DefaultConfig()
		cfg.Tolerance = 4
		benchQoPS(b, wl, cfg)
	})
}

// BenchmarkQoPS_KillRestart: kill-and-restart with TF 4 on the first 5000
// CTC jobs on 430 processors at load 1.6 (duplicate).
func BenchmarkQoPS_KillRestart(b *testing.B) {
	wl := benchWorkload(b, ctcFile, 430, workload.Options{Estimates: workload.EstimateAccurate, Count: 5000,
		Load: 1.6, LoadMode: workload.LoadDuplicate, Seed: 1})
	cfg := DefaultConfig()
	cfg.Tolerance = 4
	cfg.KillRestart = true
	benchQoPS(b, wl, cfg)
}
