package worker

import "github.com/schedfarm/schedfarm/internal/envfault"

// IsEnvironment reports whether err is an environment error (see package
// envfault: no space left, permission denied, an I/O error and the like).
// A task that meets one is not failed: the worker reports the error, the
// coordinator stops the sweep with it, and a resume (once the cause is
// fixed) runs the task again.
func IsEnvironment(err error) bool { return envfault.Is(err) }
