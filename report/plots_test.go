package report_test

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/report"
)

// svgTexts returns the text of every <text> element of an SVG file.
func svgTexts(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	d := xml.NewDecoder(bytes.NewReader(data))
	inText := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inText = tok.Name.Local == "text"
		case xml.EndElement:
			inText = false
		case xml.CharData:
			if inText {
				out = append(out, strings.TrimSpace(string(tok)))
			}
		}
	}
}

// checkPNG fails unless path is a PNG image of a plausible size.
func checkPNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() < 400 || b.Dy() < 300 {
		t.Errorf("%s: %dx%d pixels, want at least 400x300", path, b.Dx(), b.Dy())
	}
}

const ctcSlug = "ctc-sp2-1996-3.1-cln-0+300-p430-trace"

var ss16Labels = []string{"VS Seq", "VS N", "VS W", "VS VW", "S Seq", "S N", "S W", "S VW",
	"L Seq", "L N", "L W", "L VW", "VL Seq", "VL N", "VL W", "VL VW"}

func TestSweep_Plots(t *testing.T) {
	s := mustLoad(t)
	tests := []struct {
		name string
		opts report.PlotOptions
		// files are the file names written, without the directory.
		files []string
		// texts must each be one <text> element of the first SVG file.
		texts []string
		// notTexts must not be.
		notTexts []string
	}{
		{
			name: "Bars",
			opts: report.PlotOptions{},
			files: []string{
				"bars-bsd_mean-ss16-" + ctcSlug + "-load1.png", "bars-bsd_mean-ss16-" + ctcSlug + "-load1.svg",
				"bars-bsd_mean-ss16-" + ctcSlug + "-load1.5.png", "bars-bsd_mean-ss16-" + ctcSlug + "-load1.5.svg",
			},
			texts: append([]string{
				"CTC-SP2-1996-3.1-cln, jobs 0+300, 430 processors, estimates trace, load 1",
				"mean bounded slowdown by ss16 category",
				"ss16 category (runtime, processors)", "mean bounded slowdown",
				"NS", "FCFS", "CONS",
			}, ss16Labels...),
		},
		{
			// Wait times span decades: a log axis. CONS failed at load
			// 1.5, so only two settings have bars there.
			name:     "BarsLogFiltered",
			opts:     report.PlotOptions{Metric: "wait_mean", Formats: []string{"svg"}, Where: []report.Filter{{Key: "load", Values: []string{"1.5"}}}},
			files:    []string{"bars-wait_mean-ss16-" + ctcSlug + "-load1.5.svg"},
			texts:    []string{"mean wait time (s) (log scale)", "mean wait time (s) by ss16 category, where load=1.5", "NS", "FCFS", "1000"},
			notTexts: []string{"CONS"},
		},
		{
			// Percent change against NS: NS itself is not drawn.
			name:     "BarsBaseline",
			opts:     report.PlotOptions{Formats: []string{"svg"}, Baseline: "NS", Where: []report.Filter{{Key: "load", Values: []string{"1"}}}},
			files:    []string{"bars-bsd_mean-ss16-" + ctcSlug + "-load1-vs-ns.svg"},
			texts:    []string{"% change of mean bounded slowdown vs NS", "FCFS", "CONS"},
			notTexts: []string{"NS", "mean bounded slowdown (log scale)"},
		},
		{
			name: "BarsEst2",
			opts: report.PlotOptions{Scheme: "est2", Formats: []string{"svg"}, Where: []report.Filter{{Key: "load", Values: []string{"1"}}}},
			files: []string{
				"bars-bsd_mean-est2-" + ctcSlug + "-load1-well.svg", "bars-bsd_mean-est2-" + ctcSlug + "-load1-bad.svg",
			},
			texts:    []string{"mean bounded slowdown by est2 category, well estimated jobs, where load=1", "well VS Seq", "well VL VW"},
			notTexts: []string{"bad VS Seq"},
		},
		{
			name: "Load",
			opts: report.PlotOptions{Kind: report.KindLoad, Scheme: "ss4"},
			files: []string{
				"load-bsd_mean-ss4-" + ctcSlug + "-sn.png", "load-bsd_mean-ss4-" + ctcSlug + "-sn.svg",
				"load-bsd_mean-ss4-" + ctcSlug + "-sw.png", "load-bsd_mean-ss4-" + ctcSlug + "-sw.svg",
				"load-bsd_mean-ss4-" + ctcSlug + "-ln.png", "load-bsd_mean-ss4-" + ctcSlug + "-ln.svg",
				"load-bsd_mean-ss4-" + ctcSlug + "-lw.png", "load-bsd_mean-ss4-" + ctcSlug + "-lw.svg",
				"load-bsd_mean-ss4-" + ctcSlug + "-all.png", "load-bsd_mean-ss4-" + ctcSlug + "-all.svg",
			},
			texts: []string{
				"CTC-SP2-1996-3.1-cln, jobs 0+300, 430 processors, estimates trace",
				"mean bounded slowdown against load factor, category SN (ss4)",
				"load factor", "mean bounded slowdown", "NS", "FCFS", "CONS",
			},
		},
		{
			name:  "Util",
			opts:  report.PlotOptions{Kind: report.KindUtil, Formats: []string{"svg", "png"}},
			files: []string{"util-" + ctcSlug + ".svg", "util-" + ctcSlug + ".png"},
			texts: []string{"utilization against load factor", "load factor", "utilization", "NS", "FCFS", "CONS"},
		},
		{
			name:     "UtilMetric",
			opts:     report.PlotOptions{Kind: report.KindUtilMetric, Scheme: "ss4", Metric: "turnaround_max", Formats: []string{"svg"}, Where: []report.Filter{{Key: "label", Values: []string{"NS"}}}},
			files:    []string{"util-metric-turnaround_max-ss4-" + ctcSlug + "-sn.svg", "util-metric-turnaround_max-ss4-" + ctcSlug + "-sw.svg", "util-metric-turnaround_max-ss4-" + ctcSlug + "-ln.svg", "util-metric-turnaround_max-ss4-" + ctcSlug + "-lw.svg", "util-metric-turnaround_max-ss4-" + ctcSlug + "-all.svg"},
			texts:    []string{"max turnaround time (s) against utilization, category SN (ss4), where label=NS", "utilization", "max turnaround time (s)", "NS"},
			notTexts: []string{"FCFS"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.opts.OutDir = dir
			got, err := s.Plots(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, p := range got {
				if filepath.Dir(p) != dir {
					t.Errorf("file %s is not in %s", p, dir)
				}
				names = append(names, filepath.Base(p))
			}
			if !slices.Equal(names, tt.files) {
				t.Fatalf("Plots() wrote\n%q\nwant\n%q", names, tt.files)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != len(tt.files) {
				t.Errorf("%d files in the output folder, want %d", len(entries), len(tt.files))
			}
			firstSVG := ""
			for _, p := range got {
				fi, err := os.Stat(p)
				if err != nil || fi.Size() < 1000 {
					t.Fatalf("%s: %v, %d bytes", p, err, fi.Size())
				}
				switch filepath.Ext(p) {
				case ".png":
					checkPNG(t, p)
				case ".svg":
					if firstSVG == "" {
						firstSVG = p
					}
				}
			}
			texts := svgTexts(t, firstSVG)
			for _, want := range tt.texts {
				if !slices.Contains(texts, want) {
					t.Errorf("%s: no text %q; texts: %q", filepath.Base(firstSVG), want, texts)
				}
			}
			for _, bad := range tt.notTexts {
				if slices.Contains(texts, bad) {
					t.Errorf("%s: text %q should not be there", filepath.Base(firstSVG), bad)
				}
			}
		})
	}
}

// TestSweep_Plots_Deterministic checks that the same options give the
// same bytes.
func TestSweep_Plots_Deterministic(t *testing.T) {
	s := mustLoad(t)
	var runs [2][]string
	for i := range runs {
		files, err := s.Plots(report.PlotOptions{Kind: report.KindLoad, Scheme: "ss4", OutDir: t.TempDir(), Where: []report.Filter{{Key: "label", Values: []string{"NS"}}}})
		if err != nil {
			t.Fatal(err)
		}
		runs[i] = files
	}
	for i := range runs[0] {
		a, _ := os.ReadFile(runs[0][i])
		b, _ := os.ReadFile(runs[1][i])
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs", filepath.Base(runs[0][i]))
		}
	}
}

func TestSweep_Plots_Errors(t *testing.T) {
	s := mustLoad(t)
	tests := []struct {
		name      string
		opts      report.PlotOptions
		withError string
	}{
		{"ErrKind", report.PlotOptions{Kind: "pie"}, `unknown figure kind "pie" (valid: bars, load, util, util-metric, transient, param, timeseries, gantt)`},
		{"ErrFormat", report.PlotOptions{Formats: []string{"pdf"}}, `unknown figure format "pdf" (valid: png, svg)`},
		{"ErrScheme", report.PlotOptions{Scheme: "weight10"}, "scheme weight10 is not in the summary"},
		{"ErrWhere", report.PlotOptions{Where: []report.Filter{{Key: "count", Values: []string{"5000"}}}}, "no results match count=5000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.OutDir = t.TempDir()
			files, err := s.Plots(tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.withError) {
				t.Errorf("Plots()=%v, want an error containing %q", err, tt.withError)
			}
			if len(files) != 0 {
				t.Errorf("Plots() wrote %q despite the error", files)
			}
		})
	}
}
