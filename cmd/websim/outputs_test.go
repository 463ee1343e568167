package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every command that writes a file refuses a missing folder before any
// work, as run does: exit 2, nothing on stdout, no folder created.
func TestOutputFolderCheckedBeforeTheWork(t *testing.T) {
	model := copyModel(t, "mmc")
	withTargets(t, model, []any{nil, "mean", 2.0})
	missing := filepath.Join(t.TempDir(), "missing")
	cases := []struct {
		name string
		args []string
	}{
		{"fit --out", []string{"fit", fitSample, "--out", filepath.Join(missing, "F.xlsx")}},
		{"size --out", []string{"size", model, "--vary", "AppServers", "--loads", "rho0.8", "--out", filepath.Join(missing, "s.xlsx")}},
		{"merge --out", []string{"merge", "--out", filepath.Join(missing, "m.xlsx"), filepath.Join(model, "none.wsp")}},
		{"export --out", []string{"export", model, "--out", filepath.Join(missing, "m.yaml")}},
		{"run --partial", []string{"run", model, "--shard", "0/2", "--partial", filepath.Join(missing, "p.wsp")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, c.args...)
			want := "the folder " + missing + " does not exist"
			if code != 2 || stdout != "" || !strings.Contains(stderr, want) || strings.Count(stderr, missing) != 2 {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 2, nothing on stdout, and %q once", code, stdout, stderr, want)
			}
			if _, err := os.Stat(missing); err == nil {
				t.Errorf("%s was created", missing)
			}
		})
	}
}

// A negative --jobs is refused, located to the flag, before any work.
func TestNegativeJobsRefused(t *testing.T) {
	model := copyModel(t, "mmc")
	withTargets(t, model, []any{nil, "mean", 2.0})
	for _, args := range [][]string{
		{"run", model, "--jobs", "-3"},
		{"size", model, "--vary", "AppServers", "--loads", "rho0.8", "--jobs", "-1"},
	} {
		code, stdout, stderr := runCLI(t, args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, "--jobs -") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and the flag named", args, code, stdout, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(model, "OutPut.xlsx")); err == nil {
		t.Error("OutPut.xlsx written for a negative --jobs")
	}
}
