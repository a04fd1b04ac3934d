package sweep

import (
	"errors"

	"github.com/schedfarm/schedfarm/yamlerr"
)

// The errors of a spec's own rules. An invalid spec gives a
// [*yamlerr.ValidationError] that matches ErrInvalidSpec and lists every
// problem; each problem wraps one of the YAML format's errors
// ([yamlerr.ErrSyntax], [yamlerr.ErrType], [yamlerr.ErrValue], ...), one
// of these, or, for policy names and parameters, the policy registry's
// (policy.ErrUnknownPolicy, policy.ErrUnknownParam, policy.ErrBadParam).
// Test with [errors.Is].
var (
	// ErrInvalidSpec is matched by every spec's [*yamlerr.ValidationError].
	ErrInvalidSpec = errors.New("invalid sweep spec")
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

// problem returns an error wrapping sentinel whose text is the formatted
// message alone.
func problem(sentinel error, format string, a ...any) error {
	return yamlerr.Problem(sentinel, format, a...)
}
