package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/websim/websim/internal/xlsx"
)

// TestHostileCommandLines: each case of issue 11 at the command line ends
// with its exit code and message, before any simulation where it can.
func TestHostileCommandLines(t *testing.T) {
	for _, tc := range []struct {
		name string
		// args get MODEL replaced by a copy of samples/mmc.
		args   []string
		setup  func(t *testing.T, model string)
		code   int
		stderr string // in stderr
		stdout string // in stdout
		after  func(t *testing.T, model string)
	}{
		{name: "observations beyond the limit", args: []string{"run", "MODEL", "--observations", "9223372036854775807"},
			code: 2, stderr: "--observations 9223372036854775807 exceeds the limit of 100000000"},
		{name: "size beyond the AppServers limit", args: []string{"size", "MODEL", "--vary", "AppServers", "--max", "1000000000"},
			code: 2, stderr: "--min/--max beyond the limit of 10000 for AppServers"},
		{name: "observations 0", args: []string{"run", "MODEL", "--observations", "0"},
			code: 2, stderr: "--observations 0: expected a whole number of at least 1"},
		{name: "a folder named h", args: []string{"validate", "h"}, setup: func(t *testing.T, model string) {
			must(t, os.Rename(model, filepath.Join(filepath.Dir(model), "h")))
			t.Chdir(filepath.Dir(model))
		}, code: 0, stdout: "h: valid"},
		{name: "missing --out folder, before the simulation", args: []string{"run", "MODEL", "--quiet", "--observations", "100000000", "--out", "MODEL/no/such/folder/R.xlsx"},
			code: 2, stderr: "the folder MODEL/no/such/folder does not exist"},
		{name: "--out is a folder", args: []string{"run", "MODEL", "--quiet", "--observations", "100000000", "--out", "MODEL/sub.xlsx"},
			setup: func(t *testing.T, model string) { must(t, os.Mkdir(filepath.Join(model, "sub.xlsx"), 0o755)) },
			code:  2, stderr: "it is a folder"},
		{name: "another run writes OutPut.xlsx", args: []string{"run", "MODEL", "--quiet", "--observations", "100000000"},
			setup: func(t *testing.T, model string) {
				lock := xlsx.LockName(filepath.Join(model, "OutPut.xlsx"))
				must(t, os.WriteFile(lock, []byte(strconv.Itoa(os.Getppid())), 0o644))
			}, code: 1, stderr: "another websim run (process"},
		{name: "another run writes back", args: []string{"run", "MODEL", "--quiet", "--write-back", "--observations", "100000000"},
			setup: func(t *testing.T, model string) {
				lock := xlsx.LockName(filepath.Join(model, "SvcData.xlsx"))
				must(t, os.WriteFile(lock, []byte(strconv.Itoa(os.Getppid())), 0o644))
			}, code: 1, stderr: "is writing MODEL/SvcData.xlsx"},
		{name: "a stale lock and stale temp files", args: []string{"run", "MODEL", "--quiet", "--observations", "500"},
			setup: func(t *testing.T, model string) {
				must(t, os.WriteFile(xlsx.LockName(filepath.Join(model, "OutPut.xlsx")), []byte("999999999\n"), 0o644))
				old := time.Now().Add(-2 * xlsx.StaleAge)
				for _, n := range []string{".OutPut.xlsx.websim-42.tmp", ".SvcData.xlsx.websim-7.tmp", "keep.tmp"} {
					must(t, os.WriteFile(filepath.Join(model, n), []byte("x"), 0o644))
					must(t, os.Chtimes(filepath.Join(model, n), old, old))
				}
			}, code: 0, after: func(t *testing.T, model string) {
				entries, _ := os.ReadDir(model)
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				if got := strings.Join(names, " "); got != "OutPut.xlsx ProcData.xlsx SvcData.xlsx keep.tmp" {
					t.Errorf("model folder holds %s", got)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := copyModel(t, "mmc")
			if tc.setup != nil {
				tc.setup(t, model)
			}
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				args[i] = strings.ReplaceAll(a, "MODEL", model)
			}
			start := time.Now()
			code, stdout, stderr := runCLI(t, args...)
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %v: it simulated first", d)
			}
			stderr = strings.ReplaceAll(stderr, model, "MODEL")
			if code != tc.code || !strings.Contains(stderr, tc.stderr) || !strings.Contains(stdout, tc.stdout) {
				t.Errorf("exit %d (want %d)\nstdout:\n%s\nstderr:\n%s\nwant %q in stderr, %q in stdout", code, tc.code, stdout, stderr, tc.stderr, tc.stdout)
			}
			if tc.code != 0 {
				if _, err := os.Stat(filepath.Join(model, "OutPut.xlsx")); err == nil {
					t.Errorf("OutPut.xlsx was written")
				}
			}
			if tc.after != nil {
				tc.after(t, model)
			}
		})
	}
}

// TestInterruptedWrite: a signal while the results are written removes
// this run's temporary files and ends with an error, never exit 0: also
// the temporary file of a save that begins after the signal, before the
// save under way has ended (the removal waits for it).
func TestInterruptedWrite(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "OutPut.xlsx")
	ctx, cancel := context.WithCancel(context.Background())
	wrote := make(chan struct{})
	err := writeOutputs(ctx, func() error {
		defer close(wrote)
		must(t, os.WriteFile(filepath.Join(dir, ".OutPut.xlsx.websim-1234.tmp"), []byte("half"), 0o644))
		cancel()
		time.Sleep(50 * time.Millisecond) // the save under way goes on
		must(t, os.WriteFile(filepath.Join(dir, ".SvcData.xlsx.websim-5678.tmp"), nil, 0o644))
		return nil
	}, out, filepath.Join(dir, "SvcData.xlsx"))
	if err == nil || !strings.Contains(err.Error(), "interrupted while writing") {
		t.Errorf("err = %v", err)
	}
	<-wrote
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left %v", entries)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
