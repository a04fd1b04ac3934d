package sweep_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schedfarm/schedfarm/sweep"
)

// BenchmarkParse parses and expands the quickstart spec (trace hashes and
// job counts cached after the first iteration).
func BenchmarkParse(b *testing.B) {
	path := filepath.Join("..", "specs", "quickstart.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := sweep.Parse(data, filepath.Dir(path)); err != nil {
			b.Fatal(err)
		}
	}
}
