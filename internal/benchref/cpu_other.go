//go:build !unix

package benchref

import "os"

// SelfCPU is 0 where getrusage is missing: CPU figures read 0.
func SelfCPU() float64 { return 0 }

// peakRSS is 0 where the system does not report it.
func peakRSS(*os.ProcessState) int64 { return 0 }
