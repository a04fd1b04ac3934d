package worker_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/internal/testkit"
	"github.com/schedfarm/schedfarm/natsutil"
	"github.com/schedfarm/schedfarm/worker"
)

// TestWorker_DamagedTraceObject checks that a trace whose chunks the
// server lost, with no local copy, gives at once an environment error
// naming the trace and saying what to do, instead of a fetch waiting for
// chunks that never come (the task's time limit, 24 h by default).
func TestWorker_DamagedTraceObject(t *testing.T) {
	store := filepath.Join(t.TempDir(), "nats")
	first := newEnvAt(t, store, true)
	first.nc.Close()
	first.ns.Shutdown()
	first.ns.WaitForShutdown()
	testkit.DamageStream(t, store, natsutil.ObjectStream(natsutil.TraceBucket))

	e := newEnvAt(t, store, false)
	e.publish(t, e.task)
	// The stall bound is short for the test; the chunk lost never comes
	// whatever the bound.
	e.start(t, worker.WithTraceStall(time.Second))
	res, msg := e.result(t, time.Minute)
	if msg.Headers().Get(natsutil.HeaderEnvironment) != "true" {
		t.Errorf("result of a damaged trace object is not an environment error (headers %v): %s", msg.Headers(), res.Err)
	}
	for _, want := range []string{"trace " + e.task.Workload.Trace + ":", e.task.Workload.TraceSHA256, "chunks", "damaged", "emptied", "run the sweep again"} {
		if !strings.Contains(res.Err, want) {
			t.Errorf("error %q lacks %q", res.Err, want)
		}
	}
	// The damaged stream was emptied, so the coordinator can upload the
	// trace again when the sweep is run again.
	obs, err := natsutil.TraceStore(context.Background(), e.js)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := obs.GetInfo(context.Background(), e.task.Workload.TraceSHA256); !errors.Is(err, jetstream.ErrObjectNotFound) {
		t.Errorf("damaged object after the error: %v, want the bucket emptied", err)
	}
	t.Log(res.Err)
}
