package xlsx

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// digestBook saves a results workbook of two sheets websim owns: Summary,
// a streamed table (its texts inline), and Run, cells set one by one (its
// texts shared), with a number that has no short decimal form.
func digestBook(t *testing.T, dir string) string {
	t.Helper()
	b := New()
	defer b.Close()
	must(t, b.RenameSheet("Sheet1", "Summary"))
	must(t, b.WriteTable("Summary", Table{
		Columns: []Column{{Header: "Scenario"}, {Header: "Mean", Format: Time}},
		Rows:    [][]any{{"Base", 0.1}, {"Faster", 2.0 / 3}},
	}))
	must(t, b.NewSheet("Run"))
	for ref, v := range map[string]any{"A1": "Seed", "B1": 1.0, "A2": "mean", "B2": 0.1, "C2": true} {
		must(t, b.SetCell("Run", ref, v))
	}
	must(t, b.MarkOwned("Summary", "Run"))
	path := filepath.Join(dir, "OutPut.xlsx")
	must(t, b.Save(path))
	return path
}

// TestChangedResults checks that a result sheet is called changed when
// what its cells hold changed, and only then: a workbook saved again by
// another program (texts shared or inline, numbers to 17 digits, cells
// without their references, other styles) is the same.
func TestChangedResults(t *testing.T) {
	dir := t.TempDir()
	orig := digestBook(t, dir)
	summary := sheetPartOf(t, orig, "Summary")
	run := sheetPartOf(t, orig, "Run")
	re := func(pattern, repl string) func(string) string {
		rx := regexp.MustCompile(pattern)
		return func(s string) string { return rx.ReplaceAllString(s, repl) }
	}
	tests := []struct {
		name  string
		part  string
		edit  func(string) string
		bases []string
		want  []string
	}{
		{"as written", "", nil, nil, nil},
		{"a number to 17 digits", run, re(`<v>0\.1</v>`, `<v>0.10000000000000001</v>`), nil, nil},
		{"a number in another notation", run, re(`<c r="B1"><v>1</v>`, `<c r="B1"><v>1.0E0</v>`), nil, nil},
		{"another style", summary, re(`(<c r="B2"[^>]*) s="[0-9]+"`, `$1 s="0"`), nil, nil},
		{"cells and rows without references", run, re(` r="[A-Z]*[0-9]+"`, ``), nil, nil},
		{"a shared text written inline", run, re(`<c r="A2"([^>]*) t="s"><v>[0-9]+</v></c>`, `<c r="A2"$1 t="inlineStr"><is><t>mean</t></is></c>`), nil, nil},
		{"an inline text with a phonetic run", summary, re(`<t>Faster</t>`, `<t>Faster</t><rPh sb="0" eb="1"><t>ファ</t></rPh>`), nil, nil},
		{"a value typed over", summary, re(`<v>0\.1</v>`, `<v>0.2</v>`), nil, []string{"Summary"}},
		{"a text typed over", summary, re(`<t>Faster</t>`, `<t>Fastest</t>`), nil, []string{"Summary"}},
		{"a value cleared", run, re(`(<c r="B2"[^>]*)><v>0\.1</v></c>`, `$1/>`), nil, []string{"Run"}},
		{"a note typed beside", run, re(`</row></sheetData>`, `<c r="F2" t="inlineStr"><is><t>check this</t></is></c></row></sheetData>`), nil, []string{"Run"}},
		{"a boolean turned", run, re(`(<c r="C2" t="b">)<v>1</v>`, `$1<v>0</v>`), nil, []string{"Run"}},
		{"a formula typed in", summary, re(`<v>0\.1</v>`, `<f>1/10</f><v>0.1</v>`), nil, []string{"Summary"}},
		{"a shared text changed", "xl/sharedStrings.xml", re(`<t>mean</t>`, `<t>Mean</t>`), nil, []string{"Run"}},
		{"changed, but not among the sheets asked of", summary, re(`<v>0\.1</v>`, `<v>0.2</v>`), []string{"Run"}, nil},
		{"changed, and asked of by base name", summary, re(`<v>0\.1</v>`, `<v>0.2</v>`), []string{"summary"}, []string{"Summary"}},
		{"changed and renamed: the user's", "xl/workbook.xml", func(s string) string {
			return strings.Replace(s, `name="Run"`, `name="Mine"`, 1)
		}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := orig
			if tt.edit != nil {
				path = filepath.Join(t.TempDir(), "OutPut.xlsx")
				editZip(t, orig, path, tt.part, tt.edit)
			}
			got, err := ChangedResults(path, tt.bases...)
			must(t, err)
			if !slices.Equal(got, tt.want) {
				t.Errorf("ChangedResults = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestChangedResultsAfterTheLibrarySavesAgain checks that a workbook read
// and saved again by the spreadsheet library, as size does to add its
// sheet to OutPut.xlsx, keeps its sheets unchanged, and that a sheet
// without the marker (written by an earlier version) is not compared.
func TestChangedResultsAfterTheLibrarySavesAgain(t *testing.T) {
	dir := t.TempDir()
	path := digestBook(t, dir)
	b, err := Open(path)
	must(t, err)
	must(t, b.NewSheet("Notes"))
	must(t, b.SetCell("Notes", "A1", "mine"))
	must(t, b.Save(path))
	b.Close()
	if got, err := ChangedResults(path); err != nil || len(got) > 0 {
		t.Fatalf("after the library saved it again: ChangedResults = %q, %v; want none", got, err)
	}
	old := filepath.Join(dir, "old.xlsx")
	editZip(t, path, old, "xl/workbook.xml", func(s string) string {
		return regexp.MustCompile(`<definedName[^>]*name="websim_cells"[^>]*>[^<]*</definedName>`).ReplaceAllString(s, "")
	})
	edited := filepath.Join(dir, "old-edited.xlsx")
	editZip(t, old, edited, sheetPartOf(t, old, "Summary"), func(s string) string {
		return strings.Replace(s, "<v>0.1</v>", "<v>0.2</v>", 1)
	})
	if got, err := ChangedResults(edited); err != nil || len(got) > 0 {
		t.Fatalf("a sheet without its digest: ChangedResults = %q, %v; want none", got, err)
	}
}

// TestReplaceOwnedKeepsChangedResults checks that ReplaceOwned refuses to
// delete a result sheet the user changed, and deletes one left as it was.
func TestReplaceOwnedKeepsChangedResults(t *testing.T) {
	dir := t.TempDir()
	orig := digestBook(t, dir)
	edited := filepath.Join(dir, "edited.xlsx")
	editZip(t, orig, edited, sheetPartOf(t, orig, "Summary"), func(s string) string {
		return strings.Replace(s, "<v>0.1</v>", "<v>0.2</v>", 1)
	})
	b, err := Open(edited)
	must(t, err)
	defer b.Close()
	if _, err := b.ReplaceOwned("Run"); err != nil {
		t.Fatalf("ReplaceOwned(Run), Run unchanged: %v", err)
	}
	if _, err := b.ReplaceOwned("Summary"); !errors.Is(err, ErrResultsEdited) || !strings.Contains(err.Error(), "Summary") {
		t.Fatalf("ReplaceOwned(Summary), Summary changed: %v; want ErrResultsEdited naming the sheet", err)
	}
	if !slices.Contains(b.Sheets(), "Summary") {
		t.Fatalf("the changed sheet was deleted: %q", b.Sheets())
	}
}

// BenchmarkChangedResults times the check of a results workbook whose
// Timeline-like sheet has 100,000 rows of ten numbers and a text (the
// digest read back; the same work as the digest's when the book is
// written).
func BenchmarkChangedResults(b *testing.B) {
	dir := b.TempDir()
	book := New()
	cols := []Column{{Header: "Scenario"}}
	for i := range 10 {
		cols = append(cols, Column{Header: fmt.Sprintf("Figure %d", i), Format: Time})
	}
	must(b, book.WriteTable("Sheet1", Table{Columns: cols, NumRows: 100_000, RowFunc: func(i int) []any {
		row := []any{fmt.Sprintf("S%d", i%100)}
		for j := range 10 {
			row = append(row, float64(i)*1.37+float64(j)/7)
		}
		return row
	}}))
	must(b, book.MarkOwned("Sheet1"))
	path := filepath.Join(dir, "OutPut.xlsx")
	must(b, book.Save(path))
	book.Close()
	for b.Loop() {
		if changed, err := ChangedResults(path); err != nil || len(changed) > 0 {
			b.Fatal(changed, err)
		}
	}
}

// TestDecimalOf checks that numbers read alike exactly when they are the
// same number to 15 significant digits.
func TestDecimalOf(t *testing.T) {
	type dec struct {
		neg  bool
		mant uint64
		exp  int
		ok   bool
	}
	tests := []struct {
		texts []string
		want  dec
	}{
		{[]string{"1", "1.0", "1E0", "1.0E0", "10E-1", "0.1e1", "+1", "001.000"}, dec{false, 1, 0, true}},
		{[]string{"0.1", ".1", "1e-1", "1E-1", "0.10", "100e-3"}, dec{false, 1, -1, true}},
		{[]string{"0", "-0", "0.0", "0E5", "-0.000"}, dec{false, 0, 0, true}},
		{[]string{"-2.5", "-25E-1", "-0.25e1"}, dec{true, 25, -1, true}},
		{[]string{"1200", "1.2E3", "12e2"}, dec{false, 12, 2, true}},
		{[]string{"0.666666666666666", "666666666666666E-15"}, dec{false, 666666666666666, -15, true}},
		{[]string{"123456789012345000", "1.23456789012345E17"}, dec{false, 123456789012345, 3, true}},
		{[]string{"0.10000000000000001", "1234567890123456", "", "-", ".", "1e", "1e+", "abc", "1.2.3", "1e5000", "0x10", "NaN", "Inf"}, dec{}},
	}
	for _, tt := range tests {
		for _, text := range tt.texts {
			neg, mant, exp, ok := decimalOf([]byte(text))
			if got := (dec{neg, mant, exp, ok}); got != tt.want {
				t.Errorf("decimalOf(%q) = %+v, want %+v", text, got, tt.want)
			}
		}
	}
}

// TestCellsDigestReadsXMLAsWritten checks that a cell's digest does not
// depend on how its XML is written: a CDATA section, single quotes, spaces
// about "=".
func TestCellsDigestReadsXMLAsWritten(t *testing.T) {
	digest := func(sheetData string) string {
		t.Helper()
		xml := `<worksheet><sheetData>` + sheetData + `</sheetData></worksheet>`
		sum, err := cellsDigest(strings.NewReader(xml), int64(len(xml)), &sharedTexts{})
		must(t, err)
		return sum
	}
	plain := digest(`<row r="1"><c r="A1" t="b"><v>1</v></c><c r="B1"><v>0.1</v></c><c r="C1" t="inlineStr"><is><t>a &amp; b</t></is></c></row>`)
	for _, same := range []string{
		`<row r='1'><c r='A1' t='b'><v>1</v></c><c r='B1'><v>0.1</v></c><c r='C1' t='inlineStr'><is><t>a &amp; b</t></is></c></row>`,
		`<row r = "1"><c r = "A1" t = "b"><v>1</v></c><c r="B1"><v><![CDATA[0.1]]></v></c><c r="C1" t="inlineStr"><is><t><![CDATA[a & b]]></t></is></c></row>`,
	} {
		if got := digest(same); got != plain {
			t.Errorf("%s: digest %s, want %s as written plainly", same, got, plain)
		}
	}
	if _, err := cellsDigest(strings.NewReader(`<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c><c r="B1"><v>0.`), 0, &sharedTexts{}); err == nil {
		t.Error("a sheet cut short inside a cell: no error")
	}
	for _, other := range []string{
		`<row r="1"><c r="A1" t="b"><v>1</v></c><c r="B1"><v><![CDATA[0.2]]></v></c><c r="C1" t="inlineStr"><is><t>a &amp; b</t></is></c></row>`,
		`<row r="1"><c r="A1" t="b"><v>1</v></c><c r="B1"><v>0.1</v></c><c r="C1" t="inlineStr"><is><t><![CDATA[a &amp; b]]></t></is></c></row>`,
	} {
		if got := digest(other); got == plain {
			t.Errorf("%s: the same digest as a cell of other content", other)
		}
	}
}
