package testkit

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReadFiles(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"a.yaml": "a", "b.yaml": "b", "c.txt": "c"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := ReadFiles(t, dir, "*.yaml")
	if len(got) != 2 || string(got["a.yaml"]) != "a" || string(got["b.yaml"]) != "b" {
		t.Errorf("ReadFiles()=%q, want a.yaml and b.yaml", got)
	}
}
