package coordinator_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/internal/rusage"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/sweep"
	"github.com/schedfarm/schedfarm/worker"
)

// trivialSpec is 200 tasks of 10 jobs each: the simulator's share is
// negligible, so the time per task is the farm's own.
const trivialSpec = `
name: trivial
workloads:
  - trace: TRACE
    count: 10
    estimates: accurate
policies:
  - name: fcfs
replications: 200
`

// workSpec is 16 tasks of conservative backfilling over a 20000-job window
// of the SDSC SP2 trace with user estimates, each with another random
// fifth of the jobs duplicated (about a second each): simulations of
// similar length, long enough that a sweep's time is the simulator's.
const workSpec = `
name: work
workloads:
  - trace: SDSC
    count: 20000
    skip: 10000
    estimates: trace
    load: 1.2
    load_mode: duplicate
policies:
  - name: conservative
replications: 16
`

// BenchmarkFarm measures whole sweeps run in process (embedded server,
// one worker with the given number of slots, coordinator with a Badger
// store on disk), each forced to recompute every task. With as many slots
// as cores, the coordinator and the server compete with the simulations
// for the same cores, as they do in `schedfarm run`. Besides ns/op it
// reports:
//
//   - farm-ms/task: time from publishing to the last result, per task;
//   - overhead-ms/task: slot time not spent in the simulator, per task:
//     (farm time x slots - sum of task wall times) / tasks;
//   - efficiency: (sum of the tasks' times run one after the other with
//     runner.Execute, no farm, warm caches / slots) / farm time: 1 means
//     the farm keeps every slot simulating as fast as a lone simulation
//     runs;
//   - outputs-ms: the rest of a sweep (reading results back, writing the
//     Parquet files and tables).
func BenchmarkFarm(b *testing.B) {
	procs := runtime.GOMAXPROCS(0)
	for _, bc := range []struct {
		name  string
		spec  string
		slots int
	}{
		{"Trivial", trivialSpec, procs},
		{"Work/slots=1", workSpec, 1},
		{fmt.Sprintf("Work/slots=%d", procs), workSpec, procs},
	} {
		b.Run(bc.name, func(b *testing.B) {
			slots := bc.slots
			dir := b.TempDir()
			spec := MustLoadSpec(b, dir, bc.spec)
			ns := MustStartServer(b)
			StartWorker(b, ns, worker.WithConcurrency(slots))
			st := MustOpenStore(b, filepath.Join(dir, "state"))
			c := coordinator.New(st, MustConnect(b, ns), coordinator.WithOutDir(filepath.Join(dir, "out")), coordinator.WithForce(true))
			if _, err := c.Run(context.Background(), spec); err != nil { // warm up: trace upload, caches
				b.Fatal(err)
			}
			seq := sequentialTime(b, spec)
			var farmed, elapsed, work time.Duration
			var tasks int
			for b.Loop() {
				rep, err := c.Run(context.Background(), spec)
				if err != nil {
					b.Fatal(err)
				}
				states, err := st.RunStates(rep.RunID)
				if err != nil {
					b.Fatal(err)
				}
				for _, s := range states {
					work += s.WallTime
				}
				farmed += rep.Farmed
				elapsed += rep.Elapsed
				tasks += rep.Total
			}
			ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
			b.ReportMetric(ms(farmed)/float64(tasks), "farm-ms/task")
			b.ReportMetric(ms(farmed*time.Duration(slots)-work)/float64(tasks), "overhead-ms/task")
			b.ReportMetric(float64(seq)*float64(b.N)/float64(slots)/float64(farmed), "efficiency")
			b.ReportMetric(ms(elapsed-farmed)/float64(b.N), "outputs-ms")
		})
	}
}

// overheadSpec is 2,000 tasks of 10 KTH jobs each: the simulator's share
// of a task is a few microseconds, the rest is the farm's.
const overheadSpec = `
name: overhead
workloads:
  - trace: TRACE
    count: 10
    estimates: accurate
    load: [1.0, 1.1]
policies:
  - name: fcfs
replications: 1000
`

// BenchmarkFarmOverhead measures the farm's CPU per trivial task, output
// writing excluded: the CPU time (user + system) of the whole process
// (embedded JetStream server, one worker with two slots, coordinator with
// a Badger store on disk) from publishing the tasks to recording the last
// result ([coordinator.Report.FarmedCPU]), per task, each iteration
// recomputing every task of a 2,000-task sweep. It reports:
//
//   - cpu-ms/task: that CPU per task, everything the farm does for a
//     task (publishing, the streams, pulling, decoding the task,
//     marshalling, publishing and acking the result, decoding it to
//     check it, recording it in the store, acks, progress), plus the
//     simulation itself;
//   - sim-ms/task: the CPU of the same tasks run one after the other
//     with runner.Execute, no farm (the simulation's share of the
//     above);
//   - wall-ms/task: the farmed time per task.
//
// Run it with GOMAXPROCS=1 for figures that do not depend on the
// machine's other load.
func BenchmarkFarmOverhead(b *testing.B) {
	dir := b.TempDir()
	spec := MustLoadSpec(b, dir, overheadSpec)
	ns := MustStartServer(b)
	StartWorker(b, ns, worker.WithConcurrency(2))
	st := MustOpenStore(b, filepath.Join(dir, "state"))
	c := coordinator.New(st, MustConnect(b, ns), coordinator.WithOutDir(filepath.Join(dir, "out")), coordinator.WithForce(true))
	if _, err := c.Run(context.Background(), spec); err != nil { // warm up: trace upload, caches
		b.Fatal(err)
	}
	cpu := rusage.CPU()
	sequentialTime(b, spec)
	sim := rusage.CPU() - cpu
	var farmed, farmedCPU time.Duration
	var tasks, simTasks int
	tl, err := spec.Tasks()
	if err != nil {
		b.Fatal(err)
	}
	simTasks = len(tl)
	for b.Loop() {
		rep, err := c.Run(context.Background(), spec)
		if err != nil {
			b.Fatal(err)
		}
		if rep.Ran != rep.Total {
			b.Fatalf("Run() report %+v, want every task run", rep)
		}
		farmed += rep.Farmed
		farmedCPU += rep.FarmedCPU
		tasks += rep.Total
	}
	ms := func(d time.Duration, n int) float64 { return float64(d) / float64(time.Millisecond) / float64(n) }
	b.ReportMetric(ms(farmedCPU, tasks), "cpu-ms/task")
	b.ReportMetric(ms(sim, simTasks), "sim-ms/task")
	b.ReportMetric(ms(farmed, tasks), "wall-ms/task")
}

// sequentialTime runs every task of spec once, one after the other, on a
// local copy of its trace (the caches warm) and returns the total time:
// the sum of the tasks' CPU times, simulator garbage collection included.
func sequentialTime(b *testing.B, spec *sweep.Spec) time.Duration {
	b.Helper()
	tasks, err := spec.Tasks()
	if err != nil {
		b.Fatal(err)
	}
	paths := map[string]string{}
	for _, tf := range spec.Traces() {
		paths[tf.SHA256] = tf.Path
	}
	var total time.Duration
	for i := range tasks {
		start := time.Now()
		if _, err := runner.Execute(context.Background(), &tasks[i], paths[tasks[i].Workload.TraceSHA256]); err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
	}
	return total
}
