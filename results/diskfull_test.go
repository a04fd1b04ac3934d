package results

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"testing"
)

func TestExplainWriteErr(t *testing.T) {
	full := fmt.Errorf("write jobs.parquet: unknown error type: %w", &fs.PathError{Op: "write", Path: "out/.jobs.parquet.tmp-1", Err: syscall.ENOSPC})
	err := explainWriteErr("out", full)
	if !errors.Is(err, syscall.ENOSPC) || strings.Contains(err.Error(), "unknown error type") || !strings.Contains(err.Error(), "the disk is full") {
		t.Errorf("explainWriteErr(ENOSPC)=%v, want a plain disk-full message wrapping ENOSPC", err)
	}
	other := errors.New("boom")
	if got := explainWriteErr("out", other); got != other {
		t.Errorf("explainWriteErr(other)=%v, want it unchanged", got)
	}
}
