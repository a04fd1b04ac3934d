package claims_test

import (
	"bytes"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/schedfarm/schedfarm/internal/golden"
	"github.com/schedfarm/schedfarm/reproduction/claims"
)

// columnList matches the lists of columns in error messages.
var columnList = regexp.MustCompile(`(no numeric column "[^"]*" \(have:|no such column or parameter \(valid:)[^)]*\)`)

// TestEvaluate_Golden grades testdata/eval/<case>/claims.yaml against the
// fixture sweep and compares the scorecard with <case>/scorecard.md.golden.
// Each case's claims file says in its header what it exercises.
func TestEvaluate_Golden(t *testing.T) {
	dir := fixture(t)
	cases, err := filepath.Glob(filepath.Join("testdata", "eval", "*", "claims.yaml"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, path := range cases {
		name := filepath.Base(filepath.Dir(path))
		t.Run(name, func(t *testing.T) {
			f, err := claims.Load(path, claims.Options{Paper: fixturePaper})
			if err != nil {
				t.Fatal(err)
			}
			sc := claims.Evaluate(f, claims.NewOutputs(dir))
			var md bytes.Buffer
			if err := sc.WriteMarkdown(&md); err != nil {
				t.Fatal(err)
			}
			got := md.String()
			if err := sc.Err(); err != nil {
				got += "\nErr():\n" + err.Error() + "\n"
			}
			// Column lists grow as policy families add columns: keep
			// them out of the golden files.
			got = columnList.ReplaceAllString(got, "$1 ...)")
			golden.Check(t, filepath.Join(filepath.Dir(path), "scorecard.md.golden"), got, *update)
		})
	}
}
