package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
)

// startingHeap is how far the heap may grow before the garbage collector
// first runs. Reading the workbooks and writing OutPut.xlsx make a few
// megabytes of short-lived garbage; the collector's usual pacing would
// collect that four or five times over a small heap, which costs a third
// of a small run's CPU. The Go compiler starts its heap the same way.
const startingHeap = 64 << 20

// adjustStartingHeap leaves the collector off until the heap nears
// startingHeap (a soft memory limit), and gives it back its usual pacing
// (GOGC=100, no limit) once it has run once: a large study's memory is
// managed as before. A GOGC or GOMEMLIMIT set in the environment is left
// to govern alone.
func adjustStartingHeap() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(startingHeap)
	// The first collection finds the sentinel unreachable and runs its
	// cleanup, which restores the usual pacing.
	runtime.AddCleanup(new(int64), func(struct{}) {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	}, struct{}{})
}
