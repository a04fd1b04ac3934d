// Package golden compares test output with golden files. Tests call
// [Check] with their -update flag; a failure names the golden file, the
// line and column of the first difference, and both lines.
package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Diff returns "" when got equals want, else "LINE:COL: got "...", want "..."",
// locating the first difference (1-based) and quoting both lines there.
func Diff(got, want string) string {
	if got == want {
		return ""
	}
	line, col := 1, 1
	for i := 0; i < len(got) && i < len(want) && got[i] == want[i]; i++ {
		col++
		if got[i] == '\n' {
			line, col = line+1, 1
		}
	}
	return fmt.Sprintf("%d:%d: got %q, want %q", line, col, lineAt(got, line), lineAt(want, line))
}

func lineAt(s string, n int) string {
	lines := strings.Split(s, "\n")
	if n >= 1 && n <= len(lines) {
		return lines[n-1]
	}
	return ""
}

// Check compares got with the golden file at path. With update it writes
// got to path instead (creating directories); review the diff of golden
// files like code.
func Check(tb testing.TB, path, got string, update bool) {
	tb.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (go test -run '%s' -update creates it)", err, tb.Name())
	}
	if d := Diff(got, string(want)); d != "" {
		tb.Errorf("%s:%s\n(differs from the golden file; after review, go test -run '%s' -update rewrites it)", path, d, tb.Name())
	}
}
