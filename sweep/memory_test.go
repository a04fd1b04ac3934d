package sweep_test

import (
	"runtime"
	"testing"

	"github.com/schedfarm/schedfarm/internal/testkit"
	"github.com/schedfarm/schedfarm/sweep"
)

// maxTasksHeap bounds the live heap a spec of sweep.MaxTasks tasks holds
// once parsed: its task list, each task's ID and the points its tasks
// share. Measured: 10.7 MB (about 112 bytes a task: the task itself, 48
// bytes, and its ID's 64 characters); 38.1 MB when every task held a
// copy of its point (workload, policy, values, ...), which fails. A task
// that kept its own copy of the workload again (136 bytes) would exceed
// it.
const maxTasksHeap = 20 << 20

// TestSpec_MaxTasksMemory parses a spec of the most tasks a spec may have
// (ten loads x 10,000 replications) and bounds the live heap it holds.
func TestSpec_MaxTasksMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("expands 100,000 tasks")
	}
	const spec = `name: most
workloads:
  - trace: tiny.swf
    load: [1.0, 1.05, 1.1, 1.15, 1.2, 1.25, 1.3, 1.35, 1.4, 1.45]
policies:
  - name: fcfs
replications: 10000
`
	runtime.GC()
	base := testkit.LiveHeap()
	s := MustParse(t, spec)
	runtime.GC()
	held := testkit.LiveHeap()
	ts, err := s.SharedTasks()
	if err != nil || len(ts) != sweep.MaxTasks {
		t.Fatalf("SharedTasks() = %d tasks, %v; want %d", len(ts), err, sweep.MaxTasks)
	}
	if held < base {
		held = base
	}
	t.Logf("%d tasks: spec holds %d KB of live heap", len(ts), (held-base)>>10)
	if held-base > maxTasksHeap {
		t.Errorf("a spec of %d tasks holds %d MB of live heap, want at most %d MB", len(ts), (held-base)>>20, maxTasksHeap>>20)
	}
	runtime.KeepAlive(s)
}
