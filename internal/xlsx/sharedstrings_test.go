package xlsx

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFirstBadSharedString(t *testing.T) {
	for _, c := range []struct {
		name, sheet string
		count       int
		ref         string
		index       int64
		bad         bool
	}{
		{"indexes in range", `<row><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>2</v></c><c r="C1"><v>7</v></c></row>`, 3, "", 0, false},
		{"past the table", `<row><c r="A1" t="s"><v>0</v></c><c r="B4" s="1" t="s"><v>3</v></c></row>`, 3, "B4", 3, true},
		{"a namespace prefix", `<x:row><x:c r="C2" t="s"><x:v>5</x:v></x:c></x:row>`, 5, "C2", 5, true},
		{"a formula before the value", `<c r="D1" t="s"><f>A1</f><v>9</v></c>`, 2, "D1", 9, true},
		{"not a number", `<c r="E1" t="s"><v>x</v></c>`, 2, "E1", -1, true},
		{"no shared strings at all", `<c r="F1" t="s"><v>0</v></c>`, -1, "F1", 0, true},
		{"a cell without a value", `<c r="G1" t="s"/><c r="G2" t="s"></c><c r="G3"><v>1</v></c>`, 0, "", 0, false},
		{"another element's t", `<foo t="s"><v>9</v></foo><c r="H1"><v>9</v></c>`, 0, "", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ref, index, bad := firstBadSharedString([]byte(c.sheet), c.count)
			if ref != c.ref || index != c.index || bad != c.bad {
				t.Errorf("got %q %d %v, want %q %d %v", ref, index, bad, c.ref, c.index, c.bad)
			}
		})
	}
}

// A cell whose shared text is past the end of the table is read by the
// library as blank; Open refuses the workbook instead, at that cell.
func TestOpenRefusesASharedStringPastTheTable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "B.xlsx")
	b := New()
	must(t, b.SetRow("Sheet1", 1, "Name", "Value"))
	must(t, b.SetRow("Sheet1", 2, "Seed", 7.0))
	must(t, b.Save(path))
	b.Close()
	if r, err := Open(path); err != nil {
		t.Fatalf("the workbook as saved: %v", err)
	} else {
		r.Close()
	}
	// B2's number becomes shared text number 999, of the three the table
	// holds (Name, Value, Seed).
	changed := damage(t, path, func(part []byte) []byte {
		return bytes.Replace(part, []byte(`<c r="B2"><v>7</v></c>`), []byte(`<c r="B2" t="s"><v>999</v></c>`), 1)
	})
	if !changed {
		t.Fatal("no cell B2 of 7 to damage in the sheet")
	}
	_, err := Open(path)
	var p Problem
	if !errors.As(err, &p) || !errors.Is(err, ErrDamaged) || p.Where() != "B.xlsx!Sheet1!B2" || !strings.Contains(p.Msg, "shared text number 999, but the workbook holds 3") {
		t.Errorf("Open: %v; want ErrDamaged at B.xlsx!Sheet1!B2", err)
	}
}

func TestSharedItems(t *testing.T) {
	for _, c := range []struct {
		part string
		want int
	}{
		{`<?xml version="1.0"?><sst xmlns="x" count="3"><si><t>a</t></si><si><r><t>b</t></r></si><si/></sst>`, 3},
		{`<x:sst xmlns:x="x"><x:si><x:t>a</x:t></x:si><x:si xml:space="preserve"><x:t>b</x:t></x:si></x:sst>`, 2},
		{`<sst count="0"></sst>`, 0},
	} {
		if got := sharedItems([]byte(c.part)); got != c.want {
			t.Errorf("sharedItems(%s) = %d, want %d", c.part, got, c.want)
		}
	}
}

func TestCutShort(t *testing.T) {
	for _, c := range []struct {
		name, part string
		cut        bool
	}{
		{"whole", `<?xml version="1.0"?><worksheet xmlns="x"><sheetData><row r="1"/></sheetData></worksheet>`, false},
		{"whole, white space after", "<worksheet><sheetData/></worksheet>\r\n", false},
		{"whole, a prefix", `<x:worksheet xmlns:x="x"><x:sheetData/></x:worksheet >`, false},
		{"whole, a comment after", `<worksheet/><!-- saved by hand -->`, false},
		{"a chart sheet", `<chartsheet><drawing/></chartsheet>`, false},
		{"cut after a row", `<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row>`, true},
		{"cut after a start tag", `<worksheet><sheetData><row r="2">`, true},
		{"cut in a value", `<worksheet><sheetData><row r="1"><c r="A1"><v>12`, true},
		{"cut in a tag", `<worksheet><sheetData><row r="1"><c r="A1" t=`, true},
		{"nothing", ``, true},
	} {
		if got := cutShort([]byte(c.part)); got != c.cut {
			t.Errorf("%s: cutShort(%q) = %v, want %v", c.name, c.part, got, c.cut)
		}
	}
}

// A sheet cut short in a package whose zip is whole streams as its first
// rows without an error; Open refuses the workbook instead, at the sheet.
func TestOpenRefusesASheetCutShort(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "C.xlsx")
	b := New()
	must(t, b.NewSheet("Data"))
	for r := 1; r <= 50; r++ {
		must(t, b.SetRow("Data", r, float64(r)))
	}
	must(t, b.Save(path))
	b.Close()
	cut := damage(t, path, func(part []byte) []byte {
		if at := bytes.Index(part, []byte(`<row r="30"`)); at > 0 {
			return part[:at]
		}
		return part
	})
	if !cut {
		t.Fatal("no row 30 to cut the sheet at")
	}
	_, err := OpenData(path)
	var p Problem
	if !errors.As(err, &p) || !errors.Is(err, ErrDamaged) || p.Where() != "C.xlsx!Data" || !strings.Contains(p.Msg, "stops before its end") {
		t.Errorf("OpenData: %v; want ErrDamaged at C.xlsx!Data", err)
	}
}

func TestAfterLastRow(t *testing.T) {
	for _, c := range []struct {
		b    string
		want int
	}{
		{`<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c`, len(`<row r="1"><c r="A1"><v>1</v></c></row>`)},
		{`<x:row r="1"></x:row><x:row r="2">`, len(`<x:row r="1"></x:row>`)},
		{`<row r="1"><c r="A1"><is><t>row></t></is></c>`, -1},
		{`<row r="1"/><row r="2"/>`, -1},
		{``, -1},
	} {
		if got := afterLastRow([]byte(c.b)); got != c.want {
			t.Errorf("afterLastRow(%q) = %d, want %d", c.b, got, c.want)
		}
	}
}

// A sheet several pieces long is scanned whole: a bad cell past the first
// piece is found, and so is a cut in the last one.
func TestScanSheetInPieces(t *testing.T) {
	var sheet bytes.Buffer
	sheet.WriteString(`<?xml version="1.0"?><x:worksheet xmlns:x="x"><x:sheetData>`)
	const rows = 100_000
	for r := 1; r <= rows; r++ {
		v := 0
		if r == rows-10 {
			v = 7 // of 3 shared texts
		}
		fmt.Fprintf(&sheet, `<x:row r="%d"><x:c r="A%d" t="s"><x:v>%d</x:v></x:c><x:c r="B%d"><x:v>%d.5</x:v></x:c></x:row>`, r, r, v, r, r)
	}
	sheet.WriteString(`</x:sheetData></x:worksheet>`)
	if sheet.Len() < 3*sheetPiece {
		t.Fatalf("the sheet is %d bytes, not several pieces", sheet.Len())
	}
	whole := sheet.Bytes()
	for _, c := range []struct {
		name string
		part []byte
		ref  string
		cut  bool
	}{
		{"whole", whole, fmt.Sprintf("A%d", rows-10), false},
		{"cut", whole[:len(whole)-40], fmt.Sprintf("A%d", rows-10), true},
	} {
		var zipped bytes.Buffer
		zw := zip.NewWriter(&zipped)
		w, err := zw.Create("xl/worksheets/sheet1.xml")
		must(t, err)
		_, err = w.Write(c.part)
		must(t, err)
		must(t, zw.Close())
		zr, err := zip.NewReader(bytes.NewReader(zipped.Bytes()), int64(zipped.Len()))
		must(t, err)
		ref, index, bad, cut, err := scanSheet(zr.File[0], 3)
		if err != nil || ref != c.ref || index != 7 || !bad || cut != c.cut {
			t.Errorf("%s: scanSheet = %q %d %v cut %v, %v; want %q 7 true cut %v", c.name, ref, index, bad, cut, err, c.ref, c.cut)
		}
	}
}

// damage rewrites the workbook at path with each part passed through
// change, and reports whether any part changed: the zip stays whole, so
// the damage is in the XML alone.
func damage(t *testing.T, path string, change func(part []byte) []byte) bool {
	t.Helper()
	data, err := os.ReadFile(path)
	must(t, err)
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	must(t, err)
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	changed := false
	for _, f := range zr.File {
		part, err := readPart(f)
		must(t, err)
		if got := change(part); !bytes.Equal(got, part) {
			part, changed = got, true
		}
		w, err := zw.Create(f.Name)
		must(t, err)
		_, err = w.Write(part)
		must(t, err)
	}
	must(t, zw.Close())
	must(t, os.WriteFile(path, out.Bytes(), 0o644))
	return changed
}

// A syntax error in a sheet's XML ends the library's row stream without an
// error, so the rows before it would pass for the whole sheet; one in the
// shared texts would fail every text cell. Open refuses either at once,
// located, and reads a sheet in a declared character set as before.
func TestOpenRefusesXMLSyntaxErrors(t *testing.T) {
	for _, c := range []struct {
		name    string
		change  func(part []byte) []byte
		where   string // "" when the workbook opens
		message string
	}{
		{"stray < in row 30", replaceIn(`<row r="30"`, `<row r="30" <`), "D.xlsx!Data!B29", "damaged near this cell, the last one begun before the damage (line 2: expected attribute name in element)"},
		{"unclosed cell", replaceIn(`<c r="A12"><v>12</v></c>`, `<c r="A12"><v>12</v>`), "D.xlsx!Data!B12", "damaged near this cell, the last one begun before the damage (line 2: element <c> closed by </row>)"},
		{"stray < before the first cell", replaceIn(`<sheetData><row r="1"`, `<sheetData><<row r="1"`), "D.xlsx!Data", "damaged before its first cell"},
		{"bare & in a shared text", replaceIn(`<t>Label</t>`, `<t>Label & more</t>`), "D.xlsx", "shared texts (xl/sharedStrings.xml) are damaged (line 2: invalid character entity & (no semicolon))"},
		{"Latin-1 declared", func(part []byte) []byte {
			return bytes.Replace(part, []byte(`encoding="UTF-8"`), []byte(`encoding="ISO-8859-1"`), 1)
		}, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "D.xlsx")
			b := New()
			must(t, b.NewSheet("Data"))
			must(t, b.SetRow("Data", 1, "Label", "Value"))
			for r := 2; r <= 50; r++ {
				must(t, b.SetRow("Data", r, float64(r), float64(2*r)))
			}
			must(t, b.Save(path))
			b.Close()
			if !damage(t, path, c.change) {
				t.Fatal("the change found nothing to change")
			}
			got, err := OpenData(path)
			if c.where == "" {
				if err != nil {
					t.Fatalf("OpenData: %v; want it open", err)
				}
				defer got.Close()
				rows := 0
				must(t, got.ScanRows("Data", func(int, []string) bool { rows++; return true }))
				if rows != 50 {
					t.Errorf("read %d rows, want 50", rows)
				}
				return
			}
			var p Problem
			if !errors.As(err, &p) || !errors.Is(err, ErrDamaged) || p.Where() != c.where || !strings.Contains(p.Msg, c.message) {
				t.Errorf("OpenData: %v; want ErrDamaged at %s saying %q", err, c.where, c.message)
			}
		})
	}
}

// replaceIn returns a change that replaces the first old in a part with new.
func replaceIn(old, new string) func(part []byte) []byte {
	return func(part []byte) []byte { return bytes.Replace(part, []byte(old), []byte(new), 1) }
}

// Two sheets whose names differ only in case (which Excel refuses, but
// another program may write) would be read as one: the second is refused
// at open, by name.
func TestOpenRefusesSheetNamesThatDifferInCase(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "P.xlsx")
	b := New()
	must(t, b.NewSheet("Work"))
	must(t, b.SetRow("Work", 1, "Step", "ProcTime"))
	must(t, b.NewSheet("Other"))
	must(t, b.SetRow("Other", 1, "Step", "ProcTime"))
	must(t, b.Save(path))
	b.Close()
	if _, err := Open(path); err != nil {
		t.Fatalf("Open before the rename: %v", err)
	}
	renamed := filepath.Join(dir, "R.xlsx")
	editZip(t, path, renamed, "xl/workbook.xml", func(s string) string {
		return strings.Replace(s, `name="Other"`, `name="WORK"`, 1)
	})
	_, err := Open(renamed)
	var p Problem
	if !errors.As(err, &p) || !errors.Is(err, ErrDamaged) || p.Where() != "R.xlsx!WORK" || !strings.Contains(p.Msg, `sheet "Work" only in case`) {
		t.Errorf("Open: %v; want ErrDamaged at R.xlsx!WORK naming Work", err)
	}
}
