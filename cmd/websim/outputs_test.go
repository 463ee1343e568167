package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/websim/websim/modeltext"
)

// Every command that writes a file refuses a missing folder before any
// work, as run does: exit 2, nothing on stdout, no folder created (lb
// prints its figures on stdout only once it has simulated).
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
		{"lb --out", []string{"lb", lbSample, "--out", filepath.Join(missing, "l.xlsx")}},
		{"cluster slurm --out", []string{"cluster", "slurm", model, "--shards", "2", "--out", filepath.Join(missing, "c.sh")}},
		{"cluster k8s --out", []string{"cluster", "k8s", model, "--shards", "2", "--out", filepath.Join(missing, "c.yaml")}},
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

// --trace and --partial are text files: one that would replace a model's
// workbook (named so, or through a link), any workbook, or that names a
// folder is refused before any work, exit 2, and the workbooks stay as
// they were.
func TestTextOutputsNeverReplaceWorkbooks(t *testing.T) {
	model := copyModel(t, "mmc")
	link := filepath.Join(model, "link.txt")
	if err := os.Symlink(filepath.Join(model, "SvcData.xlsx"), link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	before := map[string][]byte{}
	for _, name := range []string{"SvcData.xlsx", "ProcData.xlsx"} {
		before[name], _ = os.ReadFile(filepath.Join(model, name))
	}
	one := []string{"run", model, "--loads", "rho0.5", "--observations", "5"}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"trace SvcData", append(one, "--trace", filepath.Join(model, "SvcData.xlsx")), "the model's own SvcData.xlsx"},
		{"trace ProcData", append(one, "--trace", filepath.Join(model, "ProcData.xlsx")), "the model's own ProcData.xlsx"},
		{"trace link", append(one, "--trace", link), "the model's own SvcData.xlsx"},
		{"trace OutPut", append(one, "--trace", filepath.Join(model, "OutPut.xlsx")), "named as a workbook"},
		{"trace folder", append(one, "--trace", model), "is a folder"},
		{"partial SvcData", []string{"run", model, "--shard", "0/2", "--partial", filepath.Join(model, "SvcData.xlsx")}, "the model's own SvcData.xlsx"},
		{"partial workbook", []string{"run", model, "--shard", "0/2", "--partial", filepath.Join(model, "p.xlsx")}, "named as a workbook"},
		{"partial folder", []string{"run", model, "--shard", "0/2", "--partial", model}, "is a folder"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, c.args...)
			if code != 2 || stdout != "" || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, c.want)
			}
			for name, b := range before {
				if after, _ := os.ReadFile(filepath.Join(model, name)); string(after) != string(b) {
					t.Fatalf("%s changed", name)
				}
			}
			for _, name := range []string{"OutPut.xlsx", "p.xlsx"} {
				if _, err := os.Stat(filepath.Join(model, name)); err == nil {
					t.Errorf("%s written", name)
				}
			}
		})
	}
}

// A --observations far above the model's makes runs whose length the
// clock cannot resolve the model's times over: refused naming the flag and
// the time's cell, before anything runs (validate, at the model's own
// Observations, passes).
func TestObservationsCheckedAgainstTheClock(t *testing.T) {
	model := copyModel(t, "mmc")
	m, err := modeltext.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range m.Books {
		for _, sh := range b.Sheets {
			for _, row := range sh.Rows {
				for i := range row {
					if row[i].Value == "Exp(0.1)" {
						row[i].Value = "Exp(1e9)" // arrivals a billion time units apart
					}
				}
			}
		}
	}
	dir := filepath.Join(t.TempDir(), "slow")
	if err := modeltext.Write(m, dir, false); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "validate", dir); code != 0 {
		t.Fatalf("validate: exit %d, %s", code, stderr)
	}
	code, stdout, stderr := runCLI(t, "run", dir, "--loads", "rho0.5", "--observations", "100000000", "--quiet")
	want := "--observations 100000000 makes the runs longer: ProcData.xlsx!Work!B2: ProcTime Exp(1) has a mean of 1, which the simulated clock cannot add faithfully"
	if code != 2 || stdout != "" || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "OutPut.xlsx")); err == nil {
		t.Error("OutPut.xlsx written")
	}
}
