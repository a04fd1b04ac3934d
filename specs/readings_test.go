package specs

import (
	"path/filepath"
	"testing"

	"github.com/schedfarm/schedfarm/readings"
)

// readingsFiles returns the papers with a readings file, each with its
// parsed file (validated against the paper's specs: every override is
// applied and the specs parsed again).
func readingsFiles(t *testing.T) map[string]*readings.File {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("*", readings.FileName))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*readings.File{}
	for _, p := range paths {
		f, err := readings.LoadPaper("..", filepath.Dir(p))
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		out[f.Paper] = f
	}
	return out
}

// TestReadings_Valid validates every specs/*/readings.yaml.
func TestReadings_Valid(t *testing.T) {
	for paper, f := range readingsFiles(t) {
		t.Logf("%s: %d readings", paper, len(f.Readings))
	}
}
