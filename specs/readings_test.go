package specs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schedfarm/schedfarm/internal/golden"
	"github.com/schedfarm/schedfarm/reproduction"
	"github.com/schedfarm/schedfarm/reproduction/claims"
	"github.com/schedfarm/schedfarm/reproduction/readings"
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
		f, err := reproduction.LoadReadings("..", filepath.Dir(p))
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

// TestReadings_Recorded checks each paper's recorded readings table
// (specs/<paper>/readings.csv) against its readings file (the same
// readings in order, with their summaries and overrides) and against the
// paper's recorded scorecard (the default row has its counts: a
// scorecard re-recorded since needs the readings recorded again). The
// readings themselves are not rerun here.
func TestReadings_Recorded(t *testing.T) {
	for paper, f := range readingsFiles(t) {
		t.Run(paper, func(t *testing.T) {
			path := filepath.Join(paper, readings.TableCSV)
			table, err := readings.ReadCSV(path)
			if err != nil {
				t.Fatalf("%v (record it: schedfarm reproduce --readings --record %s)", err, paper)
			}
			sc, err := claims.ReadCSV(filepath.Join(paper, claims.CommittedScorecard))
			if err != nil {
				t.Fatal(err)
			}
			if err := readings.CheckRecorded(table, f, sc); err != nil {
				t.Errorf("%s is stale; rerun schedfarm reproduce --readings --record %s:\n%v", path, paper, err)
			}
		})
	}
}

// TestReadingsDoc_UpToDate fails when the readings sections of
// REPRODUCING.md and the papers' pages (docs/papers) differ from what the recorded readings tables generate;
// -update rewrites them.
func TestReadingsDoc_UpToDate(t *testing.T) {
	root := ".."
	if *update {
		if _, err := readings.WriteDocs(root); err != nil {
			t.Fatal(err)
		}
	}
	docs, err := readings.Docs(root)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range docs {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if d := golden.Diff(string(got), want); d != "" {
			t.Errorf("%s is stale at %s\n(regenerate: go test ./specs -run TestReadingsDoc_UpToDate -update, or schedfarm reproduce --readings --record)", name, d)
		}
	}
}
