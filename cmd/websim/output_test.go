package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/websim/websim/internal/xlsx"
)

// A results workbook is replaced only when websim wrote every sheet of
// it: an OutPut.xlsx to which the user added a sheet, or a workbook of
// theirs named by --out, is refused before anything runs (exit 2), and
// left as it was.
func TestRunRefusesToReplaceTheUsersSheets(t *testing.T) {
	dir := copyModel(t, "mmc")
	out := filepath.Join(dir, "OutPut.xlsx")
	if code, _, errs := runCLI(t, "run", dir, "--observations", "500", "--loads", "rho0.5", "--quiet"); code != 0 {
		t.Fatal(errs)
	}
	// websim's own results: replaced.
	if code, _, errs := runCLI(t, "run", dir, "--observations", "500", "--loads", "rho0.5", "--quiet"); code != 0 {
		t.Fatalf("a second run on websim's own OutPut.xlsx: exit %d, %s", code, errs)
	}
	b, err := xlsx.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.NewSheet("MyNotes"); err != nil {
		t.Fatal(err)
	}
	if err := b.Save(out); err != nil {
		t.Fatal(err)
	}
	b.Close()
	theirs := filepath.Join(t.TempDir(), "budget.xlsx")
	data, err := os.ReadFile(filepath.Join(dir, "SvcData.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(theirs, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, args, want string
	}{
		{out, "", `holds sheets websim did not write ("MyNotes")`},
		{theirs, "--out " + theirs, `holds sheets websim did not write ("Settings", "ServerInfo", "Arrivals", "Attributes", "Job")`},
	} {
		before, _ := os.ReadFile(tc.path)
		args := append([]string{"run", dir, "--observations", "500", "--loads", "rho0.5", "--quiet"}, strings.Fields(tc.args)...)
		code, _, errs := runCLI(t, args...)
		if code != exitInvalid || !strings.Contains(errs, tc.path+" "+tc.want) {
			t.Errorf("%s: exit %d, %s; want 2 and %q", tc.path, code, errs, tc.want)
		}
		if after, _ := os.ReadFile(tc.path); string(after) != string(before) {
			t.Errorf("%s was changed", tc.path)
		}
	}
}
