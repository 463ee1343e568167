//go:build unix

package engine

import "syscall"

// cpuSeconds is the CPU time (user and system) the process has used:
// benchmarks report it per event or request beside wall time, which a
// shared machine makes noisy.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
