package report_test

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/runner/runnertest"
)

func TestTQuantile(t *testing.T) {
	// Student's t 0.975 quantiles from the standard tables.
	for df, want := range map[int]float64{1: 12.706205, 2: 4.302653, 4: 2.776445, 5: 2.570582, 10: 2.228139, 30: 2.042272, 100: 1.983972} {
		if got := report.TQuantile(0.975, df); math.Abs(got-want) > 1e-6 {
			t.Errorf("TQuantile(0.975, %d) = %.7f, want %.6f", df, got, want)
		}
	}
	if got := report.TQuantile(0.025, 4); math.Abs(got+2.776445) > 1e-6 {
		t.Errorf("TQuantile(0.025, 4) = %g", got)
	}
}

func TestMeanInterval(t *testing.T) {
	// 1..5: mean 3, s = sqrt(2.5), half = 2.776445 s / sqrt(5) = 1.963243.
	iv := report.MeanInterval([]float64{1, 2, 3, 4, 5})
	if iv.N != 5 || iv.Mean != 3 || math.Abs(iv.Half-1.963243) > 1e-6 || !iv.Excludes0() {
		t.Errorf("MeanInterval(1..5) = %+v", iv)
	}
	if iv := report.MeanInterval([]float64{7, math.NaN()}); iv.N != 1 || iv.Mean != 7 || !math.IsNaN(iv.Half) || iv.Excludes0() {
		t.Errorf("one value: %+v", iv)
	}
	// Differences 2, 3, 3: mean 8/3, s = 0.57735, half = 4.302653 s /
	// sqrt(3) = 1.434218; the pair without a baseline value is left out.
	d := report.PairedDifference([]float64{3, 5, 7, 9}, []float64{1, 2, 4, math.NaN()})
	if d.N != 3 || math.Abs(d.Mean-8.0/3) > 1e-12 || math.Abs(d.Half-1.434218) > 1e-6 || !d.Excludes0() {
		t.Errorf("PairedDifference = %+v", d)
	}
	if d := report.PairedDifference([]float64{1, 3}, []float64{2, 2}); d.Excludes0() {
		t.Errorf("differences -1, 1 exclude 0: %+v", d)
	}
}

// repSpec has three replications that differ (duplicated jobs drawn
// from each replication's seed).
const repSpec = `
name: report-reps
workloads:
  - trace: ctc
    count: 300
    procs: 430
    load_mode: duplicate
    load: [1.2, 1.5]
policies:
  - name: easy
  - name: fcfs
replications: 3
categories: [ss4]
`

func TestSweep_WriteConfidence(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := runnertest.Write(repSpec, "testdata", dir); err != nil {
		t.Fatal(err)
	}
	s, err := report.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	// The overall bsd_mean of each replication of easy at load 1.2, and
	// of fcfs, from summary.parquet.
	per := map[string][]float64{}
	for _, r := range s.Summary {
		if r.Row < 0 && r.Load == 1.2 {
			per[r.Policy] = append(per[r.Policy], r.BSD.Mean)
		}
	}
	if len(per["easy"]) != 3 || per["easy"][0] == per["easy"][1] {
		t.Fatalf("replications of easy: %v", per["easy"])
	}
	var b bytes.Buffer
	if err := s.WriteConfidence(&b, report.TableOptions{Metric: "bsd_mean", Scheme: "ss4"}); err != nil {
		t.Fatal(err)
	}
	iv := report.MeanInterval(per["easy"])
	if want := fmt.Sprintf("| all | %.2f ± %.2f |", iv.Mean, iv.Half); !strings.Contains(b.String(), want) {
		t.Errorf("no %q in\n%s", want, b.String())
	}
	b.Reset()
	if err := s.WriteConfidence(&b, report.TableOptions{Metric: "bsd_mean", Scheme: "ss4", Baseline: "easy"}); err != nil {
		t.Fatal(err)
	}
	d := report.PairedDifference(per["fcfs"], per["easy"])
	want := fmt.Sprintf("| all | %.2f ± %.2f", d.Mean, d.Half)
	if !strings.Contains(b.String(), want) || !strings.Contains(b.String(), "Paired differences from easy") {
		t.Errorf("no %q in\n%s", want, b.String())
	}
	if err := s.WriteConfidence(&b, report.TableOptions{Metric: "bsd_max", Scheme: "ss4"}); err == nil || !strings.Contains(err.Error(), "is a maximum") {
		t.Errorf("bsd_max: %v, want an error", err)
	}

	// Load and util figures get error bars and say so.
	for _, kind := range []string{report.KindLoad, report.KindUtil} {
		files, err := s.Plots(report.PlotOptions{Kind: kind, Scheme: "ss4", Formats: []string{"svg", "png"}, OutDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		texts := svgTexts(t, files[0])
		if !slices.Contains(texts, "error bars: 95% confidence interval of the mean across replications (Student's t)") {
			t.Errorf("%s: no error bar note in %q", files[0], texts)
		}
		checkPNG(t, files[1])
	}
}
