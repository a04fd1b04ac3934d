package golden

import "testing"

func TestDiff(t *testing.T) {
	tests := []struct{ got, want, diff string }{
		{"a\nb\n", "a\nb\n", ""},
		{"a\nbc\n", "a\nbd\n", `2:2: got "bc", want "bd"`},
		{"a\n", "a\nb\n", `2:1: got "", want "b"`},
		{"x", "y", `1:1: got "x", want "y"`},
	}
	for _, tt := range tests {
		if got := Diff(tt.got, tt.want); got != tt.diff {
			t.Errorf("Diff(%q, %q) = %q, want %q", tt.got, tt.want, got, tt.diff)
		}
	}
}

func TestCheck(t *testing.T) {
	path := t.TempDir() + "/sub/x.golden"
	Check(t, path, "hello\n", true)
	Check(t, path, "hello\n", false)
}
