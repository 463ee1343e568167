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

// When OutPut.xlsx is open elsewhere (its lock file beside it) the results
// go to "OutPut (2).xlsx", and the write-back into SvcData.xlsx, another
// file, is still done and said (it was skipped without a word).
func TestWriteBackDoneWhenOutPutIsOpenElsewhere(t *testing.T) {
	dir := copyModel(t, "mmc")
	if err := os.WriteFile(filepath.Join(dir, "~$OutPut.xlsx"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "run", dir, "--observations", "500", "--loads", "rho0.5", "--write-back")
	if code != 1 || !strings.Contains(stdout, "Also added to: "+filepath.Join(dir, "SvcData.xlsx")) || !strings.Contains(stderr, "OutPut (2).xlsx") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit 1, 'Also added to' and OutPut (2).xlsx named", code, stdout, stderr)
	}
	b, err := xlsx.Open(filepath.Join(dir, "SvcData.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, ok := b.FindSheet("Summary"); !ok {
		t.Errorf("SvcData.xlsx has no Summary: %q", b.Sheets())
	}
}
