// Package yamlerr holds the errors of the YAML files schedfarm validates
// (sweep specs, claims files, readings files, paper files), one block for
// all of them: the errors of the format ([ErrSyntax], [ErrUnknownKey],
// [ErrDuplicateKey], [ErrRequired], [ErrType], [ErrValue]), which every
// problem wraps (test with [errors.Is]), the problem at a key path
// ([FieldError]) and the list of a file's problems ([ValidationError]).
// Each parser adds only the errors of its own rules (sweep.ErrInvalidSpec,
// sweep.ErrUnknownTrace, claims.ErrInvalid, claims.ErrNoMatch,
// readings.ErrInvalid, ...), which a [ValidationError]'s Invalid field or
// a problem wraps.
package yamlerr

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The errors of the YAML format, shared by every validating parser:
// a problem of a spec, a claims file or a readings file wraps one of
// them (or an error of the parser's own rules).
var (
	// ErrSyntax means the file is not well-formed YAML.
	ErrSyntax = errors.New("yaml syntax")
	// ErrUnknownKey means a mapping has a key the format does not define.
	ErrUnknownKey = errors.New("unknown key")
	// ErrDuplicateKey means a mapping has the same key twice.
	ErrDuplicateKey = errors.New("duplicate key")
	// ErrRequired means a required key is missing or empty.
	ErrRequired = errors.New("required")
	// ErrType means a value has the wrong YAML shape or type.
	ErrType = errors.New("wrong type")
	// ErrValue means a value is out of range or not one of the allowed
	// ones.
	ErrValue = errors.New("bad value")
)

// FieldError is one problem of a validated file at a key path such as
// "claims[3].select.category".
type FieldError struct {
	// Path is the key path of the offending value; "" for the whole file.
	Path string
	// Line is the 1-based line of the value (0: unknown).
	Line int
	// Err is the problem; it wraps one of the parser's sentinel errors.
	Err error
	// OwnLine gives the line in the problem's own text, "line N: path:
	// problem" (claims and readings files). Without it the text is
	// "path: problem", and a [ValidationError] that names its file puts
	// the line after the file's name, "file:N: path: problem" (sweep
	// specs).
	OwnLine bool
}

// Error returns "path: problem", or "line N: path: problem" with
// OwnLine; a part that is unknown is left out.
func (e *FieldError) Error() string {
	var b strings.Builder
	if e.OwnLine && e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Path != "" {
		b.WriteString(e.Path + ": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the problem.
func (e *FieldError) Unwrap() error { return e.Err }

// ValidationError lists every problem of a file, in file order. It
// matches its Invalid sentinel and, through Unwrap, each problem.
type ValidationError struct {
	// File is the file's path when it was read from a file ("" otherwise).
	File string
	// Problems are the problems, at least one.
	Problems []*FieldError
	// Invalid is the parser's sentinel for an invalid file
	// (sweep.ErrInvalidSpec, claims.ErrInvalid, readings.ErrInvalid).
	Invalid error
}

// MaxShown is how many problems a [ValidationError]'s text lists; the
// rest are counted on one more line. A generated file with 100,000 bad
// values gives 21 lines, not 100,000: the first problems show what is
// wrong, and the error still holds every problem (Problems, Unwrap).
const MaxShown = 20

// Error returns one problem per line, each prefixed by the file if known
// and, for problems without OwnLine, the line after it
// ("specs/x.yaml:12: policies[1].params.interval: ..."): the first
// [MaxShown], then, if there are more, "... and N more problems (M in
// all)".
func (e *ValidationError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems[:min(len(e.Problems), MaxShown)] {
		if i > 0 {
			b.WriteByte('\n')
		}
		switch {
		case e.File != "" && !p.OwnLine && p.Line > 0:
			fmt.Fprintf(&b, "%s:%d: ", e.File, p.Line)
		case e.File != "":
			b.WriteString(e.File + ": ")
		}
		b.WriteString(p.Error())
	}
	if rest := len(e.Problems) - MaxShown; rest > 0 {
		b.WriteByte('\n')
		if e.File != "" {
			b.WriteString(e.File + ": ")
		}
		s := "s"
		if rest == 1 {
			s = ""
		}
		fmt.Fprintf(&b, "... and %s more problem%s (%s in all)", thousands(rest), s, thousands(len(e.Problems)))
	}
	return b.String()
}

// thousands formats n >= 0 with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Is reports whether target is the Invalid sentinel.
func (e *ValidationError) Is(target error) bool { return target == e.Invalid }

// Unwrap returns the problems.
func (e *ValidationError) Unwrap() []error {
	out := make([]error, len(e.Problems))
	for i, p := range e.Problems {
		out[i] = p
	}
	return out
}

// Problem returns an error with its own text that wraps sentinel (for
// [errors.Is]).
func Problem(sentinel error, format string, a ...any) error {
	return &problemError{msg: fmt.Sprintf(format, a...), err: sentinel}
}

type problemError struct {
	msg string
	err error
}

func (e *problemError) Error() string { return e.msg }
func (e *problemError) Unwrap() error { return e.err }
