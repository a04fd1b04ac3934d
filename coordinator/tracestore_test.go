package coordinator_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/internal/testkit"
	"github.com/schedfarm/schedfarm/natsutil"
	"github.com/schedfarm/schedfarm/worker"
)

// TestCoordinator_Run_damagedTraceObject checks the campaign's case of a
// trace damaged in the server's store with the workers' trace caches
// gone: the sweep stops at once with an error naming the trace and what
// to do (it waited forever, the workers retrying on "nats: timeout"), and
// running it again uploads the trace anew and completes with the same
// outputs.
func TestCoordinator_Run_damagedTraceObject(t *testing.T) {
	dir := t.TempDir()
	spec := MustLoadSpec(t, dir, smallSpec)
	store := filepath.Join(dir, "nats")
	start := func() *server.Server {
		ns, err := natsutil.StartServer(context.Background(), store)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
		return ns
	}
	ns := start()
	stop := StartWorker(t, ns)
	st := MustOpenStore(t, filepath.Join(dir, "state"))
	out := filepath.Join(dir, "out")
	if _, err := coordinator.New(st, MustConnect(t, ns), coordinator.WithOutDir(out)).Run(context.Background(), spec); err != nil {
		t.Fatal(err)
	}
	jobs := readFile(t, filepath.Join(out, "jobs.parquet"))
	stop()
	ns.Shutdown()
	ns.WaitForShutdown()
	testkit.DamageStream(t, store, natsutil.ObjectStream(natsutil.TraceBucket))

	ns = start()
	// Fresh trace caches; the stall bound is short for the test (the
	// chunk lost never comes whatever the bound).
	StartWorker(t, ns, worker.WithTraceStall(time.Second))
	c := coordinator.New(st, MustConnect(t, ns), coordinator.WithOutDir(out), coordinator.WithForce(true))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, err := c.Run(ctx, spec)
	if err == nil || ctx.Err() != nil {
		t.Fatalf("Run() over a damaged trace object: %v, want the sweep stopped", err)
	}
	for _, want := range []string{"trace KTH-SP2-1996-2.1-cln", "damaged object store", "run the sweep again"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	// Run again: the trace is uploaded anew and the outputs are those of
	// the intact store.
	if _, err := c.Run(ctx, spec); err != nil {
		t.Fatalf("Run() again: %v", err)
	}
	if got := readFile(t, filepath.Join(out, "jobs.parquet")); !bytes.Equal(got, jobs) {
		t.Error("jobs.parquet differs from the run over the intact store")
	}
}
