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
