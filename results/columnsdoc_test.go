package results_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/internal/golden"
	"github.com/schedfarm/schedfarm/results"
)

var update = flag.Bool("update", false, "rewrite docs/columns.md")

// TestColumnsDoc_UpToDate fails when the column tables of docs/columns.md
// differ from what the code's column tables generate; -update rewrites
// them.
func TestColumnsDoc_UpToDate(t *testing.T) {
	root := filepath.Join("..")
	if *update {
		if _, err := results.WriteColumnsDoc(root); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(filepath.Join(root, results.ColumnsDoc))
	if err != nil {
		t.Fatal(err)
	}
	want, err := results.UpdateColumnsDoc(string(data))
	if err != nil {
		t.Fatal(err)
	}
	if d := golden.Diff(string(data), want); d != "" {
		t.Errorf("%s is stale at %s\n(regenerate: go test ./results -run TestColumnsDoc_UpToDate -update)", results.ColumnsDoc, d)
	}
	if n := strings.Count(want, "<!-- begin columns "); n != 5 {
		t.Errorf("%s has %d generated tables, want 5 (task columns and the four files)", results.ColumnsDoc, n)
	}
}
