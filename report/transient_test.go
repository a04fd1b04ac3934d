package report_test

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/results"
)

// TestTransient checks R per batch against a computation from the job
// rows, the dropped partial batch, and the figure files.
func TestTransient(t *testing.T) {
	s, err := report.Load(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	const batch = 70 // 300 jobs: 4 batches, 20 jobs dropped
	series, err := s.Transient("slowdown_mean", "NS", batch, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Load 1: FCFS and CONS; load 1.5: FCFS (CONS failed).
	if len(series) != 3 {
		t.Fatalf("%d series, want 3", len(series))
	}
	rows, err := results.ReadJobs(filepath.Join(fixtureDir, results.JobsFile))
	if err != nil {
		t.Fatal(err)
	}
	mean := func(label string, load float64, b int) (float64, float64) {
		var sum, start float64
		k := 0
		for _, r := range rows {
			if r.Label != label || r.Load != load {
				continue
			}
			if k >= b*batch && k < (b+1)*batch {
				if k == b*batch {
					start = float64(r.Job.Submit)
				}
				sum += r.Job.Slowdown
			}
			k++
		}
		return sum / batch, start
	}
	for _, ts := range series {
		if len(ts.R) != 300/batch {
			t.Fatalf("%s: %d batches, want %d", ts.Setting, len(ts.R), 300/batch)
		}
		for b := range ts.R {
			s1, start := mean("NS", ts.Workload.Load, b)
			sm, _ := mean(ts.Setting, ts.Workload.Load, b)
			want := (s1 - sm) / math.Min(s1, sm)
			if math.Abs(ts.R[b]-want) > 1e-9 || ts.Start[b] != start {
				t.Errorf("%s load %v batch %d: R %v at %v, want %v at %v", ts.Setting, ts.Workload.Load, b, ts.R[b], ts.Start[b], want, start)
			}
		}
	}
	if _, err := s.Transient("slowdown_mean", "", batch, nil); err == nil || !strings.Contains(err.Error(), "baseline") {
		t.Errorf("no baseline: %v", err)
	}
	if _, err := s.Transient("bsd_max", "NS", batch, nil); err == nil {
		t.Errorf("bsd_max accepted")
	}
	files, err := s.Plots(report.PlotOptions{Kind: report.KindTransient, Baseline: "NS", Batch: batch, Formats: []string{"svg"}, OutDir: t.TempDir()})
	if err != nil || len(files) != 2 {
		t.Fatalf("plots: %v, %v", files, err)
	}
	if !strings.Contains(filepath.Base(files[0]), "transient-slowdown_mean-b70-") {
		t.Errorf("file name %s", files[0])
	}
}
