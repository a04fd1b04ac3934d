package coordinator_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/internal/testkit"
	"github.com/schedfarm/schedfarm/worker"
)

// TestCoordinator_NoWorkers: with no worker, the coordinator says that no
// workers have taken a task for the idle time; a worker started later
// finishes the sweep.
func TestCoordinator_NoWorkers(t *testing.T) {
	dir := t.TempDir()
	spec := MustLoadSpec(t, dir, smallSpec)
	ns := MustStartServer(t)
	st := MustOpenStore(t, filepath.Join(dir, "state"))
	var progress testkit.SyncBuffer
	c := coordinator.New(st, MustConnect(t, ns), coordinator.WithOutDir(filepath.Join(dir, "out")),
		coordinator.WithProgress(&progress), coordinator.WithWatch(100*time.Millisecond, 500*time.Millisecond))
	done := make(chan error, 1)
	go func() {
		_, err := c.Run(context.Background(), spec)
		done <- err
	}()
	testkit.CheckFor(t, 10*time.Second, 50*time.Millisecond, func() error {
		if !strings.Contains(progress.String(), "no workers have taken a task for") {
			return errors.New("not said yet")
		}
		return nil
	})
	StartWorker(t, ns, worker.WithConcurrency(2))
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run()=%v\n%s", err, progress.String())
		}
	case <-time.After(time.Minute):
		t.Fatalf("the sweep did not finish once a worker started:\n%s", progress.String())
	}
}
