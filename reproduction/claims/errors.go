package claims

import (
	"errors"

	"github.com/schedfarm/schedfarm/yamlerr"
)

// The errors of the claims' own rules and of their evaluation. An invalid
// claims file gives a [*yamlerr.ValidationError] that matches ErrInvalid
// and lists every problem; each problem wraps one of the YAML format's
// errors ([yamlerr.ErrType], [yamlerr.ErrValue], ...) or one of these.
// Test with [errors.Is].
var (
	// ErrInvalid is matched by every claims file's
	// [*yamlerr.ValidationError].
	ErrInvalid = errors.New("invalid claims file")
	// ErrNoMatch means a claim's selection matches no row of the outputs.
	ErrNoMatch = errors.New("selection matches nothing")
	// ErrAmbiguous means a selection matches several rows where it must
	// match one per replication.
	ErrAmbiguous = errors.New("ambiguous selection")
	// ErrFewReplications means a single_run claim's selection has a value
	// in fewer than MinSingleRunReps replications.
	ErrFewReplications = errors.New("too few replications")
)

// problem returns an error wrapping sentinel whose text is the formatted
// message alone.
func problem(sentinel error, format string, a ...any) error {
	return yamlerr.Problem(sentinel, format, a...)
}
