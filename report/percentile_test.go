package report_test

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

// TestTables_Percentile: a percentile metric collates from
// summary.parquet to the value computed from the task's jobs in
// jobs.parquet, and names itself in the tables.
func TestTables_Percentile(t *testing.T) {
	s := mustLoad(t)
	c, err := report.Collate(s.Summary, s.Tasks, report.CollateOptions{Metric: "bsd_p90", Scheme: "ss4"})
	if err != nil {
		t.Fatal(err)
	}
	// Task 0 is the first workload's first setting, one replication.
	var bsd []float64
	err = results.ReadJobSeries(filepath.Join(s.Dir, results.JobsFile), []string{"bsd"}, func(task int, cols [][]float64) error {
		if task == 0 {
			bsd = slices.Clone(cols[0])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(bsd)
	cells := c.Cells(0, 0)
	overall := cells[len(cells)-1]
	if want := metrics.Percentile(bsd, 0.9); overall.Value != want || want <= 1 {
		t.Errorf("overall bsd_p90 = %g, want %g from %d jobs", overall.Value, want, len(bsd))
	}
	var md bytes.Buffer
	if err := s.WriteMarkdown(&md, report.TableOptions{Metric: "wait_p99", Scheme: "ss4"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "99th percentile of wait time (s)") {
		t.Errorf("tables of wait_p99 do not name the metric:\n%s", md.String())
	}
}
