package claims_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schedfarm/schedfarm/reproduction/claims"
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

// BenchmarkEvaluate_Reproduced grades every paper's claims file against
// the paper's outputs under out/reproduce (as `schedfarm reproduce
// --claims-only out/reproduce` does, without writing the scorecards). It
// is skipped for papers not reproduced in this checkout: run `schedfarm
// reproduce kettimuthu2005` (or all) from the repository root first.
func BenchmarkEvaluate_Reproduced(b *testing.B) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "specs", "*", "claims.yaml"))
	ran := false
	for _, p := range paths {
		paper := filepath.Base(filepath.Dir(p))
		out := filepath.Join("..", "..", "out", "reproduce", paper)
		if _, err := os.Stat(out); err != nil {
			continue
		}
		ran = true
		b.Run(paper, func(b *testing.B) {
			f, err := claims.Load(p, claims.Options{Paper: paper})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(len(f.Claims)), "claims")
			for range b.N {
				if s := claims.Evaluate(f, claims.NewOutputs(out)); len(s.Rows) != len(f.Claims) {
					b.Fatalf("%d rows for %d claims", len(s.Rows), len(f.Claims))
				}
			}
		})
	}
	if !ran {
		b.Skip("no paper reproduced under ../out/reproduce")
	}
}
