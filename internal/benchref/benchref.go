// Package benchref runs programs beside a benchmark, as child processes,
// and measures the CPU time each takes, so that a benchmark can hold
// websim against the reference programs of bench/ (a minimal event loop,
// its typed-heap ceiling) in rounds taken in turn, on the same state of
// the machine, and report the ratio.
//
// Only benchmarks use it: it builds programs with the go command, which
// a test binary finds wherever go test runs.
package benchref

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// Build compiles the main package at pkg (a path from the module's root,
// such as ./bench/mmc-typed or ./cmd/websim) into a temporary folder of
// tb and returns the program's path. The build is the one `go build`
// makes from the root: a main package with a default.pgo is optimized
// with it, as users' builds are.
func Build(tb testing.TB, pkg string) string {
	tb.Helper()
	root, err := moduleRoot()
	if err != nil {
		tb.Fatal(err)
	}
	return BuildAt(tb, root, pkg)
}

// BuildAt is Build from the module whose root is the folder root (a
// checkout of another commit, say).
func BuildAt(tb testing.TB, root, pkg string) string {
	tb.Helper()
	out := filepath.Join(tb.TempDir(), filepath.Base(pkg))
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = root
	if msg, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build %s: %v\n%s", pkg, err, msg)
	}
	return out
}

// Checkout makes a checkout of commit of the repository that holds the
// main module, in a temporary folder of tb removed when tb ends, and
// returns its folder. It skips tb when git or the commit is missing (a
// shallow clone, an export without history).
func Checkout(tb testing.TB, commit string) string {
	tb.Helper()
	root, err := moduleRoot()
	if err != nil {
		tb.Fatal(err)
	}
	dir := filepath.Join(tb.TempDir(), "checkout-"+commit)
	if msg, err := exec.Command("git", "-C", root, "worktree", "add", "--detach", dir, commit).CombinedOutput(); err != nil {
		tb.Skipf("no checkout of %s (git worktree add: %v): %s", commit, err, bytes.TrimSpace(msg))
	}
	tb.Cleanup(func() {
		exec.Command("git", "-C", root, "worktree", "remove", "--force", dir).Run()
	})
	return dir
}

// moduleRoot is the folder of the main module's go.mod.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == "/dev/null" {
		return "", errors.New("go env GOMOD: not inside a module")
	}
	return filepath.Dir(mod), nil
}

// Usage is what a program run by Run used.
type Usage struct {
	// CPU is the CPU time, user and system, in seconds.
	CPU float64
	// PeakRSS is the most resident memory the process held, in bytes (0
	// where the system does not say).
	PeakRSS int64
	// Stdout is what it wrote on stdout.
	Stdout string
}

// Run runs the program with args to its end and returns what it used. A
// program that fails stops the benchmark with its error output.
func Run(tb testing.TB, program string, args ...string) Usage {
	tb.Helper()
	cmd := exec.Command(program, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		tb.Fatalf("%s %s: %v\n%s", filepath.Base(program), strings.Join(args, " "), err, errOut.String())
	}
	st := cmd.ProcessState
	return Usage{CPU: (st.UserTime() + st.SystemTime()).Seconds(), PeakRSS: peakRSS(st), Stdout: out.String()}
}

// Speedup runs the program twice one after the other, then twice at once,
// and returns how many times sooner the pair at once was done (wall
// time). It is what the machine gives two CPU-bound processes: near 2
// where two cores are idle and alike, and the ceiling of what a second
// core can give any program, websim's --jobs 2 among them. Two virtual
// cores that share a physical one, or that run at different speeds,
// give less.
func Speedup(tb testing.TB, program string, args ...string) float64 {
	tb.Helper()
	start := time.Now()
	Run(tb, program, args...)
	Run(tb, program, args...)
	apart := time.Since(start)
	start = time.Now()
	var cmds [2]*exec.Cmd
	var errOut [2]bytes.Buffer
	for k := range cmds {
		cmds[k] = exec.Command(program, args...)
		cmds[k].Stderr = &errOut[k]
		if err := cmds[k].Start(); err != nil {
			if k > 0 { // the first is not left running
				cmds[0].Process.Kill()
				cmds[0].Wait()
			}
			tb.Fatalf("%s: %v", filepath.Base(program), err)
		}
	}
	for k, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			tb.Fatalf("%s %s: %v\n%s", filepath.Base(program), strings.Join(args, " "), err, errOut[k].String())
		}
	}
	return apart.Seconds() / time.Since(start).Seconds()
}

// CPU runs the program as Run does and returns its CPU seconds and its
// stdout.
func CPU(tb testing.TB, program string, args ...string) (seconds float64, stdout string) {
	tb.Helper()
	u := Run(tb, program, args...)
	return u.CPU, u.Stdout
}

// Median returns the median of xs (0 for none); xs is left as it was.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
