package testkit

import (
	"os"
	"path/filepath"
	"testing"
)

// ReadFiles returns the content of every file in dir whose name matches
// pattern (as [filepath.Match] reads it), by file name; it fails the test
// when there is none or one cannot be read.
func ReadFiles(tb testing.TB, dir, pattern string) map[string][]byte {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no %s files in %s: %v", pattern, dir, err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		out[filepath.Base(p)] = b
	}
	return out
}
