package sweep

import (
	"errors"
	"fmt"
	"strings"

	"github.com/schedfarm/schedfarm/internal/yamlnode"
)

// Sentinel errors wrapped by the problems a [ValidationError] lists; test
// with [errors.Is]. Problems with policy names and parameters wrap the
// policy registry's errors (policy.ErrUnknownPolicy, policy.ErrUnknownParam,
// policy.ErrBadParam) instead.
var (
	// ErrInvalidSpec is matched by every [*ValidationError].
	ErrInvalidSpec = errors.New("invalid sweep spec")
	// ErrSyntax means the spec is not well-formed YAML.
	ErrSyntax = errors.New("yaml syntax")
	// ErrUnknownKey means a mapping has a key the format does not define.
	ErrUnknownKey = errors.New("unknown key")
	// ErrDuplicateKey means a mapping has the same key twice.
	ErrDuplicateKey = errors.New("duplicate key")
	// ErrRequired means a required key is missing or empty.
	ErrRequired = errors.New("required")
	// ErrType means a value has the wrong YAML shape or type.
	ErrType = errors.New("wrong type")
	// ErrValue means a value is out of range or not one of the allowed ones.
	ErrValue = errors.New("bad value")
	// ErrUnknownTrace means a trace is neither a shipped trace's name nor
	// an existing file.
	ErrUnknownTrace = errors.New("unknown trace")
	// ErrZip means a zip group is malformed: unknown or repeated axis
	// names, fewer than two names, or lists of different lengths.
	ErrZip = errors.New("bad zip group")
	// ErrDuplicateTask means two grid points expand to the same task.
	ErrDuplicateTask = errors.New("duplicate task")
	// ErrTooManyTasks means the spec expands to more than [MaxTasks] tasks.
	ErrTooManyTasks = errors.New("too many tasks")
)

// FieldError is one problem of a spec at a key path such as
// "policies[1].params.suspension_factor[0]".
type FieldError struct {
	// Path is the key path of the offending value; "" for the whole spec.
	Path string
	// Line is the 1-based line of the value in the spec (0: unknown).
	Line int
	// Err is the problem; it wraps one of the sentinel errors.
	Err error
}

// Error returns "path: problem".
func (e *FieldError) Error() string {
	if e.Path == "" {
		return e.Err.Error()
	}
	return e.Path + ": " + e.Err.Error()
}

// Unwrap returns the problem.
func (e *FieldError) Unwrap() error { return e.Err }

// ValidationError lists every problem found in a spec, in the order of the
// spec. It matches [ErrInvalidSpec] and, through Unwrap, each problem.
type ValidationError struct {
	// File is the spec's path when it was read by [Load] ("" otherwise).
	File string
	// Problems are the problems, at least one.
	Problems []*FieldError
}

// Error returns one problem per line, each prefixed by the file and line
// if known ("specs/x.yaml:12: policies[1].params.interval: ...").
func (e *ValidationError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		switch {
		case e.File != "" && p.Line > 0:
			fmt.Fprintf(&b, "%s:%d: ", e.File, p.Line)
		case e.File != "":
			b.WriteString(e.File)
			b.WriteString(": ")
		}
		b.WriteString(p.Error())
	}
	return b.String()
}

// Is reports whether target is [ErrInvalidSpec].
func (e *ValidationError) Is(target error) bool { return target == ErrInvalidSpec }

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
