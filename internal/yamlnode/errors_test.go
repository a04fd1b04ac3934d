package yamlnode

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidationError_Error checks both line styles, with and without a
// file, and that a problem without a line or path leaves that part out.
func TestValidationError_Error(t *testing.T) {
	invalid, bad := errors.New("invalid"), errors.New("bad value")
	problems := func(own bool) []*FieldError {
		return []*FieldError{
			{Line: 0, Err: Problem(bad, "whole file"), OwnLine: own},
			{Path: "a.b", Line: 3, Err: Problem(bad, "too large"), OwnLine: own},
		}
	}
	cases := []struct {
		file string
		own  bool
		want string
	}{
		{"", false, "whole file\na.b: too large"},
		{"f.yaml", false, "f.yaml: whole file\nf.yaml:3: a.b: too large"},
		{"", true, "whole file\nline 3: a.b: too large"},
		{"f.yaml", true, "f.yaml: whole file\nf.yaml: line 3: a.b: too large"},
	}
	for _, c := range cases {
		err := &ValidationError{File: c.file, Problems: problems(c.own), Invalid: invalid}
		if got := err.Error(); got != c.want {
			t.Errorf("file %q, OwnLine %v: Error() = %q, want %q", c.file, c.own, got, c.want)
		}
		if !errors.Is(err, invalid) || !errors.Is(err, bad) {
			t.Errorf("file %q, OwnLine %v: does not match its Invalid sentinel and its problems' sentinel", c.file, c.own)
		}
		if errors.Is(err, errors.New("invalid")) {
			t.Errorf("file %q, OwnLine %v: matches another sentinel", c.file, c.own)
		}
	}
}

func TestParseFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.yaml")
	if err := os.WriteFile(path, []byte("x: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := errors.New("bad")
	got, err := ParseFile(path, "things", func(data []byte) (string, error) {
		return string(data), &ValidationError{Problems: []*FieldError{{Path: "x", Line: 1, Err: bad, OwnLine: true}}, Invalid: bad}
	})
	var ve *ValidationError
	if got != "x: 1\n" || !errors.As(err, &ve) || ve.File != path || !strings.Contains(err.Error(), path) {
		t.Errorf("ParseFile = %q, %v; want the data and an error naming %s", got, err, path)
	}
	_, err = ParseFile(filepath.Join(dir, "none.yaml"), "things", func([]byte) (int, error) { return 1, nil })
	if err == nil || !strings.HasPrefix(err.Error(), "read things: ") || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
