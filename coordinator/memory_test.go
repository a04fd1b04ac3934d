package coordinator_test

import (
	"context"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
	"unsafe"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/internal/testkit"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sim"
	simmetrics "github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sweep"
)

// memorySpec has 24 tasks; the test gives each a stored result of
// memoryJobs jobs, 2.9 million job rows in all.
const memorySpec = `
name: memory
workloads:
  - trace: TRACE
    count: 100
    estimates: accurate
    load: [1.0, 1.05, 1.1, 1.15, 1.2, 1.25, 1.3, 1.35, 1.4, 1.45, 1.5, 1.55]
policies:
  - name: fcfs
  - name: easy
seed: 1
categories: [ss16, ss4]
`

const memoryJobs = 120_000

// syntheticResult returns a result of n made-up jobs for task id.
func syntheticResult(id string, index, n int) *results.TaskResult {
	r := &results.TaskResult{TaskID: id, Index: index, Worker: "w", WallTime: time.Second}
	r.Jobs = make([]simmetrics.Record, n)
	for k := range r.Jobs {
		rt := sim.Time(1 + (k*7919+index)%50000)
		w := sim.Time((k * 104729) % 30000)
		sub := sim.Time(k * 30)
		r.Jobs[k] = simmetrics.Record{
			JobID: int64(k + 1), Submit: sub, Start: sub + w, End: sub + w + rt, Wait: w, Runtime: rt,
			Estimate: 2 * rt, Procs: 1 + k%128, Turnaround: w + rt,
			BSD: simmetrics.BoundedSlowdown(w, rt), Slowdown: 1 + float64(w)/float64(rt),
		}
	}
	r.Stats = simmetrics.Stats(128, r.Jobs)
	return r
}

// TestCoordinator_Run_boundedMemory writes the outputs of a sweep whose
// job records alone, held together, would need 2.9 million times the size
// of a record (680 MB with the columns of this writing), under a 288 MB
// memory limit and with frequent collections (GOGC 25), and checks that
// the live heap stays below 224 MB: the results stream from the store one
// task at a time. What the heap holds is at most two decoded results
// (about 30 MB each here: the jobs writer keeps the one whose last rows
// are in the current row group), one range of columns of a jobs.parquet
// row group in Arrow form, the aggregates of summary.parquet's current row
// group, tasks.parquet's current chunk,
// one zstd encoder and Badger's memtables, none of it growing with the
// number of rows (171 MB measured with 64 job columns; 251 MB while the
// whole row group was kept in Arrow form).
func TestCoordinator_Run_boundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 2.9 million job rows")
	}
	dir := t.TempDir()
	spec := MustLoadSpec(t, dir, memorySpec)
	tasks, err := spec.Tasks()
	if err != nil {
		t.Fatal(err)
	}
	st := MustOpenStore(t, filepath.Join(dir, "state"))
	storeSynthetic(t, st, tasks, memoryJobs)
	held := int64(len(tasks)) * memoryJobs * int64(unsafe.Sizeof(simmetrics.Record{}))
	const bound = 224 << 20
	const limit = 288 << 20
	if held < 3*bound/2 {
		t.Fatalf("the sweep's records (%d MB) would fit the bound; make the test bigger", held>>20)
	}
	runtime.GC()
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	stop := testkit.LivePeak()
	out := filepath.Join(dir, "out")
	rep, err := coordinator.New(st, nil, coordinator.WithOutDir(out)).Run(context.Background(), spec)
	peak := stop()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Cached != len(tasks) {
		t.Fatalf("Run() report %+v, want every task cached", rep)
	}
	t.Logf("%d tasks x %d jobs: records alone %d MB, live heap peak %d MB", len(tasks), memoryJobs, held>>20, peak>>20)
	if peak > bound {
		t.Errorf("live heap peaked at %d MB writing the outputs, want at most %d MB", peak>>20, bound>>20)
	}
	jobs, err := results.ReadMetadata(filepath.Join(out, results.JobsFile))
	if err != nil || jobs[results.MetaSweep] != "memory" {
		t.Errorf("jobs.parquet metadata %v, %v", jobs, err)
	}
}

// hundredThousandSpec has 100,000 tasks (the most a spec may have): ten
// loads x 10,000 replications of fcfs over 10 KTH jobs.
var hundredThousandSpec = fcfsSweep("hundred-thousand", 10_000)

// hundredThousandHeapGrowth is the most the live heap may grow above
// what was live before the run while the coordinator writes the outputs
// of 100,000 stored results of 10 jobs each, under GOGC 25. Measured:
// 128 MB over 65 MB before the run after the package's other large
// tests, with the results in segment files; 126 MB over 63 MB before the
// run (the spec and its tasks, Badger; more
// when the package's earlier tests ran first, so the bound is on the
// growth, not on the whole heap); 277-328 MB before the tables kept only
// what they show and tasks.parquet's row groups were cut to 8,192 rows.
// What grows with the number of tasks: the tasks' states (about 130
// bytes a task) and what the tables keep (report.Tables: about 100 bytes
// a task and 16 per category with jobs); the rest is the writers' current
// row groups (jobs.parquet keeps the results whose rows are in its row
// group of 65,536 rows, summary.parquet a range of its columns) and
// Badger. Anything kept per task beyond about 300 bytes more would
// exceed it.
const hundredThousandHeapGrowth = 160 << 20

// TestCoordinator_Run_hundredThousandResults writes the outputs of a
// sweep of 100,000 tasks, every result in the store, and checks that the
// live heap grows by at most hundredThousandHeapGrowth: what the coordinator
// keeps per task stays small (the results themselves stream from the
// store one at a time).
func TestCoordinator_Run_hundredThousandResults(t *testing.T) {
	if testing.Short() {
		t.Skip("writes the outputs of 100,000 tasks")
	}
	dir := t.TempDir()
	spec := MustLoadSpec(t, dir, hundredThousandSpec)
	tasks, err := spec.Tasks()
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 100_000 {
		t.Fatalf("spec has %d tasks, want 100000", len(tasks))
	}
	st := MustOpenStore(t, filepath.Join(dir, "state"))
	storeSynthetic(t, st, tasks, 10)
	tasks = nil
	runtime.GC()
	base := testkit.LiveHeap()
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	stop := testkit.LivePeak()
	out := filepath.Join(dir, "out")
	rep, err := coordinator.New(st, nil, coordinator.WithOutDir(out)).Run(context.Background(), spec)
	peak := stop()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Cached != 100_000 {
		t.Fatalf("Run() report %+v, want every task cached", rep)
	}
	t.Logf("100,000 tasks: live heap peak %d MB (%d MB before the run)", peak>>20, base>>20)
	if peak < base {
		peak = base
	}
	if peak-base > hundredThousandHeapGrowth {
		t.Errorf("live heap grew by %d MB (to %d MB) writing the outputs of 100,000 tasks, want at most %d MB", (peak-base)>>20, peak>>20, hundredThousandHeapGrowth>>20)
	}
	rows, err := results.ReadTasks(filepath.Join(out, results.TasksFile))
	if err != nil || len(rows) != 100_000 {
		t.Errorf("tasks.parquet: %d rows, %v; want 100000", len(rows), err)
	}
}

// storeSynthetic records a synthetic result of jobs jobs for every task
// in st, as an earlier session of the sweep would have, in batches of
// 1,000.
func storeSynthetic(t *testing.T, st *coordinator.Store, tasks []sweep.Task, jobs int) {
	t.Helper()
	const batch = 1000
	for lo := 0; lo < len(tasks); lo += batch {
		recs := make([]coordinator.ResultRecord, 0, batch)
		for i := lo; i < min(len(tasks), lo+batch); i++ {
			b, err := syntheticResult(tasks[i].ID, i, jobs).Marshal()
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, coordinator.ResultRecord{ID: tasks[i].ID,
				State: coordinator.TaskState{Index: i, SimVersion: tasks[i].SimVersion}, Result: b})
		}
		if err := st.RecordResults("earlier", recs); err != nil {
			t.Fatal(err)
		}
	}
}
