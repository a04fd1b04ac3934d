//go:build !unix

package rusage

import "time"

// CPU returns 0: the process's CPU time is not read on this system.
func CPU() time.Duration { return 0 }

// MaxRSS returns 0: the peak resident set size is not read on this system.
func MaxRSS() int64 { return 0 }
