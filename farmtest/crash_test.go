package farmtest

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/internal/testkit"
)

const crashSweep = "crash"

// crashSetup skips a crash test under -short, else returns the crash
// spec, the clean run's output directory, and a work directory with the
// state and output paths of the run under test.
func crashSetup(t *testing.T) (spec, want, dir, state, out string) {
	t.Helper()
	if testing.Short() {
		t.Skip("crash test")
	}
	spec = testdata(t, "crash.yaml")
	want = cleanRun(t, spec)
	dir = t.TempDir()
	return spec, want, dir, filepath.Join(dir, "state"), filepath.Join(dir, "out")
}

// TestKillWorker kills a worker with SIGKILL in the middle of a sweep: its
// task goes to another worker after the ack wait and the sweep ends with
// the clean run's outputs.
func TestKillWorker(t *testing.T) {
	spec, want, dir, state, out := crashSetup(t)
	ns := startNATS(t)
	c := ns.coordinator(t, dir, state, out, spec)
	w1 := ns.worker(t, dir, "--concurrency", "1")
	waitDone(t, state, crashSweep, 2, time.Minute)
	w1.kill()
	w2 := ns.worker(t, dir, "--concurrency", "2")
	c.mustSucceed(t, 2*time.Minute)
	sameOutputs(t, out, want)
	if !strings.Contains(w2.stderr.String(), "running a redelivered task") {
		t.Errorf("the killed worker's task was not redelivered:\n%s", w2.stderr.String())
	}
}

// TestKillCoordinator kills the coordinator with SIGKILL in the middle of
// a sweep; `status` reads the state it left; a new coordinator resumes
// from it and ends with the clean run's outputs.
func TestKillCoordinator(t *testing.T) {
	spec, want, dir, state, out := crashSetup(t)
	ns := startNATS(t)
	c1 := ns.coordinator(t, dir, state, out, spec)
	ns.worker(t, dir, "--concurrency", "2")
	waitDone(t, state, crashSweep, 2, time.Minute)
	c1.kill()

	st := schedfarm(t, dir, "status", "--state", state, spec)
	st.mustSucceed(t, 30*time.Second)
	if got := st.stdout.String(); !strings.Contains(got, "in progress") || !strings.Contains(got, "/6 done") {
		t.Errorf("status of the killed coordinator's sweep:\n%s", got)
	}

	c2 := ns.coordinator(t, dir, state, out, spec)
	c2.mustSucceed(t, 2*time.Minute)
	if got := c2.stdout.String(); !strings.Contains(got, "resuming with") {
		t.Errorf("second coordinator did not resume:\n%s", got)
	}
	sameOutputs(t, out, want)

	st = schedfarm(t, dir, "status", "--state", state)
	st.mustSucceed(t, 30*time.Second)
	if got := st.stdout.String(); !strings.Contains(got, "6/6 done") || !strings.Contains(got, "finished") {
		t.Errorf("status after the sweep:\n%s", got)
	}
}

// TestRedelivery stalls a worker (SIGSTOP) in the middle of a task past the
// ack wait, so the server redelivers the task to another worker, then lets
// it go on (SIGCONT) so both publish a result: the outputs have no
// duplicate rows.
func TestRedelivery(t *testing.T) {
	spec, want, dir, state, out := crashSetup(t)
	ns := startNATS(t)
	c := ns.coordinator(t, dir, state, out, spec)
	w1 := ns.worker(t, dir, "--concurrency", "1")
	waitDone(t, state, crashSweep, 1, time.Minute)
	w1.signal(t, syscall.SIGSTOP)
	w2 := ns.worker(t, dir, "--concurrency", "1")
	testkit.CheckFor(t, 30*time.Second, 50*time.Millisecond, func() error {
		if !strings.Contains(w2.stderr.String(), "running a redelivered task") {
			return errNotYet("redelivery")
		}
		return nil
	})
	w1.signal(t, syscall.SIGCONT)
	c.mustSucceed(t, 2*time.Minute)
	sameOutputs(t, out, want)
}

// TestKillRun kills `schedfarm run` (coordinator, embedded server and
// workers in one process) with SIGKILL in the middle of a sweep: run again
// with the same state, it resumes and ends with the clean run's outputs.
func TestKillRun(t *testing.T) {
	spec, want, dir, state, out := crashSetup(t)
	args := []string{"run", "--workers", "2", "--verbose", "--state", state, "--out", out, spec}
	p1 := schedfarm(t, dir, args...)
	waitDone(t, state, crashSweep, 2, time.Minute)
	p1.kill()

	p2 := schedfarm(t, dir, args...)
	p2.mustSucceed(t, 2*time.Minute)
	if got := p2.stdout.String(); !strings.Contains(got, "resuming with") {
		t.Errorf("second run did not resume:\n%s", got)
	}
	// The tasks the killed workers held are delivered again at once, as
	// first deliveries of a fresh consumer, not redelivered by the server
	// after the ack wait (which a worker logs as a redelivered task).
	logs := p2.stderr.String()
	if !strings.Contains(logs, "task done") {
		t.Errorf("the resumed run's workers logged no task:\n%s", logs)
	}
	if strings.Contains(logs, "running a redelivered task") {
		t.Errorf("the resumed run waited for the ack wait to redeliver the killed run's tasks:\n%s", logs)
	}
	sameOutputs(t, out, want)
}
