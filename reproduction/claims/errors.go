package claims

import (
	"errors"

	"github.com/schedfarm/schedfarm/internal/yamlnode"
)

// Sentinel errors wrapped by the problems a [ValidationError] lists and by
// evaluation errors; test with [errors.Is]. ErrSyntax to ErrValue are
// the errors of the YAML format, the same values as the spec parser's
// (sweep.ErrType is ErrType) and the readings parser's.
var (
	// ErrInvalid is matched by every [*ValidationError].
	ErrInvalid = errors.New("invalid claims file")
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
	// ErrNoMatch means a claim's selection matches no row of the outputs.
	ErrNoMatch = errors.New("selection matches nothing")
	// ErrAmbiguous means a selection matches several rows where it must
	// match one per replication.
	ErrAmbiguous = errors.New("ambiguous selection")
	// ErrFewReplications means a single_run claim's selection has a value
	// in fewer than MinSingleRunReps replications.
	ErrFewReplications = errors.New("too few replications")
)

// FieldError is one problem of a claims file at a key path such as
// "claims[3].select.category"; its text is "line N: path: problem".
type FieldError = yamlnode.FieldError

// ValidationError lists every problem of a claims file, in file order. It
// matches [ErrInvalid] and, through Unwrap, each problem. Its text has one
// problem per line, each prefixed by the file if known.
type ValidationError = yamlnode.ValidationError

// problem returns an error wrapping sentinel whose text is the formatted
// message alone.
func problem(sentinel error, format string, a ...any) error {
	return yamlnode.Problem(sentinel, format, a...)
}
