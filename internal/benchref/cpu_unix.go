//go:build unix

package benchref

import "syscall"

// SelfCPU is the CPU time (user and system, in seconds) this process has
// used, all its threads together: benchmarks report it per event or per
// request beside wall time, which a shared machine makes noisy.
func SelfCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
