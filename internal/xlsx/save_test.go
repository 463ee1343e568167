package xlsx

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSaveAndTheExcelLock(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "Parameters.xlsx")
	f := New()
	defer f.Close()
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	if err := os.WriteFile(filepath.Join(dir, "~$Parameters.xlsx"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f.SetCell("Sheet1", "A1", "new")
	err := f.Save(path)
	var locked *LockedError
	if !errors.As(err, &locked) || locked.SavedAs != filepath.Join(dir, "Parameters (2).xlsx") {
		t.Fatalf("err = %v, want the results saved as Parameters (2).xlsx", err)
	}
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		t.Error("the open workbook was replaced")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("files: %v, want the workbook, the lock and the copy", entries)
	}
	// LibreOffice's lock file counts as Excel's does.
	lo := filepath.Join(t.TempDir(), "SvcData.xlsx")
	must(t, f.Save(lo))
	must(t, os.WriteFile(filepath.Join(filepath.Dir(lo), ".~lock.SvcData.xlsx#"), nil, 0o644))
	if err := f.Save(lo); !errors.As(err, &locked) || !OpenElsewhere(lo) {
		t.Errorf("with LibreOffice's lock: %v, want a LockedError", err)
	}
}

// A save into a missing folder names the file asked for, once, and not the
// temporary file's name.
func TestSaveErrorNamesThePathOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "F.xlsx")
	err := New().Save(path)
	if err == nil || strings.Count(err.Error(), path) != 1 || strings.Contains(err.Error(), ".websim-") {
		t.Errorf("Save into a missing folder: %v; want the path once and no temporary name", err)
	}
}

// TestSaveReadOnly: a workbook marked read-only is not replaced (nor
// checked writable), as Excel would not replace it.
func TestSaveReadOnly(t *testing.T) {
	dir := t.TempDir()
	f := New()
	defer f.Close()
	readOnly := filepath.Join(dir, "ReadOnly.xlsx")
	must(t, f.Save(readOnly))
	must(t, os.Chmod(readOnly, 0o444))
	before, _ := os.ReadFile(readOnly)
	f.SetCell("Sheet1", "A1", "new")
	for name, err := range map[string]error{
		"CheckWritable": CheckWritable(readOnly, 1),
		"Save":          f.Save(readOnly),
	} {
		if !errors.Is(err, ErrReadOnly) {
			t.Errorf("%s of a read-only workbook: %v, want ErrReadOnly", name, err)
		}
	}
	if after, _ := os.ReadFile(readOnly); string(after) != string(before) {
		t.Error("the read-only workbook was replaced")
	}
	// Its owner's write bit is what counts (a shared folder's files are
	// often group-writable).
	must(t, os.Chmod(readOnly, 0o464))
	if err := f.Save(readOnly); !errors.Is(err, ErrReadOnly) {
		t.Errorf("a file its group may write, its owner not: %v, want ErrReadOnly", err)
	}
	must(t, os.Chmod(readOnly, 0o644))
	if err := f.Save(readOnly); err != nil {
		t.Errorf("a writable file: %v", err)
	}
}

// A workbook saved over the file it was read from is not saved when that
// file changed since (saved by Excel meanwhile): the change is kept, and
// no temporary file is left. Saved elsewhere, or over an unchanged file,
// it is.
func TestSaveRefusesAFileChangedSinceRead(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "SvcData.xlsx")
	must(t, New().Save(path))
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	edited := New()
	edited.SetCell("Sheet1", "A1", "the user's edit")
	must(t, edited.Save(path))
	want, _ := os.ReadFile(path)
	b.SetCell("Sheet1", "B1", "results")
	err = b.Save(path)
	var changed *ChangedError
	if !errors.As(err, &changed) || !errors.Is(err, ErrChanged) || changed.Path != path {
		t.Fatalf("err = %v, want a ChangedError for %s", err, path)
	}
	if got, _ := os.ReadFile(path); string(got) != string(want) {
		t.Error("the changed file was replaced")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files: %v, want the workbook alone", entries)
	}
	must(t, b.Save(filepath.Join(dir, "Elsewhere.xlsx")))
	// Read again, it saves over its file.
	b2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b2.Close()
	b2.SetCell("Sheet1", "B1", "results")
	must(t, b2.Save(path))
	// And again: its own save is no change by another program.
	b2.SetCell("Sheet1", "B2", "more")
	must(t, b2.Save(path))
}
