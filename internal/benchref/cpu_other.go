//go:build !unix

package benchref

// SelfCPU is 0 where getrusage is missing: CPU figures read 0.
func SelfCPU() float64 { return 0 }
