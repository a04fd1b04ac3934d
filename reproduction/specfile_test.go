package reproduction

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadSpecFile_PaperFolder: a shipped spec whose TSS entries ask for the
// paper's limits loads for run, coordinator and status as it does for
// reproduce (the limits filled from the claims file), from the repository
// root and from inside its folder alike; the same file copied out of a
// paper's folder is refused at the entry's key path.
func TestLoadSpecFile_PaperFolder(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(root, "specs", "kettimuthu2005", "fig15-18.yaml")
	s, err := LoadSpecFile(spec)
	if err != nil {
		t.Fatalf("load %s: %v", spec, err)
	}
	limited := 0
	tasks, err := s.Tasks()
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		if v, ok := task.Params["tss_limits"].(string); ok && v != "" {
			limited++
		}
	}
	if limited == 0 {
		t.Fatal("no task of fig15-18 carries tss_limits")
	}
	t.Chdir(filepath.Dir(spec))
	s2, err := LoadSpecFile("fig15-18.yaml")
	if err != nil {
		t.Fatalf("load from the spec's folder: %v", err)
	}
	if s2.Hash != s.Hash {
		t.Errorf("hash from the spec's folder %s, from an absolute path %s", s2.Hash, s.Hash)
	}

	data, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "fig15-18.yaml")
	if err := os.WriteFile(other, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadSpecFile(other); err == nil || !strings.Contains(err.Error(), "tss_paper_limits: true needs the paper's means in tss_limits") {
		t.Fatalf("copy outside a paper's folder: got %v, want the missing tss_limits named", err)
	}
}
