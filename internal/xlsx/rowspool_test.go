package xlsx

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// libraryRows streams rows through the library's own stream writer and
// returns what it wrote inside the sheet's sheetData.
func libraryRows(t *testing.T, rows [][]any, heights []float64) string {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	for r, cells := range rows {
		var opts []excelize.RowOpts
		if heights[r] > 0 {
			opts = append(opts, excelize.RowOpts{Height: heights[r]})
		}
		if err := sw.SetRow(CellName(0, r+1), cells, opts...); err != nil {
			t.Fatalf("row %d: %v", r+1, err)
		}
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	sheet, err := readPart(partsByName(zr.File)["xl/worksheets/sheet1.xml"])
	if err != nil {
		t.Fatal(err)
	}
	part := string(sheet)
	from, to := strings.Index(part, "<sheetData>"), strings.Index(part, "</sheetData>")
	if from < 0 || to < from {
		t.Fatalf("no sheetData in the library's sheet: %.200s", part)
	}
	return part[from+len("<sheetData>") : to]
}

// spoolRows writes the same rows through a rowSpool and returns them.
func spoolRows(t *testing.T, rows [][]any, heights []float64) string {
	t.Helper()
	s := newRowSpool(nil)
	defer s.close()
	for r, cells := range rows {
		if err := s.writeRow(r+1, cells, heights[r]); err != nil {
			t.Fatalf("row %d: %v", r+1, err)
		}
	}
	rd, err := s.reader()
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(rd)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type labelled struct{ a, b int }

// TestRowSpoolAsLibrary streams rows of every kind of value a table
// holds, tricky texts and numbers among them, and random ones, through
// a rowSpool and through the library's stream writer: the bytes are the
// same.
func TestRowSpoolAsLibrary(t *testing.T) {
	cell := func(v any, style int) *excelize.Cell { return &excelize.Cell{Value: v, StyleID: style} }
	formula := func(f string, v any) *excelize.Cell { return &excelize.Cell{Formula: f, Value: v, StyleID: 2} }
	long := strings.Repeat("中", 40000)
	emoji := strings.Repeat("a😀", 11000)
	rows := [][]any{
		{cell("Scenario", 1), cell("Load", 1), nil, cell(nil, 3), cell("", 0)},
		{cell(0.0, 0), cell(math.Copysign(0, -1), 4), cell(1.0, 4), cell(-1.5, 4), cell(1.0/3, 4), cell(2e10/3, 4),
			cell(1e-20, 4), cell(1.2345678901234567e20, 4), cell(123456789012345678.0, 4), cell(math.MaxFloat64, 4),
			cell(5e-324, 4), cell(math.NaN(), 4), cell(math.Inf(1), 4), cell(math.Inf(-1), 4), cell(float32(0.1), 4)},
		{cell(0, 5), cell(-5, 5), cell(int64(1)<<62, 5), cell(int8(-3), 0), cell(int16(7), 0), cell(int32(-9), 0),
			cell(uint(3), 0), cell(uint8(4), 0), cell(uint16(5), 0), cell(uint32(6), 0), cell(uint64(math.MaxUint64), 0)},
		{cell(" lead", 0), cell("trail ", 0), cell("\ttab", 0), cell("a\nb", 0), cell("line\r\nend", 0), cell(`&<>"'`, 0),
			cell("é ü 中", 0), cell("\x01bell", 0), cell("bad\xffutf8", 0), cell([]byte("bytes"), 0), cell(labelled{1, 2}, 0)},
		{cell("_x0041_", 0), cell("_x005F_", 0), cell("_x005F_x0041_", 0), cell("_xD800_", 0), cell("_x005F_xD800_", 0),
			cell("a_x12", 0), cell("__x0041__", 0), cell("_x0041_x0042_", 0), cell("_X0041_", 0), cell("_x00g1_", 0), cell("x_x0041_y_x005F_z", 0)},
		{cell(long, 0), cell(emoji, 0), cell(" "+long, 0)},
		{formula("SUM(A1:A2)", nil), formula("A1&\"x\"", " spaced "), formula("1/3", 0.5), formula("A1>0", true), formula(`"<&>"`, "<&>")},
		{cell(true, 0), cell(false, 6), nil, nil, cell(nil, 7), cell("negative style", -1), cell(nil, -2)},
	}
	heights := []float64{0, 15.5, 0, 30, 0, 409, 12.25, 0}
	// Random numbers of every magnitude, and texts of the characters that
	// escaping and the _xHHHH_ rule treat apart.
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"_", "x", "0", "5", "F", "A", "d", "8", " ", "\n", "\t", "&", "<", "中", "😀", "a"}
	for range 200 {
		var row []any
		for range 10 {
			switch r.IntN(3) {
			case 0:
				row = append(row, cell((r.Float64()-0.5)*math.Pow(10, float64(r.IntN(40)-20)), r.IntN(3)))
			case 1:
				row = append(row, cell(r.Int64N(1<<40)-1<<39, 0))
			default:
				var s strings.Builder
				for range r.IntN(16) {
					s.WriteString(alphabet[r.IntN(len(alphabet))])
				}
				row = append(row, cell(s.String(), r.IntN(2)))
			}
		}
		rows = append(rows, row)
		heights = append(heights, float64(r.IntN(3))*7.5)
	}
	want, got := libraryRows(t, rows, heights), spoolRows(t, rows, heights)
	if got == want {
		return
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			from := max(i-120, 0)
			t.Fatalf("the rows differ from the library's at byte %d:\n got %q\nwant %q", i,
				got[from:min(i+120, len(got))], want[from:min(i+120, len(want))])
		}
	}
	t.Fatalf("the rows are %d bytes, the library's %d", len(got), len(want))
}

// TestRowSpoolRefuses checks the cells a stream of rows cannot write as
// the library would: they are refused, not written differently.
func TestRowSpoolRefuses(t *testing.T) {
	s := newRowSpool(nil)
	defer s.close()
	for _, cells := range [][]any{{"bare text"}, {&excelize.Cell{Value: []excelize.RichTextRun{{Text: "x"}}}}} {
		if err := s.writeRow(1, cells, 0); err == nil {
			t.Errorf("%v: written, want an error", fmt.Sprint(cells...))
		}
	}
	if err := s.writeRow(2, nil, excelize.MaxRowHeight+1); err == nil {
		t.Error("a row taller than the most: written, want an error")
	}
	if err := s.writeRow(3, []any{(*excelize.Cell)(nil)}, 0); err == nil {
		t.Error("a nil cell: written, want an error")
	}
	wide := make([]any, excelize.MaxColumns+1)
	wide[excelize.MaxColumns] = &excelize.Cell{Value: 1.0}
	if err := s.writeRow(4, wide, 0); err == nil {
		t.Error("a row wider than a sheet: written, want an error")
	}
	if err := s.writeRow(5, []any{&excelize.Cell{Value: 1.0}}, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.writeRow(5, []any{&excelize.Cell{Value: 2.0}}, 0); err == nil {
		t.Error("row 5 after row 5: written, want an error")
	}
}

// rowsXML reads as a sheet of n rows, each one cell holding its number
// (the last holding last), generated as it is read: a sheet larger than
// partLimit without holding it.
type rowsXML struct {
	n, at int
	last  string
	buf   []byte
}

func (x *rowsXML) Read(p []byte) (int, error) {
	for len(x.buf) == 0 {
		switch {
		case x.at == 0:
			x.buf = []byte("<worksheet><sheetData>")
		case x.at <= x.n:
			v := strconv.Itoa(x.at)
			if x.at == x.n {
				v = x.last
			}
			x.buf = fmt.Appendf(nil, `<row r="%d"><c r="A%d"><v>%s</v></c></row>`, x.at, x.at, v)
		case x.at == x.n+1:
			x.buf = []byte("</sheetData></worksheet>")
		default:
			return 0, io.EOF
		}
		x.at++
	}
	n := copy(p, x.buf)
	x.buf = x.buf[n:]
	return n, nil
}

// The digest of a table's sheet covers all of it, however large: a
// change in its last row, past partLimit, changes the digest.
func TestCellsDigestReadsPastPartLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("digests two sheets of 70 MB")
	}
	const n = 1_700_000 // about 70 MB of rows
	digest := func(last string) string {
		sum, err := cellsDigest(&rowsXML{n: n, last: last}, 70<<20, &sharedTexts{})
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	if a, b := digest("1"), digest("2"); a == b {
		t.Errorf("the digests of two sheets that differ in their last row, past %d MB, are the same: %s", partLimit>>20, a)
	}
}
