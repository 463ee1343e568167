package main

import "golang.org/x/sys/windows"

// cpUTF8 is Windows' code page number of UTF-8.
const cpUTF8 = 65001

// utf8Console makes the Windows console show websim's UTF-8 output as
// written (×, ±, …, names such as Zürich) rather than in its OEM code page
// (437 or 850), where they come out garbled, and returns the function
// that gives the console back its code page: the console outlives websim
// (a run script, a cmd.exe window).
func utf8Console() (restore func()) {
	old, err := windows.GetConsoleOutputCP()
	if err != nil || old == cpUTF8 {
		return func() {} // no console (output redirected), or UTF-8 already
	}
	if windows.SetConsoleOutputCP(cpUTF8) != nil {
		return func() {}
	}
	return func() { _ = windows.SetConsoleOutputCP(old) }
}
