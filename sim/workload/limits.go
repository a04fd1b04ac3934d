package workload

// Default limits of reading a trace ([Limits]). The largest traces of the
// Parallel Workloads Archive have about 1.2 million jobs and 120 MB of
// text, SWF job lines are shorter than 200 bytes and header lines shorter
// than a few kilobytes: the defaults leave a wide margin and still bound
// what a hostile input (a gzip bomb, one endless line) can cost.
const (
	// DefaultMaxBytes is the default bound on the text of a trace, after
	// decompression: 512 MiB.
	DefaultMaxBytes = 512 << 20
	// MaxLineLength is the default bound on one line, in bytes.
	MaxLineLength = 64 << 10
	// DefaultMaxJobs is the default bound on the number of job lines.
	DefaultMaxJobs = 16 << 20
	// DefaultMaxHeader is the default bound on the header comments kept in
	// [Trace.Header], in bytes.
	DefaultMaxHeader = 1 << 20
)

// Limits bound what reading one trace may consume. A zero field takes its
// default. Reading fails with a [*ParseError] wrapping [ErrTooLarge] or
// [ErrLineTooLong] at the first line past a limit; memory grows with the
// jobs read, never with a count taken from the input.
type Limits struct {
	// MaxBytes bounds the text after decompression ([DefaultMaxBytes]).
	MaxBytes int64
	// MaxLineLength bounds one line, in bytes ([MaxLineLength]).
	MaxLineLength int
	// MaxJobs bounds the number of job lines ([DefaultMaxJobs]).
	MaxJobs int
	// MaxHeader bounds the header comments kept ([DefaultMaxHeader]).
	MaxHeader int
}

// DefaultLimits are the limits [Read] and [Parse] use.
var DefaultLimits = Limits{
	MaxBytes:      DefaultMaxBytes,
	MaxLineLength: MaxLineLength,
	MaxJobs:       DefaultMaxJobs,
	MaxHeader:     DefaultMaxHeader,
}

// withDefaults returns l with zero (or negative) fields set to the defaults.
func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxLineLength <= 0 {
		l.MaxLineLength = MaxLineLength
	}
	if l.MaxJobs <= 0 {
		l.MaxJobs = DefaultMaxJobs
	}
	if l.MaxHeader <= 0 {
		l.MaxHeader = DefaultMaxHeader
	}
	return l
}
