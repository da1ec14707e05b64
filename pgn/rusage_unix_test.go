//go:build unix

package pgn

import (
	"os"
	"runtime"
	"syscall"
	"time"
)

// cpuTime is the process's user+system time: on a shared machine, MB per
// CPU second says more than MB per wall second.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// childPeakRSS is the peak resident set size of a finished child process,
// in bytes.
func childPeakRSS(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru.Maxrss <= 0 {
		return 0, false
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss), true // bytes there, kilobytes elsewhere
	}
	return int64(ru.Maxrss) << 10, true
}
