package readings

import (
	"errors"

	"github.com/schedfarm/schedfarm/internal/yamlnode"
)

// Sentinel errors wrapped by the problems a [ValidationError] lists; test
// with [errors.Is]. ErrSyntax to ErrValue are the errors of the YAML
// format, the same values as the spec parser's (sweep.ErrType is ErrType)
// and the claims parser's.
var (
	// ErrInvalid is matched by every [*ValidationError].
	ErrInvalid = errors.New("invalid readings file")
	// ErrSyntax means the file is not well-formed YAML.
	ErrSyntax = yamlnode.ErrSyntax
	// ErrUnknownKey means a mapping has a key the format does not define.
	ErrUnknownKey = yamlnode.ErrUnknownKey
	// ErrDuplicateKey means a mapping has the same key twice.
	ErrDuplicateKey = yamlnode.ErrDuplicateKey
	// ErrRequired means a required key is missing or empty.
	ErrRequired = yamlnode.ErrRequired
	// ErrType means a value has the wrong YAML shape or type.
	ErrType = yamlnode.ErrType
	// ErrValue means a value is out of range or not one of the allowed
	// ones.
	ErrValue = yamlnode.ErrValue
	// ErrNoMatch means an override names no policy entry of the groups it
	// applies to.
	ErrNoMatch = errors.New("matches no policy entry")
	// ErrSpec means a spec with a reading's overrides applied is not a
	// valid spec (a parameter the policy does not have, a bad value).
	ErrSpec = errors.New("spec with the reading applied is invalid")
)

// FieldError is one problem of a readings file at a key path such as
// "readings[2].set[0].params.defer_start"; its text is "line N: path:
// problem".
type FieldError = yamlnode.FieldError

// ValidationError lists every problem of a readings file, in file order.
// It matches [ErrInvalid] and, through Unwrap, each problem. Its text has
// one problem per line, each prefixed by the file if known.
type ValidationError = yamlnode.ValidationError

// problem returns an error wrapping sentinel whose text is the formatted
// message alone.
func problem(sentinel error, format string, a ...any) error {
	return yamlnode.Problem(sentinel, format, a...)
}
