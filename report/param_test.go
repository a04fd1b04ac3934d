package report_test

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner/runnertest"
)

const qopsSpec = `
name: report-qops
workloads:
  - trace: ctc
    count: 400
    skip: 3000
    procs: 430
    estimates: accurate
    load_mode: duplicate
    load: [1, 1.6]
policies:
  - name: qops
    label: QoPS
    params:
      stringency: 0.5
      tolerance: [1, 4]
      slack: [1, 2]
categories: [ss16]
`

// TestRecipe_Panels draws param panels from a real qops sweep and checks
// the table's numbers against summary.parquet's overall rows.
func TestRecipe_Panels(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sweep")
	if err := runnertest.Write(qopsSpec, "testdata", out); err != nil {
		t.Fatal(err)
	}
	panels := []report.Panel{
		{Name: "acc", Caption: "acceptance against TF per load", Plot: report.PlotOptions{Kind: report.KindParam, Metric: "acceptance", Scheme: "ss16",
			X: "tolerance", Series: "load", Where: []report.Filter{{Key: "slack", Values: []string{"1"}}}}},
		{Name: "qos", Caption: "QoS charge against SF per TF", Plot: report.PlotOptions{Kind: report.KindParam, Metric: "qos_charge", Scheme: "ss16",
			X: "slack", Series: "tolerance", Where: []report.Filter{{Key: "load", Values: []string{"1.6"}}}}},
	}
	dir := t.TempDir()
	s, err := report.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, p := range panels {
		fs, err := s.WritePanel(p, dir)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	if len(files) != 8 {
		t.Fatalf("Make wrote %v, want 2 tables and 2 figures in 2 formats each", files)
	}
	sum, err := results.ReadSummary(filepath.Join(out, results.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{} // "load tolerance slack" -> acceptance %
	for _, s := range sum {
		if s.Category == "all" {
			k := strconv.FormatFloat(s.Load, 'g', -1, 64) + " " + s.Params
			want[k] = 100 * float64(s.Aggregate.Admitted) / float64(s.Aggregate.Count)
		}
	}
	f, err := os.Open(filepath.Join(dir, "tables", "acc.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 5 || strings.Join(rows[0], ",") != "tolerance,load,acceptance" {
		t.Fatalf("acc.csv = %v, want a header and 4 rows", rows)
	}
	checked := 0
	for _, row := range rows[1:] {
		got, _ := strconv.ParseFloat(row[2], 64)
		for k, v := range want {
			if strings.HasPrefix(k, row[1]+" ") && strings.Contains(k, "tolerance="+row[0]+",") && strings.Contains(k, "slack=1,") {
				if got != v {
					t.Errorf("acc.csv load %s TF %s = %v, summary says %v", row[1], row[0], got, v)
				}
				checked++
			}
		}
	}
	if checked != 4 {
		t.Errorf("checked %d cells against the summary, want 4", checked)
	}
	bad := report.Panel{Name: "x", Caption: "x", Plot: report.PlotOptions{Kind: report.KindParam,
		Metric: "acceptance", Scheme: "ss16", X: "tolerance", Series: "slack"}}
	if _, err := s.WritePanel(bad, t.TempDir()); err == nil || !strings.Contains(err.Error(), "selects 2 workloads") {
		t.Errorf("a panel over two loads: err = %v, want one asking for a narrower where", err)
	}
}
