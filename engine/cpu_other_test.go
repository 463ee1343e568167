//go:build !unix

package engine

// cpuSeconds is 0 where getrusage is missing: CPU figures read 0.
func cpuSeconds() float64 { return 0 }
