//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/websim/websim/internal/xlsx"
)

// TestSIGTERM: SIGTERM while a run simulates cancels it: exit 1, nothing
// written, the lock released.
func TestSIGTERM(t *testing.T) {
	model := copyModel(t, "mmc")
	done := make(chan int, 1)
	var stderr string
	go func() {
		code, _, e := runCLI(t, "run", model, "--quiet", "--observations", "100000000")
		stderr = e
		done <- code
	}()
	lock := xlsx.LockName(filepath.Join(model, "OutPut.xlsx"))
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(lock); err == nil {
			break // the run holds its lock: its signal handler is set
		}
		if time.Now().After(deadline) {
			t.Fatal("the run never took its lock")
		}
	}
	time.Sleep(200 * time.Millisecond)
	must(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))
	select {
	case code := <-done:
		if code != 1 || !strings.Contains(stderr, "interrupted") {
			t.Errorf("exit %d, stderr %s", code, stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("SIGTERM did not end the run")
	}
	for _, p := range []string{filepath.Join(model, "OutPut.xlsx"), lock} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s left behind", p)
		}
	}
}
