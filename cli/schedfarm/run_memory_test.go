package schedfarm

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/schedfarm/schedfarm/internal/testkit"
)

// wholeTraceSpec has six tasks of the whole CTC trace (77,000 jobs each).
const wholeTraceSpec = `
name: whole-ctc
workloads:
  - trace: ctc
    estimates: accurate
    load: [1.0, 1.1, 1.2, 1.3, 1.4, 1.5]
policies:
  - name: fcfs
`

// wholeTraceHeapGrowth is the most the live heap may grow above what was
// live before `run -w 2` of wholeTraceSpec, under GOGC 25. Measured: 220
// MB (297 MB before results were encoded as a stream and the workload
// cache had a byte budget). What the run holds: the two running
// simulations (the machine's jobs, about 25 MB each, and the result's job
// records, 22 MB), the workload cache (the most recent workload and at
// most 16 MiB of others, 7.6 MB each), the result being encoded (one
// record batch of 16,384 jobs in Arrow form and the compressed bytes,
// about 2 MB), the coordinator's decoded result and writers, the embedded
// server and Badger. It fails when a result is encoded whole before it is
// compressed (a 30 MB Arrow stream per running task, grown by doubling)
// or when the workload cache keeps every workload of the sweep (six of
// 7.6 MB).
const wholeTraceHeapGrowth = 256 << 20

// TestRun_WholeTraceMemory runs six whole-CTC tasks with the embedded
// server and two workers in this process and bounds the live heap's
// growth: what each running task holds is bounded, and nothing is kept
// per finished task.
func TestRun_WholeTraceMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates six whole-CTC tasks")
	}
	dir := t.TempDir()
	spec := filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(spec, []byte(wholeTraceSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	base := testkit.LiveHeap()
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	stop := testkit.LivePeak()
	out, err := runApp(t, "run", "-w", "2", "--memory-limit", "0", "--state", filepath.Join(dir, "state"), "--out", filepath.Join(dir, "out"), spec)
	peak := stop()
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "jobs.parquet")); err != nil {
		t.Fatalf("no jobs.parquet: %v\n%s", err, out)
	}
	peak = max(peak, base)
	t.Logf("six whole-CTC tasks: live heap peak %d MB (%d MB before the run)", peak>>20, base>>20)
	if peak-base > wholeTraceHeapGrowth {
		t.Errorf("live heap grew by %d MB (to %d MB) in run -w 2 of six whole-CTC tasks, want at most %d MB", (peak-base)>>20, peak>>20, wholeTraceHeapGrowth>>20)
	}
}

// TestRun_MemoryLimit checks run's soft memory limit: the default when
// --memory-limit is not given, none with --memory-limit 0.
func TestRun_MemoryLimit(t *testing.T) {
	if os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOMEMLIMIT is set: it takes precedence over --memory-limit")
	}
	before := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(before)
	dir := t.TempDir()
	spec := filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(spec, []byte(cliSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		flags []string
		want  int64
	}{
		{nil, defaultRunMemoryLimitMiB << 20},
		{[]string{"--memory-limit", "0"}, before},
		{[]string{"--memory-limit", "300"}, 300 << 20},
	} {
		debug.SetMemoryLimit(before)
		args := append([]string{"run", "-w", "1", "--state", filepath.Join(dir, "state"), "--out", filepath.Join(dir, "out")}, tt.flags...)
		if out, err := runApp(t, append(args, spec)...); err != nil {
			t.Fatalf("run %v: %v\n%s", tt.flags, err, out)
		}
		if got := debug.SetMemoryLimit(-1); got != tt.want {
			t.Errorf("run %v: memory limit %d, want %d", tt.flags, got, tt.want)
		}
	}
}
