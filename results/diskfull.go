package results

import (
	"errors"
	"fmt"
	"syscall"
)

// diskFullError replaces the text of a write error caused by a full disk
// (the Parquet library reports it as "unknown error type: write ...") by
// a plain one; it still wraps the cause, so errors.Is(err,
// syscall.ENOSPC) holds.
type diskFullError struct {
	dir string
	err error
}

func (e *diskFullError) Error() string {
	return fmt.Sprintf("write outputs to %s: the disk is full (no space left on device); the previous outputs are unchanged, free some space and run again (results are kept in the state)", e.dir)
}

func (e *diskFullError) Unwrap() error { return e.err }

// explainWriteErr returns err, or a *diskFullError when the disk is full.
func explainWriteErr(dir string, err error) error {
	if err != nil && errors.Is(err, syscall.ENOSPC) {
		return &diskFullError{dir: dir, err: err}
	}
	return err
}
