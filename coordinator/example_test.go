package coordinator_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/natsutil"
	"github.com/schedfarm/schedfarm/sweep"
	"github.com/schedfarm/schedfarm/worker"
)

// Example runs a two-task sweep the way `schedfarm run` does: an embedded
// NATS server, a worker and a coordinator in one process.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "coordinator-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	spec, err := sweep.Parse([]byte(`
name: example
workloads:
  - trace: ../traces/KTH-SP2-1996-2.1-cln.swf.gz
    count: 100
policies:
  - name: fcfs
  - name: easy
`), ".")
	if err != nil {
		panic(err)
	}

	ns, err := natsutil.StartServer(ctx, filepath.Join(dir, "nats"))
	if err != nil {
		panic(err)
	}
	defer ns.Shutdown()
	wnc, err := natsutil.ConnectInProcess(ns, "worker")
	if err != nil {
		panic(err)
	}
	defer wnc.Close()
	w, err := worker.New(wnc, worker.WithCacheDir(filepath.Join(dir, "cache")))
	if err != nil {
		panic(err)
	}
	wctx, stop := context.WithCancel(ctx)
	done := make(chan error)
	go func() { done <- w.Run(wctx) }()
	defer func() { stop(); <-done }()

	store, err := coordinator.OpenStore(filepath.Join(dir, "state"))
	if err != nil {
		panic(err)
	}
	defer store.Close()
	cnc, err := natsutil.ConnectInProcess(ns, "coordinator")
	if err != nil {
		panic(err)
	}
	defer cnc.Close()
	c := coordinator.New(store, cnc, coordinator.WithOutDir(filepath.Join(dir, "out")))
	rep, err := c.Run(ctx, spec)
	fmt.Println(rep.Total, "tasks,", rep.Ran, "run, error:", err)

	// Again: everything comes from the result cache.
	rep, err = c.Run(ctx, spec)
	fmt.Println(rep.Total, "tasks,", rep.Cached, "cached, error:", err)
	// Output:
	// 2 tasks, 2 run, error: <nil>
	// 2 tasks, 2 cached, error: <nil>
}
