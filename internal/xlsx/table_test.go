package xlsx

import (
	"archive/zip"
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A table's sheet takes changes after WriteTable, laid over the table as
// it streams when the book is saved: a cell's value or style in the table,
// cells and row heights below it, a chart beside it, column widths; a
// renamed sheet keeps its table, a deleted one loses it.
func TestWriteTableTakesChangesUntilSaved(t *testing.T) {
	path := filepath.Join(t.TempDir(), "T.xlsx")
	b := New()
	b.RenameSheet("Sheet1", "Draft")
	b.NewSheet("Gone")
	cols := []Column{{Header: "Load"}, {Header: "Mean", Format: Time}, {Header: "Note", Format: Text | Wrapped}}
	rows := [][]any{
		{"L1", 12.5, "short"},
		{"L2", math.NaN(), strings.Repeat("a long note ", 20)},
		{"L3", Styled{Value: 7.0, Style: Bold}, nil},
	}
	if err := b.WriteTable("Draft", Table{Columns: cols, Rows: rows, Muted: func(r int) bool { return r == 0 }}); err != nil {
		t.Fatal(err)
	}
	b.WriteTable("Gone", Table{Columns: cols, Rows: rows})
	b.RenameSheet("Draft", "T")
	b.DeleteSheet("Gone")
	b.SetCell("T", "A3", "L2 (again)")      // a value in the table
	b.SetStyle("T", "B2", "B2", Share)      // a style in the table
	b.SetCell("T", "A7", "Below the table") // a row below it
	b.SetStyle("T", "A7", "A7", Title)      //
	b.MergeCells("T", "A7", "C7")           // merged below it
	b.SetRow("T", 8, "x", 2.0)              //
	b.RowHeight("T", 8, 40)                 //
	b.ColWidths("T", 5, 31)                 // a column beside it
	if err := b.AddChart("T", "F2", Chart{Kind: LineChart, Title: "Mean", Series: []Series{{Name: "Mean", Categories: AbsRange("T", 0, 2, 4), Values: AbsRange("T", 1, 2, 4)}}}); err != nil {
		t.Fatal(err)
	}
	if err := b.WriteTable("T", Table{Columns: cols}); err == nil {
		t.Error("a second table on a sheet was taken")
	}
	b.err = nil // the refusal above is the only error expected
	b = saveAndOpen(t, b, path)
	if got := b.Sheets(); fmt.Sprint(got) != "[T]" {
		t.Fatalf("sheets = %v, want [T]", got)
	}
	grid, err := b.RawGrid("T")
	if err != nil {
		t.Fatal(err)
	}
	text := func(row, col int) string {
		for _, r := range grid {
			if r.Num == row {
				return r.At(col).Text
			}
		}
		return ""
	}
	for _, c := range []struct {
		row, col int
		want     string
	}{
		{1, 0, "Load"}, {1, 1, "Mean"}, {2, 0, "L1"}, {2, 1, "12.5"}, {3, 0, "L2 (again)"}, {3, 1, ""},
		{4, 1, "7"}, {7, 0, "Below the table"}, {8, 0, "x"}, {8, 1, "2"},
	} {
		if got := text(c.row, c.col); got != c.want {
			t.Errorf("row %d column %d = %q, want %q", c.row, c.col, got, c.want)
		}
	}
	if mc, err := b.f.GetMergeCells("T"); err != nil || len(mc) != 1 || mc[0].GetStartAxis() != "A7" || mc[0].GetEndAxis() != "C7" {
		t.Errorf("merged cells %v (%v), want A7:C7", mc, err)
	}
	if l, _ := b.LookOf("T", "A1"); !l.Bold {
		t.Error("the header is not in the Header style")
	}
	if !b.IsPercent("T", "B2") {
		t.Error("B2 did not take the style set after WriteTable")
	}
	if l, _ := b.LookOf("T", "A2"); !l.Strike {
		t.Error("the muted row is not struck through")
	}
	if l, _ := b.LookOf("T", "B4"); !l.Bold {
		t.Error("a Styled cell lost its style")
	}
	if l, _ := b.LookOf("T", "A7"); !l.Bold {
		t.Error("the title below the table lost its style")
	}
	if h, _ := b.RowHeightOf("T", 3); h <= lineHeight {
		t.Errorf("the row of the long note is %g points, want it wrapped over lines", h)
	}
	if h, _ := b.RowHeightOf("T", 8); h != 40 {
		t.Errorf("row 8 is %g points, want 40", h)
	}
	if w, _ := b.ColWidth("T", 5); w != 31 {
		t.Errorf("width of F = %g, want 31", w)
	}
	if n, _ := b.FrozenRows("T"); n != 1 {
		t.Errorf("frozen rows = %d, want 1", n)
	}
	// Excel wants a sheet's columns in order (the sheet was renamed
	// after its widths were set).
	sheetXML := partOf(t, path, "xl/worksheets/sheet1.xml")
	var mins []int
	for _, m := range regexp.MustCompile(`<col min="(\d+)"`).FindAllStringSubmatch(sheetXML, -1) {
		n, _ := strconv.Atoi(m[1])
		mins = append(mins, n)
	}
	if !slices.IsSorted(mins) || len(mins) == 0 {
		t.Errorf("columns in the order %v, want increasing", mins)
	}
	if sheet, chart := partOf(t, path, "xl/worksheets/sheet1.xml"), partOf(t, path, "xl/charts/chart1.xml"); !strings.Contains(sheet, "<drawing ") || !strings.Contains(chart, "<c:chart") && !strings.Contains(chart, "<chart") {
		t.Error("the chart added after WriteTable is not on the sheet")
	}
}

// partOf returns a part of the package at path ("" when missing).
func partOf(t *testing.T, path, name string) string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name == name {
			b, err := readPart(f)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
	}
	return ""
}

// A table given row by row (RowFunc) is written as the same table given
// whole (Rows).
func TestWriteTableRowFuncIsRows(t *testing.T) {
	cols := []Column{{Header: "Run"}, {Header: "Interval", Format: Count}, {Header: "Share", Format: Share}}
	rows := make([][]any, 50)
	for i := range rows {
		rows[i] = []any{fmt.Sprintf("run %d", i/10), float64(i%10 + 1), float64(i) / 50}
	}
	whole := tableDump(t, Table{Columns: cols, Rows: rows})
	byRow := tableDump(t, Table{Columns: cols, NumRows: len(rows), RowFunc: func(i int) []any { return rows[i] }})
	if whole != byRow {
		t.Errorf("RowFunc wrote\n%s\nRows wrote\n%s", byRow, whole)
	}
	if !strings.Contains(whole, "C51=0.98/true") {
		t.Errorf("the last row is missing or unstyled:\n%s", whole)
	}
}

// tableDump saves a book holding table t and returns its cells read back:
// each cell's text and whether it shows a percentage.
func tableDump(t *testing.T, table Table) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "R.xlsx")
	b := New()
	b.WriteTable("Sheet1", table)
	b = saveAndOpen(t, b, path)
	grid, err := b.RawGrid("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, r := range grid {
		for c := range table.Columns {
			ref := CellName(c, r.Num)
			fmt.Fprintf(&out, "%s=%s/%v ", ref, r.At(c).Text, b.IsPercent("Sheet1", ref))
		}
		out.WriteString("\n")
	}
	return out.String()
}

// A result sheet too large for the library to hold in memory when a
// workbook is opened (its part goes to a temporary file), deleted and
// written again as a table, is in the package once: the new one.
func TestWriteTableReplacesALargeSheetOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a sheet of 17 MB")
	}
	path := filepath.Join(t.TempDir(), "S.xlsx")
	b := New()
	b.RenameSheet("Sheet1", "User")
	b.SetCell("User", "A1", "the user's")
	b.NewSheet("Timeline")
	cols := []Column{{Header: "Run"}, {Header: "Interval", Format: Count}, {Header: "Mean", Format: Decimal2}, {Header: "Note"}}
	b.WriteTable("Timeline", Table{Columns: cols, NumRows: 200_000, RowFunc: func(i int) []any {
		return []any{fmt.Sprintf("run %d of the study", i), float64(i), float64(i) / 3, "abcdefghij"}
	}})
	b = saveAndOpen(t, b, path)
	b.DeleteSheet("Timeline")
	b.NewSheet("Timeline")
	b.WriteTable("Timeline", Table{Columns: []Column{{Header: "New"}}, Rows: [][]any{{"new"}}})
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	b.Close()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	seen := map[string]bool{}
	for _, f := range zr.File {
		if seen[f.Name] {
			t.Errorf("part %s is in the package twice", f.Name)
		}
		seen[f.Name] = true
	}
	b, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if grid, _ := b.RawGrid("Timeline"); len(grid) != 2 || grid[1].At(0).Text != "new" {
		t.Errorf("Timeline = %+v, want the new table", grid)
	}
}

// Without a writable temporary folder a save goes on: the package is put
// together beside the file, and nothing of it is left there.
func TestSaveWithoutATemporaryFolder(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	dir := t.TempDir()
	b := New()
	defer b.Close()
	b.WriteTable("Sheet1", Table{Columns: []Column{{Header: "A"}}, Rows: [][]any{{1.0}}})
	if err := b.Save(filepath.Join(dir, "T.xlsx")); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left: %v, want T.xlsx alone", entries)
	}
	// The table's rows, kept in memory without a temporary file, are there.
	b = saveAndOpen(t, b, filepath.Join(dir, "T.xlsx"))
	if grid, _ := b.RawGrid("Sheet1"); len(grid) != 2 || grid[1].At(0).Text != "1" {
		t.Errorf("Sheet1 = %+v, want the table", grid)
	}
}

// A table's rows wait in a temporary file of their own from the first
// save to Close, and are in every save; a sheet deleted takes its file
// with it.
func TestTableRowsFileLastsUntilClose(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := t.TempDir()
	spools := func() int {
		entries, _ := os.ReadDir(tmp)
		n := 0
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), "websim-rows-") {
				n++
			}
		}
		return n
	}
	b := New()
	b.NewSheet("Gone")
	rows := [][]any{{"L1", 2.5}, {"L2", 3.0}}
	b.WriteTable("Sheet1", Table{Columns: []Column{{Header: "Load"}, {Header: "Mean"}}, Rows: rows})
	b.WriteTable("Gone", Table{Columns: []Column{{Header: "X"}}, Rows: [][]any{{"x"}}})
	for i, name := range []string{"A.xlsx", "B.xlsx"} {
		if err := b.Save(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		if n := spools(); n != 2-i {
			t.Errorf("after save %d: %d files of rows, want %d", i+1, n, 2-i)
		}
		b.DeleteSheet("Gone")
	}
	if _, err := b.RawGrid("Sheet1"); err == nil {
		t.Error("the streamed sheet read from the book after the save, want an error: its cells are in the file")
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if n := spools(); n != 0 {
		t.Errorf("after Close: %d files of rows left", n)
	}
	for _, name := range []string{"A.xlsx", "B.xlsx"} {
		r, err := Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		grid, _ := r.RawGrid("Sheet1")
		r.Close()
		if len(grid) != 3 || grid[2].At(0).Text != "L2" || grid[2].At(1).Text != "3" {
			t.Errorf("%s: Sheet1 = %+v, want the table", name, grid)
		}
	}
}

// Edits to a table's sheet behave as on any sheet: its name in any case,
// NaN leaves a cell as it is, a Styled value is written alone; a sheet
// the library keeps (a book's last) keeps its table; once the book is
// written, its streamed cells are refused, not lost.
func TestWriteTableEditsAsSetCell(t *testing.T) {
	path := filepath.Join(t.TempDir(), "E.xlsx")
	b := New()
	defer b.Close()
	b.WriteTable("Sheet1", Table{Columns: []Column{{Header: "A"}, {Header: "B"}}, Rows: [][]any{{1.0, 2.0}}})
	b.SetCell("SHEET1", "A3", "any case")
	b.SetCell("Sheet1", "A2", math.NaN())
	b.SetCell("Sheet1", "B2", Styled{Value: 5.0, Style: Bold})
	b.DeleteSheet("Sheet1") // the last sheet: kept
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	if err := b.SetCell("Sheet1", "A4", "late"); err == nil {
		t.Error("a change to a streamed sheet after the save was taken")
	}
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	grid, _ := r.RawGrid("Sheet1")
	var got []string
	for _, row := range grid {
		got = append(got, fmt.Sprintf("%d:%s,%s", row.Num, row.At(0).Text, row.At(1).Text))
	}
	if want := "[1:A,B 2:1,5 3:any case,]"; fmt.Sprint(got) != want {
		t.Errorf("cells = %v, want %s", got, want)
	}
}

// saveAndOpen saves b to path, closes it and opens the file again (closed
// when the test ends).
func saveAndOpen(t *testing.T, b *Book, path string) *Book {
	t.Helper()
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	b.Close()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// A saved package lists its parts in one order, whatever order the
// library wrote them in: [Content_Types].xml, _rels/.rels, then by name.
func TestSavedPartsInCanonicalOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "O.xlsx")
	b := New()
	defer b.Close()
	for _, name := range []string{"Zeta", "Alpha", "Mid"} {
		b.NewSheet(name)
		b.WriteTable(name, Table{Columns: []Column{{Header: "A", Comment: "a note"}}, Rows: [][]any{{1.0}}})
	}
	b.AddChart("Mid", "C2", Chart{Kind: LineChart, Title: "A", Series: []Series{{Name: "A", Values: AbsRange("Mid", 0, 2, 2)}}})
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	if len(names) < 3 || names[0] != "[Content_Types].xml" || names[1] != "_rels/.rels" || !slices.IsSorted(names[2:]) {
		t.Errorf("parts in the order %v", names)
	}
}

// The default content types come in order of their extension, whatever
// order the library added them in: the same workbook saved twice has the
// same bytes.
func TestSavedContentTypesInOrder(t *testing.T) {
	var first []byte
	for k := range 8 {
		b := New()
		b.NewSheet("Mid")
		b.WriteTable("Mid", Table{Columns: []Column{{Header: "A"}}, Rows: [][]any{{1.0}}})
		b.AddChart("Mid", "C2", Chart{Kind: LineChart, Title: "A", Series: []Series{{Name: "A", Values: AbsRange("Mid", 0, 2, 2)}}})
		types := savedPart(t, b, contentTypesPart)
		b.Close()
		var exts []string
		for _, m := range defaultTag.FindAllSubmatch(types, -1) {
			exts = append(exts, string(m[1]))
		}
		if len(exts) < 3 || !slices.IsSorted(exts) {
			t.Fatalf("save %d: default content types in the order %v", k, exts)
		}
		if k == 0 {
			first = types
		} else if !bytes.Equal(types, first) {
			t.Fatalf("save %d: [Content_Types].xml differs from the first save's", k)
		}
	}
}

func TestSortDefaults(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`<Types><Default Extension="xml" ContentType="a"></Default><Override PartName="/p"/><Default Extension="png" ContentType="b"/><Default Extension="bmp" ContentType="c"></Default></Types>`,
			`<Types><Default Extension="bmp" ContentType="c"></Default><Override PartName="/p"/><Default Extension="png" ContentType="b"/><Default Extension="xml" ContentType="a"></Default></Types>`},
		{`<Types><Default Extension="a" ContentType="x"/><Default Extension="b" ContentType="y"/></Types>`,
			`<Types><Default Extension="a" ContentType="x"/><Default Extension="b" ContentType="y"/></Types>`},
		{`<Types><Override PartName="/p"/></Types>`, `<Types><Override PartName="/p"/></Types>`},
	} {
		got, ok := sortDefaults([]byte(c.in))
		if string(got) != c.want {
			t.Errorf("sortDefaults(%s)\n = %s\nwant %s", c.in, got, c.want)
		}
		if ok != (c.in != c.want) {
			t.Errorf("sortDefaults(%s): ok %v", c.in, ok)
		}
	}
}

// WrapAcross merges and wraps a text too long for its cells, and leaves a
// short one alone.
func TestWrapAcross(t *testing.T) {
	b := New()
	defer b.Close()
	b.ColWidths("Sheet1", 0, 10, 10)
	if wrapped, err := b.WrapAcross("Sheet1", "A1", "B1", "short"); wrapped || err != nil {
		t.Errorf("a short text: wrapped %v (%v)", wrapped, err)
	}
	long := strings.Repeat("words that run on ", 4)
	if wrapped, err := b.WrapAcross("Sheet1", "A2", "B2", long); !wrapped || err != nil {
		t.Fatalf("a long text: wrapped %v (%v)", wrapped, err)
	}
	if h, _ := b.RowHeightOf("Sheet1", 2); h != float64(wrappedLines(long, lineChars(20))*lineHeight) {
		t.Errorf("row height %g, want %d lines", h, wrappedLines(long, lineChars(20)))
	}
	if mc, _ := b.f.GetMergeCells("Sheet1"); len(mc) != 1 || mc[0].GetStartAxis() != "A2" || mc[0].GetEndAxis() != "B2" {
		t.Errorf("merged %v, want A2:B2", mc)
	}
}
