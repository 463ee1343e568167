package xlsx

import (
	"path/filepath"
	"slices"
	"testing"
)

// SheetsNotOwned, which reads only the workbook's list of sheets and
// names, says what OwnedSheets of the opened workbook says: the user's
// sheets, a result sheet the user renamed among them; and the list of
// an earlier version's custom property counts as OwnedSheets counts it.
func TestSheetsNotOwnedAgreesWithOwnedSheets(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.xlsx")
	b := New()
	for _, s := range []string{"Summary", "Notes", "Servers", "Kept run"} {
		if err := b.NewSheet(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.DeleteSheet("Sheet1"); err != nil {
		t.Fatal(err)
	}
	if err := b.MarkOwned("Summary", "Servers", "Kept run"); err != nil {
		t.Fatal(err)
	}
	b = saveAndOpen(t, b, path)
	// The user renames a result sheet to keep it: it is theirs now.
	if err := b.RenameSheet("Kept run", "Kept run 2"); err != nil {
		t.Fatal(err)
	}
	b = saveAndOpen(t, b, path)
	owned, _ := b.OwnedSheets()
	var want []string
	for _, s := range b.Sheets() {
		if !slices.Contains(owned, s) {
			want = append(want, s)
		}
	}
	got, err := SheetsNotOwned(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) || !slices.Equal(got, []string{"Notes", "Kept run 2"}) {
		t.Errorf("SheetsNotOwned %q, OwnedSheets leaves %q; want both [Notes, Kept run 2]", got, want)
	}
	// A producer that puts the workbook part elsewhere, as its
	// relationships say: read there, as the library reads it.
	moved := filepath.Join(t.TempDir(), "moved.xlsx")
	rewriteZip(t, path, moved, map[string]string{"xl/workbook.xml": "xl/book.xml"})
	if got, err := SheetsNotOwned(moved); err != nil || !slices.Equal(got, want) {
		t.Errorf("with xl/book.xml: %q, %v; want %q", got, err, want)
	}
	if _, err := SheetsNotOwned(filepath.Join(t.TempDir(), "none.xlsx")); err == nil {
		t.Error("no error for a missing file")
	}
}
