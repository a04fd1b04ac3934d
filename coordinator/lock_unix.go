//go:build unix

package coordinator

import (
	"errors"
	"os"
	"syscall"
)

// writerHolds reports whether a process holds the Badger directory dir
// open for writing (Badger flocks the directory exclusively then), so
// that its files are not checked while they are being written.
func writerHolds(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return true
	}
	if err == nil {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	}
	return false
}

// lockDir takes an exclusive lock on the directory dir (created if
// missing) for this process, or fails with [ErrOutLocked] when another
// process holds it. The lock ends with release, or with the process.
//
// A directory lockDir created is removed on release if it is still
// empty (the run wrote nothing).
func lockDir(dir string) (release func(), err error) {
	_, statErr := os.Stat(dir)
	created := errors.Is(statErr, os.ErrNotExist)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	unlock := func(f *os.File) {
		f.Close()
		if created {
			_ = os.Remove(dir) // fails, as it should, unless empty
		}
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrOutLocked
		}
		return nil, err
	}
	return func() { unlock(f) }, nil
}
