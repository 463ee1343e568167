package report

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/study"

	"github.com/websim/websim/templates"
)

// userWorkbook builds a SvcData.xlsx with what a user may have put there: a
// styled header, a comment, a formula, a data validation, defined names, a
// custom property, an extra sheet and a sheet of their own called Summary.
func userWorkbook(t *testing.T, path string) {
	t.Helper()
	f := xlsx.New()
	defer f.Close()
	f.RenameSheet("Sheet1", "Settings")
	f.SetRow("Settings", 1, "Name", "Value", "Note")
	f.SetRow("Settings", 2, "SelectionRule", "LBS", "least busy")
	f.SetRow("Settings", 3, "AppServers", 10)
	f.SetFormula("Settings", "B4", "=B3*2")
	f.SetCell("Settings", "A4", "AppCapacity")
	f.SetLook("Settings", "A1", "C1", xlsx.Look{Bold: true, FontColor: "C00000", Fill: "FFFF00"})
	f.ColWidths("Settings", 0, 33)
	f.Comment("Settings", "A1", "", "my own note")
	f.AddDropList("Settings", "B2", xlsx.DropList{Items: []string{"LBS", "Random", "Cyclic"}})
	for _, sh := range []string{"Notes", "Summary"} {
		f.NewSheet(sh)
	}
	f.SetCell("Notes", "A1", "keep me")
	f.SetCell("Summary", "B2", "the user's own summary")
	f.Define(xlsx.DefinedName{Name: "Servers10", RefersTo: "Settings!$B$3"})
	f.Define(xlsx.DefinedName{Name: "local", RefersTo: "Notes!$A$1", Scope: "Notes"})
	f.SetProperty("WebsimTemplateVersion", "1")
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
}

type userState struct {
	cells, formula, comment, validation, style string
	names                                      []xlsx.DefinedName
	width                                      float64
	props                                      map[string]string
}

func readUserState(t *testing.T, path string) userState {
	t.Helper()
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var st userState
	st.cells = dumpSheets(t, path, "Settings", "Notes", "Summary")
	st.formula, _ = f.Formula("Settings", "B4")
	cs, _ := f.Comments("Settings")
	for _, c := range cs {
		st.comment += c.Cell + ":" + c.Author + ":" + c.Text + ";"
	}
	dvs, _ := f.Validations("Settings")
	for _, d := range dvs {
		st.validation += d.Sqref + ":" + d.Formula1 + ";"
	}
	if look, _ := f.LookOf("Settings", "B1"); look != (xlsx.Look{}) {
		st.style = look.FontColor + "," + look.Fill
		if look.Bold {
			st.style += ",bold"
		}
	}
	st.width, _ = f.ColWidth("Settings", 0)
	owned, _ := ResultSheets(f)
	for _, dn := range f.DefinedNames() {
		if (dn.Name == "_xlnm.Print_Area" || dn.Name == "_xlnm.Print_Titles") && slices.Contains(owned, dn.Scope) {
			continue // the print area and titles of a result sheet
		}
		if dn.Name != ResultMarker && dn.Name != xlsx.CellsMarker {
			st.names = append(st.names, dn)
		}
	}
	st.props, _ = f.Properties()
	delete(st.props, ResultSheetsProperty)
	return st
}

func TestWriteBackKeepsTheUsersWork(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "SvcData.xlsx")
	userWorkbook(t, path)
	before := readUserState(t, path)
	if before.formula == "" || before.comment == "" || before.validation == "" || !strings.Contains(before.style, "bold") {
		t.Fatalf("the test workbook lacks something: %+v", before)
	}

	outPath := filepath.Join(dir, "OutPut.xlsx")
	wantSheets := []string{"Settings", "Notes", "Summary", "Summary (websim)", "Servers", "Entities", "Charts", "Timeline", "Run"}
	for i := 1; i <= 2; i++ {
		// The study as read from the workbook as it is (its hash in Run).
		s := readFrom(t, path, testStudy())
		if err := Write(outPath, s); err != nil {
			t.Fatal(err)
		}
		want := dumpSheets(t, outPath, "Summary", "Servers", "Entities", "Charts", "Timeline", "Run")
		if err := WriteBack(path, s); err != nil {
			t.Fatalf("write-back %d: %v", i, err)
		}
		after := readUserState(t, path)
		if !equalState(before, after) {
			t.Errorf("write-back %d changed the user's work:\nbefore %+v\nafter  %+v", i, before, after)
		}
		f, err := xlsx.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Sheets(); !slices.Equal(got, wantSheets) {
			t.Errorf("write-back %d: sheets %q, want %q", i, got, wantSheets)
		}
		marked, _ := ResultSheets(f)
		if !slices.Equal(marked, wantSheets[3:]) {
			t.Errorf("write-back %d: result sheets %q", i, marked)
		}
		props, _ := f.Properties()
		if props[ResultSheetsProperty] != "Summary (websim)|Servers|Entities|Charts|Timeline|Run" {
			t.Errorf("write-back %d: custom properties %v", i, props)
		}
		f.Close()
		got := dumpSheets(t, path, "Summary (websim)", "Servers", "Entities", "Charts", "Timeline", "Run")
		if got != strings.Replace(want, "== Summary\n", "== Summary (websim)\n", 1) {
			t.Errorf("write-back %d: result sheets differ from Write's:\n%s", i, got)
		}
		charts := dumpCharts(t, path)
		if strings.Count(charts, "'Charts'!") == 0 {
			t.Errorf("write-back %d: charts do not point at the Charts sheet:\n%s", i, charts)
		}
		// The user's formulas that read the results hold the last run's
		// values until recalculated: Excel is asked to on opening.
		if wb := zipPart(t, path, "xl/workbook.xml"); !regexp.MustCompile(`<calcPr[^>]* fullCalcOnLoad="(1|true)"`).MatchString(wb) {
			t.Errorf("write-back %d: no fullCalcOnLoad in workbook.xml: %.300s", i, wb[strings.Index(wb, "<calcPr"):])
		}
	}
}

// zipPart is the text of one part of the zip file at path.
func zipPart(t *testing.T, path, name string) string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, zf := range zr.File {
		if zf.Name == name {
			rc, err := zf.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			data, err := io.ReadAll(rc)
			if err != nil {
				t.Fatal(err)
			}
			return string(data)
		}
	}
	t.Fatalf("%s has no part %s", path, name)
	return ""
}

func equalState(a, b userState) bool {
	return a.cells == b.cells && a.formula == b.formula && a.comment == b.comment &&
		a.validation == b.validation && a.style == b.style && a.width == b.width &&
		slices.Equal(a.names, b.names) && maps.Equal(a.props, b.props)
}

// A result sheet the user renamed is still websim's (the marker follows it);
// a sheet the user adds under a result sheet's name is theirs.
// A result sheet the user renamed (to keep an old run) and a copy Excel
// made of one (which carries the sheet-scoped marker too) are the user's:
// a write-back replaces only the sheets websim owns under the names it
// gave them.
func TestWriteBackKeepsRenamedAndCopiedResultSheets(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "SvcData.xlsx")
	userWorkbook(t, path)
	if err := WriteBack(path, readFrom(t, path, testStudy())); err != nil {
		t.Fatal(err)
	}
	editBook(t, path, func(f *xlsx.Book) error {
		if err := f.RenameSheet("Run", "Old run"); err != nil {
			return err
		}
		if err := f.NewSheet("Run"); err != nil {
			return err
		}
		f.SetCell("Run", "A1", "the user's run log")
		// Excel's "Move or Copy → Create a copy" copies sheet-scoped names.
		if err := f.CopySheet("Servers", "Servers before fix"); err != nil {
			return err
		}
		return f.Define(xlsx.DefinedName{Name: ResultMarker, RefersTo: "'Servers before fix'!$A$1", Scope: "Servers before fix"})
	})
	if err := WriteBack(path, readFrom(t, path, testStudy())); err != nil {
		t.Fatal(err)
	}
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// The new results take the places of those they replace, and Run
	// (websim), which replaces none, follows them: the user's sheets that
	// stood after the results stay after them.
	want := []string{"Settings", "Notes", "Summary", "Summary (websim)", "Servers", "Entities", "Charts", "Timeline", "Run (websim)", "Old run", "Run", "Servers before fix"}
	if got := f.Sheets(); !slices.Equal(got, want) {
		t.Errorf("sheets %q, want %q", got, want)
	}
	if v, _ := f.Value("Run", "A1"); v != "the user's run log" {
		t.Errorf("the user's Run sheet changed: %q", v)
	}
}

func TestWriteBackOnlyResultSheets(t *testing.T) {
	path := filepath.Join(t.TempDir(), "OutPut.xlsx")
	if err := Write(path, testStudy()); err != nil {
		t.Fatal(err)
	}
	if err := WriteBack(path, readFrom(t, path, testStudy())); err != nil {
		t.Fatal(err)
	}
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.Sheets(); !slices.Equal(got, []string{"Summary", "Servers", "Entities", "Charts", "Timeline", "Run"}) {
		t.Errorf("sheets %q", got)
	}
}

// Write-back into a real template's SvcData keeps every sheet's cells,
// comments and drop-down lists, and the template version.
func TestWriteBackIntoTemplate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "asum")
	if err := templates.Create(dir, "asum"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "SvcData.xlsx")
	userSheets := func() string {
		f, err := xlsx.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var b strings.Builder
		marked, _ := ResultSheets(f)
		for _, sh := range f.Sheets() {
			if slices.Contains(marked, sh) {
				continue
			}
			b.WriteString(dumpSheets(t, path, sh))
			cs, _ := f.Comments(sh)
			for _, c := range cs {
				b.WriteString("comment " + c.Cell + "\n")
			}
			dvs, _ := f.Validations(sh)
			for _, d := range dvs {
				b.WriteString("validation " + d.Sqref + " " + d.Formula1 + "\n")
			}
		}
		props, _ := f.Properties()
		if props[templates.VersionProperty] != "1" {
			t.Errorf("template version lost: %v", props)
		}
		return b.String()
	}
	before := userSheets()
	for i := 0; i < 3; i++ {
		if err := WriteBack(path, readFrom(t, path, testStudy())); err != nil {
			t.Fatal(err)
		}
		if after := userSheets(); after != before {
			t.Errorf("write-back %d changed the model's sheets", i+1)
		}
		// Each drawing holds one write-back's ten charts of Charts or three
		// of Timeline: a new one never lands in an earlier drawing, and the
		// replaced ones are pruned.
		zr, err := zip.OpenReader(path)
		if err != nil {
			t.Fatal(err)
		}
		counts := map[int]int{}
		for _, zf := range zr.File {
			if !strings.HasPrefix(zf.Name, "xl/drawings/drawing") {
				continue
			}
			rc, _ := zf.Open()
			data, _ := io.ReadAll(rc)
			rc.Close()
			n := strings.Count(string(data), "twoCellAnchor>") / 2
			counts[n]++
			if n != 16 && n != 3 {
				t.Errorf("write-back %d: %s holds %d charts, want 16 or 3", i+1, zf.Name, n)
			}
		}
		if counts[16] != 1 || counts[3] != 1 {
			t.Errorf("write-back %d: drawings by their number of charts %v, want one of 16 and one of 3", i+1, counts)
		}
		zr.Close()
	}
}

// Some programs (openpyxl among them) drop a workbook's custom properties
// when they save it; the markers alone still say which sheets are
// websim's, so the next write-back replaces them instead of adding
// "Summary (websim)" beside them. A write-back of run keeps the Sizing
// sheet of size, and the other way round.
func TestWriteBackOwnershipWithoutProperties(t *testing.T) {
	path := filepath.Join(t.TempDir(), "SvcData.xlsx")
	userWorkbook(t, path)
	dropProperty := func() {
		t.Helper()
		editBook(t, path, func(f *xlsx.Book) error {
			if err := f.SetProperty(ResultSheetsProperty, nil); err != nil {
				return err
			}
			if props, _ := f.Properties(); props[ResultSheetsProperty] != "" {
				t.Fatalf("the property is still there: %v", props)
			}
			return nil
		})
	}
	sheets := func() []string {
		t.Helper()
		f, err := xlsx.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		return f.Sheets()
	}
	if err := WriteBack(path, readFrom(t, path, testStudy())); err != nil {
		t.Fatal(err)
	}
	dropProperty()
	if err := WriteSizingBack(path, sizingReadFrom(t, path, testSizing())); err != nil {
		t.Fatal(err)
	}
	want := []string{"Settings", "Notes", "Summary", "Summary (websim)", "Servers", "Entities", "Charts", "Timeline", "Run", "Sizing"}
	if got := sheets(); !slices.Equal(got, want) {
		t.Fatalf("after size: sheets %q, want %q", got, want)
	}
	dropProperty()
	if err := WriteBack(path, readFrom(t, path, testStudy())); err != nil {
		t.Fatal(err)
	}
	// Each replaced in its place.
	if got := sheets(); !slices.Equal(got, want) {
		t.Errorf("after run: sheets %q, want %q (the results replaced, Sizing kept)", got, want)
	}
	dropProperty()
	if err := WriteSizingBack(path, sizingReadFrom(t, path, testSizing())); err != nil {
		t.Fatal(err)
	}
	if got := sheets(); !slices.Equal(got, want) {
		t.Errorf("after size again: sheets %q, want %q", got, want)
	}
}

// readFrom gives s the SHA-256 of the SvcData.xlsx at path as its input's,
// as if its runs had read that workbook (WriteBack refuses another).
func readFrom(t *testing.T, path string, s *study.Study) *study.Study {
	s.Inputs = inputsAsRead(t, path, s.Inputs)
	return s
}

// sizingReadFrom is readFrom for a sizing.
func sizingReadFrom(t *testing.T, path string, sz *study.Sizing) *study.Sizing {
	sz.Inputs = inputsAsRead(t, path, sz.Inputs)
	return sz
}

func inputsAsRead(t *testing.T, path string, inputs []study.Input) []study.Input {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	out := slices.Clone(inputs)
	for i := range out {
		if out[i].Name == filepath.Base(path) {
			out[i].SHA256 = hex.EncodeToString(sum[:])
		}
	}
	return out
}

// A workbook saved during the run (by Excel, say) is left as it is: the
// results are not added beside settings that did not make them.
func TestWriteBackRefusesAWorkbookChangedDuringTheRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "SvcData.xlsx")
	userWorkbook(t, path)
	st := readFrom(t, path, testStudy())
	sz := sizingReadFrom(t, path, testSizing())
	userWorkbook(t, path) // saved again: other bytes (its time stamps)
	b := xlsx.New()
	b.SetCell("Sheet1", "A1", "the user's change")
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(path)
	if err := WriteBack(path, st); !errors.Is(err, xlsx.ErrChanged) {
		t.Errorf("write-back: %v, want xlsx.ErrChanged", err)
	}
	if err := WriteSizingBack(path, sz); !errors.Is(err, xlsx.ErrChanged) {
		t.Errorf("sizing write-back: %v, want xlsx.ErrChanged", err)
	}
	if got, _ := os.ReadFile(path); string(got) != string(want) {
		t.Error("the changed workbook was written")
	}
}

// editBook opens the workbook at path, makes edit's changes, as a user
// would in Excel, and saves it.
func editBook(t *testing.T, path string, edit func(*xlsx.Book) error) {
	t.Helper()
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := edit(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
}

// patchPart replaces old with new, once, in the part name of the workbook
// at path.
func patchPart(t *testing.T, path, name, old, new string) {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	zw := zip.NewWriter(&out)
	found := false
	for _, zf := range zr.File {
		rc, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if zf.Name == name {
			if !strings.Contains(string(data), old) {
				t.Fatalf("%s holds no %q:\n%s", name, old, data)
			}
			data = []byte(strings.Replace(string(data), old, new, 1))
			found = true
		}
		w, err := zw.Create(zf.Name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	zr.Close()
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if !found {
		t.Fatalf("%s has no part %s", path, name)
	}
	if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A write-back keeps the places of the user's sheets and the protection
// of each: a sheet the user added after the results stays after them, and
// a protected sheet comes back with the permissions it had, not with every
// one the element left out (locked by default) written as unlocked.
func TestWriteBackKeepsSheetOrderAndProtection(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "SvcData.xlsx")
	userWorkbook(t, path)
	if err := WriteBack(path, readFrom(t, path, testStudy())); err != nil {
		t.Fatal(err)
	}
	editBook(t, path, func(f *xlsx.Book) error {
		if err := f.NewSheet("Later"); err != nil {
			return err
		}
		return f.SetCell("Later", "A1", "added after the results")
	})
	// Notes is the second sheet userWorkbook made.
	const notes, protection = "xl/worksheets/sheet2.xml", `<sheetProtection sheet="1" objects="1" scenarios="1"/>`
	if !strings.Contains(zipPart(t, path, notes), "<sheetData") {
		t.Fatalf("%s is not a worksheet", notes)
	}
	patchPart(t, path, notes, "</sheetData>", "</sheetData>"+protection)
	want := []string{"Settings", "Notes", "Summary", "Summary (websim)", "Servers", "Entities", "Charts", "Timeline", "Run", "Later"}
	for i := 1; i <= 2; i++ {
		if err := WriteBack(path, readFrom(t, path, testStudy())); err != nil {
			t.Fatalf("write-back %d: %v", i, err)
		}
		f, err := xlsx.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Sheets(); !slices.Equal(got, want) {
			t.Errorf("write-back %d: sheets %q, want %q", i, got, want)
		}
		if owned, _ := ResultSheets(f); !slices.Equal(owned, want[3:9]) {
			t.Errorf("write-back %d: result sheets %q", i, owned)
		}
		f.Close()
		if part := zipPart(t, path, notes); !strings.Contains(part, protection) || strings.Count(part, "<sheetProtection") != 1 {
			t.Errorf("write-back %d: Notes's protection not kept: %.500s", i, part[strings.Index(part, "</sheetData>"):])
		}
	}
}

// A workbook whose structure is protected takes no new sheet in Excel, and
// none from a write-back: refused, the file left as it was.
func TestWriteBackRefusesAStructureLockedWorkbook(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "SvcData.xlsx")
	userWorkbook(t, path)
	patchPart(t, path, "xl/workbook.xml", "<bookViews>", `<workbookProtection lockStructure="1"/><bookViews>`)
	before, _ := os.ReadFile(path)
	err := WriteBack(path, readFrom(t, path, testStudy()))
	if !errors.Is(err, xlsx.ErrStructureLocked) || !strings.Contains(err.Error(), path) {
		t.Errorf("write-back into a structure-locked workbook: %v; want xlsx.ErrStructureLocked naming %s", err, path)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("the workbook changed")
	}
}

// A result sheet keeps its name from one write-back to the next: after
// the user renames their own "Summary" (which made websim write "Summary
// (websim)"), the results stay "Summary (websim)", where the user's
// formulas read them, rather than take the plain name back.
func TestWriteBackKeepsTheResultSheetsName(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "SvcData.xlsx")
	userWorkbook(t, path) // has a user sheet called Summary
	if err := WriteBack(path, readFrom(t, path, testStudy())); err != nil {
		t.Fatal(err)
	}
	editBook(t, path, func(b *xlsx.Book) error { return b.RenameSheet("Summary", "Project summary") })
	if err := WriteBack(path, readFrom(t, path, testStudy())); err != nil {
		t.Fatal(err)
	}
	b, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	owned, _ := ResultSheets(b)
	if !slices.Contains(owned, "Summary (websim)") || slices.Contains(b.Sheets(), "Summary") {
		t.Errorf("sheets %q, websim's %q; want the results still in Summary (websim)", b.Sheets(), owned)
	}
}
