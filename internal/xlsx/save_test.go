package xlsx

import (
	"errors"
	"os"
	"path/filepath"
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
}
