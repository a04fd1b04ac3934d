//go:build unix

// Package rusage reads the resource use of the running process: its CPU
// time and its peak resident set size. Benchmarks report CPU per run
// because wall time on a shared machine is several times the CPU time,
// and the coordinator reports the CPU a sweep cost it.
package rusage

import (
	"syscall"
	"time"
)

// CPU returns the CPU time (user + system) the process has used so far,
// or 0 where the system does not say.
func CPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// MaxRSS returns the process's peak resident set size in bytes, or 0
// where the system does not say.
func MaxRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Maxrss * 1024
}
