package report_test

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/report"
)

func mustLoad(t *testing.T) *report.Sweep {
	t.Helper()
	s, err := report.Load(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestLoad(t *testing.T) {
	s := mustLoad(t)
	if s.Name != "report-fixture" || s.Description != "three backfilling settings on 300 CTC jobs at two load factors" ||
		s.Metric != "bsd_mean" || s.Scheme != "ss16" {
		t.Errorf("Load()= name %q, description %q, metric %q, scheme %q", s.Name, s.Description, s.Metric, s.Scheme)
	}
	if len(s.Tasks) != 6 || len(s.Summary) != 5*(17+5+33) {
		t.Errorf("Load(): %d task rows, %d summary rows; want 6 and %d", len(s.Tasks), len(s.Summary), 5*(17+5+33))
	}
	if _, err := report.Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "is not a sweep's output directory") {
		t.Errorf("Load(empty dir)=%v, want an error saying it is no output directory", err)
	}
}

// TestSweep_WriteMarkdown checks the Markdown of `schedfarm table` against
// golden files in testdata/table/<case>.md.golden.
func TestSweep_WriteMarkdown(t *testing.T) {
	s := mustLoad(t)
	tests := []struct {
		name string
		opts report.TableOptions
	}{
		// The spec's defaults: mean bounded slowdown, one ss16 grid per
		// setting; the failed task is reported under its workload.
		{"grid", report.TableOptions{}},
		// Each setting's cells next to the baseline's with their ratio.
		{"baseline-ratio", report.TableOptions{Metric: "bsd_max", Baseline: "NS", Where: []report.Filter{{Key: "load", Values: []string{"1.5"}}}}},
		// Rows: ss4 categories and overall; columns: settings and
		// their change from the baseline in percent.
		{"wide", report.TableOptions{Scheme: "ss4", Layout: report.LayoutWide, Baseline: "easy", Compare: report.ComparePct}},
		// Lawson and Smirni's R of each setting against the baseline.
		{"wide-r", report.TableOptions{Metric: "slowdown_mean", Scheme: "ss4", Layout: report.LayoutWide, Baseline: "easy", Compare: report.CompareR}},
		// Filters on two keys, one with two values.
		{"where", report.TableOptions{Metric: "turnaround_mean", Scheme: "ss4", Layout: report.LayoutWide,
			Where: []report.Filter{{Key: "label", Values: []string{"NS", "FCFS"}}, {Key: "load", Values: []string{"1"}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := s.WriteMarkdown(&b, tt.opts); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join("table", tt.name+".md.golden"), b.String())
		})
	}
}

func TestSweep_WriteTables(t *testing.T) {
	s := mustLoad(t)
	prefix := filepath.Join(t.TempDir(), "sub", "fig")
	opts := report.TableOptions{Scheme: "ss4", Baseline: "NS"}
	files, err := s.WriteTables(prefix, opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{prefix + ".md", prefix + ".csv"}; !slices.Equal(files, want) {
		t.Fatalf("WriteTables()=%q, want %q", files, want)
	}
	md, _ := os.ReadFile(prefix + ".md")
	var b bytes.Buffer
	if err := s.WriteMarkdown(&b, opts); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(md, b.Bytes()) {
		t.Errorf("%s differs from WriteMarkdown's output", files[0])
	}
	data, _ := os.ReadFile(prefix + ".csv")
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// Two workloads x three settings x (4 categories + all), but CONS at
	// load 1.5 failed: one line saying so.
	if want := 1 + 5*5 + 1; len(recs) != want {
		t.Fatalf("%s: %d records, want %d", files[1], len(recs), want)
	}
	col := func(rec []string, name string) string { return rec[slices.Index(report.TablesCSVHeader, name)] }
	var failed, compared int
	for _, rec := range recs[1:] {
		if col(rec, "failed") != "0" {
			failed++
			if col(rec, "setting") != "CONS" || col(rec, "load") != "1.5" || col(rec, "category") != "" ||
				!strings.Contains(col(rec, "errors"), "simulate: invented failure ...") {
				t.Errorf("failure record %q", rec)
			}
		}
		if col(rec, "compared") != "" {
			compared++
			if col(rec, "baseline") != "NS" || col(rec, "compare") != "ratio" {
				t.Errorf("comparison record %q", rec)
			}
		}
	}
	// FCFS at two loads and CONS at one, 5 values each (no category is
	// empty under ss4 here).
	if failed != 1 || compared != 15 {
		t.Errorf("%d failure records and %d compared values, want 1 and 15", failed, compared)
	}
}

func TestSweep_Tables_Errors(t *testing.T) {
	s := mustLoad(t)
	tests := []struct {
		name      string
		opts      report.TableOptions
		withError string
	}{
		{"ErrScheme", report.TableOptions{Scheme: "len4"}, "scheme len4 is not in the summary (have: ss16, ss4, est2)"},
		{"ErrMetric", report.TableOptions{Metric: "bsd"}, `unknown metric "bsd"`},
		{"ErrBaseline", report.TableOptions{Baseline: "SS"}, `baseline: no setting is called "SS" (have: "NS", "FCFS", "CONS")`},
		{"ErrWhere", report.TableOptions{Where: []report.Filter{{Key: "trace", Values: []string{"sdsc"}}}}, "no results match trace=sdsc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Tables(tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.withError) {
				t.Errorf("Tables()=%v, want an error containing %q", err, tt.withError)
			}
		})
	}
}
