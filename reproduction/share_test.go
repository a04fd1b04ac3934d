package reproduction

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestShareSweep: the shared folder ends up with exactly the source's
// files and contents; what it held before is gone.
func TestShareSweep(t *testing.T) {
	from, to := filepath.Join(t.TempDir(), "a", "sweep"), filepath.Join(t.TempDir(), "b", "sweep")
	for _, d := range []string{from, to, filepath.Join(from, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{"jobs.parquet": "jobs", "tasks.parquet": "tasks", "tables.md": "| x |\n"}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(from, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(to, "stale.parquet"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := shareSweep(from, to); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(to)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"jobs.parquet", "tables.md", "tasks.parquet"}; !slices.Equal(names, want) {
		t.Fatalf("shared folder holds %v, want %v", names, want)
	}
	for name, body := range files {
		got, err := os.ReadFile(filepath.Join(to, name))
		if err != nil || string(got) != body {
			t.Errorf("%s: %q, %v; want %q", name, got, err, body)
		}
	}
	if err := shareSweep(filepath.Join(from, "missing"), to); err == nil {
		t.Error("sharing a missing folder succeeded")
	}
}
