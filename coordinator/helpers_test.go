package coordinator_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/internal/testkit"
	"github.com/schedfarm/schedfarm/natsutil"
	"github.com/schedfarm/schedfarm/sweep"
	"github.com/schedfarm/schedfarm/worker"
)

// kthTrace returns the absolute path of the shipped KTH trace.
func kthTrace(tb testing.TB) string { return shippedTrace(tb, "KTH-SP2-1996-2.1-cln.swf.gz") }

// shippedTrace returns the absolute path of a file in traces/.
func shippedTrace(tb testing.TB, name string) string {
	tb.Helper()
	p, err := filepath.Abs(filepath.Join("..", "traces", name))
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// smallSpec is 4 tasks of 300 KTH jobs each (a few ms each).
const smallSpec = `
name: unit
workloads:
  - trace: TRACE
    count: 300
    estimates: accurate
    load: [1.0, 1.2]
policies:
  - name: fcfs
  - name: easy
seed: 1
categories: [ss4]
`

// MustLoadSpec writes a spec into dir and loads it. TRACE in the spec
// stands for the KTH trace's path, SDSC for the SDSC SP2 trace's.
func MustLoadSpec(tb testing.TB, dir, yaml string) *sweep.Spec {
	tb.Helper()
	path := filepath.Join(dir, "spec.yaml")
	yaml = strings.ReplaceAll(yaml, "trace: SDSC", "trace: "+shippedTrace(tb, "SDSC-SP2-1998-4.2-cln.swf.gz"))
	yaml = strings.ReplaceAll(yaml, "TRACE", kthTrace(tb))
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		tb.Fatal(err)
	}
	spec, err := sweep.Load(path)
	if err != nil {
		tb.Fatal(err)
	}
	return spec
}

// MustStartServer starts an embedded JetStream server for the test.
func MustStartServer(tb testing.TB) *server.Server {
	tb.Helper()
	ns, err := natsutil.StartServer(context.Background(), filepath.Join(tb.TempDir(), "nats"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	return ns
}

// MustConnect connects to the embedded server for the test.
func MustConnect(tb testing.TB, ns *server.Server) *nats.Conn {
	tb.Helper()
	nc, err := natsutil.ConnectInProcess(ns, tb.Name())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(nc.Close)
	return nc
}

// MustOpenStore opens a store in a fresh directory, closed at cleanup.
func MustOpenStore(tb testing.TB, dir string) *coordinator.Store {
	tb.Helper()
	st, err := coordinator.OpenStore(dir)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}

// StartWorker runs a worker until the returned stop function is called
// (also at cleanup).
func StartWorker(tb testing.TB, ns *server.Server, opts ...worker.Option) (stop func()) {
	tb.Helper()
	nc := MustConnect(tb, ns)
	opts = append([]worker.Option{worker.WithCacheDir(filepath.Join(tb.TempDir(), "cache")), worker.WithAckWait(2 * time.Second),
		worker.WithFetchWait(100 * time.Millisecond)}, opts...)
	w, err := worker.New(nc, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			tb.Errorf("worker: %v", err)
		}
	}
	tb.Cleanup(stop)
	return stop
}

// readFile reads a file or fails the test.
func readFile(tb testing.TB, path string) []byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// gunzipTo writes the decompressed bytes of a gzipped file to dst.
func gunzipTo(tb testing.TB, src, dst string) string {
	tb.Helper()
	if err := os.WriteFile(dst, testkit.Gunzip(tb, src), 0o644); err != nil {
		tb.Fatal(err)
	}
	return dst
}
