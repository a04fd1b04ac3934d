package report_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/internal/golden"
	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sweep"
)

// tablesSpec runs on the tiny trace; the results below are hand-made.
const tablesSpec = `
name: tables
description: hand-made results | for the table layout
workloads:
  - trace: tiny.swf
    count: 6
    load: [1, 2]
    load_mode: duplicate
policies:
  - name: fcfs
  - name: easy
    label: EASY backfilling
categories: [ss4, ss16]
outputs:
  tables: {metric: bsd_mean, scheme: ss4}
`

// job makes a record that waited wait seconds.
func job(id int64, submit, wait, runtime sim.Time, procs int) metrics.Record {
	end := submit + wait + runtime
	return metrics.Record{
		JobID: id, Submit: submit, Start: submit + wait, End: end, Wait: wait, Runtime: runtime,
		Estimate: runtime, Procs: procs, Turnaround: end - submit,
		BSD: metrics.BoundedSlowdown(wait, runtime), Slowdown: 1 + float64(wait)/float64(runtime),
	}
}

// handMade returns one result per task: task 1 failed, the others hold
// the same six jobs with waits that grow with the task index.
func handMade(tasks []sweep.Task) []*results.TaskResult {
	var out []*results.TaskResult
	for i := range tasks {
		if i == 1 {
			out = append(out, &results.TaskResult{TaskID: tasks[i].ID, Index: i, Err: "simulate: policy error"})
			continue
		}
		w := sim.Time(i + 1)
		recs := []metrics.Record{
			job(1, 0, 0, 100, 2),
			job(2, 10, 5*w, 50, 4),
			job(3, 20, 10*w, 7000, 8),
			job(4, 30, 3*w, 5, 1),
			job(5, 40, 100*w, 4000, 2),
			job(6, 60, 0, 3000, 16),
		}
		out = append(out, &results.TaskResult{
			TaskID: tasks[i].ID, Index: i, Jobs: recs, Stats: metrics.Stats(16, recs),
			Drops: results.Drops{Runtime: 1},
		})
	}
	return out
}

func TestWriteOutputs_TablesGolden(t *testing.T) {
	spec, tasks := mustParseSpec(t, tablesSpec)
	dir := t.TempDir()
	if err := results.WriteOutputs(dir, spec, tasks, handMade(tasks), "golden", results.WithTables(report.Tables)); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{results.TablesMD, results.TablesCSV} {
		got, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		// Task IDs change with the simulator version; the layout does not.
		for _, tk := range tasks {
			got = []byte(strings.ReplaceAll(string(got), tk.ID, fmt.Sprintf("task-id-%d", tk.Index)))
		}
		golden.Check(t, filepath.Join("testdata", "tables", f+".golden"), string(got), *update)
	}
}
