package claims_test

import (
	"path/filepath"
	"testing"

	"github.com/schedfarm/schedfarm/claims"
)

// BenchmarkEvaluate grades the claims of every golden case (about 40
// claims of every kind, on summary, tasks and jobs) against the fixture
// sweep, reading its Parquet files afresh each time, as
// `schedfarm reproduce --claims-only` does.
func BenchmarkEvaluate(b *testing.B) {
	dir := fixture(b)
	paths, _ := filepath.Glob(filepath.Join("testdata", "eval", "*", "claims.yaml"))
	var files []*claims.File
	n := 0
	for _, p := range paths {
		f, err := claims.Load(p, claims.Options{Paper: fixturePaper})
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, f)
		n += len(f.Claims)
	}
	b.ReportMetric(float64(n), "claims")
	b.ResetTimer()
	for range b.N {
		o := claims.NewOutputs(dir)
		for _, f := range files {
			claims.Evaluate(f, o)
		}
	}
}
