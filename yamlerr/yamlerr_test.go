package yamlerr

import (
	"errors"
	"fmt"
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

// TestValidationError_ErrorCapped checks that a file with 100,000
// problems prints the first MaxShown and a count of the rest, not 100,000
// lines, while Problems and Unwrap keep all of them.
func TestValidationError_ErrorCapped(t *testing.T) {
	bad := errors.New("bad value")
	for _, c := range []struct {
		n     int
		lines int
		last  string
	}{
		{MaxShown, MaxShown, "f.yaml:20: x[19]: got -1"},
		{MaxShown + 1, MaxShown + 1, "f.yaml: ... and 1 more problem (21 in all)"},
		{100000, MaxShown + 1, "f.yaml: ... and 99,980 more problems (100,000 in all)"},
	} {
		err := &ValidationError{File: "f.yaml", Invalid: errors.New("invalid")}
		for i := range c.n {
			err.Problems = append(err.Problems, &FieldError{Path: fmt.Sprintf("x[%d]", i), Line: i + 1, Err: Problem(bad, "got -1")})
		}
		lines := strings.Split(err.Error(), "\n")
		if len(lines) != c.lines || lines[len(lines)-1] != c.last || lines[0] != "f.yaml:1: x[0]: got -1" {
			t.Errorf("%d problems: %d lines, first %q, last %q; want %d lines, last %q", c.n, len(lines), lines[0], lines[len(lines)-1], c.lines, c.last)
		}
		if got := len(err.Unwrap()); got != c.n {
			t.Errorf("%d problems: Unwrap() gives %d", c.n, got)
		}
	}
}
