package policy_test

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user + system) the process has used: on
// the shared development machine wall time is several times the CPU time
// of a run, so benchmarks report CPU per run as well (cpu-s/op).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
