package report_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/internal/golden"
	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner/runnertest"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sweep"
)

// agg is a hand-made ss4 aggregate: count jobs with the given bounded
// slowdown mean and max (turnaround = 100 x bsd).
type agg struct {
	count     int
	mean, max float64
}

// task makes the summary rows of one task under ss4: SN, SW, LN, LW and
// all, from four category aggregates (the overall one is derived).
func task(id string, index int, tc results.TaskCols, cats [4]agg) []results.SummaryRow {
	tc.TaskID, tc.TaskIndex = id, index
	s, _ := metrics.LookupScheme("ss4")
	var rows []results.SummaryRow
	all := metrics.Aggregate{Category: metrics.Overall, Row: -1, Col: -1}
	var sum float64
	for k, c := range cats {
		a := metrics.Aggregate{Category: s.Labels()[k], Row: k / 2, Col: k % 2, Count: c.count}
		if c.count > 0 {
			a.BSD = metrics.Stat{Mean: c.mean, Max: c.max}
			a.Turnaround = metrics.Stat{Mean: 100 * c.mean, Max: 100 * c.max}
			all.BSD.Max = max(all.BSD.Max, c.max)
		}
		all.Count += c.count
		sum += float64(c.count) * c.mean
		rows = append(rows, results.SummaryRow{TaskCols: tc, Scheme: "ss4", Aggregate: a})
	}
	if all.Count > 0 {
		all.BSD.Mean = sum / float64(all.Count)
	}
	return append(rows, results.SummaryRow{TaskCols: tc, Scheme: "ss4", Aggregate: all})
}

// cols returns task columns of trace ctc at a load for a setting.
func cols(policy, label, params string, load float64, rep int, pv map[string]any) results.TaskCols {
	if pv == nil {
		pv = map[string]any{}
	}
	return results.TaskCols{
		Sweep: "hand", Trace: "ctc", Policy: policy, Label: label, Params: params, ParamValues: pv,
		MachineProcs: 430, Load: load, LoadMode: "arrival", Estimates: "accurate", Count: 100, Replication: rep,
	}
}

// handRows are two replications of NS and one of SS at load 1, and NS at
// load 1.2.
func handRows() []results.SummaryRow {
	var rows []results.SummaryRow
	rows = append(rows, task("t0", 0, cols("easy", "NS", "", 1, 0, nil), [4]agg{{2, 2, 3}, {1, 4, 4}, {0, 0, 0}, {1, 1, 1}})...)
	rows = append(rows, task("t1", 1, cols("easy", "NS", "", 1, 1, nil), [4]agg{{0, 0, 0}, {3, 2, 10}, {0, 0, 0}, {1, 3, 3}})...)
	ss := map[string]any{"suspension_factor": 2.0, "tunable": false}
	rows = append(rows, task("t2", 2, cols("ss", "SS", "suspension_factor=2,tunable=false", 1, 0, ss), [4]agg{{2, 1, 1}, {4, 6, 9}, {0, 0, 0}, {1, 1.5, 1.5}})...)
	rows = append(rows, task("t3", 3, cols("easy", "NS", "", 1.2, 0, nil), [4]agg{{2, 5, 6}, {1, 8, 8}, {1, 1, 1}, {0, 0, 0}})...)
	return rows
}

func TestCollate_Replications(t *testing.T) {
	tests := []struct {
		metric string
		// want are NS's cells at load 1: SN, SW, LN, LW, all.
		want     [5]float64
		wantJobs [5]float64
	}{
		// Means average the replications where the category has jobs:
		// SN only in replication 0, LN in none.
		{"bsd_mean", [5]float64{2, 3, math.NaN(), 2, 2.25}, [5]float64{1, 2, 0, 1, 4}},
		// Maxima take the maximum.
		{"bsd_max", [5]float64{3, 10, math.NaN(), 3, 10}, [5]float64{1, 2, 0, 1, 4}},
		{"turnaround_mean", [5]float64{200, 300, math.NaN(), 200, 0}, [5]float64{1, 2, 0, 1, 4}},
		// Counts and shares average every replication, empty ones too.
		{"count", [5]float64{1, 2, 0, 1, 4}, [5]float64{1, 2, 0, 1, 4}},
		{"share", [5]float64{25, 50, 0, 25, 100}, [5]float64{1, 2, 0, 1, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.metric, func(t *testing.T) {
			c, err := report.Collate(handRows(), nil, report.CollateOptions{Metric: tt.metric})
			if err != nil {
				t.Fatal(err)
			}
			if c.Scheme.Name != "ss4" || len(c.Workloads) != 2 || len(c.Settings) != 2 {
				t.Fatalf("Collate: scheme %s, %d workloads, %d settings; want ss4, 2, 2", c.Scheme.Name, len(c.Workloads), len(c.Settings))
			}
			if got := c.Replications(0, 0); got != 2 {
				t.Errorf("Replications(NS, load 1)=%d, want 2", got)
			}
			cells := c.Cells(0, 0)
			for k, want := range tt.want {
				got := cells[k].Value
				if tt.metric == "turnaround_mean" && k == 4 {
					continue // the overall turnaround is not made by task()
				}
				if !(got == want || math.IsNaN(got) && math.IsNaN(want) || math.Abs(got-want) < 1e-12) {
					t.Errorf("cell %s: %s=%v, want %v", cells[k].Category, tt.metric, got, want)
				}
				if cells[k].Jobs != tt.wantJobs[k] {
					t.Errorf("cell %s: Jobs=%v, want %v", cells[k].Category, cells[k].Jobs, tt.wantJobs[k])
				}
			}
			if c.Cells(1, 1) != nil {
				t.Errorf("Cells(load 1.2, SS) = %v, want nil (no such task)", c.Cells(1, 1))
			}
		})
	}
}

func TestCollate_Errors(t *testing.T) {
	tests := []struct {
		name      string
		opts      report.CollateOptions
		withError string
	}{
		{"ErrUnknownMetric", report.CollateOptions{Metric: "bsd"}, `unknown metric "bsd"`},
		{"ErrUnknownScheme", report.CollateOptions{Scheme: "ss5"}, `unknown category scheme "ss5"`},
		{"ErrSchemeNotInSummary", report.CollateOptions{Scheme: "ss16"}, "scheme ss16 is not in the summary (have: ss4)"},
		{"ErrUnknownFilterKey", report.CollateOptions{Where: []report.Filter{{Key: "sf", Values: []string{"2"}}}},
			`unknown filter key "sf" (valid: trace, policy, label, estimates, load, load_mode, skip, count, replication, procs, sigma, range_factor, suspension_factor, tunable)`},
		{"ErrNoMatch", report.CollateOptions{Where: []report.Filter{{Key: "load", Values: []string{"2"}}, {Key: "label", Values: []string{"NS"}}}},
			"no results match load=2 and label=NS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := report.Collate(handRows(), nil, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.withError) {
				t.Errorf("Collate()=%v, want an error containing %q", err, tt.withError)
			}
		})
	}
}

func TestParseFilters(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		fs, err := report.ParseFilters([]string{"label=NS", "load=1.0", "label=SS", "param_tunable=false"})
		if err != nil {
			t.Fatal(err)
		}
		want := []report.Filter{{Key: "label", Values: []string{"NS", "SS"}}, {Key: "load", Values: []string{"1.0"}}, {Key: "tunable", Values: []string{"false"}}}
		if !slicesEqualFilters(fs, want) {
			t.Errorf("ParseFilters()=%v, want %v", fs, want)
		}
		ns := cols("easy", "NS", "", 1, 0, nil)
		ss := cols("ss", "SS", "", 1, 0, map[string]any{"tunable": false})
		ssOther := cols("ss", "SS", "", 1.2, 0, map[string]any{"tunable": false})
		ctcFile := cols("easy", "NS", "", 1, 0, nil)
		ctcFile.Trace = "CTC-SP2-1996-3.1-cln"
		for _, tc := range []struct {
			f    report.Filter
			row  results.TaskCols
			want bool
		}{
			{fs[0], ns, true}, {fs[0], ss, true},
			{fs[1], ns, true}, {fs[1], ssOther, false}, // 1.0 matches load 1
			{fs[2], ss, true}, {fs[2], ns, false}, // NS has no tunable parameter
			{report.Filter{Key: "procs", Values: []string{"430"}}, ns, true},
			{report.Filter{Key: "trace", Values: []string{"sdsc"}}, ns, false},
			{report.Filter{Key: "trace", Values: []string{"ctc"}}, ns, true},
			{report.Filter{Key: "trace", Values: []string{"ctc"}}, ctcFile, true},
			{report.Filter{Key: "trace", Values: []string{"CTC-SP2-1996-3.1-cln"}}, ctcFile, true},
		} {
			if got := tc.f.Match(&tc.row); got != tc.want {
				t.Errorf("%v.Match(%s load %v)=%v, want %v", tc.f, tc.row.Label, tc.row.Load, got, tc.want)
			}
		}
	})
	t.Run("ErrSyntax", func(t *testing.T) {
		for _, arg := range []string{"label", "=NS", "load=high"} {
			if _, err := report.ParseFilters([]string{arg}); err == nil {
				t.Errorf("ParseFilters(%q) gave no error", arg)
			}
		}
	})
}

func slicesEqualFilters(a, b []report.Filter) bool {
	return slices.EqualFunc(a, b, func(x, y report.Filter) bool { return x.Key == y.Key && slices.Equal(x.Values, y.Values) })
}

func TestCollate_SettingNames(t *testing.T) {
	var rows []results.SummaryRow
	for i, sf := range []string{"1.5", "2"} {
		params := "overhead=false,suspension_factor=" + sf
		rows = append(rows, task("s"+sf, i, cols("ss", "SS", params, 1, 0, nil), [4]agg{{1, 2, 2}})...)
	}
	rows = append(rows, task("e", 2, cols("easy", "easy", "", 1, 0, nil), [4]agg{{1, 2, 2}})...)
	c, err := report.Collate(rows, nil, report.CollateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range c.Settings {
		names = append(names, s.Name)
	}
	if want := []string{"SS (suspension_factor=1.5)", "SS (suspension_factor=2)", "easy"}; !slices.Equal(names, want) {
		t.Errorf("setting names %q, want %q", names, want)
	}
	for _, tt := range []struct {
		name      string
		want      int
		withError string
	}{
		{"SS (suspension_factor=2)", 1, ""},
		{"easy", 2, ""},
		{"SS", 0, `"SS" matches several settings: "SS (suspension_factor=1.5)", "SS (suspension_factor=2)"`},
		{"NS", 0, `no setting is called "NS" (have: "SS (suspension_factor=1.5)", "SS (suspension_factor=2)", "easy")`},
	} {
		got, err := c.FindSetting(tt.name)
		if tt.withError != "" {
			if err == nil || err.Error() != tt.withError {
				t.Errorf("FindSetting(%q)=%v, want error %q", tt.name, err, tt.withError)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("FindSetting(%q)=%d, %v, want %d", tt.name, got, err, tt.want)
		}
	}
}

// render returns the Markdown of tables.
func render(t *testing.T, tables []report.Table) string {
	t.Helper()
	var b bytes.Buffer
	if err := report.WriteMarkdown(&b, tables, 2); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestBuildTables_Layouts(t *testing.T) {
	load1 := report.Filter{Key: "load", Values: []string{"1"}}
	tests := []struct {
		name string
		opts report.TableOptions
		want string
	}{
		{"Grid", report.TableOptions{Where: []report.Filter{load1}}, `## ctc, jobs 0+100, 430 processors, estimates accurate, load 1

### NS

| runtime \ processors | N | W |
|---|---:|---:|
| S | 2.00 | 3.00 ± 12.71 |
| L | - | 2.00 ± 12.71 |

Overall: 2.25 ± 0.00 over 4 jobs (mean of 2 replications).
± is the 95% confidence half-width of the mean across replications, Student's t (docs/statistics.md).

### SS

| runtime \ processors | N | W |
|---|---:|---:|
| S | 1.00 | 6.00 |
| L | - | 1.50 |

Overall: 3.93 over 7 jobs.

`},
		{"GridBaselinePct", report.TableOptions{Metric: "bsd_max", Where: []report.Filter{load1}, Baseline: "NS", Compare: report.ComparePct}, `## ctc, jobs 0+100, 430 processors, estimates accurate, load 1

### NS

| runtime \ processors | N | W |
|---|---:|---:|
| S | 3.00 | 10.00 |
| L | - | 3.00 |

Overall: 10.00 over 4 jobs (maximum of 2 replications).

### SS vs NS (%)

| runtime \ processors | N | W |
|---|---:|---:|
| S | 1.00 / 3.00 (-66.7%) | 9.00 / 10.00 (-10.0%) |
| L | - / - (-) | 1.50 / 3.00 (-50.0%) |

Overall: 9.00 / 10.00 (-10.0%) over 7 jobs.
Cells: SS / NS (change in percent).

`},
		{"WideBaselineRatio", report.TableOptions{Baseline: "SS", Layout: report.LayoutWide}, `## ctc, jobs 0+100, 430 processors, estimates accurate, load 1

| category | jobs | SS | NS | NS / SS |
|---|---:|---:|---:|---:|
| SN | 2 | 1.00 | 2.00 | 2.00 |
| SW | 4 | 6.00 | 3.00 ± 12.71 | 0.50 |
| LN | 0 | - | - | - |
| LW | 1 | 1.50 | 2.00 ± 12.71 | 1.33 |
| overall | 7 | 3.93 | 2.25 ± 0.00 | 0.57 |

Means over replications: NS 2.
± is the 95% confidence half-width of the mean across replications, Student's t (docs/statistics.md).

## ctc, jobs 0+100, 430 processors, estimates accurate, load 1.2

| category | jobs | NS |
|---|---:|---:|
| SN | 2 | 5.00 |
| SW | 1 | 8.00 |
| LN | 1 | 1.00 |
| LW | 0 | - |
| overall | 4 | 4.75 |

`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tables, err := report.BuildTables(handRows(), nil, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := render(t, tables); got != tt.want {
				t.Errorf("BuildTables() Markdown:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestBuildTables_Errors(t *testing.T) {
	tests := []struct {
		name      string
		opts      report.TableOptions
		withError string
	}{
		{"ErrLayout", report.TableOptions{Layout: "tall"}, `unknown layout "tall" (valid: grid, wide)`},
		{"ErrCompare", report.TableOptions{Baseline: "NS", Compare: "diff"}, `unknown comparison "diff" (valid: ratio, pct, r)`},
		{"ErrCompareWithoutBaseline", report.TableOptions{Compare: "pct"}, "compare pct needs a baseline"},
		{"ErrBaseline", report.TableOptions{Baseline: "IS"}, `baseline: no setting is called "IS" (have: "NS", "SS")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := report.BuildTables(handRows(), nil, tt.opts)
			if err == nil || err.Error() != tt.withError {
				t.Errorf("BuildTables()=%v, want error %q", err, tt.withError)
			}
		})
	}
}

// realSpec is a small real sweep: 300 CTC jobs, three policies, one with a
// parameter grid, two category schemes.
const realSpec = runnertest.SmallSpec

// TestSweepTables_FromFiles checks that tables.md and tables.csv, made
// when a sweep ends, are what the rows read back from its Parquet files
// give: the tables of a run and of `schedfarm table` are one code.
func TestSweepTables_FromFiles(t *testing.T) {
	spec, ts := mustParseSpec(t, realSpec)
	res, err := runnertest.Run(context.Background(), spec, ts)
	if err != nil {
		t.Fatal(err)
	}
	res[3] = &results.TaskResult{TaskID: ts[3].ID, Index: 3, Err: "build policy: bad parameter value\nsecond line", Worker: "w9"}
	dir := filepath.Join(t.TempDir(), "out")
	if err := results.WriteOutputs(dir, spec, ts, res, "test-1.0", results.WithTables(report.Tables)); err != nil {
		t.Fatal(err)
	}
	summary, err := results.ReadSummary(filepath.Join(dir, results.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := results.ReadTasks(filepath.Join(dir, results.TasksFile))
	if err != nil {
		t.Fatal(err)
	}
	st := &report.SweepTables{Name: spec.Name, Description: spec.Description, Summary: summary, Tasks: tasks,
		Metric: sweep.DefaultTableMetric, Scheme: "ss16"}
	for _, f := range []struct {
		name  string
		write func(*bytes.Buffer) error
	}{
		{results.TablesMD, func(b *bytes.Buffer) error { return st.WriteMarkdown(b) }},
		{results.TablesCSV, func(b *bytes.Buffer) error { return st.WriteCSV(b) }},
	} {
		var got bytes.Buffer
		if err := f.write(&got); err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(dir, f.name))
		if err != nil {
			t.Fatal(err)
		}
		if d := golden.Diff(got.String(), string(want)); d != "" {
			t.Errorf("%s from the Parquet files differs from the one the run wrote at %s", f.name, d)
		}
	}
	// The ss settings share no label, so each keeps its own name; the
	// failed task is reported.
	md, _ := os.ReadFile(filepath.Join(dir, results.TablesMD))
	for _, want := range []string{"## Comparison", "| category | jobs | fcfs | easy | ss (suspension_factor=2) | ss (suspension_factor=5) |",
		"task 3 (replication 0) failed: build policy: bad parameter value ..."} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("tables.md lacks %q", want)
		}
	}
}

// TestMetrics_SpecMetrics checks that every metric a spec may name for its
// tables is one of the metrics tables can show.
func TestMetrics_SpecMetrics(t *testing.T) {
	for _, name := range sweep.TableMetrics() {
		if _, err := metrics.LookupMetric(name); err != nil {
			t.Errorf("spec metric %q: %v", name, err)
		}
	}
}

// ExampleBuildTables lays out hand-made summary rows of two settings as
// one wide table comparing them with the baseline NS.
func ExampleBuildTables() {
	tc := func(policy, label string) results.TaskCols {
		return results.TaskCols{Trace: "ctc", Policy: policy, Label: label, MachineProcs: 430, Load: 1,
			LoadMode: "arrival", Estimates: "accurate", Count: 5000}
	}
	var rows []results.SummaryRow
	rows = append(rows, task("a", 0, tc("easy", "NS"), [4]agg{{2255, 4.2, 90}, {590, 12.1, 700}, {1515, 1.1, 3}, {640, 1.3, 4}})...)
	rows = append(rows, task("b", 1, tc("ss", "SS SF=2"), [4]agg{{2255, 1.2, 9}, {590, 1.6, 12}, {1515, 1.2, 6}, {640, 1.4, 7}})...)
	tables, err := report.BuildTables(rows, nil, report.TableOptions{Layout: report.LayoutWide, Baseline: "NS"})
	if err != nil {
		fmt.Println(err)
		return
	}
	report.WriteMarkdown(os.Stdout, tables, 2)
	// Output:
	// ## ctc, jobs 0+5000, 430 processors, estimates accurate, load 1
	//
	// | category | jobs | NS | SS SF=2 | SS SF=2 / NS |
	// |---|---:|---:|---:|---:|
	// | SN | 2255 | 4.20 | 1.20 | 0.29 |
	// | SW | 590 | 12.10 | 1.60 | 0.13 |
	// | LN | 1515 | 1.10 | 1.20 | 1.09 |
	// | LW | 640 | 1.30 | 1.40 | 1.08 |
	// | overall | 5000 | 3.82 | 1.27 | 0.33 |
}

// TestWriteOutputs_AllFailed checks that a sweep whose every task failed
// still gets tables saying so.
func TestWriteOutputs_AllFailed(t *testing.T) {
	spec, tasks := mustParseSpec(t, tablesSpec)
	var res []*results.TaskResult
	for i := range tasks {
		res = append(res, &results.TaskResult{TaskID: tasks[i].ID, Index: i, Err: "build policy: no"})
	}
	dir := t.TempDir()
	if err := results.WriteOutputs(dir, spec, tasks, res, "test", results.WithTables(report.Tables)); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, results.TablesMD))
	if n := bytes.Count(md, []byte("failed: build policy: no")); n != 2*len(tasks) {
		t.Errorf("tables.md names the failure %d times, want %d (overview and per setting):\n%s", n, 2*len(tasks), md)
	}
	data, _ := os.ReadFile(filepath.Join(dir, results.TablesCSV))
	if n := bytes.Count(data, []byte("\n")); n != 1+len(tasks) {
		t.Errorf("tables.csv has %d lines, want a header and one per failed task:\n%s", n, data)
	}
}

// TestBuildTables_Intervals: three replications of two settings, given
// in opposite replication orders; intervals and paired differences
// computed by hand (t(0.975, 2) = 4.3027): SN A 2, 4, 6 and B 1, 2, 3;
// SW A 5, 6, 7 and B 1, 2, 3.
func TestBuildTables_Intervals(t *testing.T) {
	var rows []results.SummaryRow
	a := [3][2]float64{{2, 5}, {4, 6}, {6, 7}}
	b := [3][2]float64{{1, 1}, {2, 2}, {3, 3}}
	for r := range 3 {
		rows = append(rows, task(fmt.Sprint("a", r), r, cols("easy", "A", "", 1, r, nil), [4]agg{{1, a[r][0], a[r][0]}, {1, a[r][1], a[r][1]}})...)
	}
	for r := 2; r >= 0; r-- { // pairs go by replication number, not order
		rows = append(rows, task(fmt.Sprint("b", r), 5-r, cols("easy", "B", "", 1, r, nil), [4]agg{{1, b[r][0], b[r][0]}, {1, b[r][1], b[r][1]}})...)
	}
	tables, err := report.BuildTables(rows, nil, report.TableOptions{Baseline: "B"})
	if err != nil {
		t.Fatal(err)
	}
	got := render(t, tables)
	for _, want := range []string{
		// B alone: means with their half-widths, 2.4841 = 4.3027 x 1 / sqrt(3).
		"| S | 2.00 ± 2.48 | 2.00 ± 2.48 |",
		// A against B: SN diff 1, 2, 3 (2 ± 2.48, 0 inside); SW diff 4, 4, 4 (excludes 0).
		"| S | 4.00 ± 4.97 / 2.00 ± 2.48 (2.00; diff +2.00 ± 2.48) | 6.00 ± 2.48 / 2.00 ± 2.48 (3.00; diff +4.00 ± 0.00 *) |",
		// Overall A 3.5, 5, 6.5 and B 1, 2, 3: diff 2.5, 3, 3.5.
		"Overall: 5.00 ± 3.73 / 2.00 ± 2.48 (2.50; diff +3.00 ± 1.24 *) over 2 jobs (mean of 3 replications).",
		"diff is the paired difference from B (setting - baseline, replication by replication) with its half-width, * where the interval excludes 0",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("tables lack %q:\n%s", want, got)
		}
	}
	var csv bytes.Buffer
	if err := report.WriteTablesCSV(&csv, tables); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		",A,easy,A,,ss4,SN,0,0,3,1,bsd_mean,4,B,2,ratio,2,0,,4.968",
		",A,easy,A,,ss4,SW,0,1,3,1,bsd_mean,6,B,2,ratio,3,0,,2.484",
	} {
		if !strings.Contains(csv.String(), want) {
			t.Errorf("tables.csv lacks %q:\n%s", want, csv.String())
		}
	}
	if !strings.Contains(csv.String(), ",4,0\n") { // SW: diff 4, half-width 0
		t.Errorf("tables.csv lacks SW's diff 4 with half-width 0:\n%s", csv.String())
	}
	// With one replication nothing changes: no ± and no diff.
	one, err := report.BuildTables(rows, nil, report.TableOptions{Baseline: "B", Where: []report.Filter{{Key: "replication", Values: []string{"0"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := render(t, one); strings.Contains(got, "±") || strings.Contains(got, "diff") {
		t.Errorf("one replication shows intervals:\n%s", got)
	}
}
