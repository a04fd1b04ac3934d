package results

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNewTempFile_RemovesStale: a temporary of the same output left by a
// killed writer is removed when the output is written again; other files
// stay.
func TestNewTempFile_RemovesStale(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".jobs.parquet.tmp-123")
	other := filepath.Join(dir, ".tasks.parquet.tmp-456")
	for _, p := range []string{stale, other} {
		if err := os.WriteFile(p, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tf, err := newTempFile(dir, "jobs.parquet")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(tf.f.Name())
	defer tf.f.Close()
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale temporary still there (stat: %v)", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another output's temporary was removed: %v", err)
	}
}
