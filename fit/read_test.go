package fit

import (
	"archive/zip"
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/websim/websim/internal/xlsx"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// column returns a CSV text: header, then the values one a line.
func column(header string, values ...string) string {
	return header + "\n" + strings.Join(values, "\n") + "\n"
}

// numbers are n plausible times as text.
func numbers(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%d.%d", 10+i%17, i%10)
	}
	return out
}

func TestReadGoodCSV(t *testing.T) {
	tests := []struct {
		name, text, column string
		wantColumn         string
		wantFirst          float64
		wantN              int
	}{
		{"one column with header", column("ms", numbers(40)...), "", "ms", 10, 40},
		{"no header", strings.Join(numbers(40), "\n"), "", "1", 10, 40},
		{"first numeric column", "id,host,ms\n" + strings.Repeat("a,b,12.5\n", 35), "", "ms", 12.5, 35},
		{"column by header, ignoring case, spaces and underscores", "id,Response_MS\n" + strings.Repeat("3,12.5\n", 35), "response ms", "Response_MS", 12.5, 35},
		{"semicolons", "id;ms\n" + strings.Repeat("3;12.5\n", 35), "ms", "ms", 12.5, 35},
		{"tabs", "id\tms\n" + strings.Repeat("3\t12.5\n", 35), "ms", "ms", 12.5, 35},
		{"quoted fields", "name,ms\n" + strings.Repeat(`"a, b","12.5"`+"\n", 35), "ms", "ms", 12.5, 35},
		{"BOM, CRLF, blank lines and blank cells", "\ufeffms\r\n\r\n" + strings.Repeat("12.5\r\n \r\n", 35) + "\n", "", "ms", 12.5, 35},
		{"decimal commas in a semicolon file, the numeric column", "t;x\n" + strings.Repeat("12,5;a\n", 35), "", "t", 12.5, 35},
		{"decimal commas in a semicolon file, named", "t;x\n" + strings.Repeat("12,5;3\n", 35), "t", "t", 12.5, 35},
		{"decimal commas in a tab file", "t\tx\n" + strings.Repeat("12,5\ta\n", 35), "", "t", 12.5, 35},
		{"decimal commas in one column, with header", column("ms", append([]string{"12,5"}, numbers(39)...)...), "", "ms", 12.5, 40},
		{"a decimal comma of three decimals after 0", column("s", append([]string{"0,125"}, numbers(39)...)...), "", "s", 0.125, 40},
		{"decimal commas of three decimals, with one that can only be decimal", column("ms", append([]string{"2,886", "37,603"}, slices.Repeat([]string{"12,5"}, 38)...)...), "", "ms", 2.886, 40},
		{"a semicolon inside a header's brackets", "id,time (ms; median)\n" + strings.Repeat("a,12.5\n", 35), "", "time (ms; median)", 12.5, 35},
		{"a semicolon inside a header's brackets, in a semicolon file", "time (ms; median);count\n" + strings.Repeat("1,5;0\n", 35), "time (ms; median)", "time (ms; median)", 1.5, 35},
		{"a quoted header with a delimiter", `"id;x";ms` + "\n" + strings.Repeat("a;12,5\n", 35), "ms", "ms", 12.5, 35},
		{"no header, two numeric columns, the second named by its number", strings.Repeat("7,12.5\n", 35), "2", "2", 12.5, 35},
		{"no header, the second column named by its letter", strings.Repeat("7;12,5\n", 35), "b", "2", 12.5, 35},
		{"decimal commas in one column, no header, a first value without", strings.Join(append(numbers(1), slices.Repeat([]string{"12,5"}, 39)...), "\n"), "", "1", 10, 40},
		{"exponents", column("s", slices.Repeat([]string{"1.25e-3"}, 35)...), "", "s", 0.00125, 35},
		{"lines ended by CR alone (Excel for Mac)", "ms\r" + strings.Repeat("12.5\r", 35), "", "ms", 12.5, 35},
		{"lines ended by CR alone, the last line without", "ms\r" + strings.Repeat("12.5\r", 34) + "12.5", "", "ms", 12.5, 35},
		{"UTF-16, little-endian, with tabs (Excel's Unicode Text)", utf16Text("id\tms\r\n"+strings.Repeat("3\t12.5\r\n", 35), false), "ms", "ms", 12.5, 35},
		{"UTF-16, big-endian", utf16Text("ms\n"+strings.Repeat("12.5\n", 35), true), "", "ms", 12.5, 35},
		{"a quote inside an unquoted field", "id,screen,ms\n" + strings.Repeat("1,12\" wide,12.5\n", 35), "ms", "ms", 12.5, 35},
		{"a quoted field with line breaks", "id,message,ms\n" + strings.Repeat("1,\"first line\nsecond, \"\"quoted\"\" line\",12.5\n", 35), "ms", "ms", 12.5, 35},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ReadCSV(strings.NewReader(tc.text), "data.csv", tc.column, int64(len(tc.text)))
			if err != nil {
				t.Fatal(err)
			}
			if d.Column != tc.wantColumn || len(d.Values) != tc.wantN || d.Values[0] != tc.wantFirst {
				t.Errorf("column %q, %d values from %v; want %q, %d from %v", d.Column, len(d.Values), d.Values[0], tc.wantColumn, tc.wantN, tc.wantFirst)
			}
		})
	}
}

// Every bad input gives every problem, each located, as in
// testdata/problems.golden.
func TestBadData(t *testing.T) {
	many := []string{}
	for i := range 130 {
		many = append(many, fmt.Sprintf("x%d", i))
	}
	csv := []struct{ name, text, column string }{
		{"rows that are not numbers", column("ms", append(numbers(40), "abc", "12.5.3", "NaN", "", "Inf", `"1,234.5"`)...), ""},
		{"a decimal comma or two columns, without a header", strings.Repeat("1,50\n", 40), ""},
		{"a thousands separator or a decimal comma, in one column", column("ms", append(numbers(38), "2,017", `"1,234,567"`)...), ""},
		{"no header, two numeric columns, none named", strings.Repeat("7,12.5\n", 35), ""},
		{"a negative value in a column of decimal commas", column("ms", append([]string{"-2,017", "0,5"}, numbers(40)...)...), ""},
		{"an ambiguous value first, then more bad rows than are listed", "ms\n2,017\n" + strings.Repeat("abc\n", 150) + strings.Join(numbers(40), "\n"), ""},
		{"no header, a column past the last", strings.Repeat("7,12.5\n", 35), "3"},
		{"several numeric columns, none named", "id,ts,ms\n" + strings.Repeat("1,1700000000,12.5\n", 35), ""},
		{"European thousands separators", "ms;n\n" + strings.Repeat("1.950,50;1\n", 35), "ms"},
		{"European thousands separators, no column named", "ms;n\n" + strings.Repeat("1.950,50;1\n", 35), ""},
		{"decimal commas in a comma file, first of two columns", "t,x\n" + strings.Repeat("12,5,3\n", 3), ""},
		{"values not above 0", column("ms", append(numbers(40), "0", "-2.5", "-0")...), ""},
		{"values too small or too large to fit", column("ms", append(numbers(40), "1e-311", "3e200")...), ""},
		{"fewer than 30 values", column("ms", numbers(12)...), ""},
		{"one value", column("ms", "3"), ""},
		{"header only", "ms\n", ""},
		{"empty file", "", ""},
		{"blank lines only", "\n \n\n", ""},
		{"a column that does not exist, near a header", "id,response\n1,2\n", "respons"},
		{"a column that does not exist", "id,response\n1,2\n", "latency"},
		{"a column named in a file without header", "1,2\n3,4\n", "ms"},
		{"no numeric field", "id,host\na,b\nc,d\n", ""},
		{"a row without the column", "id,ms\n" + strings.Repeat("1,12.5\n", 35) + "2\n", "ms"},
		{"more bad rows than are listed", column("ms", append(numbers(40), many...)...), ""},
		{"a decimal comma, quoted, in a comma file", "id,ms\n" + strings.Repeat("1,12.5\n", 35) + "2,\"11,06\"\n3,\"11,677\"\n", "ms"},
		{"numbers past the range of numbers", column("ms", append(numbers(40), "1e400", "1e-400")...), ""},
		{"a decimal comma or two columns, without a header, the first asked for", strings.Repeat("25,610\n", 40), "1"},
		{"a bad value after records of two lines", "id,note,ms\n" + strings.Repeat("1,\"a\nb\",12.5\n", 35) + "2,\"c\nd\",abc\n3,e,12.5\n", "ms"},
		{"a quote never closed", "id,note,ms\n" + strings.Repeat("1,a,12.5\n", 35) + "2,\"b,12.5\n" + strings.Repeat("1,a,12.5\n", 5), "ms"},
		{"a workbook saved as .csv", "PK\x03\x04\x14\x00\x06\x00", ""},
		{"an old .xls saved as .csv", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", ""},
	}
	var b strings.Builder
	for _, tc := range csv {
		_, err := ReadCSV(strings.NewReader(tc.text), "data.csv", tc.column, int64(len(tc.text)))
		fmt.Fprintf(&b, "== %s\n%v\n", tc.name, err)
		if _, ok := err.(Problems); !ok {
			t.Errorf("%s: error %T, want Problems", tc.name, err)
		}
	}
	specs := []struct{ name, spec, column string }{
		{"a missing file", "testdata/none.csv", ""},
		{"a folder", "testdata", ""},
		{"a workbook: bad cells", "testdata/times.xlsx!Bad!B", ""},
		{"a workbook: too few values", "testdata/times.xlsx!Few!A", ""},
		{"a workbook: a missing sheet", "testdata/times.xlsx!Tims!B", ""},
		{"a workbook: a missing column", "testdata/times.xlsx!Times!Latency", ""},
		{"a workbook: no sheet named", "testdata/times.xlsx", ""},
		{"a workbook: no column named", "testdata/times.xlsx!Times", ""},
		{"a workbook: the column named twice", "testdata/times.xlsx!Times!B", "B"},
		{"a workbook: a mistyped header that is also a column's letters", "testdata/times.xlsx!Times!Not", ""},
		{"a missing workbook", "testdata/none.xlsx!Times!B", ""},
		{"not a workbook", "testdata/response.csv.xlsx!Times!B", ""},
	}
	for _, tc := range specs {
		_, err := Read(tc.spec, tc.column)
		fmt.Fprintf(&b, "== %s\n%v\n", tc.name, err)
		if _, ok := err.(Problems); !ok {
			t.Errorf("%s: error %T, want Problems", tc.name, err)
		}
	}
	golden(t, "problems.golden", b.String())
}

func TestReadWorkbookColumn(t *testing.T) {
	for _, spec := range []string{"testdata/times.xlsx!Times!Response ms", "testdata/times.xlsx!times!B", "testdata/times.xlsx!Plain!A"} {
		d, err := Read(spec, "")
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if len(d.Values) != 60 || d.Values[0] <= 0 {
			t.Errorf("%s: %d values, first %v; want 60", spec, len(d.Values), d.Values[0])
		}
	}
	d, err := Read("testdata/times.xlsx!Times", "response_ms")
	if err != nil || d.Column != "Response ms" {
		t.Errorf("--column on a sheet: %+v, %v", d, err)
	}
}

// A formatted number reads as saved (1236.5678), not as shown ("1,236.57").
func TestReadWorkbookRawValues(t *testing.T) {
	d, err := Read("testdata/times.xlsx!Formatted!Elapsed", "")
	if err != nil {
		t.Fatal(err)
	}
	if d.Values[0] != 1236.5678 || len(d.Values) != 40 {
		t.Errorf("first value %v of %d, want 1236.5678 of 40", d.Values[0], len(d.Values))
	}
}

// A cell Excel shows as a date or a time of day is saved as a number of
// days, which would pass for a measured time: it is a located problem.
func TestReadWorkbookDates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dates.xlsx")
	b := xlsx.New()
	b.SetRow("Sheet1", 1, "ms")
	for r := 2; r <= 40; r++ { // 33 times, once the six dates are left out
		b.SetRow("Sheet1", r, float64(r))
	}
	b.SetRow("Sheet1", 31, 45292.0)
	b.SetLook("Sheet1", "A31", "A31", xlsx.Look{NumFormat: "yyyy-mm-dd"})
	b.SetLook("Sheet1", "A5", "A5", xlsx.Look{NumFormat: "h:mm"})
	b.SetLook("Sheet1", "A6", "A6", xlsx.Look{NumFormat: "#,##0.00"}) // a number format: fine
	b.SetLook("Sheet1", "A7", "A7", xlsx.Look{NumFormat: `0.0 "ms"`}) // a unit shown: fine
	b.SetLook("Sheet1", "A8", "A8", xlsx.Look{NumFormat: "d mmm yyyy"})
	b.SetLook("Sheet1", "A9", "A9", xlsx.Look{NumFormat: `0 "req/s"`}) // a unit with a slash: fine
	b.SetLook("Sheet1", "A10", "A10", xlsx.Look{NumFormat: "# ?/?"})   // a fraction: fine
	b.SetLook("Sheet1", "A11", "A11", xlsx.Look{NumFormat: "d mmmm yyyy"})
	b.SetLook("Sheet1", "A12", "A12", xlsx.Look{NumFormat: "[ss]"}) // seconds elapsed: days all the same
	b.SetLook("Sheet1", "A13", "A13", xlsx.Look{NumFormat: "yyyy"}) // shows a plain number
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	_, err := Read(path+"!Sheet1!ms", "")
	ps, ok := err.(Problems)
	var where []string
	for _, p := range ps {
		where = append(where, strings.TrimPrefix(p.Where, path+"!Sheet1!"))
	}
	if !ok || strings.Join(where, " ") != "A5 A8 A11 A12 A13 A31" || !strings.Contains(ps[5].What, `a date or a time (shown as "2024-01-01")`) {
		t.Errorf("got %v, want the times at A5 and A12 and the dates at A8, A11, A13 and A31", err)
	}
}

// A formula whose value was not saved (openpyxl writes formulas so) is
// computed, in its place among the values; one that cannot be computed is
// a problem at its cell, not a blank that is skipped.
func TestReadWorkbookUnsavedFormulas(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, bad bool) string {
		path := filepath.Join(dir, name)
		b := xlsx.New()
		b.SetRow("Sheet1", 1, "s", "ms")
		for r := 2; r <= 41; r++ {
			b.SetRow("Sheet1", r, float64(r)/100)
			ref := fmt.Sprintf("B%d", r)
			switch {
			case bad && r == 7:
				b.SetFormula("Sheet1", ref, "=NOSUCHFUNCTION(A7)")
			case bad && r == 9:
				b.SetFormula("Sheet1", ref, "=1/0")
			case r%2 == 0:
				b.SetFormula("Sheet1", ref, fmt.Sprintf("=A%d*1000", r))
			default:
				b.SetCell("Sheet1", ref, float64(r)*10)
			}
		}
		if err := b.Save(path); err != nil {
			t.Fatal(err)
		}
		return path
	}
	d, err := Read(write("unsaved.xlsx", false)+"!Sheet1!ms", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Values) != 40 {
		t.Fatalf("%d values, want 40 (20 of them formulas)", len(d.Values))
	}
	for i, v := range d.Values {
		if want := float64(i+2) * 10; math.Abs(v-want) > 1e-9 {
			t.Errorf("value %d = %v, want %v (in the sheet's order)", i, v, want)
		}
	}
	path := write("bad.xlsx", true)
	_, err = Read(path+"!Sheet1!ms", "")
	ps, ok := err.(Problems)
	var where []string
	for _, p := range ps {
		where = append(where, strings.TrimPrefix(p.Where, path+"!Sheet1!"))
	}
	if !ok || strings.Join(where, " ") != "B7 B9" || !strings.Contains(ps[0].What, "=NOSUCHFUNCTION(A7)") || !strings.Contains(ps[1].What, "#DIV/0!") {
		t.Errorf("got %v, want problems at B7 (a function websim cannot compute) and B9 (#DIV/0!)", err)
	}
}

// A sheet cut short inside a whole zip would stream as its first rows; the
// measured times are refused, at the sheet, instead of fitted short.
func TestReadWorkbookCutShort(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cut.xlsx")
	b := xlsx.New()
	b.SetRow("Sheet1", 1, "ms")
	for r := 2; r <= 200; r++ {
		b.SetRow("Sheet1", r, float64(r))
	}
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	cut := false
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		part, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if at := bytes.Index(part, []byte(`<row r="150"`)); at > 0 {
			part, cut = part[:at], true
		}
		w, err := zw.Create(f.Name)
		if err == nil {
			_, err = w.Write(part)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil || !cut {
		t.Fatalf("no row 150 to cut the sheet at (%v)", err)
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Read(path+"!Sheet1!ms", "")
	ps, ok := err.(Problems)
	if !ok || len(ps) != 1 || ps[0].Where != path+"!Sheet1" || !strings.Contains(ps[0].What, "stops before its end") {
		t.Errorf("Read: %v; want the sheet %s!Sheet1 refused as cut short", err, path)
	}
}

// utf16Text is text in UTF-16 with its byte order mark, as Excel's
// "Unicode Text" saves it (little-endian).
func utf16Text(text string, bigEndian bool) string {
	units := utf16.Encode([]rune("\ufeff" + text))
	b := make([]byte, 0, 2*len(units))
	for _, u := range units {
		if bigEndian {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return string(b)
}

// A column's letters name it even where its header is blank and a header
// is close to them: D beside ID must not be taken for a mistyped "ID". A
// mistyped header that is also letters, "tme" for "time", names the header
// meant only when that column is empty.
func TestColumnLettersBesideCloseHeaders(t *testing.T) {
	path := filepath.Join(t.TempDir(), "Book.xlsx")
	b := xlsx.New()
	sheet := b.Sheets()[0]
	if err := b.SetRow(sheet, 1, "ID", "Host", "time"); err != nil {
		t.Fatal(err)
	}
	for r := 2; r <= 41; r++ {
		if err := b.SetRow(sheet, r, float64(r), "web1", float64(r)/10, float64(r)); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	b.Close()
	d, err := Read(path+"!"+sheet+"!D", "")
	if err != nil || len(d.Values) != 40 || d.Values[0] != 2 {
		t.Errorf("column D without a header: %v", err)
	}
	_, err = Read(path+"!"+sheet+"!tme", "")
	if err == nil || !strings.Contains(err.Error(), `no column "tme" in the first row; did you mean "time"? (read as column letters, column TME is empty)`) {
		t.Errorf("a mistyped header: %v", err)
	}
}

// Every bad cell of a workbook column is reported at once, dates among
// the others in row order: a date at A62 and "abc" at A63 were reported
// one at a time (the date only once "abc" was mended). Past the first
// hundred, the rest are counted, the last named. A date cell's days are
// no value: the count of usable values leaves them out.
func TestReadWorkbookEveryBadCellAtOnce(t *testing.T) {
	type cellAt struct {
		row  int
		v    any
		date bool
	}
	for _, tc := range []struct {
		name  string
		cells []cellAt // after 60 good times in A1:A60
		where string   // the cells reported, in order
		last  string   // the last line
	}{
		{"a date, then a word", []cellAt{{62, 45292.0, true}, {63, "abc", false}},
			"A62 A63", `A63: "abc" is not a number; expected a time such as 12.5`},
		{"a word, then a date", []cellAt{{62, "abc", false}, {63, 45292.0, true}},
			"A62 A63", `A63: a date or a time (shown as "2024-01-01"), which Excel saves as a number of days; expected a measured time as a number (a duration shown as h:mm:ss is in days too: times 86,400 for seconds)`},
		{"a word in a date's format is a word, once", []cellAt{{62, "abc", true}, {63, -2.0, true}},
			"A62 A63", `A63: -2 is not above 0; expected a measured time, above 0`},
		{"a date, a negative time and a word", []cellAt{{61, -1.0, false}, {62, 45292.0, true}, {64, "x", false}},
			"A61 A62 A64", `A64: "x" is not a number; expected a time such as 12.5`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad.xlsx")
			b := xlsx.New()
			for r := 1; r <= 60; r++ {
				b.SetRow("Sheet1", r, float64(r)+0.5)
			}
			for _, c := range tc.cells {
				b.SetRow("Sheet1", c.row, c.v)
				if c.date {
					ref := fmt.Sprintf("A%d", c.row)
					b.SetLook("Sheet1", ref, ref, xlsx.Look{NumFormat: "yyyy-mm-dd"})
				}
			}
			if err := b.Save(path); err != nil {
				t.Fatal(err)
			}
			_, err := Read(path+"!Sheet1!A", "")
			ps, ok := err.(Problems)
			var where []string
			for _, p := range ps {
				where = append(where, strings.TrimPrefix(p.Where, path+"!Sheet1!"))
			}
			if !ok || strings.Join(where, " ") != tc.where || strings.TrimPrefix(ps[len(ps)-1].String(), path+"!Sheet1!") != tc.last {
				t.Errorf("got\n%v\nwant the cells %s, the last\n%s", err, tc.where, tc.last)
			}
		})
	}

	// 60 good times, then 150 bad cells, dates and words by turns: the
	// first hundred in row order, then a count of the other 50 and the
	// last.
	path := filepath.Join(t.TempDir(), "many.xlsx")
	b := xlsx.New()
	for r := 1; r <= 60; r++ {
		b.SetRow("Sheet1", r, float64(r)+0.5)
	}
	for r := 61; r <= 210; r++ {
		if r%2 == 0 {
			b.SetRow("Sheet1", r, 45292.0)
			ref := fmt.Sprintf("A%d", r)
			b.SetLook("Sheet1", ref, ref, xlsx.Look{NumFormat: "yyyy-mm-dd"})
		} else {
			b.SetRow("Sheet1", r, "abc")
		}
	}
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	_, err := Read(path+"!Sheet1!A", "")
	ps, ok := err.(Problems)
	if !ok || len(ps) != 101 {
		t.Fatalf("%d problems, want 100 and the count: %v", len(ps), err)
	}
	for i, p := range ps[:100] {
		if want := fmt.Sprintf("%s!Sheet1!A%d", path, 61+i); p.Where != want {
			t.Errorf("problem %d at %s, want %s", i+1, p.Where, want)
		}
	}
	if want := fmt.Sprintf("and 50 more rows like these, the last at %s!Sheet1!A210", path); ps[100].What != want {
		t.Errorf("last line %q, want %q", ps[100].What, want)
	}

	// Dates alone, 80 of them after 20 times: each is a problem, and the
	// times are too few, the dates' days not counted among them.
	path = filepath.Join(t.TempDir(), "dates.xlsx")
	b = xlsx.New()
	for r := 1; r <= 100; r++ {
		b.SetRow("Sheet1", r, float64(r)+0.5)
		if r > 20 {
			ref := fmt.Sprintf("A%d", r)
			b.SetLook("Sheet1", ref, ref, xlsx.Look{NumFormat: "yyyy-mm-dd"})
		}
	}
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	_, err = Read(path+"!Sheet1!A", "")
	ps, ok = err.(Problems)
	if !ok || len(ps) != 81 || !strings.Contains(ps[79].What, "a date or a time") || ps[80].What != `column "A" holds 20 usable values; expected at least 30 to fit a distribution` {
		t.Errorf("got %d problems, want the 80 dates and 20 usable values:\n%v", len(ps), err)
	}
}
