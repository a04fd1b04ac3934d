package readings

import (
	"errors"
	"fmt"
	"strings"

	"github.com/schedfarm/schedfarm/internal/yamlnode"
)

// Sentinel errors wrapped by the problems a [ValidationError] lists; test
// with [errors.Is].
var (
	// ErrInvalid is matched by every [*ValidationError].
	ErrInvalid = errors.New("invalid readings file")
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
	// ErrNoMatch means an override names no policy entry of the groups it
	// applies to.
	ErrNoMatch = errors.New("matches no policy entry")
	// ErrSpec means a spec with a reading's overrides applied is not a
	// valid spec (a parameter the policy does not have, a bad value).
	ErrSpec = errors.New("spec with the reading applied is invalid")
)

// FieldError is one problem of a readings file at a key path such as
// "readings[2].set[0].params.defer_start".
type FieldError struct {
	// Path is the key path of the offending value; "" for the whole file.
	Path string
	// Line is the 1-based line of the value (0: unknown).
	Line int
	// Err is the problem; it wraps one of the sentinel errors.
	Err error
}

// Error returns "line N: path: problem".
func (e *FieldError) Error() string {
	var b strings.Builder
	if e.Line > 0 {
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

// ValidationError lists every problem of a readings file, in file order.
// It matches [ErrInvalid] and, through Unwrap, each problem.
type ValidationError struct {
	// File is the file's path when read by [Load].
	File     string
	Problems []*FieldError
}

// Error returns one problem per line, each prefixed by the file if known.
func (e *ValidationError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		if e.File != "" {
			b.WriteString(e.File + ": ")
		}
		b.WriteString(p.Error())
	}
	return b.String()
}

// Is matches [ErrInvalid].
func (e *ValidationError) Is(target error) bool { return target == ErrInvalid }

// Unwrap returns the problems.
func (e *ValidationError) Unwrap() []error {
	out := make([]error, len(e.Problems))
	for i, p := range e.Problems {
		out[i] = p
	}
	return out
}

// problem returns an error wrapping sentinel whose text is the formatted
// message alone.
func problem(sentinel error, format string, a ...any) error {
	return yamlnode.Problem(sentinel, format, a...)
}
