package xlsx

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// caretError is a cause that can draw a caret, as rules.Error does.
type caretError struct{ src string }

func (e caretError) Error() string { return "bad at column 3" }
func (e caretError) Caret() string { return e.src + "\n  ^" }

func TestProblem(t *testing.T) {
	for _, tt := range []struct {
		p                 Problem
		err, detailed     string
		is                error
		caretFromTheCause bool
	}{
		{p: Problem{File: "SvcData.xlsx", Sheet: "ServerInfo", Cell: "B2", Msg: "capacity 0"},
			err: "SvcData.xlsx!ServerInfo!B2: capacity 0", detailed: "SvcData.xlsx!ServerInfo!B2: capacity 0"},
		{p: Problem{File: "SvcData.xlsx", Cell: "B2", Msg: "m"}, err: "SvcData.xlsx: m", detailed: "SvcData.xlsx: m"},
		{p: Problem{File: "--method", Msg: "unknown"}, err: "--method: unknown", detailed: "--method: unknown"},
		{p: Problem{Msg: "no place"}, err: "no place", detailed: "no place"},
		{p: Problem{File: "P.xlsx", Sheet: "S", Cell: "A1", Msg: "formula", Err: ErrFormula},
			err: "P.xlsx!S!A1: formula", detailed: "P.xlsx!S!A1: formula", is: ErrFormula},
		{p: Problem{File: "P.xlsx", Sheet: "S", Cell: "H3", Msg: "bad", Err: fmt.Errorf("compiling: %w", caretError{"a ? b"})},
			err: "P.xlsx!S!H3: bad", detailed: "P.xlsx!S!H3: bad\n    a ? b\n      ^", caretFromTheCause: true},
	} {
		if got := tt.p.Error(); got != tt.err {
			t.Errorf("Error() = %q, want %q", got, tt.err)
		}
		if got := tt.p.Detailed(); got != tt.detailed {
			t.Errorf("Detailed() = %q, want %q", got, tt.detailed)
		}
		if tt.is != nil && !errors.Is(tt.p, tt.is) {
			t.Errorf("%v: errors.Is(%v) is false", tt.p, tt.is)
		}
		var ce caretError
		if errors.As(Problems{tt.p}[0], &ce) != tt.caretFromTheCause {
			t.Errorf("%v: errors.As finds the cause: %v", tt.p, !tt.caretFromTheCause)
		}
	}
	ps := Problems{{File: "a", Msg: "x", Warning: true}, {File: "b", Msg: "y"}}
	if ps.Error() != "warning: a: x\nb: y" || len(ps.Errors()) != 1 || len(ps.Warnings()) != 1 {
		t.Errorf("Problems: %q", ps.Error())
	}
	if (Problems{{Msg: "w", Warning: true}}).OrNil() != nil || ps.OrNil() == nil {
		t.Error("OrNil: warnings alone are not an error; an error is")
	}
}

// zipWith returns the bytes of a zip holding one part of the given
// declared (and real) size.
func zipWith(t *testing.T, name string, size int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(bytes.Repeat([]byte(" "), size))
	zw.Close()
	return buf.Bytes()
}

func TestOpenRefusesWhatIsNotAWholeWorkbook(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := filepath.Join(dir, "good.xlsx")
	b := New()
	b.SetCell("Sheet1", "A1", "x")
	if err := b.Save(good); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	for _, tt := range []struct {
		path  string
		cause error
		msg   string
	}{
		{filepath.Join(dir, "nope.xlsx"), ErrNotFound, "no such file"},
		{dir, ErrDamaged, "is a folder"},
		{write("empty.xlsx", nil), ErrDamaged, "the file is empty"},
		{write("old.xlsx", []byte{0xD0, 0xCF, 0x11, 0xE0, 0, 0}), ErrDamaged, "old .xls format"},
		{write("cut.xlsx", data[:len(data)/2]), ErrDamaged, "damaged"},
		{write("bomb.xlsx", zipWith(t, "xl/worksheets/sheet1.xml", UnzipSizeLimit+1)), ErrTooLarge, "would expand to more than 64 MB"},
	} {
		_, err := Open(tt.path)
		var p Problem
		if !errors.As(err, &p) || !errors.Is(err, tt.cause) || !strings.Contains(p.Msg, tt.msg) || p.File != filepath.Base(tt.path) {
			t.Errorf("Open(%s) = %v, want a Problem of %s with %v (%q)", filepath.Base(tt.path), err, filepath.Base(tt.path), tt.cause, tt.msg)
		}
	}
	got, err := Open(good)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	if got.Name != "good.xlsx" || len(got.SHA256) != 64 {
		t.Errorf("Open: name %q, sha256 %q", got.Name, got.SHA256)
	}
}

func TestReadTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.xlsx")
	b := New()
	b.SetRow("Sheet1", 1, "Step", "proc_time", "SucessRate", "Colour", "Note")
	b.SetRow("Sheet1", 2, "A", 1234.5678, 0.5, "red", "mine")
	b.SetRow("Sheet1", 3, "B", Formula("=B2*2"), Formula("=1/0"))
	b.SetRow("Sheet1", 5, "C", "#N/A")
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if fs, err := b.Formulas("Sheet1"); err != nil || len(fs) != 2 || fs["B3"] != "B2*2" || fs["C3"] != "1/0" {
		t.Errorf("Formulas = %v, %v", fs, err)
	}
	tab, ps := b.ReadTable("Sheet1", Spec{Columns: []string{"Step", "ProcTime", "SuccessRate", "Server"}, Required: []string{"Step", "Server"}})
	var got []string
	for _, p := range ps {
		got = append(got, fmt.Sprintf("%v %s warning=%v formula=%v notfound=%v", p.Cell, p.Msg[:min(len(p.Msg), 30)], p.Warning, errors.Is(p, ErrFormula), errors.Is(p, ErrNotFound)))
	}
	want := []string{
		"C3 cannot compute the formula =1/ warning=false formula=true notfound=false",
		"B5 the cell holds the Excel error warning=false formula=true notfound=false",
		`C1 unknown column "SucessRate"; d warning=false formula=false notfound=true`,
		`D1 unknown column "Colour" left a warning=true formula=false notfound=false`,
		` missing column "Server"; expec warning=false formula=false notfound=true`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if tab == nil || len(tab.Rows) != 3 || tab.Col["ProcTime"] != 1 {
		t.Fatalf("table %+v", tab)
	}
	for _, c := range []struct {
		row        int
		text, ref  string
		bad, blank bool
	}{
		{0, "1234.5678", "B2", false, false}, // raw, not "1,234.57"
		{1, "2469.1356", "B3", false, false}, // computed: no saved value
		{2, "", "B5", true, true},            // reported: readers skip it
	} {
		col := "ProcTime"
		if c.row == 2 {
			got := tab.Rows[c.row].At(1)
			if got.Bad != c.bad || got.Ref != c.ref || got.Blank() != c.blank {
				t.Errorf("row %d: %+v", c.row, got)
			}
			continue
		}
		if got := tab.Get(tab.Rows[c.row], col); got.Text != c.text || got.Ref != c.ref || got.Bad != c.bad {
			t.Errorf("row %d: %+v, want %q at %s", c.row, got, c.text, c.ref)
		}
	}
}

func TestWriteTableAndOwnedSheets(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.xlsx")
	b := New()
	b.RenameSheet("Sheet1", "Summary")
	b.NewSheet("Mine")
	b.WriteTable("Summary", Table{
		Columns: []Column{{Header: "Load", Comment: "the load level"}, {Header: "Mean", Format: Time}, {Header: "Share", Format: Share, Width: 9}, {Header: "Why", Format: Wrapped}},
		Rows: [][]any{{"L1", 1.5, 0.25}, {"L2", nil, 0.5, strings.Repeat("a word ", 20)},
			{"L3", 2.0, 0.75, Styled{Value: strings.Repeat("a word ", 10), Style: Bad}}},
	})
	b.AddChart("Summary", "E2", Chart{Kind: LineChart, Title: "Mean", Series: []Series{{Name: AbsRange("Summary", 1, 1, 1),
		Categories: AbsRange("Summary", 0, 2, 3), Values: AbsRange("Summary", 1, 2, 3)}}})
	b.AddDropList("Mine", "A2:A9", DropList{Items: []string{"x", "y"}, Strict: true})
	b.MarkOwned("Summary")
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	b.Close()
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if rows, _ := b.FrozenRows("Summary"); rows != 1 {
		t.Errorf("frozen rows %d", rows)
	}
	// What stays in view is repeated on every printed page.
	titles := ""
	for _, dn := range b.DefinedNames() {
		if dn.Name == "_xlnm.Print_Titles" && dn.Scope == "Summary" {
			titles = dn.RefersTo
		}
	}
	if titles != "'Summary'!$1:$1" {
		t.Errorf("print titles %q, want the header row", titles)
	}
	if l, _ := b.LookOf("Summary", "A1"); !l.Bold || l.Fill != "DDEBF7" {
		t.Errorf("header look %+v", l)
	}
	if l, _ := b.LookOf("Summary", "C3"); l.NumFormat != shareFormat {
		t.Errorf("share look %+v", l)
	}
	if w, _ := b.ColWidth("Summary", 2); w != 9 {
		t.Errorf("width of C = %v, want 9", w)
	}
	// A text of 140 characters in a wrapped column, held to 45, wraps
	// over three lines of about 54 characters (textPerDigit), and its row
	// is three lines tall; one of 70, styled,
	// keeps its fill and wraps over two; a short text does not wrap.
	if w, _ := b.ColWidth("Summary", 3); w != 46 {
		t.Errorf("width of D = %v, want 46 (45 and a margin)", w)
	}
	if l, _ := b.LookOf("Summary", "D3"); !l.Wrap {
		t.Errorf("a long text is not wrapped: %+v", l)
	}
	if h, _ := b.RowHeightOf("Summary", 3); h != 45 {
		t.Errorf("row 3 is %v points tall, want 45 (three lines)", h)
	}
	if l, _ := b.LookOf("Summary", "D4"); !l.Wrap || l.Fill != "FFC7CE" {
		t.Errorf("a long styled text: %+v, want wrapped on a red fill", l)
	}
	if h, _ := b.RowHeightOf("Summary", 4); h != 30 {
		t.Errorf("row 4 is %v points tall, want 30 (two lines)", h)
	}
	// In a tall row every cell is top-aligned and wraps, the number
	// keeping its format; a row of short texts is left as it is.
	if l, _ := b.LookOf("Summary", "A3"); !l.Wrap {
		t.Errorf("a short text in a tall row is not top-aligned: %+v", l)
	}
	if l, _ := b.LookOf("Summary", "C4"); !l.Wrap || l.NumFormat != shareFormat {
		t.Errorf("a share in a tall row: %+v, want wrapped in the share format", l)
	}
	if l, _ := b.LookOf("Summary", "A2"); l.Wrap {
		t.Errorf("a short text in a row of one line is wrapped: %+v", l)
	}
	if v, _ := b.Value("Summary", "B3"); v != "" {
		t.Errorf("nil wrote %q", v)
	}
	if cs, _ := b.Comments("Summary"); len(cs) != 1 || cs[0].Text != "Load: the load level" {
		t.Errorf("comments %+v", cs)
	}
	if vs, _ := b.Validations("Mine"); len(vs) != 1 || vs[0].Sqref != "A2:A9" || vs[0].ErrorStyle != "stop" {
		t.Errorf("validations %+v", vs)
	}
	if owned, _ := b.OwnedSheets(); !slices.Equal(owned, []string{"Summary"}) {
		t.Errorf("owned %v", owned)
	}
	if got := FreeName(b.Sheets(), "summary"); got != "summary (websim)" {
		t.Errorf("FreeName = %q", got)
	}
	if got := FreeName([]string{"Run", "Run (websim)"}, "Run"); got != "Run (websim 2)" {
		t.Errorf("FreeName = %q", got)
	}
	// A renamed result sheet is the user's now.
	b.RenameSheet("Summary", "Kept")
	if owned, _ := b.OwnedSheets(); len(owned) != 0 {
		t.Errorf("owned after rename %v", owned)
	}
}

// The first write error is kept and Save returns it, writing nothing.
func TestSaveReturnsTheFirstWriteError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.xlsx")
	b := New()
	b.SetCell("no such sheet", "A1", 1)
	b.SetCell("Sheet1", "A1", 2)
	if err := b.Save(path); err == nil || b.Err() == nil {
		t.Fatal("Save after a failed write succeeded")
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("Save wrote a file after a failed write")
	}
}

func TestWrappedLines(t *testing.T) {
	for _, c := range []struct {
		text  string
		width int
		want  int
	}{
		{"", 10, 1},
		{"short", 10, 1},
		{"exactly ten", 11, 1},
		{"exactly ten", 10, 2},
		{"one two three four", 9, 3}, // "three four" is 10 wide: "four" goes on a third line
		{"aaaaaaaaaaaaaaaaaaaaaaaaa", 10, 3},
		{"first line\nsecond", 20, 2},
	} {
		if got := wrappedLines(c.text, c.width); got != c.want {
			t.Errorf("wrappedLines(%q, %d) = %d, want %d", c.text, c.width, got, c.want)
		}
	}
}

// A wrapped cell too long for Excel's tallest row makes the row as tall as
// Excel allows, not a workbook that cannot be written.
func TestWrappedRowNoTallerThanExcelAllows(t *testing.T) {
	b := New()
	defer b.Close()
	b.RenameSheet("Sheet1", "Run")
	b.WriteTable("Run", Table{Columns: []Column{{Header: "Name"}, {Header: "Value", Format: Wrapped}},
		Rows: [][]any{{"warning", strings.Repeat("a run at a load, ", 2_000)}}})
	path := filepath.Join(t.TempDir(), "w.xlsx")
	if err := b.Save(path); err != nil {
		t.Fatalf("save: %v", err)
	}
	o, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if h, err := o.RowHeightOf("Run", 2); err != nil || h != MaxRowHeight {
		t.Errorf("row height %v (%v), want %v", h, err, float64(MaxRowHeight))
	}
}

func TestIsDateFormat(t *testing.T) {
	for code, want := range map[string]bool{
		"yyyy-mm-dd": true, "d mmmm yyyy": true, "h:mm": true, "[h]:mm:ss": true, "[$-407]d. mmmm yyyy": true,
		"dddd": true, "mm:ss.0": true,
		"General": false, "0.00": false, "#,##0.00": false, `0.0 "ms"`: false, `0 "req/s"`: false, "# ?/?": false,
		`0.00E+00 "s"`: false, "[Red]0.00": false, "0%": false, `\d0`: false, "@": false,
	} {
		if got := isDateFormat(code); got != want {
			t.Errorf("isDateFormat(%q) = %v, want %v", code, got, want)
		}
	}
}

// A streamed sheet's column widths are written in column order, as the
// file format wants them (the library kept them last set first).
// Widths are set in any order and in several calls, some of equal widths
// side by side, and read back before the sheet has them.
func TestStreamedColumnsInOrder(t *testing.T) {
	b := New()
	must(t, b.ColWidths("Sheet1", 2, 24, 23))
	must(t, b.ColWidths("Sheet1", 0, 12, 11))
	must(t, b.ColWidths("Sheet1", 5, 9, 9, 9))
	must(t, b.ColWidths("sheet1", 4, 30)) // sheet names have no case
	must(t, b.ColWidths("Sheet1", 3, 9))  // set again
	for col, want := range []float64{12, 11, 24, 9, 30, 9, 9, 9} {
		if w, err := b.ColWidth("Sheet1", col); err != nil || w != want {
			t.Errorf("ColWidth(%d) = %v, %v; want %v", col, w, err, want)
		}
	}
	must(t, b.StreamRows("Sheet1", []NumberedRow{{Num: 1, Values: []any{"a", "b", "c", "d"}}}))
	var mins []string
	for _, m := range regexp.MustCompile(`<col min="([0-9]+)"`).FindAllStringSubmatch(string(savedPart(t, b, "xl/worksheets/sheet1.xml")), -1) {
		mins = append(mins, m[1])
	}
	if strings.Join(mins, ",") != "1,2,3,4,5,6,7,8" {
		t.Errorf("columns in the order %v, want 1,2,3,4,5,6,7,8", mins)
	}
}

// savedPart saves b and returns the content of its first part whose name
// starts with prefix.
func savedPart(t testing.TB, b *Book, prefix string) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "part.xlsx")
	must(t, b.Save(path))
	zr, err := zip.OpenReader(path)
	must(t, err)
	defer zr.Close()
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, prefix) {
			data, err := readPart(f)
			must(t, err)
			return data
		}
	}
	t.Fatalf("no part %s* in the package", prefix)
	return nil
}

// A chart is placed by the widths of the columns it covers, as they were
// set when it was added; a copy of a sheet has its widths; widths set on a
// sheet then renamed or deleted follow it.
func TestWidthsWhereTheyAreNeeded(t *testing.T) {
	chartEnd := func(wide bool) string {
		b := New()
		if wide {
			must(t, b.ColWidths("Sheet1", 0, 60, 60, 60))
		}
		must(t, b.SetCell("Sheet1", "A1", 1))
		must(t, b.AddChart("Sheet1", "A2", Chart{Kind: LineChart, Title: "t", Series: []Series{{Name: "Sheet1!$A$1", Categories: "Sheet1!$A$1:$A$1", Values: "Sheet1!$A$1:$A$1"}}}))
		m := regexp.MustCompile(`<xdr:to><xdr:col>([0-9]+)</xdr:col>`).FindSubmatch(savedPart(t, b, "xl/drawings/drawing"))
		if m == nil {
			t.Fatal("no chart anchor in the drawing")
		}
		return string(m[1])
	}
	if narrow, wide := chartEnd(false), chartEnd(true); narrow == wide {
		t.Errorf("a chart ends at column %s with wide columns and without: the widths were not given before it was placed", wide)
	}

	b := New()
	must(t, b.ColWidths("Sheet1", 1, 33))
	must(t, b.CopySheet("Sheet1", "Copy"))
	must(t, b.NewSheet("Old"))
	must(t, b.ColWidths("Old", 0, 44))
	must(t, b.RenameSheet("Old", "New"))
	must(t, b.NewSheet("Gone"))
	must(t, b.ColWidths("Gone", 0, 55))
	must(t, b.DeleteSheet("Gone"))
	must(t, b.NewSheet("Gone")) // made again: none of the old widths
	r := saveAndOpen(t, b, filepath.Join(t.TempDir(), "w.xlsx"))
	for _, c := range []struct {
		sheet string
		col   int
		want  float64
	}{{"Copy", 1, 33}, {"New", 0, 44}} {
		if w, err := r.ColWidth(c.sheet, c.col); err != nil || w != c.want {
			t.Errorf("%s column %d: width %v, %v; want %v", c.sheet, c.col, w, err, c.want)
		}
	}
	if w, err := r.ColWidth("Gone", 0); err != nil || w == 55 {
		t.Errorf("a sheet deleted and made again has the old sheet's width %v (%v)", w, err)
	}
}

// A sheet is websim's when its marker holds the name it has; a marker of
// an earlier version (a reference, which follows a rename) counts when the
// sheet is listed in the property.
func TestOwnedSheetsMarkerForms(t *testing.T) {
	tests := []struct {
		name, refersTo, listed string
		owned                  bool
	}{
		{"Summary", `"Summary"`, "", true},
		{"Summary", `="Summary"`, "", true},
		{`Say "hi"`, `"Say ""hi"""`, "", true},
		{"Old run", `"Run"`, "Run", false},             // renamed by the user
		{"Servers (2)", `"Servers"`, "", false},        // copied by Excel
		{"Summary", `'Summary'!$A$1`, "Summary", true}, // an earlier version's
		{"Kept", `'Kept'!$A$1`, "Summary", false},      // renamed, earlier version
		{"Summary", `'Summary'!$A$1`, "", false},       // earlier version, list lost
	}
	for _, tt := range tests {
		b := New()
		b.RenameSheet("Sheet1", tt.name)
		b.NewSheet("Other")
		b.Define(DefinedName{Name: OwnerMarker, RefersTo: tt.refersTo, Scope: tt.name})
		if tt.listed != "" {
			b.SetProperty(OwnedSheetsProperty, tt.listed)
		}
		owned, err := b.OwnedSheets()
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Contains(owned, tt.name); got != tt.owned {
			t.Errorf("sheet %q marked %s, listed %q: owned %v, want %v", tt.name, tt.refersTo, tt.listed, got, tt.owned)
		}
		b.Close()
	}
	// MarkOwned writes this version's marker, over an earlier one.
	b := New()
	defer b.Close()
	b.RenameSheet("Sheet1", "Summary")
	b.Define(DefinedName{Name: OwnerMarker, RefersTo: `'Summary'!$A$1`, Scope: "Summary"})
	if err := b.MarkOwned("Summary"); err != nil {
		t.Fatal(err)
	}
	var markers []string
	for _, dn := range b.DefinedNames() {
		if dn.Name == OwnerMarker {
			markers = append(markers, dn.RefersTo)
		}
	}
	if !slices.Equal(markers, []string{`"Summary"`}) {
		t.Errorf("markers %q, want one holding \"Summary\"", markers)
	}
	if got := BaseName("Summary (websim 12)"); got != "Summary" {
		t.Errorf("BaseName = %q", got)
	}
}

// A time style shows the typical time of a column to the digits asked.
func TestTimeDigits(t *testing.T) {
	for _, tt := range []struct {
		typical float64
		digits  int
		want    int
	}{
		{325.4, 4, 1}, {1.234, 4, 3}, {12345, 4, 0}, {0.0325, 4, 5}, {0.000325, 4, 6}, {0.0000325, 4, 6}, {0.00000528, 4, ExpDecimals}, {1e-9, 4, ExpDecimals}, {0, 4, 3},
		{0.43, 2, 2}, {4.5, 2, 1}, {250, 2, 0},
	} {
		if got := TimeDigits(tt.typical, tt.digits); got != tt.want {
			t.Errorf("TimeDigits(%v, %d) = %d, want %d", tt.typical, tt.digits, got, tt.want)
		}
	}
	if TimeStyle(3) != Time || TimeStyle(5).NumFormat() != "#,##0.00000" || TimeStyle(0).NumFormat() != "#,##0" {
		t.Errorf("time styles %q %q", TimeStyle(5).NumFormat(), TimeStyle(0).NumFormat())
	}
	// Times too short for six decimals show with an exponent (5.28E-06),
	// not as 0.000005 or 0.000000.
	if TimeStyle(ExpDecimals).NumFormat() != "0.00E+00" || TimeStyle(9) != TimeExp {
		t.Errorf("the style of times too short for six decimals is %q", TimeStyle(ExpDecimals).NumFormat())
	}
}

// A hidden row of a table is read, with a warning: what runs is not all in
// sight; many hidden rows (a filter) make one warning for the sheet.
func TestReadTableWarnsOfHiddenRows(t *testing.T) {
	for _, tt := range []struct {
		hidden func(r int) bool
		want   string
	}{
		{func(r int) bool { return r == 3 }, "row 3 is hidden in Excel"},
		{func(r int) bool { return r > 5 }, "rows 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, and 5 more are hidden"},
	} {
		path := filepath.Join(t.TempDir(), "hidden.xlsx")
		b := New()
		b.SetRow("Sheet1", 1, "Step", "ProcTime")
		for r := 2; r <= 20; r++ {
			b.SetRow("Sheet1", r, fmt.Sprintf("S%d", r), "Exp(1)")
			if tt.hidden(r) {
				if err := b.f.SetRowVisible("Sheet1", r, false); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := b.Save(path); err != nil {
			t.Fatal(err)
		}
		b.Close()
		b, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		tab, ps := b.ReadTable("Sheet1", Spec{Columns: []string{"Step", "ProcTime"}})
		b.Close()
		if tab == nil || len(tab.Rows) != 19 {
			t.Fatalf("table %+v, want every row, hidden ones too", tab)
		}
		if len(ps) != 1 || !ps[0].Warning || !strings.Contains(ps[0].Msg, tt.want) {
			t.Errorf("problems %v, want one warning: %s", ps, tt.want)
		}
	}
}

// The number formats of the styles for figures that are not times: a
// share's has no minus sign in the section negative numbers fall to, so
// a difference, which may be negative, has one of its own that shows its
// sign (+13.2%, -21.7%).
func TestNumberFormats(t *testing.T) {
	for _, c := range []struct {
		style Style
		want  string
	}{
		{Share, "[>=0.001]0.0%;[>0]0.000%;0.0%"},
		{Signed, "+0.0%;-0.0%;0.0%"},
		{Percent2, "0.00%"},
		{Decimal2, "#,##0.00"},
		{Decimal3, "#,##0.000"},
		{Signed | Muted, "+0.0%;-0.0%;0.0%"},
	} {
		if got := c.style.NumFormat(); got != c.want {
			t.Errorf("style %d: format %q, want %q", c.style, got, c.want)
		}
	}
	if secs := strings.Split(Signed.NumFormat(), ";"); len(secs) < 2 || !strings.HasPrefix(secs[1], "-") {
		t.Errorf("Signed's negative section %q has no minus sign", secs)
	}
}

// A hidden sheet, "very hidden" too, is read as any other, with a warning.
func TestReadTableWarnsOfHiddenSheets(t *testing.T) {
	for _, state := range []string{"", "hidden", "veryHidden"} {
		path := filepath.Join(t.TempDir(), "hidden.xlsx")
		b := New()
		b.SetRow("Sheet1", 1, "Name")
		must(t, b.NewSheet("Experiments"))
		b.SetRow("Experiments", 1, "Scenario", "AppServers")
		b.SetRow("Experiments", 2, "Big", 10)
		must(t, b.Save(path))
		b.Close()
		if state != "" {
			editZip(t, path, path+".x", "xl/workbook.xml", func(s string) string {
				return strings.Replace(s, `<sheet name="Experiments"`, `<sheet name="Experiments" state="`+state+`"`, 1)
			})
			path += ".x"
		}
		b, err := Open(path)
		must(t, err)
		tab, ps := b.ReadTable("Experiments", Spec{Columns: []string{"Scenario", "AppServers"}})
		b.Close()
		if tab == nil || len(tab.Rows) != 1 {
			t.Fatalf("%q: table %+v, want its row", state, tab)
		}
		warned := len(ps) == 1 && ps[0].Warning && strings.Contains(ps[0].Msg, "the sheet is hidden in Excel")
		if warned != (state != "") {
			t.Errorf("sheet state %q: problems %v", state, ps)
		}
	}
}
