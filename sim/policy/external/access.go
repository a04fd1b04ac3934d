package external

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// ErrNotAllowed is wrapped by the error of an external policy on a host
// that does not allow it.
var ErrNotAllowed = errors.New("external policy not allowed")

// Access is what a host lets external policies do. A nil *Access refuses
// every external policy: that is the farm worker's default.
type Access struct {
	// Interpreters are the programs a command may start, by name as
	// written in the command (python3) or base name of a path; empty
	// allows any program (a user running a simulation on their own
	// machine).
	Interpreters []string
	// Dir is the child's working directory ("" for the current one).
	Dir string
	// Env is the child's environment (nil: see [Config.Env]).
	Env []string
	// Files, when not nil, maps each argument of the command that names
	// a file to the local path of a checked copy; an argument that is
	// not in it is passed as it is. The farm fills it with the policy
	// files that came with the sweep.
	Files map[string]string
}

// Check returns an error wrapping [ErrNotAllowed] when a (which may be
// nil) does not allow command's program.
func (a *Access) Check(command []string) error {
	if len(command) == 0 || command[0] == "" {
		return fmt.Errorf("%w: empty command", ErrProtocol)
	}
	if a == nil {
		return fmt.Errorf("%w: this host runs no external policies: start the worker (or schedfarm run) with --allow-external naming the interpreters it permits, for example --allow-external python3", ErrNotAllowed)
	}
	if len(a.Interpreters) == 0 {
		return nil
	}
	prog := command[0]
	if slices.Contains(a.Interpreters, prog) || slices.Contains(a.Interpreters, filepath.Base(prog)) {
		return nil
	}
	return fmt.Errorf("%w: program %q is not among the allowed interpreters (%s); start the worker (or schedfarm run) with --allow-external %s to allow it",
		ErrNotAllowed, prog, strings.Join(a.Interpreters, ", "), filepath.Base(prog))
}

type accessKey struct{}

// WithAccess returns a context carrying a, for code that builds policies
// deep inside a task's execution (the farm's runner reads it with
// [AccessFrom]).
func WithAccess(ctx context.Context, a *Access) context.Context {
	return context.WithValue(ctx, accessKey{}, a)
}

// AccessFrom returns the Access of ctx, or nil (external policies refused).
func AccessFrom(ctx context.Context) *Access {
	a, _ := ctx.Value(accessKey{}).(*Access)
	return a
}
