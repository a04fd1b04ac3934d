package report_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/runner/runnertest"
	"github.com/schedfarm/schedfarm/sim"
)

// seriesSpec runs EASY and SS (which suspends) with two suspension
// factors on 300 CTC jobs, with a one-hour time series.
const seriesSpec = `
name: report-series
workloads:
  - trace: ctc
    count: 300
    procs: 430
policies:
  - name: easy
    label: NS
  - name: ss
    label: SS
    params:
      suspension_factor: [2, 5]
outputs:
  timeseries: {step: 3600}
`

// mustSeriesSweep writes the outputs of seriesSpec and loads them.
func mustSeriesSweep(t *testing.T) *report.Sweep {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "out")
	if err := runnertest.Write(seriesSpec, "testdata", dir); err != nil {
		t.Fatal(err)
	}
	s, err := report.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSweep_Plots_Timeseries(t *testing.T) {
	s := mustSeriesSweep(t)
	out := t.TempDir()
	files, err := s.Plots(report.PlotOptions{Kind: report.KindTimeseries, OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	base := "timeseries-ctc-sp2-1996-3.1-cln-0+300-p430-trace-load1"
	if want := []string{filepath.Join(out, base+".png"), filepath.Join(out, base+".svg")}; !slices.Equal(files, want) {
		t.Fatalf("files %q, want %q", files, want)
	}
	checkPNG(t, files[0])
	texts := svgTexts(t, files[1])
	for _, want := range []string{
		"CTC-SP2-1996-3.1-cln, jobs 0+300, 430 processors, estimates trace, load 1",
		"queue length at each step's start, utilization over the step (step 1h)",
		"queue (waiting + suspended jobs)", "utilization", "simulated time (days)",
		"NS", "SS (suspension_factor=2)", "SS (suspension_factor=5)",
	} {
		if !slices.Contains(texts, want) {
			t.Errorf("%s has no text %q; it has %q", files[1], want, texts)
		}
	}

	// A window and a filter.
	files, err = s.Plots(report.PlotOptions{Kind: report.KindTimeseries, OutDir: out, Formats: []string{"svg"},
		From: 86400, To: 3 * 86400, Where: []report.Filter{{Key: "label", Values: []string{"SS"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(out, base+"-t1d-3d.svg"); len(files) != 1 || files[0] != want {
		t.Fatalf("files %q, want %q", files, want)
	}
	texts = svgTexts(t, files[0])
	if !slices.Contains(texts, "queue length at each step's start, utilization over the step (step 1h), time 1d to 3d, where label=SS") || slices.Contains(texts, "NS") {
		t.Errorf("windowed figure's texts %q", texts)
	}
}

func TestSweep_Plots_TimeseriesErrors(t *testing.T) {
	s := mustSeriesSweep(t)
	for _, tc := range []struct {
		name string
		s    *report.Sweep
		opts report.PlotOptions
		want string
	}{
		{"NoFile", mustLoad(t), report.PlotOptions{}, "no timeseries.parquet in"},
		{"Window", s, report.PlotOptions{From: 1000 * 86400}, "has no step in the window time from 1000d"},
		{"Where", s, report.PlotOptions{Where: []report.Filter{{Key: "label", Values: []string{"X"}}}}, "no task of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Kind, tc.opts.OutDir = report.KindTimeseries, t.TempDir()
			files, err := tc.s.Plots(tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) || len(files) > 0 {
				t.Errorf("Plots() = %q, %v, want an error containing %q", files, err, tc.want)
			}
		})
	}
}

func TestParseSimTime(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want sim.Time
		err  bool
	}{
		{"0", 0, false}, {"3600", 3600, false}, {"90s", 90, false}, {"30m", 1800, false},
		{"36h", 36 * 3600, false}, {"1.5d", 129600, false}, {" 2d ", 2 * 86400, false},
		{"", 0, true}, {"d", 0, true}, {"12x", 0, true}, {"-1h", 0, true}, {"1e30", 0, true}, {"NaN", 0, true},
	} {
		got, err := report.ParseSimTime(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParseSimTime(%q) = %d, %v; want %d (error %v)", tc.in, got, err, tc.want, tc.err)
		}
	}
}
