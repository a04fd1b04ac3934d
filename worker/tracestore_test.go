package worker_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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
	// A task of the same trace fetched after the bucket was emptied (a
	// second slot's, waiting for the first fetch) says why the object is
	// gone, whichever of the two results the coordinator reads first.
	again := e.task
	again.ID = strings.Repeat("1", 64)
	e.publish(t, again)
	res2, _ := e.result(t, time.Minute)
	for _, want := range []string{"damaged", "emptied", "run the sweep again"} {
		if !strings.Contains(res2.Err, want) {
			t.Errorf("second task's error %q lacks %q", res2.Err, want)
		}
	}
	t.Log(res.Err)
}

// TestWorker_StalledTraceNotDamaged checks that a trace chunk that does
// not come within the stall bound while the store still holds it (here a
// bound already over when each chunk is asked for, on an intact store)
// is a stall, not damage: an environment error naming the trace, what
// was waited for and that nothing was deleted, with the trace bucket left
// as it was (before, any stall emptied it).
func TestWorker_StalledTraceNotDamaged(t *testing.T) {
	e := newEnvAt(t, filepath.Join(t.TempDir(), "nats"), true)
	ctx := context.Background()
	stream, err := e.js.Stream(ctx, natsutil.ObjectStream(natsutil.TraceBucket))
	if err != nil {
		t.Fatal(err)
	}
	before, err := stream.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	e.publish(t, e.task)
	e.start(t, worker.WithTraceStallForTest(time.Nanosecond))
	res, msg := e.result(t, time.Minute)
	if msg.Headers().Get(natsutil.HeaderEnvironment) != "true" {
		t.Errorf("result of a stalled trace fetch is not an environment error (headers %v): %s", msg.Headers(), res.Err)
	}
	for _, want := range []string{"trace " + e.task.Workload.Trace + ":", worker.ErrTraceStalled.Error(), e.task.Workload.TraceSHA256,
		"no chunk for 1ns after 0 of its", "still holds the next chunk", "nothing was deleted", "run the sweep again"} {
		if !strings.Contains(res.Err, want) {
			t.Errorf("error %q lacks %q", res.Err, want)
		}
	}
	for _, bad := range []string{"damaged", "emptied"} {
		if strings.Contains(res.Err, bad) {
			t.Errorf("error %q says %q", res.Err, bad)
		}
	}
	after, err := stream.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after.State.Msgs != before.State.Msgs || after.State.Bytes != before.State.Bytes {
		t.Errorf("trace bucket holds %d messages (%d bytes) after the stall, %d (%d) before", after.State.Msgs, after.State.Bytes, before.State.Msgs, before.State.Bytes)
	}
	obs, err := natsutil.TraceStore(ctx, e.js)
	if err != nil {
		t.Fatal(err)
	}
	data, err := obs.GetBytes(ctx, e.task.Workload.TraceSHA256)
	if err != nil {
		t.Fatalf("trace after the stall: %v", err)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != e.task.Workload.TraceSHA256 {
		t.Errorf("trace after the stall hashes to %x", sum)
	}
	t.Log(res.Err)
}
