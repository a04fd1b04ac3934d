package workload

import (
	"errors"
	"fmt"
)

// Sentinel errors. A [*ParseError] or an error returned by [Trace.Build]
// wraps one of them; test with [errors.Is].
var (
	// ErrFieldCount means a job line does not have exactly 18 fields.
	ErrFieldCount = errors.New("wrong number of fields")
	// ErrNotNumber means a field is not a decimal number.
	ErrNotNumber = errors.New("not a number")
	// ErrNotInteger means a job id, processor count, status or one of
	// the numbers of fields 12-17 has a fractional part.
	ErrNotInteger = errors.New("not an integer")
	// ErrRange means a field's absolute value exceeds [MaxValue].
	ErrRange = errors.New("out of range")
	// ErrNegativeSubmit means a job's submit time (field 2) is below 0.
	ErrNegativeSubmit = errors.New("a negative submit time")
	// ErrDuplicateID means two job lines have the same job id (field 1).
	ErrDuplicateID = errors.New("duplicate job id")
	// ErrEmpty means the input has no job lines, or every job was dropped.
	ErrEmpty = errors.New("no jobs")
	// ErrNoMachineSize means the header has no MaxProcs or MaxNodes and the
	// caller gave no machine size.
	ErrNoMachineSize = errors.New("no machine size")
	// ErrBadHeader means a header value the reader needs (MaxProcs,
	// MaxNodes) is not a positive integer.
	ErrBadHeader = errors.New("bad header value")
	// ErrBadGzip means the input starts with the gzip magic bytes but is
	// not valid gzip data (corrupt or truncated).
	ErrBadGzip = errors.New("bad gzip data")
	// ErrLineTooLong means a line is longer than [Limits.MaxLineLength]
	// bytes ([MaxLineLength] by default).
	ErrLineTooLong = errors.New("line too long")
	// ErrTooLarge means the input exceeds one of its [Limits]: its text
	// after decompression, its number of job lines or its header size.
	ErrTooLarge = errors.New("input too large")
	// ErrCRLineEndings means the lines end with a bare carriage return
	// (classic Mac OS line endings), which the reader does not accept.
	ErrCRLineEndings = errors.New("the file has CR line endings (carriage return without line feed); convert them to LF, for example with tr '\\r' '\\n'")
	// ErrBelowUnknown means one of fields 11-18 is below -1 (-1 is
	// unknown; the format has no other negative value).
	ErrBelowUnknown = errors.New("below -1 (unknown, the only negative value)")
	// ErrBadStatus means a job status (field 11) is not one the format
	// defines.
	ErrBadStatus = errors.New("not a job status")
	// ErrNegativeID means a job id (field 1) is below 0.
	ErrNegativeID = errors.New("a negative job id")
	// ErrInvalidOption means a caller-supplied option or argument is out of
	// its range.
	ErrInvalidOption = errors.New("invalid option")
	// ErrNotEnoughJobs means a subset asks for more jobs than the trace
	// has after dropping.
	ErrNotEnoughJobs = errors.New("not enough jobs")
	// ErrInvalidTrace means a [Trace] handed to [Trace.Build] breaks the
	// rules [Read] guarantees (for example a record with runtime 0).
	ErrInvalidTrace = errors.New("invalid trace")
)

// ParseError is the error for unreadable or malformed input. It names the
// file, the 1-based line (0 when the error is about the whole file) and the
// 1-based SWF field (0 when the error is not about one field).
type ParseError struct {
	File  string // file name as given by the caller
	Line  int    // 1-based line number, 0 for the whole file
	Field int    // 1-based SWF field number, 0 when not about a field
	Err   error  // the cause; wraps a sentinel such as ErrNotNumber
}

// Error returns the error as "file:line: field N (name): cause", leaving out
// the parts that are zero.
func (e *ParseError) Error() string {
	s := e.File
	if e.Line > 0 {
		s = fmt.Sprintf("%s:%d", s, e.Line)
	}
	if e.Field > 0 {
		s = fmt.Sprintf("%s: field %d (%s)", s, e.Field, FieldName(e.Field))
	}
	return s + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }

// fieldNames are the SWF field names, index 0 for field 1.
var fieldNames = [NumFields]string{
	"job id", "submit", "wait", "runtime", "allocated procs",
	"average cpu time", "used memory", "requested procs", "requested time",
	"requested memory", "status", "user id", "group id", "executable",
	"queue", "partition", "preceding job", "think time",
}

// FieldName returns the name of the 1-based SWF field n, or "?" when n is
// not a field number.
func FieldName(n int) string {
	if n < 1 || n > NumFields {
		return "?"
	}
	return fieldNames[n-1]
}

// quote returns b quoted for an error message, cut to a readable length.
func quote(b []byte) string {
	const max = 40
	if len(b) > max {
		return fmt.Sprintf("%q...", b[:max])
	}
	return fmt.Sprintf("%q", b)
}
