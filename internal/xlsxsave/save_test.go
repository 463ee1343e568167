package xlsxsave

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/xuri/excelize/v2"
)

func TestSaveAndTheExcelLock(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "Parameters.xlsx")
	f := excelize.NewFile()
	defer f.Close()
	if err := Save(f, path); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	if err := os.WriteFile(filepath.Join(dir, "~$Parameters.xlsx"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f.SetCellStr("Sheet1", "A1", "new")
	err := Save(f, path)
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
