package coordinator_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/internal/testkit"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
	simmetrics "github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sweep"
	"github.com/schedfarm/schedfarm/worker"
)

// largeSpec is 10,000 tasks of 10 KTH jobs each: ten loads x 1,000
// replications of fcfs. The simulations are trivial, so the sweep's cost
// is the farm's: expansion, publishing, the streams, the store, progress,
// and the outputs of 10,000 results.
var largeSpec = fcfsSweep("large", 1000)

// fcfsSweep is a sweep named name of ten loads x replications
// replications of fcfs over 10 KTH jobs (TRACE, as MustLoadSpec reads it).
func fcfsSweep(name string, replications int) string {
	return fmt.Sprintf(`
name: %s
workloads:
  - trace: TRACE
    count: 10
    estimates: accurate
    load: [1.0, 1.05, 1.1, 1.15, 1.2, 1.25, 1.3, 1.35, 1.4, 1.45]
policies:
  - name: fcfs
replications: %d
`, name, replications)
}

// largeHeapBound is the most live heap the 10,000-task sweep may add to
// what the process held before it, the in-process server and worker
// included (measured: 96 MB above the 13 MB before the run, with the
// test run first in the process, since the tasks of a point share it,
// results are kept in segment files and task states compactly; 154 MB
// in all before, 176 MB above 63 MB with the whole package). What grows
// with the number of tasks is small per task: the task list and its
// states, the table aggregates (26 MB) and, once the Parquet files are
// written, the table rows; the rest is Badger's memtables and compaction
// buffers (up to about 40 MB), the Parquet writers' reused buffers and
// zstd encoder, and the server's and worker's own. Anything kept per
// task beyond about 6 KB (a decoded result of 10 jobs with its Arrow
// buffers, a message with its headers) would exceed it.
const largeHeapBound = 160 << 20

// progressLine is a plain progress line (see coordinator.Snapshot).
var progressLine = regexp.MustCompile(`^sweep large: (\d+)/(\d+) done \((\d+)%\), (\d+) running, (\d+) failed, (\d+\.\d) tasks/s, ETA (\S+)$`)

// TestCoordinator_Run_tenThousandTasks runs a sweep of 10,000 trivial
// tasks through an embedded JetStream server, an in-process worker with
// two slots and a Badger store on disk, and checks that every task's
// result is in the outputs (each task's job rows equal those of the same
// task run alone), that the progress written to a log (not a terminal) is
// well-formed plain lines, no more than one per 5% of the tasks and one
// per progress interval, and that the live heap stays bounded.
func TestCoordinator_Run_tenThousandTasks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 10,000 tasks")
	}
	dir := t.TempDir()
	spec := MustLoadSpec(t, dir, largeSpec)
	tasks, err := spec.Tasks()
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 10_000 {
		t.Fatalf("spec has %d tasks, want 10000", len(tasks))
	}
	ns := MustStartServer(t)
	StartWorker(t, ns, worker.WithConcurrency(2))
	st := MustOpenStore(t, filepath.Join(dir, "state"))
	out := filepath.Join(dir, "out")
	const interval = 2 * time.Second
	var progress bytes.Buffer
	c := coordinator.New(st, MustConnect(t, ns), coordinator.WithOutDir(out),
		coordinator.WithProgress(&progress), coordinator.WithProgressInterval(interval))

	// Other tests of the package may leave memory behind: the bound is on
	// what the run adds to the live heap.
	runtime.GC()
	base := testkit.LiveHeap()
	stop := testkit.LivePeak()
	rep, err := c.Run(context.Background(), spec)
	peak := stop()
	peak -= min(base, peak)
	if err != nil {
		t.Fatalf("Run()=%v\n%s", err, progress.String())
	}
	if rep.Total != len(tasks) || rep.Ran != len(tasks) || rep.Cached != 0 || len(rep.Failures) != 0 {
		t.Fatalf("Run() report %+v, want every task run", rep)
	}
	t.Logf("%d tasks: farmed in %v, %v in all; live heap peak %d MB above the %d MB before the run", len(tasks),
		rep.Farmed.Round(time.Millisecond), rep.Elapsed.Round(time.Millisecond), peak>>20, base>>20)
	if peak > largeHeapBound {
		t.Errorf("live heap peaked %d MB above its level before the run, want at most %d MB", peak>>20, largeHeapBound>>20)
	}
	checkProgress(t, progress.String(), len(tasks), rep.Elapsed, interval)
	checkLargeOutputs(t, out, tasks)
}

// checkProgress checks the plain progress lines of a run of total tasks
// that took elapsed: well-formed, counts that never go back and end with
// every task done, and no more lines than one per 5% of the tasks, one
// per interval and the final one.
func checkProgress(t *testing.T, text string, total int, elapsed, interval time.Duration) {
	t.Helper()
	var lines []string
	for l := range strings.Lines(text) {
		l = strings.TrimSuffix(l, "\n")
		if strings.Contains(l, "\r") {
			t.Fatalf("progress line %q redraws in place: not a terminal's output", l)
		}
		if strings.Contains(l, " done (") && strings.Contains(l, "%)") {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		t.Fatalf("no progress lines in\n%s", text)
	}
	limit := 20 + int(elapsed/interval) + 1
	if len(lines) > limit {
		t.Errorf("%d progress lines in %v, want at most %d (every 5%% and every %v):\n%s", len(lines), elapsed, limit, interval, text)
	}
	last := -1
	for _, l := range lines {
		m := progressLine.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("malformed progress line %q", l)
		}
		done, _ := strconv.Atoi(m[1])
		all, _ := strconv.Atoi(m[2])
		pct, _ := strconv.Atoi(m[3])
		failed, _ := strconv.Atoi(m[5])
		if all != total || done < last || done > total || failed != 0 || pct != (100*done+total/2)/total && pct != 100*done/total {
			t.Errorf("progress line %q after %d done: want %d tasks, counts that never go back, no failures, the right percentage", l, last, total)
		}
		if eta := m[7]; eta != "?" {
			if _, err := time.ParseDuration(eta); err != nil {
				t.Errorf("progress line %q: ETA %q is not a duration", l, eta)
			}
		}
		last = done
	}
	if last != total {
		t.Errorf("last progress line %q, want %d/%d done", lines[len(lines)-1], total, total)
	}
}

// checkLargeOutputs checks that jobs.parquet and tasks.parquet hold every
// task of the sweep, each with the job rows of its workload run alone
// (fcfs with accurate estimates gives the same schedule for every
// replication).
func checkLargeOutputs(t *testing.T, out string, tasks []sweep.Task) {
	t.Helper()
	byID := map[string]*sweep.Task{}
	want := map[string][]simmetrics.Record{} // workload -> jobs
	key := func(w sweep.Workload) string {
		b, err := json.Marshal(w)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for i := range tasks {
		tk := &tasks[i]
		byID[tk.ID] = tk
		k := key(tk.Workload)
		if _, ok := want[k]; ok {
			continue
		}
		res, err := runner.Execute(context.Background(), tk, kthTrace(t))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Jobs) == 0 {
			t.Fatalf("task %d has no jobs", tk.Index)
		}
		want[k] = res.Jobs
	}

	rows, err := results.ReadTasks(filepath.Join(out, results.TasksFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(tasks) {
		t.Fatalf("tasks.parquet has %d rows, want %d", len(rows), len(tasks))
	}
	for i, r := range rows {
		if tk := &tasks[i]; r.TaskID != tk.ID || r.TaskIndex != tk.Index || r.Error != "" || r.Stats.Jobs != len(want[key(tk.Workload)]) {
			t.Fatalf("tasks.parquet row %d: task %s index %d, %d jobs, error %q; want task %s index %d, %d jobs",
				i, r.TaskID, r.TaskIndex, r.Stats.Jobs, r.Error, tk.ID, tk.Index, len(want[key(tk.Workload)]))
		}
	}
	runtime.GC()
	jobs, err := results.ReadJobs(filepath.Join(out, results.JobsFile))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for i, r := range jobs {
		tk, ok := byID[r.TaskID]
		if !ok {
			t.Fatalf("jobs.parquet row %d: task %s not in the sweep", i, r.TaskID)
		}
		w := want[key(tk.Workload)]
		k := seen[r.TaskID]
		if k >= len(w) {
			t.Fatalf("jobs.parquet: task %d has more than %d job rows", tk.Index, len(w))
		}
		if got, exp := r.Job, w[k]; got.JobID != exp.JobID || got.Start != exp.Start || got.End != exp.End || got.Procs != exp.Procs {
			t.Fatalf("jobs.parquet: task %d job row %d: %s; want %s", tk.Index, k, jobText(got), jobText(exp))
		}
		seen[r.TaskID] = k + 1
	}
	for i := range tasks {
		if tk := &tasks[i]; seen[tk.ID] != len(want[key(tk.Workload)]) {
			t.Fatalf("jobs.parquet: task %d has %d job rows, want %d", tk.Index, seen[tk.ID], len(want[key(tk.Workload)]))
		}
	}
	debug.FreeOSMemory()
}

func jobText(r simmetrics.Record) string {
	return fmt.Sprintf("job %d on %d processors, %d-%d", r.JobID, r.Procs, r.Start, r.End)
}
