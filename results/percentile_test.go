package results_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/results"
)

// TestSummary_PercentilesDuckDB checks every percentile of
// summary.parquet against DuckDB's quantile_disc over jobs.parquet, per
// task, scheme and category (the overall row over all the task's jobs).
func TestSummary_PercentilesDuckDB(t *testing.T) {
	node := needInterop(t)
	r := MustRun(t, realSpec)
	dir := MustWrite(t, r, r.res)
	var checks []string
	for _, scheme := range r.spec.Categories {
		var q, cmp []string
		for _, col := range []string{"bsd", "wait", "turnaround"} {
			for _, p := range []string{"50", "90", "99"} {
				q = append(q, fmt.Sprintf("quantile_disc(%s, 0.%s) AS %s_p%s", col, p, col, p))
				cmp = append(cmp, fmt.Sprintf("s.%s_p%s <> q.%s_p%s", col, p, col, p))
			}
		}
		checks = append(checks, fmt.Sprintf(`WITH j AS (SELECT task_index, cat_%[1]s AS category, bsd, wait, turnaround FROM '%[2]s'),
q AS (SELECT task_index, category, %[3]s FROM j GROUP BY task_index, category
      UNION ALL SELECT task_index, 'all' AS category, %[3]s FROM j GROUP BY task_index)
SELECT count(*) AS checked, count(*) FILTER (WHERE %[4]s) AS mismatches,
       (SELECT count(*) FROM '%[5]s' WHERE scheme = '%[1]s' AND jobs > 0) AS rows
FROM '%[5]s' s JOIN q USING (task_index, category) WHERE s.scheme = '%[1]s';
`, scheme, filepath.Join(dir, results.JobsFile), strings.Join(q, ", "), strings.Join(cmp, " OR "), filepath.Join(dir, results.SummaryFile)))
	}
	sqlFile := filepath.Join(t.TempDir(), "percentiles.sql")
	if err := os.WriteFile(sqlFile, []byte(strings.Join(checks, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, filepath.Join(interopDir, "sql.mjs"), sqlFile).CombinedOutput()
	if err != nil {
		t.Fatalf("sql.mjs: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(r.spec.Categories) {
		t.Fatalf("sql.mjs printed %q, want one line per scheme", out)
	}
	for i, line := range lines {
		var got struct {
			First struct{ Checked, Mismatches, Rows int }
		}
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		f := got.First
		if f.Checked == 0 || f.Checked != f.Rows || f.Mismatches != 0 {
			t.Errorf("%s: %d summary rows with jobs, %d compared with quantile_disc, %d differ", r.spec.Categories[i], f.Rows, f.Checked, f.Mismatches)
		} else {
			t.Logf("%s: %d rows, all 9 percentiles equal to DuckDB's quantile_disc", r.spec.Categories[i], f.Checked)
		}
	}
}
