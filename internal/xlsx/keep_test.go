package xlsx

import (
	"archive/zip"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// sheetPartOf is the part that holds the sheet name in the package at path.
func sheetPartOf(t *testing.T, path, name string) string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	must(t, err)
	defer zr.Close()
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		files[f.Name] = f
	}
	sheets, _ := workbookParts(files)
	for _, s := range sheets {
		if s.name == name {
			return s.part
		}
	}
	t.Fatalf("%s has no sheet %q", path, name)
	return ""
}

// protectSheets writes from's package to to with each sheet named in
// protections given that protection element, after its cells.
func protectSheets(t *testing.T, from, to string, protections map[string]string) {
	t.Helper()
	byPart := map[string]string{}
	for sheet, p := range protections {
		byPart[sheetPartOf(t, from, sheet)] = p
	}
	copyZip(t, from, to, func(name, text string) (string, string) {
		p, ok := byPart[name]
		if !ok {
			return name, text
		}
		switch {
		case strings.Contains(text, "</sheetData>"):
			text = strings.Replace(text, "</sheetData>", "</sheetData>"+p, 1)
		case strings.Contains(text, "<sheetData/>"):
			text = strings.Replace(text, "<sheetData/>", "<sheetData/>"+p, 1)
		default:
			t.Fatalf("%s: no sheetData to put the protection after:\n%s", name, text)
		}
		return name, text
	})
}

// A sheet's protection comes back from a write-back as it was: the library
// writes every permission the element leaves out (locked, by default) as
// false, unlocking formatting, rows and columns, sorting and filters.
func TestSaveKeepsSheetProtection(t *testing.T) {
	dir := t.TempDir()
	made := filepath.Join(dir, "made.xlsx")
	b := New()
	must(t, b.RenameSheet("Sheet1", "Settings"))
	for _, s := range []string{"Locked", "Hashed", "Prefixed", "Plain", "Result"} {
		must(t, b.NewSheet(s))
		must(t, b.SetCell(s, "A1", "cell of "+s))
	}
	must(t, b.MarkOwned("Result"))
	must(t, b.Save(made))
	b.Close()

	const (
		locked = `<sheetProtection sheet="1" objects="1" scenarios="1"/>`
		hashed = `<sheetProtection algorithmName="SHA-512" hashValue="tD7p3E6gR9zJ0nJ8M4e7xQ==" saltValue="c2FsdA==" spinCount="100000" sheet="1" objects="1" scenarios="1" formatColumns="0" autoFilter="0"></sheetProtection>`
		// As a program that writes SpreadsheetML with a prefix may.
		prefixed     = `<x:sheetProtection xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" sheet="1" objects="1" insertRows="0"/>`
		prefixedKept = `<sheetProtection sheet="1" objects="1" insertRows="0"/>`
	)
	path := filepath.Join(dir, "SvcData.xlsx")
	protectSheets(t, made, path, map[string]string{"Locked": locked, "Hashed": hashed, "Prefixed": prefixed})
	want := map[string]string{"Locked": locked, "Hashed": hashed, "Prefixed": prefixedKept}

	for round := 1; round <= 2; round++ {
		b, err := Open(path)
		must(t, err)
		placeholder, err := b.ReplaceOwned("Result")
		must(t, err)
		if placeholder != "" {
			t.Fatalf("a placeholder %q", placeholder)
		}
		must(t, b.NewSheet("Result"))
		must(t, b.SetCell("Result", "A1", round))
		must(t, b.MarkOwned("Result"))
		must(t, b.Save(path))
		b.Close()
		for _, s := range []string{"Settings", "Locked", "Hashed", "Prefixed", "Plain", "Result"} {
			part := partOf(t, path, sheetPartOf(t, path, s))
			n := strings.Count(part, "sheetProtection ")
			switch w, ok := want[s]; {
			case ok && (n != 1 || !strings.Contains(part, w)):
				i := max(strings.Index(part, "</sheetData>"), 0)
				t.Errorf("round %d, sheet %s: protection not kept; want %s, got:\n%.600s", round, s, w, part[i:])
			case !ok && n != 0:
				t.Errorf("round %d, sheet %s: a protection it did not have:\n%s", round, s, part)
			}
		}
	}
}

// The protection kept follows its sheet when renamed, and goes when the
// sheet does: a new sheet under a deleted one's name is not protected.
func TestSheetProtectionFollowsItsSheet(t *testing.T) {
	dir := t.TempDir()
	made := filepath.Join(dir, "made.xlsx")
	b := New()
	must(t, b.RenameSheet("Sheet1", "Settings"))
	must(t, b.NewSheet("Mine"))
	must(t, b.NewSheet("Gone"))
	must(t, b.Save(made))
	b.Close()
	const locked = `<sheetProtection sheet="1" objects="1" scenarios="1"/>`
	path := filepath.Join(dir, "book.xlsx")
	protectSheets(t, made, path, map[string]string{"Mine": locked, "Gone": locked})

	b, err := Open(path)
	must(t, err)
	must(t, b.RenameSheet("Mine", "Renamed"))
	must(t, b.DeleteSheet("Gone"))
	must(t, b.NewSheet("Gone"))
	must(t, b.Save(path))
	b.Close()
	if part := partOf(t, path, sheetPartOf(t, path, "Renamed")); !strings.Contains(part, locked) {
		t.Errorf("the renamed sheet lost its protection:\n%s", part)
	}
	if part := partOf(t, path, sheetPartOf(t, path, "Gone")); strings.Contains(part, "sheetProtection") {
		t.Errorf("the new sheet under a deleted one's name is protected:\n%s", part)
	}
}

func TestProtectionElement(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`<row r="9"><c r="A9"><v>1</v></c></row></sheetData><sheetProtection sheet="1"/><pageMargins left="1"/></worksheet>`, `<sheetProtection sheet="1"/>`},
		{`</sheetData><sheetProtection sheet="1" objects="1"></sheetProtection><x/>`, `<sheetProtection sheet="1" objects="1"></sheetProtection>`},
		{"</x:sheetData><x:sheetProtection\n sheet=\"1\"/></x:worksheet>", "<x:sheetProtection\n sheet=\"1\"/>"},
		{`<sheetProtectionX a="1"/><c t="inlineStr"><is><t>sheetProtection &lt;sheetProtection/&gt;</t></is></c>`, ``},
		{`</sheetData><pageMargins/>`, ``},
	} {
		if got := string(protectionElement([]byte(c.in))); got != c.want {
			t.Errorf("protectionElement(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// lockStructure saves a workbook at path whose structure is protected
// with the attribute's value given.
func lockStructure(t *testing.T, path, value string) {
	t.Helper()
	made := path + ".made.xlsx"
	b := New()
	must(t, b.RenameSheet("Sheet1", "Settings"))
	must(t, b.SetCell("Settings", "A1", "Name"))
	must(t, b.Save(made))
	b.Close()
	copyZip(t, made, path, func(name, text string) (string, string) {
		if name == "xl/workbook.xml" {
			if !strings.Contains(text, "<bookViews>") {
				t.Fatalf("no bookViews in %s", text)
			}
			text = strings.Replace(text, "<bookViews>", `<workbookProtection workbookPassword="CC1A" lockStructure="`+value+`"/><bookViews>`, 1)
		}
		return name, text
	})
	must(t, os.Remove(made))
}

// A workbook whose structure is protected takes no new sheet, as in Excel:
// CheckStructure says so before any work, and the book read refuses to
// add or delete one, so that nothing is saved.
func TestStructureLockedWorkbook(t *testing.T) {
	dir := t.TempDir()
	for _, v := range []string{"1", "true", "0", "false"} {
		path := filepath.Join(dir, "SvcData-"+v+".xlsx")
		lockStructure(t, path, v)
		lockedWant := v == "1" || v == "true"
		err := CheckStructure(path)
		if got := errors.Is(err, ErrStructureLocked); got != lockedWant {
			t.Errorf("lockStructure=%q: CheckStructure = %v", v, err)
		}
		if lockedWant && !strings.Contains(err.Error(), path) {
			t.Errorf("the refusal does not name the file: %v", err)
		}
		before, _ := os.ReadFile(path)
		b, err := Open(path)
		must(t, err)
		errNew := b.NewSheet("Summary")
		errSave := b.Save(path)
		b.Close()
		if lockedWant {
			if !errors.Is(errNew, ErrStructureLocked) || !errors.Is(errSave, ErrStructureLocked) {
				t.Errorf("lockStructure=%q: NewSheet %v, Save %v; want ErrStructureLocked", v, errNew, errSave)
			}
			if after, _ := os.ReadFile(path); string(after) != string(before) {
				t.Errorf("lockStructure=%q: the file changed", v)
			}
		} else if errNew != nil || errSave != nil {
			t.Errorf("lockStructure=%q: NewSheet %v, Save %v", v, errNew, errSave)
		}
	}
	if err := CheckStructure(filepath.Join(dir, "none.xlsx")); err != nil {
		t.Errorf("no file: %v", err)
	}
}

// placeBook saves at path a workbook of the sheets in order: "Summary",
// "Run" and "Extra" websim's own, "Notes" with a name of its own, and a
// chart sheet "MyChart"; Notes is the active sheet.
func placeBook(t *testing.T, path string, order []string) {
	t.Helper()
	b := New()
	must(t, b.RenameSheet("Sheet1", order[0]))
	for _, s := range order[1:] {
		if s != "MyChart" {
			must(t, b.NewSheet(s))
		}
	}
	must(t, b.SetRow("Settings", 1, "x", 1))
	must(t, b.SetRow("Settings", 2, "y", 2))
	if i := slices.Index(order, "MyChart"); i >= 0 {
		must(t, b.f.AddChartSheet("MyChart", &excelize.Chart{Type: excelize.Line,
			Series: []excelize.ChartSeries{{Name: "Settings!$A$1", Values: "Settings!$B$1:$B$2"}}}))
		// Put it where order says.
		if i+1 < len(order) {
			must(t, b.moveSheet("MyChart", order[i+1], false))
		}
	}
	must(t, b.Define(DefinedName{Name: "local", RefersTo: "Notes!$A$1", Scope: "Notes"}))
	var owned []string
	for _, s := range order {
		if s == "Summary" || s == "Run" {
			owned = append(owned, s)
		}
	}
	must(t, b.MarkOwned(owned...))
	b.SetActiveSheet(slices.Index(order, "Notes"))
	if got := b.Sheets(); !slices.Equal(got, order) {
		t.Fatalf("the test workbook's sheets: %q, want %q", got, order)
	}
	must(t, b.Save(path))
	b.Close()
}

// Sheets that replace websim's own take their places: a user's sheet that
// stood after them (a chart sheet among them) stays after them, the
// sheet-scoped names follow their sheets, and the active sheet stays.
func TestReplacedSheetsKeepTheirPlaces(t *testing.T) {
	for _, c := range []struct{ before, after []string }{
		{[]string{"Settings", "Summary", "Run", "Notes", "MyChart"}, []string{"Settings", "Summary", "Run", "Extra", "Notes", "MyChart"}},
		{[]string{"Settings", "Summary", "Notes", "Run", "MyChart"}, []string{"Settings", "Summary", "Notes", "Run", "Extra", "MyChart"}},
		{[]string{"Summary", "Settings", "Notes", "Run"}, []string{"Summary", "Settings", "Notes", "Run", "Extra"}},
		{[]string{"Settings", "Notes", "MyChart", "Summary", "Run"}, []string{"Settings", "Notes", "MyChart", "Summary", "Run", "Extra"}},
	} {
		path := filepath.Join(t.TempDir(), "SvcData.xlsx")
		placeBook(t, path, c.before)
		for round := 1; round <= 2; round++ {
			b, err := Open(path)
			must(t, err)
			_, err = b.ReplaceOwned("Summary", "Run", "Extra")
			must(t, err)
			for _, s := range []string{"Summary", "Run", "Extra"} {
				must(t, b.NewSheet(s))
				must(t, b.SetCell(s, "A1", s))
			}
			must(t, b.MarkOwned("Summary", "Run", "Extra"))
			must(t, b.Save(path))
			b.Close()

			b, err = Open(path)
			must(t, err)
			if got := b.Sheets(); !slices.Equal(got, c.after) {
				t.Errorf("%q, round %d: sheets %q, want %q", c.before, round, got, c.after)
			}
			owned, err := b.OwnedSheets()
			must(t, err)
			if want := slices.DeleteFunc(slices.Clone(c.after), func(s string) bool { return s != "Summary" && s != "Run" && s != "Extra" }); !slices.Equal(owned, want) {
				t.Errorf("%q, round %d: owned %q, want %q", c.before, round, owned, want)
			}
			var scoped []string
			for _, dn := range b.DefinedNames() {
				switch {
				case dn.Name == CellsMarker && strings.HasPrefix(dn.RefersTo, `"`+digestVersion):
					scoped = append(scoped, dn.Name+"@"+dn.Scope+"=digest")
				case dn.Scope != "" && !strings.HasPrefix(dn.Name, "_xlnm."):
					scoped = append(scoped, dn.Name+"@"+dn.Scope+"="+dn.RefersTo)
				}
			}
			slices.Sort(scoped)
			want := []string{`local@Notes=Notes!$A$1`, `websim_cells@Extra=digest`, `websim_cells@Run=digest`, `websim_cells@Summary=digest`,
				`websim_result@Extra="Extra"`, `websim_result@Run="Run"`, `websim_result@Summary="Summary"`}
			if !slices.Equal(scoped, want) {
				t.Errorf("%q, round %d: sheet-scoped names %q, want %q", c.before, round, scoped, want)
			}
			if active := b.Sheets()[b.f.GetActiveSheetIndex()]; active != "Notes" {
				t.Errorf("%q, round %d: the active sheet is %q, want Notes", c.before, round, active)
			}
			if v, _ := b.f.GetCellValue("Extra", "A1"); v != "Extra" {
				t.Errorf("%q, round %d: Extra!A1 = %q", c.before, round, v)
			}
			b.Close()
		}
	}
}
