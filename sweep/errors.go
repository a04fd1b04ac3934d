package sweep

import (
	"errors"

	"github.com/schedfarm/schedfarm/internal/yamlnode"
)

// Sentinel errors wrapped by the problems a [ValidationError] lists; test
// with [errors.Is]. Problems with policy names and parameters wrap the
// policy registry's errors (policy.ErrUnknownPolicy, policy.ErrUnknownParam,
// policy.ErrBadParam) instead. ErrSyntax to ErrValue are the errors of
// the YAML format, the same values as the claims and readings parsers'
// (claims.ErrType is ErrType).
var (
	// ErrInvalidSpec is matched by every [*ValidationError].
	ErrInvalidSpec = errors.New("invalid sweep spec")
	// ErrSyntax means the spec is not well-formed YAML.
	ErrSyntax = yamlnode.ErrSyntax
	// ErrUnknownKey means a mapping has a key the format does not define.
	ErrUnknownKey = yamlnode.ErrUnknownKey
	// ErrDuplicateKey means a mapping has the same key twice.
	ErrDuplicateKey = yamlnode.ErrDuplicateKey
	// ErrRequired means a required key is missing or empty.
	ErrRequired = yamlnode.ErrRequired
	// ErrType means a value has the wrong YAML shape or type.
	ErrType = yamlnode.ErrType
	// ErrValue means a value is out of range or not one of the allowed ones.
	ErrValue = yamlnode.ErrValue
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
// "policies[1].params.suspension_factor[0]"; its text is "path: problem"
// (the line is given by the [ValidationError]).
type FieldError = yamlnode.FieldError

// ValidationError lists every problem found in a spec, in the order of the
// spec. It matches [ErrInvalidSpec] and, through Unwrap, each problem. Its
// text has one problem per line, each prefixed by the file and line if
// known ("specs/x.yaml:12: policies[1].params.interval: ...").
type ValidationError = yamlnode.ValidationError

// problem returns an error wrapping sentinel whose text is the formatted
// message alone.
func problem(sentinel error, format string, a ...any) error {
	return yamlnode.Problem(sentinel, format, a...)
}
