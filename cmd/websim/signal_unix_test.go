//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
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

// TestSIGTERMWhileAReadBlocks: a read that never ends (a pipe without a
// writer named as the data) does not watch the context; SIGTERM still
// stops the command, interruptGrace later, with exit 1.
func TestSIGTERMWhileAReadBlocks(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "times.csv")
	must(t, syscall.Mkfifo(fifo, 0o600))
	cmd := exec.Command(os.Args[0], "fit", fifo)
	cmd.Env = append(os.Environ(), "WEBSIM_TEST_AS_MAIN=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	must(t, cmd.Start())
	time.Sleep(500 * time.Millisecond)
	start := time.Now()
	must(t, cmd.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(stderr.String(), "stopped where it stood") {
			t.Errorf("exit %v, stderr %q; want exit 1 and the interruption told", err, stderr.String())
		}
		if took := time.Since(start); took < interruptGrace/2 {
			t.Errorf("stopped %v after the signal, before its grace", took)
		}
	case <-time.After(interruptGrace + 20*time.Second):
		cmd.Process.Kill()
		t.Fatal("SIGTERM did not stop a command blocked in a read")
	}
}

// A workbook that is a pipe or a device is refused at once (exit 2): read,
// it would never end or fill the memory.
func TestWorkbookNotARegularFile(t *testing.T) {
	model := copyModel(t, "mmc")
	svc := filepath.Join(model, "SvcData.xlsx")
	must(t, os.Remove(svc))
	must(t, syscall.Mkfifo(svc, 0o600))
	code, _, stderr := runCLI(t, "run", model)
	if code != 2 || !strings.Contains(stderr, "SvcData.xlsx: is not a regular file") {
		t.Errorf("a pipe: exit %d, %s", code, stderr)
	}
	must(t, os.Remove(svc))
	must(t, os.Symlink("/dev/zero", svc))
	code, _, stderr = runCLI(t, "validate", model)
	if code != 2 || !strings.Contains(stderr, "SvcData.xlsx: is not a regular file") {
		t.Errorf("/dev/zero: exit %d, %s", code, stderr)
	}
}
