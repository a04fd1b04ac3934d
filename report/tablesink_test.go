package report

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sweep"
)

// sinkSpec is a sweep of 2,000 tasks: ten loads, two policies, 100
// replications, tables by ss16.
const sinkSpec = `
name: sink-test
workloads:
  - trace: kth
    count: 10
    load: [1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9]
policies:
  - name: fcfs
  - name: easy
replications: 100
categories: [ss16]
`

// fillSink adds a result to a new table sink of metric for every task of
// sinkSpec, each with 4 to 16 jobs spread over the ss16 grid (different
// for each task, some categories empty) and every tenth task failed, and
// returns the sink, the task rows added and the aggregates of each task
// (nil for a failed one).
func fillSink(t *testing.T, metric string) (*tableSink, []results.TaskRow, [][]metrics.Aggregate) {
	t.Helper()
	spec, err := sweep.Parse([]byte(sinkSpec), "testdata")
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := spec.Tasks()
	if err != nil {
		t.Fatal(err)
	}
	ts, err := newTableSinkOf(spec, len(tasks), "ss16", metric)
	if err != nil {
		t.Fatal(err)
	}
	cols := func(tk *sweep.Task) results.TaskCols {
		return results.TaskCols{TaskID: tk.ID, TaskIndex: tk.Index, Sweep: spec.Name, Trace: tk.Workload.Trace,
			Policy: tk.Policy, Label: tk.Name(), Params: tk.ParamString(), MachineProcs: 100,
			Load: tk.Workload.Load, LoadMode: tk.Workload.LoadMode, Estimates: tk.Workload.Estimates,
			Count: tk.Workload.Count, Replication: tk.Replication, Seed: tk.Seed}
	}
	all := make([][]metrics.Aggregate, len(tasks))
	rows := make([]results.TaskRow, len(tasks))
	for i := range tasks {
		tk := &tasks[i]
		if i%10 == 9 {
			rows[i] = results.TaskRow{TaskCols: cols(tk), Error: fmt.Sprintf("task %d: no machine", i)}
			ts.Add(rows[i], nil)
			continue
		}
		jobs := make([]metrics.Record, 4+i%13)
		for j := range jobs {
			run := sim.Time([]int{60, 1200, 7200, 40000}[j%4] + i%97)
			wait := sim.Time((i*31 + j*17) % 5000)
			jobs[j] = metrics.Record{JobID: int64(j + 1), Submit: sim.Time(j * 100), Runtime: run, Estimate: run,
				Procs: []int{1, 4, 16, 64}[j/4], Wait: wait, Start: sim.Time(j*100) + wait,
				End: sim.Time(j*100) + wait + run, Turnaround: wait + run,
				BSD: float64(wait+run) / float64(max(run, 10)), Slowdown: 1 + float64(wait)/float64(run)}
		}
		stats := metrics.RunStats{Jobs: len(jobs), Procs: 100, Utilization: float64(i%50) / 50, Makespan: sim.Time(50000 + i)}
		aggs := metrics.Summarize(ts.s, jobs)
		all[i] = aggs
		rows[i] = results.TaskRow{TaskCols: cols(tk), Stats: stats}
		ts.Add(rows[i], aggs)
	}
	return ts, rows, all
}

// TestTableSink_SameAsRows checks that the tables made from the rows the
// sink keeps (of each task its own columns and statistics, of each
// category with jobs its count and the metric's value) equal the tables
// made from every task row and summary row as a [results.TaskRow] and
// [results.SummaryRow] value, as read back from the files, under every
// metric; and that the sink's rows are not taken for another metric's.
func TestTableSink_SameAsRows(t *testing.T) {
	for _, m := range metrics.Metrics {
		ts, rows, all := fillSink(t, m.Name)
		st := ts.tables()
		if st.Summary != nil || st.Tasks != nil || st.kept == nil {
			t.Fatal("the sink's tables hold SummaryRow or TaskRow values")
		}
		plain := &SweepTables{Name: st.Name, Description: st.Description, Tasks: rows, Scheme: st.Scheme, Metric: m.Name}
		kept, empty := 0, 0
		for i, aggs := range all {
			for _, a := range aggs {
				plain.Summary = append(plain.Summary, results.SummaryRow{TaskCols: rows[i].TaskCols, Scheme: st.Scheme, Aggregate: a})
				if a.Count == 0 {
					empty++
				}
			}
		}
		for range st.rows() {
			kept++
		}
		if empty == 0 || kept != len(plain.Summary)-empty {
			t.Fatalf("the sink keeps %d of %d summary rows (%d of them empty), want the %d with jobs", kept, len(plain.Summary), empty, len(plain.Summary)-empty)
		}
		sameTables(t, st, plain)
	}
	ts, _, _ := fillSink(t, "bsd_mean")
	st := ts.tables()
	st.Metric = "wait_mean"
	if err := st.WriteMarkdown(io.Discard); err == nil || !strings.Contains(err.Error(), "kept for bsd_mean") {
		t.Errorf("tables of wait_mean from rows kept for bsd_mean: error %v, want one saying so", err)
	}
}

// sameTables checks that st and plain give the same tables.md and
// tables.csv.
func sameTables(t *testing.T, st, plain *SweepTables) {
	t.Helper()
	for _, f := range []struct {
		name  string
		write func(st *SweepTables, w io.Writer) error
	}{
		{results.TablesMD, (*SweepTables).WriteMarkdown},
		{results.TablesCSV, (*SweepTables).WriteCSV},
	} {
		var got, want bytes.Buffer
		if err := f.write(st, &got); err != nil {
			t.Fatal(err)
		}
		if err := f.write(plain, &want); err != nil {
			t.Fatal(err)
		}
		if got.Len() == 0 || got.String() != want.String() {
			t.Errorf("%s %s from the sink's rows (%d bytes) differs from the one of SummaryRow values (%d bytes)", st.Metric, f.name, got.Len(), want.Len())
		}
	}
}

// TestTableSink_Memory checks that writing tables.md and tables.csv of a
// sweep allocates at most maxBytesPerRow per summary row: the summary
// rows are neither made as [SummaryRow] values (384 bytes each) nor their
// aggregates (136 bytes each) copied by each of the four collations. A
// sweep of 10,000 tasks has 170,000 summary rows by ss16; making them
// whole while writing the tables was the coordinator's peak of memory.
// The code that did allocated 1,228 bytes per row here, this one 262.
func TestTableSink_Memory(t *testing.T) {
	const maxBytesPerRow = 400
	ts, _, all := fillSink(t, "bsd_mean")
	rows := 0
	for _, aggs := range all {
		rows += len(aggs)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	st := ts.tables()
	if err := st.WriteMarkdown(io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := st.WriteCSV(io.Discard); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	per := float64(after.TotalAlloc-before.TotalAlloc) / float64(rows)
	t.Logf("%d summary rows, %.0f bytes allocated per row", rows, per)
	if per > maxBytesPerRow {
		t.Errorf("writing the tables allocated %.0f bytes per summary row, want at most %d", per, maxBytesPerRow)
	}
}
