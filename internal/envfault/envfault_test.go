package envfault_test

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"testing"

	"github.com/schedfarm/schedfarm/internal/envfault"
)

func TestIs(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("fetch trace: %w", &os.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}), true},
		{fmt.Errorf("open: %w", os.ErrPermission), true},
		{&os.PathError{Op: "open", Path: "x", Err: syscall.EACCES}, true},
		{fmt.Errorf("read: %w", syscall.EIO), true},
		{&os.PathError{Op: "open", Path: "x", Err: syscall.ENOENT}, false},
		{errors.New("policy: bad parameter"), false},
		{nil, false},
	} {
		if got := envfault.Is(c.err); got != c.want {
			t.Errorf("Is(%v)=%v, want %v", c.err, got, c.want)
		}
	}
}

// TestIs_fullDisk writes to /dev/full, which fails with ENOSPC.
func TestIs_fullDisk(t *testing.T) {
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full")
	}
	defer f.Close()
	_, err = f.Write([]byte("x"))
	if !envfault.Is(err) {
		t.Errorf("write to /dev/full: %v, not an environment error", err)
	}
	if envfault.Is(fmt.Errorf("x: %w", os.ErrNotExist)) {
		t.Error("a missing file is not an environment error")
	}
}
