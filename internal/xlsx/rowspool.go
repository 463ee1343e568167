package xlsx

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/xuri/excelize/v2"
)

// rowSpool holds the rows of a table's sheet (the <row> elements of its
// sheetData) as they stream, in a temporary file: the sheet's part is
// put together from the library's part and these rows when the book is
// written (spliceRows). The library's own stream writer keeps up to
// 16 MB of each sheet in memory (32 MB with a buffer's doubling) until
// the whole workbook is written; a study of 10,000 runs held about 60 MB
// of its result sheets that way. The rows are written as the library's
// stream writer writes them, byte for byte (TestRowSpoolAsLibrary), so a
// workbook reads the same either way.
type rowSpool struct {
	file *os.File      // nil: the rows are in mem (no temporary file could be made)
	mem  bytes.Buffer  // the rows, when file is nil
	w    *bufio.Writer // buffers writes to file
	size int64         // bytes written
	last int           // the last row written
	// colStyle is the style of the sheet's 0-based column col, which a
	// cell without a style of its own takes, as the library gives it (nil:
	// none has one); colStyles keeps the styles asked for.
	colStyle  func(col int) int
	colStyles []int
	line      []byte // the row being written
}

// newRowSpool starts the rows of a sheet whose columns have the styles
// colStyle gives (nil: none).
func newRowSpool(colStyle func(col int) int) *rowSpool {
	s := &rowSpool{colStyle: colStyle}
	if f, err := os.CreateTemp(libraryTempDir(), "websim-rows-*.xml"); err == nil {
		s.file = f
		s.w = bufio.NewWriterSize(f, 64<<10)
	}
	return s
}

// writeRow writes row (1-based) of cells, each nil (nothing written) or
// an *excelize.Cell as streamCells makes them, with height (0: the
// sheet's).
func (s *rowSpool) writeRow(row int, cells []any, height float64) error {
	if height > excelize.MaxRowHeight {
		return excelize.ErrMaxRowHeight
	}
	if row < 1 || row > excelize.TotalRows {
		return excelize.ErrMaxRows
	}
	if row <= s.last {
		return fmt.Errorf("xlsx: row %d streamed after row %d", row, s.last)
	}
	if len(cells) > excelize.MaxColumns {
		return excelize.ErrColumnNumber
	}
	b := append(s.line[:0], `<row r="`...)
	b = strconv.AppendInt(b, int64(row), 10)
	b = append(b, '"')
	if height > 0 {
		b = append(b, ` ht="`...)
		b = strconv.AppendFloat(b, height, 'f', -1, 64)
		b = append(b, `" customHeight="1"`...)
	}
	b = append(b, '>')
	for i, v := range cells {
		if v == nil {
			continue
		}
		c, ok := v.(*excelize.Cell)
		if !ok || c == nil {
			return fmt.Errorf("xlsx: a streamed cell of type %T", v)
		}
		var err error
		if b, err = s.appendCell(b, i, row, c); err != nil {
			return err
		}
	}
	b = append(b, `</row>`...)
	s.line, s.last = b, row
	return s.write(b)
}

func (s *rowSpool) write(b []byte) error {
	s.size += int64(len(b))
	if s.file == nil {
		s.mem.Write(b)
		return nil
	}
	_, err := s.w.Write(b)
	return err
}

// appendCell appends the <c> element of cell c at 0-based column col of
// row: what the library's stream writer writes for it (its writeCell,
// with the value set as its setCellValFunc sets it).
func (s *rowSpool) appendCell(b []byte, col, row int, c *excelize.Cell) ([]byte, error) {
	style := max(c.StyleID, 0)
	if style == 0 && s.colStyle != nil {
		for len(s.colStyles) <= col {
			s.colStyles = append(s.colStyles, s.colStyle(len(s.colStyles)))
		}
		style = s.colStyles[col]
	}
	var t, v, f string
	var inline, preserve bool
	if c.Formula != "" {
		t, f = "str", c.Formula
	}
	switch x := c.Value.(type) {
	case nil:
	case int:
		t, v = "", strconv.Itoa(x)
	case int8, int16, int32, int64:
		t, v = "", strconv.FormatInt(reflect.ValueOf(x).Int(), 10)
	case uint, uint8, uint16, uint32, uint64:
		t, v = "", strconv.FormatUint(reflect.ValueOf(x).Uint(), 10)
	case float32:
		t, v, inline, preserve = cellFloat(float64(x), 32)
	case float64:
		t, v, inline, preserve = cellFloat(x, 64)
	case bool:
		t, v = "b", "0"
		if x {
			v = "1"
		}
	case string:
		t, v, inline, preserve = cellText(x, f != "")
	case []byte:
		t, v, inline, preserve = cellText(string(x), f != "")
	case time.Time, time.Duration, []excelize.RichTextRun:
		// Dates, durations and rich text take styles and settings of the
		// workbook's that a stream of rows does not have: no table
		// holds them.
		return b, fmt.Errorf("xlsx: a table cell of type %T", x)
	default:
		t, v, inline, preserve = cellText(fmt.Sprint(x), f != "")
	}
	b = append(b, `<c`...)
	if preserve && !inline {
		b = append(b, ` xml:space="preserve"`...)
	}
	b = append(b, ` r="`...)
	b = append(b, ColumnName(col)...)
	b = strconv.AppendInt(b, int64(row), 10)
	b = append(b, '"')
	if style != 0 {
		b = append(b, ` s="`...)
		b = strconv.AppendInt(b, int64(style), 10)
		b = append(b, '"')
	}
	if t != "" {
		b = append(b, ` t="`...)
		b = append(b, t...)
		b = append(b, '"')
	}
	b = append(b, '>')
	if f != "" {
		b = append(b, `<f>`...)
		b = appendEscaped(b, f)
		b = append(b, `</f>`...)
	}
	switch {
	case inline:
		b = append(b, `<is><t`...)
		if preserve {
			b = append(b, ` xml:space="preserve"`...)
		}
		b = append(b, '>')
		b = append(b, v...)
		b = append(b, `</t></is>`...)
	case v != "":
		b = append(b, `<v>`...)
		b = appendEscaped(b, v)
		b = append(b, `</v>`...)
	}
	return append(b, `</c>`...), nil
}

// appendEscaped appends s escaped as XML text, as encoding/xml escapes it.
func appendEscaped(b []byte, s string) []byte {
	if !strings.ContainsAny(s, `"'&<>`) && isPlainASCII(s) {
		return append(b, s...)
	}
	var buf bytes.Buffer
	xml.EscapeText(&buf, []byte(s))
	return append(b, buf.Bytes()...)
}

// isPlainASCII says whether s is printable ASCII only (no control
// character, which XML escaping writes as a reference or replaces).
func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// cellFloat is the type and value of a number, as the library sets them:
// as many digits as it takes, at most Excel's 15 significant; NaN and
// infinities as text.
func cellFloat(x float64, bitSize int) (t, v string, inline, preserve bool) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return cellText(fmt.Sprint(x), false)
	}
	return "", formatFloat15(x, bitSize), false, false
}

// cellText is the type and value of a text, as the library sets them: an
// inline string, or with a formula, a formula's string (t="str").
func cellText(s string, formula bool) (t, v string, inline, preserve bool) {
	if formula {
		v, preserve = trimText(s, false)
		return "str", v, false, preserve
	}
	v, preserve = trimText(s, true)
	return "inlineStr", v, true, preserve
}

// The rest of this file follows the spreadsheet library's own functions
// of the same purpose (github.com/xuri/excelize/v2, cell.go and lib.go:
// formatCellFloat, trimCellValue, bstrMarshal; BSD-3-Clause), so that a
// streamed cell's bytes are the library's; TestRowSpoolAsLibrary checks
// them against it.

// formatFloat15 formats x with as many decimals as it takes, cut to
// Excel's 15 significant digits (the library's formatCellFloat).
func formatFloat15(x float64, bitSize int) string {
	str := strconv.FormatFloat(x, 'f', -1, bitSize)
	if math.Abs(x) == math.MaxFloat64 {
		return str
	}
	const maxPrec = 15
	decimal := strings.IndexByte(str, '.')
	significant := 0
	for idx := range str {
		if str[idx] < '0' || str[idx] > '9' || significant == 0 && str[idx] == '0' {
			continue
		}
		significant++
		if significant <= maxPrec {
			continue
		}
		if decimal >= 0 && idx > decimal {
			return strings.TrimSuffix(str[:idx], ".")
		}
		if decimal < 0 {
			decimal = len(str)
		}
		truncated := []byte(str[:decimal])
		for ; idx < len(truncated); idx++ {
			truncated[idx] = '0'
		}
		return string(truncated)
	}
	return str
}

// trimText is a text cut to the 32,767 UTF-16 units a cell holds, with
// whether its ends need xml:space="preserve", escaped as XML when escape
// says so, and its _xHHHH_ sequences escaped (the library's
// trimCellValue).
func trimText(value string, escape bool) (string, bool) {
	if utf16Len(value) > excelize.TotalCellChars {
		value = cutUTF16(value, excelize.TotalCellChars)
	}
	preserve := false
	if value != "" {
		first, last := value[0], value[len(value)-1]
		for _, ascii := range []byte{9, 10, 13, 32} {
			if first == ascii || last == ascii {
				preserve = true
				break
			}
		}
		if escape {
			value = string(appendEscaped(nil, value))
			value = strings.ReplaceAll(value, "&#xA;", "\n")
		}
	}
	return escapeBstr(value), preserve
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

func cutUTF16(s string, length int) string {
	n := 0
	for i, r := range s {
		if n += utf16.RuneLen(r); n > length {
			return s[:i]
		}
	}
	return s
}

// escapeBstr escapes the _xHHHH_ sequences of s, which a reader would
// take for an escaped character, as the library's bstrMarshal does.
func escapeBstr(s string) string {
	if !strings.Contains(s, "_x") {
		return s
	}
	var out strings.Builder
	cursor := 0
	for cursor < len(s) {
		i := strings.Index(s[cursor:], "_x")
		if i < 0 {
			break
		}
		start := cursor + i
		if start+7 > len(s) || !isBstr(s[start:start+7]) {
			out.WriteString(s[cursor : start+1])
			cursor = start + 1
			continue
		}
		out.WriteString(s[cursor:start])
		sub := s[start : start+7]
		cursor = start + 7
		if sub == "_x005F_" {
			if cursor+6 <= len(s) && s[cursor] == 'x' && isHex4(s[cursor+1:cursor+5]) && s[cursor+5] == '_' && !surrogate(s[cursor+1:cursor+5]) {
				out.WriteString(sub + "x005F" + sub)
				continue
			}
			out.WriteString(sub + "x005F_")
			continue
		}
		if surrogate(sub[2:6]) {
			// The library drops these (a \u escape of a surrogate does
			// not unquote, and its bstrMarshal then writes nothing).
			continue
		}
		out.WriteString("_x005F" + sub)
	}
	out.WriteString(s[cursor:])
	return out.String()
}

// isBstr says whether s (7 bytes) is _xHHHH_.
func isBstr(s string) bool {
	return s[0] == '_' && s[1] == 'x' && isHex4(s[2:6]) && s[6] == '_'
}

// surrogate says whether the 4 hex digits h are a UTF-16 surrogate.
func surrogate(h string) bool {
	v, _ := strconv.ParseUint(h, 16, 32)
	return 0xd800 <= v && v <= 0xdfff
}

func isHex4(s string) bool {
	for i := 0; i < 4; i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// reader returns the rows written, from the start; the spool must not be
// written to again.
func (s *rowSpool) reader() (io.Reader, error) {
	if s.file == nil {
		return bytes.NewReader(s.mem.Bytes()), nil
	}
	if err := s.w.Flush(); err != nil {
		return nil, err
	}
	return io.NewSectionReader(s.file, 0, s.size), nil
}

// close removes the spool's temporary file.
func (s *rowSpool) close() {
	if s.file != nil {
		s.file.Close()
		os.Remove(s.file.Name())
		s.file = nil
	}
	s.mem = bytes.Buffer{}
}

// spooledSheet is a sheet whose table's rows wait in a spool.
type spooledSheet struct {
	sheet string
	rows  *rowSpool
}

// dropSpool forgets the rows spooled for sheet (deleted, or streamed
// again), removing their file.
func (b *Book) dropSpool(sheet string) {
	b.spooled = slices.DeleteFunc(b.spooled, func(sp spooledSheet) bool {
		if strings.EqualFold(sp.sheet, sheet) {
			sp.rows.close()
			return true
		}
		return false
	})
}

// streamedReadError is the error of a read of the cells of a sheet whose
// table was streamed when the book was written: they are in the file
// written, not in the book.
func (b *Book) streamedReadError(sheet string) error {
	if b.isSpooled(sheet) {
		return fmt.Errorf("xlsx: the cells of sheet %q were streamed into the file when the book was written; open the file to read them", sheet)
	}
	return nil
}

// isSpooled says whether sheet's table was streamed (its rows spooled).
func (b *Book) isSpooled(sheet string) bool {
	return slices.ContainsFunc(b.spooled, func(sp spooledSheet) bool { return strings.EqualFold(sp.sheet, sheet) })
}

// emptySheetData is the sheetData the library writes for a sheet
// streamed without rows: where a spooled sheet's rows go.
var emptySheetData = []byte("<sheetData></sheetData>")

// spliceRows has each spooled sheet's part written with its rows: the
// library's part (or its edit), its rows inside its sheetData.
func (b *Book) spliceRows(zr *zip.Reader, edits map[string]partEdit) error {
	if len(b.spooled) == 0 {
		return nil
	}
	files := partsByName(zr.File)
	sheets, _ := workbookParts(files)
	for _, sp := range b.spooled {
		i := slices.IndexFunc(sheets, func(s sheetPart) bool { return strings.EqualFold(s.name, sp.sheet) })
		if i < 0 {
			// DeleteSheet and RenameSheet keep the spools in step: a
			// sheet missing here would lose its rows.
			return fmt.Errorf("xlsx: sheet %q, whose table was streamed, is not in the workbook written", sp.sheet)
		}
		name := sheets[i].part
		e := edits[name]
		if e.drop {
			continue
		}
		f := files[name]
		if f == nil {
			return fmt.Errorf("xlsx: sheet %q has no part %s to stream its rows into", sp.sheet, name)
		}
		content, err := contentOf(f, e)
		if err != nil {
			return fmt.Errorf("xlsx: reading the part of sheet %q: %w", sp.sheet, err)
		}
		at := bytes.Index(content, emptySheetData)
		if at < 0 {
			return fmt.Errorf("xlsx: the part of sheet %q has no empty sheetData to stream its rows into", sp.sheet)
		}
		e.content, e.rows, e.rowsAt = content, sp.rows, at+len("<sheetData>")
		edits[name] = e
	}
	return nil
}
