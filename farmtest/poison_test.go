package farmtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/internal/testkit"
	"github.com/schedfarm/schedfarm/natsutil"
	"github.com/schedfarm/schedfarm/results"
)

// TestPoison corrupts one trace in the object store after the coordinator
// checked and published it: that trace's tasks fail on every worker with a
// sha256 mismatch; the sweep writes every output, lists the failures and
// exits non-zero.
func TestPoison(t *testing.T) {
	dir := t.TempDir()
	// A second trace file: KTH uncompressed (another sha256).
	kth, err := filepath.Abs(filepath.Join("..", "traces", "KTH-SP2-1996-2.1-cln.swf.gz"))
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(dir, "kth-copy.swf")
	sha := gunzip(t, kth, copyPath)
	tmpl, err := os.ReadFile(testdata(t, "poison.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "poison.yaml")
	yaml := strings.Replace(strings.Replace(string(tmpl), "trace: kth", "trace: "+kth, 1), "TRACE", copyPath, 1)
	if err := os.WriteFile(spec, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}

	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out")
	ns := startNATS(t)
	js := ns.js(t)
	c := ns.coordinator(t, dir, state, out, spec)
	testkit.CheckFor(t, 30*time.Second, 20*time.Millisecond, func() error {
		n, err := streamMsgs(js, natsutil.TaskStream)
		if err != nil || n != 4 {
			return errNotYet("4 tasks published")
		}
		return nil
	})
	obs, err := js.ObjectStore(context.Background(), natsutil.TraceBucket)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := obs.PutBytes(context.Background(), sha, []byte("; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n")); err != nil {
		t.Fatal(err)
	}
	ns.worker(t, dir, "--concurrency", "2")

	if err := c.wait(t, time.Minute); err == nil {
		t.Fatal("coordinator exited 0 with failed tasks")
	}
	stderr := c.stderr.String()
	for _, want := range []string{"2 of 4 tasks failed", "task 2 (", "task 3 (", "sha256 mismatch"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("coordinator stderr lacks %q:\n%s", want, stderr)
		}
	}
	rows, err := results.ReadTasks(filepath.Join(out, "tasks.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || rows[0].Error != "" || rows[1].Error != "" || rows[2].Error == "" || rows[3].Error == "" {
		t.Errorf("tasks.parquet error column wrong: %+v", rows)
	}
	jobs, err := results.ReadJobs(filepath.Join(out, "jobs.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 2*500 {
		t.Errorf("jobs.parquet has %d rows, want 1000 (the two good tasks')", len(jobs))
	}

	st := schedfarm(t, dir, "status", "--state", state, "poison")
	st.mustSucceed(t, 30*time.Second)
	if got := st.stdout.String(); !strings.Contains(got, "2 failed") || !strings.Contains(got, "failed: task 2") {
		t.Errorf("status does not list the failures:\n%s", got)
	}
}

// gunzip writes the decompressed bytes of src to dst and returns their
// hex sha256.
func gunzip(t *testing.T, src, dst string) string {
	t.Helper()
	b := testkit.Gunzip(t, src)
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
