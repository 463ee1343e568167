package main

import (
	"os"
	"path/filepath"
	"slices"
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

// editResult types text into cell ref of a result sheet of the workbook
// at path, and saves it, as a user would in Excel.
func editResult(t *testing.T, path, sheet, ref, text string) {
	t.Helper()
	editBook(t, path, func(b *xlsx.Book) error { return b.SetCell(sheet, ref, text) })
}

// editBook opens the workbook at path, makes edit's changes and saves it.
func editBook(t *testing.T, path string, edit func(*xlsx.Book) error) {
	t.Helper()
	b, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := edit(b); err != nil {
		t.Fatal(err)
	}
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
}

// A result sheet the user changed since websim wrote it is not replaced:
// run, a write-back and lb --out stop before simulating (exit 2) and
// leave the workbook as it was; renamed, the sheet is the user's and
// kept beside the new results.
func TestChangedResultsAreNotReplaced(t *testing.T) {
	dir := copyModel(t, "mmc")
	out := filepath.Join(dir, "OutPut.xlsx")
	svcData := filepath.Join(dir, "SvcData.xlsx")
	run := func(extra ...string) (int, string) {
		args := append([]string{"run", dir, "--observations", "500", "--loads", "rho0.5", "--quiet"}, extra...)
		code, _, errs := runCLI(t, args...)
		return code, errs
	}
	if code, errs := run("--write-back"); code != 0 {
		t.Fatal(errs)
	}
	if code, errs := run("--write-back"); code != 0 {
		t.Fatalf("websim's own results, unchanged: exit %d, %s", code, errs)
	}
	editResult(t, out, "Summary", "A9", "looks slow: ask the DBA")
	editResult(t, svcData, "Servers", "B2", "checked")
	other := filepath.Join(t.TempDir(), "other.xlsx")
	for _, tc := range []struct {
		path string
		args []string
		want string
	}{
		{out, nil, out + `: the sheet "Summary" was changed since websim wrote it`},
		{svcData, []string{"--write-back", "--out", other}, svcData + `: the sheet "Servers" was changed since websim wrote it`},
	} {
		before, _ := os.ReadFile(tc.path)
		code, errs := run(tc.args...)
		if code != exitInvalid || !strings.Contains(errs, tc.want) || !strings.Contains(errs, "Try: ") {
			t.Errorf("%s changed: exit %d, %s; want 2 and %q", tc.path, code, errs, tc.want)
		}
		if after, _ := os.ReadFile(tc.path); string(after) != string(before) {
			t.Errorf("%s was changed", tc.path)
		}
	}
	if _, err := os.Stat(other); err == nil {
		t.Errorf("%s was written by a refused run", other)
	}

	// Renamed, the changed sheet is the user's: the write-back goes on.
	editBook(t, svcData, func(b *xlsx.Book) error { return b.RenameSheet("Servers", "Servers checked") })
	if code, errs := run("--write-back", "--out", other); code != 0 {
		t.Fatalf("the changed sheet renamed: exit %d, %s", code, errs)
	}
	b, err := xlsx.Open(svcData)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if v, _ := b.Value("Servers checked", "B2"); v != "checked" || !slices.Contains(b.Sheets(), "Servers") {
		t.Errorf("after the write-back: sheets %q, the user's B2 %q; want the renamed sheet kept and a new Servers", b.Sheets(), v)
	}

	// lb --out: neither a user's workbook nor a changed result is replaced.
	lbOut := filepath.Join(t.TempDir(), "lb.xlsx")
	if code, _, errs := runLBArgs(t, lbSample, "--number_of_requests=500", "--out", lbOut); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := runLBArgs(t, lbSample, "--number_of_requests=500", "--out", lbOut); code != 0 {
		t.Fatalf("lb --out over its own workbook: exit %d, %s", code, errs)
	}
	editResult(t, lbOut, "LBSummary", "A20", "note")
	theirs := filepath.Join(t.TempDir(), "budget.xlsx")
	data, _ := os.ReadFile(svcData)
	if err := os.WriteFile(theirs, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		lbOut:  `: the sheet "LBSummary" was changed since websim wrote it`,
		theirs: ` holds sheets websim did not write ("Settings"`,
	} {
		before, _ := os.ReadFile(path)
		code, _, errs := runLBArgs(t, lbSample, "--number_of_requests=500", "--out", path)
		if code != exitInvalid || !strings.Contains(errs, path+want) {
			t.Errorf("lb --out %s: exit %d, %s; want 2 and %q", path, code, errs, want)
		}
		if after, _ := os.ReadFile(path); string(after) != string(before) {
			t.Errorf("lb --out %s changed it", path)
		}
	}
}
