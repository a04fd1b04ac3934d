package coordinator_test

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/nats-io/nats.go"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/natsutil"
	"github.com/schedfarm/schedfarm/sweep"
	"github.com/schedfarm/schedfarm/worker"
)

// bigJobs is the number of jobs of the task of TestCoordinator_Run_largeResult:
// by default as many as the largest archive traces (SDSC Blue Horizon has
// about 250,000), which keeps the test within a CI machine's memory; a
// million jobs (-bigresult.jobs 1000000) needs several gigabytes, since
// the worker, the coordinator and the server share the test process.
var bigJobs = flag.Int("bigresult.jobs", 250_000, "jobs of the task of TestCoordinator_Run_largeResult")

// writeBigTrace writes an SWF trace of n jobs on a 128-processor machine
// with varied (seeded) sizes and runtimes, so that the result does not
// compress to almost nothing.
func writeBigTrace(tb testing.TB, path string, n int) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintf(w, "; %d synthetic jobs\n; MaxProcs: 128\n", n)
	rng := rand.New(rand.NewPCG(14, 2))
	submit := 0
	for i := 1; i <= n; i++ {
		submit += rng.IntN(240) // load about 0.7
		run := 1 + rng.IntN(3600)
		procs := 1 << rng.IntN(5)
		fmt.Fprintf(w, "%d %d -1 %d %d -1 -1 %d %d -1 1 1 -1 1 1 -1 -1 -1\n", i, submit, run, procs, procs, run+rng.IntN(600))
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}

// TestCoordinator_Run_largeResult runs one task of 250,000 jobs (or
// -bigresult.jobs) through a server whose messages are limited to 1 MB
// (the NATS default): the worker's result, several megabytes (27 MB for a
// million jobs), must go through the results object store in chunks, and
// the coordinator must record it and write every job row.
func TestCoordinator_Run_largeResult(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates and writes a million jobs")
	}
	dir := t.TempDir()
	trace := filepath.Join(dir, "big.swf")
	writeBigTrace(t, trace, *bigJobs)
	path := filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(path, []byte(`name: big
workloads:
  - trace: `+trace+`
    estimates: accurate
policies: [{name: fcfs}]
categories: [ss4]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, err := sweep.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	ns, err := natsutil.StartServer(context.Background(), filepath.Join(dir, "nats"), natsutil.WithMaxPayload(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })

	// Count the chunks put into the results bucket.
	var chunks, chunkBytes atomic.Int64
	watch := MustConnect(t, ns)
	sub, err := watch.Subscribe("$O."+natsutil.ResultBucket+".C.>", func(m *nats.Msg) {
		chunks.Add(1)
		chunkBytes.Add(int64(len(m.Data)))
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()

	// A long ack wait: the task must run once, not again on redelivery.
	StartWorker(t, ns, worker.WithAckWait(time.Minute))
	st := MustOpenStore(t, filepath.Join(dir, "state"))
	out := filepath.Join(dir, "out")
	rep, err := coordinator.New(st, MustConnect(t, ns), coordinator.WithOutDir(out)).Run(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Ran != 1 {
		t.Fatalf("report %+v, want one task run", rep)
	}
	if err := watch.Flush(); err != nil {
		t.Fatal(err)
	}
	t.Logf("result: %d chunks, %d bytes", chunks.Load(), chunkBytes.Load())
	if chunks.Load() < 2 || chunkBytes.Load() <= 1<<20 {
		t.Errorf("result went through the object store in %d chunks of %d bytes in all, want more than one chunk and 1 MB", chunks.Load(), chunkBytes.Load())
	}
	rd, err := file.OpenParquetFile(filepath.Join(out, "jobs.parquet"), false)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if n := rd.NumRows(); n != int64(*bigJobs) {
		t.Errorf("jobs.parquet has %d rows, want %d", n, *bigJobs)
	}
}
