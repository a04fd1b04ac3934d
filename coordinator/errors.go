package coordinator

import (
	"errors"
	"fmt"
	"strings"
)

// ErrTasksFailed is matched by every [*FailedError].
var ErrTasksFailed = errors.New("tasks failed")

// TaskFailure is one failed task of a sweep.
type TaskFailure struct {
	// Index and ID identify the task.
	Index int
	ID    string
	// Task describes the task (trace, subset, policy, parameters, ...).
	Task string
	// Err is the failure as the worker reported it.
	Err string
}

// FailedError is returned by [Coordinator.Run] when a sweep finished with
// failed tasks. The outputs are written all the same; the failed tasks
// have their error in tasks.parquet.
type FailedError struct {
	// Sweep is the sweep's name and Total its number of tasks.
	Sweep string
	Total int
	// Failures lists the failed tasks by index.
	Failures []TaskFailure
}

// Error lists the failures, one per line.
func (e *FailedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "sweep %s: %d of %d tasks failed:", e.Sweep, len(e.Failures), e.Total)
	for _, f := range e.Failures {
		fmt.Fprintf(&b, "\n  task %d (%s, id %.12s): %s", f.Index, f.Task, f.ID, firstLine(f.Err))
	}
	return b.String()
}

// Is reports whether target is [ErrTasksFailed].
func (e *FailedError) Is(target error) bool { return target == ErrTasksFailed }

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}
