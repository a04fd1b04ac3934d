// Package envfault tells environment errors from task errors: the system
// errors that say something about the machine a process runs on (its
// disks, its permissions, its limits) rather than about the work it was
// given. Workers do not turn them into task failures, and the coordinator
// stops a sweep on them with an error that says what to fix; a resume then
// runs the affected tasks again.
package envfault

import (
	"errors"
	"os"
	"syscall"
)

// errnos are the environment errors: no space or quota left, permission
// denied, a read-only file system, an I/O error, too many open files, a
// file size limit.
var errnos = []syscall.Errno{
	syscall.ENOSPC, syscall.EDQUOT, syscall.EACCES, syscall.EPERM,
	syscall.EROFS, syscall.EIO, syscall.EMFILE, syscall.ENFILE, syscall.EFBIG,
}

// Is reports whether err is an environment error: one of the system
// errors above anywhere in its chain.
func Is(err error) bool {
	if errors.Is(err, os.ErrPermission) {
		return true
	}
	for _, e := range errnos {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
