package farmtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestResumeAfterDeletedSpoolFile kills the coordinator, deletes one of its
// spool files (a stored result) and starts it again: the resumed run
// finds the result damaged, runs the task again (under a fresh message
// ID, which the server's deduplication does not drop) and ends with the
// clean run's outputs instead of waiting forever.
func TestResumeAfterDeletedSpoolFile(t *testing.T) {
	spec, want, dir, state, out := crashSetup(t)
	ns := startNATS(t)
	c1 := ns.coordinator(t, dir, state, out, spec)
	ns.worker(t, dir, "--concurrency", "2")
	waitDone(t, state, crashSweep, 3, time.Minute)
	c1.kill()
	spooled, err := filepath.Glob(filepath.Join(state, "spool", "res-*"))
	if err != nil || len(spooled) == 0 {
		t.Fatalf("spool files %v, %v: want some", spooled, err)
	}
	if err := os.Remove(spooled[0]); err != nil {
		t.Fatal(err)
	}
	c2 := ns.coordinator(t, dir, state, out, spec)
	c2.mustSucceed(t, 2*time.Minute)
	if got := c2.stdout.String(); !strings.Contains(got, "cannot be read") {
		t.Errorf("the damaged result was not noticed:\n%s", got)
	}
	sameOutputs(t, out, want)
}

// mountTmpfs mounts a tmpfs of size bytes on a new directory, unmounted
// at cleanup; it skips the test where mounting is not allowed.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs (needs root): %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	return dir
}

// TestRunOnFullDisk runs a sweep with its state on a 2 MB tmpfs: the
// workers cannot store the trace (no space left on device), and the run
// stops at once with an error saying so and how to resume, instead of
// failing the tasks for good or hanging. Resumed from a copy of that state
// on a roomy disk, it completes with the clean run's outputs.
func TestRunOnFullDisk(t *testing.T) {
	spec, want, dir, _, out := crashSetup(t)
	small := filepath.Join(mountTmpfs(t, "2m"), "state")
	r := schedfarm(t, dir, "run", "--workers", "2", "--state", small, "--out", out, spec)
	if err := r.wait(t, time.Minute); err == nil {
		t.Fatalf("a run on a full disk succeeded:\n%s", r.stdout.String())
	}
	got := r.stderr.String()
	for _, want := range []string{"no space left on device", "run the sweep again to resume", "environment"} {
		if !strings.Contains(got, want) {
			t.Errorf("the error does not say %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "panic") || strings.Contains(r.stdout.String(), "failed for good") {
		t.Errorf("the full disk made failures or a panic:\n%s", got)
	}
	roomy := filepath.Join(dir, "state")
	if out, err := exec.Command("cp", "-a", small, roomy).CombinedOutput(); err != nil {
		t.Fatalf("copy the state: %v %s", err, out)
	}
	r2 := schedfarm(t, dir, "run", "--workers", "2", "--state", roomy, "--out", out, spec)
	r2.mustSucceed(t, 2*time.Minute)
	if got := r2.stdout.String(); !strings.Contains(got, "resuming with") || !strings.Contains(got, "0 failed") {
		t.Errorf("the resumed run:\n%s", got)
	}
	sameOutputs(t, out, want)
}
