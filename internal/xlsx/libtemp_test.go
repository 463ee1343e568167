package xlsx

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/xuri/excelize/v2"
)

// The library keeps a sheet larger than UnzipXMLSizeLimit in a temporary
// file: it goes in the process's own folder, which RemoveLibraryTemp
// removes whole (a command stopped where it stands calls it), and never
// into the system's folder, where an interrupted write-back of a large
// workbook left tens of megabytes.
func TestLibraryTempFilesAreTheProcesss(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.xlsx")
	f := excelize.NewFile()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	row := []any{123456.789, "some text of a log line", 987654.321}
	for n := 1; n <= 180_000; n++ {
		cell, _ := excelize.CoordinatesToCellName(1, n)
		if err := sw.SetRow(cell, row); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	f.Close()
	system, _ := filepath.Glob(filepath.Join(os.TempDir(), "excelize-*"))
	KeepLibraryTemp()
	defer func() { libTemp.Lock(); libTemp.kept = false; libTemp.Unlock() }()

	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := libraryTempDir()
	kept, _ := filepath.Glob(filepath.Join(dir, "excelize-*"))
	if len(kept) == 0 {
		t.Fatalf("no temporary file of the library in %s: the sheet was not large enough to need one", dir)
	}
	if now, _ := filepath.Glob(filepath.Join(os.TempDir(), "excelize-*")); len(now) != len(system) {
		t.Errorf("the library wrote into the system's folder: %q", now)
	}
	RemoveLibraryTemp()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s is still there after RemoveLibraryTemp: %v", dir, err)
	}
	b.Close()
}
