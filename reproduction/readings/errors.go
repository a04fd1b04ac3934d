package readings

import (
	"errors"

	"github.com/schedfarm/schedfarm/yamlerr"
)

// The errors of the readings' own rules. An invalid readings file gives
// a [*yamlerr.ValidationError] that matches ErrInvalid and lists every
// problem; each problem wraps one of the YAML format's errors
// ([yamlerr.ErrType], [yamlerr.ErrValue], ...) or one of these. Test
// with [errors.Is].
var (
	// ErrInvalid is matched by every readings file's
	// [*yamlerr.ValidationError].
	ErrInvalid = errors.New("invalid readings file")
	// ErrNoMatch means an override names no policy entry of the groups it
	// applies to.
	ErrNoMatch = errors.New("matches no policy entry")
	// ErrSpec means a spec with a reading's overrides applied is not a
	// valid spec (a parameter the policy does not have, a bad value).
	ErrSpec = errors.New("spec with the reading applied is invalid")
)

// problem returns an error wrapping sentinel whose text is the formatted
// message alone.
func problem(sentinel error, format string, a ...any) error {
	return yamlerr.Problem(sentinel, format, a...)
}
