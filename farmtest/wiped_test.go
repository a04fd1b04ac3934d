package farmtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWipedStore kills the nats-server in the middle of a sweep and starts
// it again on the same port with an empty store: the worker recreates the
// streams and its consumer, the coordinator notices, publishes the
// unfinished tasks again (its state knows them) and says so, and the sweep
// ends with the clean run's outputs.
func TestWipedStore(t *testing.T) {
	spec, want, dir, state, out := crashSetup(t)
	port := freePort(t)
	store := filepath.Join(t.TempDir(), "js")
	ns := startNATSStore(t, port, store)
	c := ns.coordinator(t, dir, state, out, spec)
	w := ns.worker(t, dir, "--concurrency", "1")
	waitDone(t, state, crashSweep, 2, time.Minute)

	ns.kill()
	if err := os.RemoveAll(store); err != nil {
		t.Fatal(err)
	}
	startNATSStore(t, port, store)

	c.mustSucceed(t, 3*time.Minute)
	sameOutputs(t, out, want)
	if got := c.stdout.String(); !strings.Contains(got, "publishing the") || !strings.Contains(got, "unfinished tasks again") {
		t.Errorf("the coordinator did not say it republished the unfinished tasks:\n%s\n%s", got, c.stderr.String())
	}
	if got := w.stderr.String(); !strings.Contains(got, "recreated them") {
		t.Logf("worker stderr (the coordinator may have recreated the streams first):\n%s", got)
	}
}
