package farmtest

import (
	"path/filepath"
	"testing"
	"time"
)

// TestDeterminism runs one spec with different numbers of workers, embedded
// and distributed: the content outputs must be byte-identical (the spec is
// small enough that no Parquet column falls back from dictionary
// encoding, see sameOutputs).
func TestDeterminism(t *testing.T) {
	spec := testdata(t, "small.yaml")
	want := cleanRun(t, spec)

	for _, workers := range []string{"1", "4"} {
		t.Run("Workers"+workers, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			schedfarm(t, dir, "run", "--workers", workers, "--state", filepath.Join(dir, "state"), "--out", out, spec).mustSucceed(t, time.Minute)
			sameOutputs(t, out, want)
		})
	}

	t.Run("Distributed", func(t *testing.T) {
		dir := t.TempDir()
		out := filepath.Join(dir, "out")
		ns := startNATS(t)
		ns.worker(t, dir, "--concurrency", "2")
		ns.worker(t, dir, "--concurrency", "1")
		ns.coordinator(t, dir, filepath.Join(dir, "state"), out, spec).mustSucceed(t, time.Minute)
		sameOutputs(t, out, want)
	})

	t.Run("Cached", func(t *testing.T) {
		// Run twice with one state: the second run takes every result
		// from the cache and writes the same bytes.
		dir := t.TempDir()
		state := filepath.Join(dir, "state")
		schedfarm(t, dir, "run", "--state", state, "--out", filepath.Join(dir, "out1"), spec).mustSucceed(t, time.Minute)
		p := schedfarm(t, dir, "run", "--state", state, "--out", filepath.Join(dir, "out2"), spec)
		p.mustSucceed(t, time.Minute)
		if got := p.stdout.String(); !contains(got, "6 cached results reused") {
			t.Errorf("second run's output does not report the cache:\n%s", got)
		}
		sameOutputs(t, filepath.Join(dir, "out2"), want)
	})
}
