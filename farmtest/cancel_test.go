package farmtest

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/internal/testkit"
)

// The tests below interrupt a simulation that runs for tens of seconds
// (testdata/long.yaml) and require the process to exit within
// stopBound: far less than the simulation would take, far more than the
// second or two it takes on an idle machine.
const stopBound = 15 * time.Second

// waitRunning waits until the sweep's progress file shows a task running.
func waitRunning(t *testing.T, state, sweep string) {
	t.Helper()
	testkit.CheckFor(t, time.Minute, 20*time.Millisecond, func() error {
		p, err := readProgress(state, sweep)
		if err != nil {
			return err
		}
		if p.Running < 1 {
			return errNotYet("no task running")
		}
		return nil
	})
}

// stoppedWithin signals p and fails unless it exits non-zero within
// stopBound; it returns how long it took.
func stoppedWithin(t *testing.T, p *proc, sig syscall.Signal) time.Duration {
	t.Helper()
	// Let the simulation get going: the signal must stop the event loop,
	// not the loading of the trace.
	time.Sleep(time.Second)
	began := time.Now()
	p.signal(t, sig)
	err := p.wait(t, stopBound)
	took := time.Since(began)
	t.Logf("%s stopped %v after %v: %v", p.name, sig, took.Round(time.Millisecond), err)
	return took
}

// TestSimInterrupt interrupts `schedfarm sim` in the middle of a long run.
func TestSimInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("long simulation")
	}
	ctc, err := filepath.Abs(filepath.Join("..", "traces", "CTC-SP2-1996-3.1-cln.swf.gz"))
	if err != nil {
		t.Fatal(err)
	}
	p := schedfarm(t, t.TempDir(), "sim", "--trace", ctc, "--policy", "conservative", "--load", "1.8")
	stoppedWithin(t, p, syscall.SIGINT)
	if p.err == nil {
		t.Errorf("interrupted sim exited 0:\n%s", p.stdout.String())
	}
}

// TestRunInterrupt interrupts `schedfarm run` while its task runs: it stops
// at once, and the state it leaves is readable and resumable.
func TestRunInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("long simulation")
	}
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out")
	r := schedfarm(t, dir, "run", "--workers", "1", "--state", state, "--out", out, "--progress-interval", "1s", testdata(t, "long.yaml"))
	waitRunning(t, state, "long")
	stoppedWithin(t, r, syscall.SIGINT)
	if r.err == nil || !strings.Contains(r.stderr.String(), "interrupted") {
		t.Errorf("interrupted run: %v\n%s", r.err, r.stderr.String())
	}
	st := schedfarm(t, dir, "status", "--state", state, "long")
	st.mustSucceed(t, 30*time.Second)
	if got := st.stdout.String(); !strings.Contains(got, "0/1 done") {
		t.Errorf("status after the interrupted run:\n%s", got)
	}
}

// TestWorkerDrainTimeout stops a worker with SIGTERM while its task runs:
// after --drain-timeout it cancels the task, gives it back and exits.
func TestWorkerDrainTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("long simulation")
	}
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out")
	ns := startNATS(t)
	ns.coordinator(t, dir, state, out, testdata(t, "long.yaml"))
	w := ns.worker(t, dir, "--concurrency", "1", "--drain-timeout", "1s")
	waitRunning(t, state, "long")
	stoppedWithin(t, w, syscall.SIGTERM)
	if w.err != nil {
		t.Errorf("worker stopped by SIGTERM: %v", w.err)
	}
	if got := w.stderr.String(); !strings.Contains(got, "task cancelled by shutdown, giving it back") {
		t.Errorf("the worker did not give its task back:\n%s", got)
	}
}

// TestTaskTimeLimit runs the long task with a spec time_limit of 2s: the
// task fails with an error naming the limit, and the run writes its
// outputs and exits non-zero.
func TestTaskTimeLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("long simulation")
	}
	dir := t.TempDir()
	spec, err := os.ReadFile(testdata(t, "long.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	ctc, err := filepath.Abs(filepath.Join("..", "traces", "CTC-SP2-1996-3.1-cln.swf.gz"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(spec), "trace: ctc", "trace: "+ctc, 1) + "time_limit: 2s\n"
	path := filepath.Join(dir, "limited.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r := schedfarm(t, dir, "run", "--workers", "1", "--state", filepath.Join(dir, "state"), "--out", filepath.Join(dir, "out"), path)
	if err := r.wait(t, time.Minute); err == nil {
		t.Fatalf("a run past its time limit exited 0:\n%s", r.stdout.String())
	}
	if got := r.stderr.String() + r.stdout.String(); !strings.Contains(got, "exceeded its time limit of 2s (spec time_limit)") {
		t.Errorf("the failure does not name the limit:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "tasks.parquet")); err != nil {
		t.Errorf("outputs not written: %v", err)
	}
}
