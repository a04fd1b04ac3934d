package sweep_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sweep"
)

// TestParse_ShippedTraceAnywhere: a spec outside the repository (no
// traces/ directory above it) may still name a shipped trace; the copy in
// the binary is written to the user's cache directory and has the
// repository file's sha256.
func TestParse_ShippedTraceAnywhere(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", filepath.Join(t.TempDir(), "cache"))
	t.Setenv("HOME", t.TempDir())
	dir := t.TempDir()
	spec := "name: anywhere\nworkloads: [{trace: kth, count: 100}]\npolicies: [{name: easy}]\n"
	for range 2 { // the second parse reuses the copy
		s, err := sweep.Parse([]byte(spec), dir)
		if err != nil {
			t.Fatalf("Parse(spec outside the repository)=%v", err)
		}
		tf := s.Traces()
		if len(tf) != 1 || !strings.Contains(tf[0].Path, filepath.Join("schedfarm", "shipped-traces")) {
			t.Fatalf("traces %+v, want the copy from the binary", tf)
		}
		repo, err := sweep.Parse([]byte(spec), filepath.Join("..", "specs"))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := tf[0].SHA256, repo.Traces()[0].SHA256; got != want {
			t.Errorf("embedded copy sha256 %s, repository file %s", got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "schedfarm", "shipped-traces", "KTH-SP2-1996-2.1-cln.swf.gz")); err != nil {
		t.Error(err)
	}
}
