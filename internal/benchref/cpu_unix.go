//go:build unix

package benchref

import (
	"os"
	"runtime"
	"syscall"
)

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

// peakRSS is the peak resident memory of a finished process, in bytes
// (Linux and the BSDs report kilobytes, macOS bytes).
func peakRSS(st *os.ProcessState) int64 {
	ru, ok := st.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return ru.Maxrss
	}
	return ru.Maxrss * 1024
}
