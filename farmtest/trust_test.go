package farmtest

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/natsutil"
	"github.com/schedfarm/schedfarm/results"
)

// variant builds the schedfarm binary with one file of the module
// replaced (go build -overlay): its text with old replaced by new. It
// stands for a worker built from other sources than the coordinator.
func variant(t *testing.T, file, old, new string) string {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("..", file))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s does not contain %q", file, old)
	}
	dir := t.TempDir()
	patched := filepath.Join(dir, filepath.Base(file))
	if err := os.WriteFile(patched, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	overlay, err := json.Marshal(map[string]any{"Replace": map[string]string{src: patched}})
	if err != nil {
		t.Fatal(err)
	}
	ov := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ov, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "schedfarm-variant")
	out, err := exec.Command("go", "build", "-overlay", ov, "-o", bin, "github.com/schedfarm/schedfarm/cmd/schedfarm").CombinedOutput()
	if err != nil {
		t.Fatalf("build variant: %v\n%s", err, out)
	}
	return bin
}

// TestWorkerOfAnotherSimVersion starts a worker built with another
// simulator version first: it gives back the task it takes and stops,
// naming both versions; a worker of the right version then runs the whole
// sweep, whose outputs are the clean run's, and tasks.parquet names that
// worker's build.
func TestWorkerOfAnotherSimVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a variant binary")
	}
	evil := variant(t, "sim/version.go", `const Version = "`, `const Version = "0.14.0-evil+`)
	spec := testdata(t, "small.yaml")
	want := cleanRun(t, spec)
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out")
	ns := startNATS(t)
	c := ns.coordinator(t, dir, state, out, spec)
	bad := start(t, dir, evil, "worker", "--nats", ns.url, "--cache", filepath.Join(dir, "cache-evil"), "--name", "evil", "-v")
	if err := bad.wait(t, time.Minute); err == nil {
		t.Fatalf("the worker of another simulator version exited 0:\n%s", bad.stderr.String())
	}
	if got := bad.stderr.String(); !strings.Contains(got, "needs simulator version") || !strings.Contains(got, "0.14.0-evil+") {
		t.Errorf("the worker of another simulator version does not say why it stops:\n%s", got)
	}
	ns.worker(t, dir, "--name", "good")
	c.mustSucceed(t, 2*time.Minute)
	sameOutputs(t, out, want)
	rows, err := results.ReadTasks(filepath.Join(out, "tasks.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Worker != "good" || !strings.Contains(r.Build, "exe ") {
			t.Errorf("task %d: worker %q build %q, want worker good and a build with its executable's hash", r.TaskIndex, r.Worker, r.Build)
		}
	}
}

// TestVerifyCatchesAFaultyWorker runs a sweep with --verify 1 on a good
// worker and one built with a changed metric but the same simulator
// version: the coordinator fails, naming both workers.
func TestVerifyCatchesAFaultyWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a variant binary")
	}
	faulty := variant(t, "sim/metrics/record.go", "d := float64(max(runtime, BSDThreshold))", "d := float64(max(runtime, BSDThreshold)) + 1")
	spec := testdata(t, "small.yaml")
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out")
	ns := startNATS(t)
	c := ns.coordinator(t, dir, state, out, spec, "--verify", "1")
	ns.worker(t, dir, "--name", "good", "--concurrency", "1")
	start(t, dir, faulty, "worker", "--nats", ns.url, "--cache", filepath.Join(dir, "cache-faulty"), "--name", "faulty", "--concurrency", "1", "-v")
	if err := c.wait(t, 2*time.Minute); err == nil {
		t.Fatalf("the sweep with a faulty worker passed verification:\n%s", c.stdout.String())
	}
	got := c.stderr.String()
	if !strings.Contains(got, "verification of task") || !strings.Contains(got, "worker good") || !strings.Contains(got, "worker faulty") {
		t.Errorf("the coordinator's error does not name both workers:\n%s", got)
	}
}

// TestVerify runs a sweep with --verify 1 on two good workers: every task
// that ran is verified, and the outputs are the clean run's.
func TestVerify(t *testing.T) {
	if testing.Short() {
		t.Skip("farm test")
	}
	spec := testdata(t, "small.yaml")
	want := cleanRun(t, spec)
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out")
	ns := startNATS(t)
	c := ns.coordinator(t, dir, state, out, spec, "--verify", "1")
	ns.worker(t, dir, "--name", "a", "--concurrency", "1")
	ns.worker(t, dir, "--name", "b", "--concurrency", "1")
	c.mustSucceed(t, 2*time.Minute)
	if got := c.stdout.String(); !strings.Contains(got, "6 verified on a second worker") {
		t.Errorf("not every task verified:\n%s", got)
	}
	sameOutputs(t, out, want)
}

// TestWorkerAckWaitIgnored starts the coordinator with a 30 s ack wait, a
// worker with the same and another with 1 s: the second says its setting
// differs and uses the coordinator's, the consumer keeps 30 s, no task is
// redelivered, and the outputs are the clean run's.
func TestWorkerAckWaitIgnored(t *testing.T) {
	spec, want, dir, state, out := crashSetup(t)
	ns := startNATS(t)
	c := ns.coordinator(t, dir, state, out, spec, "--ack-wait", "30s")
	waitDone(t, state, crashSweep, 0, time.Minute) // the coordinator has set up the consumer
	a := ns.worker(t, dir, "--ack-wait", "30s", "--concurrency", "1")
	b := ns.worker(t, dir, "--ack-wait", "1s", "--concurrency", "1")
	c.mustSucceed(t, 2*time.Minute)
	sameOutputs(t, out, want)
	for _, w := range []*proc{a, b} {
		if got := w.stderr.String(); strings.Contains(got, "running a redelivered task") {
			t.Errorf("a task was redelivered:\n%s", got)
		}
	}
	if got := b.stderr.String(); !strings.Contains(got, "settings differ from this worker's") {
		t.Errorf("the worker with another ack wait did not say so:\n%s", got)
	}
	cons, err := ns.js(t).Consumer(context.Background(), natsutil.TaskStream, natsutil.WorkerConsumer)
	if err != nil {
		t.Fatal(err)
	}
	if got := cons.CachedInfo().Config.AckWait; got != 30*time.Second {
		t.Errorf("the consumer's ack wait is %v, want the coordinator's 30s", got)
	}
}
