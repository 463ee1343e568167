//go:build !windows

package main

// utf8Console is a no-op where consoles take UTF-8 (Linux, macOS); see
// console_windows.go.
func utf8Console() (restore func()) { return func() {} }
