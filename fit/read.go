package fit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	xunicode "golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/websim/websim/internal/suggest"
	"github.com/websim/websim/internal/xlsx"
)

// MinValues is the fewest values Read accepts: below it no fit tells
// families apart, and the bootstrap p-values mean little.
const MinValues = 30

// maxRowProblems is how many bad rows are listed one by one; the rest are
// counted in one last line, so that a file of ten million wrong rows does
// not print ten million lines.
const maxRowProblems = 100

// Data is a column of measured values and where it came from.
type Data struct {
	Source string    // the file as named, with its sheet for a workbook: "data.csv", "Book.xlsx!Times"
	Column string    // the column's header, or its letter or number when it has none
	Values []float64 // every value, in the order read; all finite and above 0
}

// Read reads the values of DATA as `websim fit` takes it: a CSV file
// ("times.csv", its one numeric column or the column headed column), or a
// workbook column "Book.xlsx!Sheet!Column" (Column a header or a letter;
// "Book.xlsx!Sheet" with column given works too). Its errors are Problems
// for the data and the names given, each located.
func Read(spec, column string) (*Data, error) {
	if book, sheet, col, ok := splitWorkbookSpec(spec); ok {
		switch {
		case sheet == "":
			return nil, Problems{{spec, "name the sheet and the column: Book.xlsx!Sheet!Column (a header or a letter such as B)"}}
		case col != "" && column != "":
			return nil, Problems{{"--column", fmt.Sprintf("the column is named twice (%q in %s and %q); give it once", col, spec, column)}}
		case col == "" && column == "":
			return nil, Problems{{spec, "name the column too: Book.xlsx!Sheet!Column (a header or a letter such as B)"}}
		}
		if col == "" {
			col = column
		}
		return readWorkbook(book, sheet, col)
	}
	return ReadCSVFile(spec, column)
}

// splitWorkbookSpec splits "dir/Book.xlsx!Sheet!Column" at the ".xlsx!"
// and at the last "!" after it (sheet names may hold "!"; headers rarely
// do). ok is false when spec names no workbook.
func splitWorkbookSpec(spec string) (book, sheet, column string, ok bool) {
	lower := strings.ToLower(spec)
	i := strings.Index(lower, ".xlsx!")
	if i < 0 {
		if strings.HasSuffix(lower, ".xlsx") {
			return spec, "", "", true
		}
		return "", "", "", false
	}
	book, rest := spec[:i+len(".xlsx")], spec[i+len(".xlsx!"):]
	if j := strings.LastIndexByte(rest, '!'); j >= 0 {
		return book, rest[:j], rest[j+1:], true
	}
	return book, rest, "", true
}

// ReadCSVFile reads the values of one column of a CSV file: the column
// headed column (matched ignoring case, spaces and underscores), or, when
// column is "", the one column whose first value is a number (more than
// one is a problem: the user names which). See
// ReadCSV.
func ReadCSVFile(path, column string) (*Data, error) {
	f, err := os.Open(path)
	if err != nil {
		what := fmt.Sprintf("cannot read the file (%v)", errors.Unwrap(err))
		if errors.Is(err, fs.ErrNotExist) {
			what = "no such file; expected a CSV file, or a workbook column as Book.xlsx!Sheet!Column"
		}
		return nil, Problems{{path, what}}
	}
	defer f.Close()
	var size int64
	if info, err := f.Stat(); err == nil {
		if info.IsDir() {
			return nil, Problems{{path, "is a folder; expected a CSV file"}}
		}
		size = info.Size()
	}
	return ReadCSV(f, path, column, size)
}

// ReadCSV reads one column of CSV text from r; name locates problems
// ("name:17") and size, when known, presizes the values.
//
// The delimiter is a tab or a semicolon when the first line has one
// outside quotes, else a comma; a first line with none of them makes a
// file of one column. With semicolon, tab or one column, a value may have a decimal
// comma (12,5), as European spreadsheets write CSV; with comma, a line with
// more fields than the header is a problem (most often a decimal comma),
// and so is a first line of two whole numbers without a header (1,50: a
// decimal comma or two columns?). The
// first line is a header when one of its fields is not a
// number. Fields may be quoted ("1,5" is one field), and a quoted field
// may hold line breaks. Lines end in "\n", "\r\n" or "\r"; a file in
// UTF-16 with a byte order mark (Excel's "Unicode Text") is read too. Blank lines and blank cells are skipped. A field that is not
// a number, or a number that is not above 0, is a problem at its line;
// every such line is reported (the first hundred one by one). Memory is the
// values and one line: 10^7 values take 80 MB.
func ReadCSV(r io.Reader, name, column string, size int64) (*Data, error) {
	rd := csvReader{name: name, column: column, col: -1, size: size}
	rd.collector.file = name
	if err := rd.read(r); err != nil {
		return nil, err
	}
	return rd.finish()
}

// csvReader holds the state of one ReadCSV.
type csvReader struct {
	name, column string
	size         int64

	delim   byte
	header  []string // the header's fields, nil when there is none
	col     int      // the column read, -1 until known
	colName string
	// noColumn is set when the first data line has no number to read.
	noColumn bool

	line int // current line, from 1
	// recordLine is the line the current record starts on: a quoted field
	// may hold line breaks.
	recordLine int
	bytes      int64
	field      []byte
	collector
}

// collector gathers the values of a column and the problems of its rows.
type collector struct {
	values   []float64
	problems Problems
	// lines are the line numbers of problems (0 in a workbook), to keep
	// the ambiguous values' problems in line order among them.
	lines    []int
	more     int    // bad rows beyond maxRowProblems
	lastBad  string // where the last bad row is
	lastLine int    // and its line (0 in a workbook)
	comma    bool   // the delimiter is not a comma, so 12,5 is a decimal comma
	// oneColumn is set for a file of one column (no delimiter), where 2,017
	// could be a decimal comma or a thousands separator. The column
	// decides: such a value is kept as a decimal comma's reading, its
	// index and line noted (its text too, for the first maxRowProblems),
	// until finish keeps them when decimalComma was seen (12,5 or 0,042:
	// a comma that only a decimal comma can be), and else reports them.
	oneColumn    bool
	decimalComma bool
	ambiguous    []ambiguousValue
	ambiguousTxt []string
	// file and lineNo locate the current line of a CSV file, for the
	// problems' order and the ambiguous values' problems ("data.csv:17");
	// lineNo is the row in a workbook.
	file   string
	lineNo int
	// keepRows is set to note in rows the line (row) of each value taken,
	// for a workbook whose date cells are found in a second pass.
	keepRows bool
	rows     []int32
}

// ambiguousValue is a value of a one-column file such as 2,017, at index
// i of the values and on its line.
type ambiguousValue struct{ i, line int32 }

// number reads a field as a number, with a decimal comma (12,5) when the
// delimiter is not a comma, as European spreadsheets write CSV.
func (c *collector) number(s string) (float64, bool) {
	if c.comma && strings.Count(s, ",") == 1 && !strings.Contains(s, ".") {
		s = strings.Replace(s, ",", ".", 1)
	}
	return parseNumber(s)
}

// MinValue and MaxValue bound the times fit takes: their squares, products
// and sums of millions of them stay within float64, so a fit's figures
// (log-likelihoods, moments) are numbers, not infinities or zeros.
const (
	MinValue = 1e-150
	MaxValue = 1e150
)

// take reads one field's text: a value, or a problem at where().
func (c *collector) take(t []byte, where func() string) {
	t = bytes.TrimSpace(t)
	if len(t) == 0 {
		return
	}
	v, ok := c.number(string(t))
	if c.oneColumn && ok && v > 0 && thousandsOrDecimal.Match(t) {
		c.ambiguous = append(c.ambiguous, ambiguousValue{int32(len(c.values)), int32(c.lineNo)})
		if len(c.ambiguousTxt) < maxRowProblems {
			c.ambiguousTxt = append(c.ambiguousTxt, string(t))
		}
		c.values = append(c.values, v)
		return
	}
	if ok && c.oneColumn && bytes.IndexByte(t, ',') >= 0 {
		c.decimalComma = true
	}
	switch {
	case !ok && outOfRange(t):
		c.bad(where(), fmt.Sprintf("%s is outside the times fit works with, %g to %g (squares and sums of such times leave the range of numbers); expected the times in another unit", t, MinValue, MaxValue))
	case !ok:
		what := fmt.Sprintf("%q is not a number", t)
		switch {
		case c.comma && europeanThousands.Match(t):
			what += "; write it without thousands separators (1234,5, not 1.234,5)"
		case thousandsOrDecimal.Match(t):
			what += fmt.Sprintf(": a number with a thousands separator (%s) or with a decimal comma (%s)?; write it without thousands separators, and with a decimal point (1234.5)", bytes.ReplaceAll(t, []byte(","), nil), bytes.Replace(t, []byte(","), []byte("."), 1))
		case !c.comma && decimalComma(t):
			what += fmt.Sprintf(": a decimal comma, where the comma separates the fields; write %s, or save the CSV with ; as its separator", bytes.Replace(t, []byte(","), []byte("."), 1))
		case bytes.IndexByte(t, ',') >= 0 && thousands(t):
			what += "; write it without thousands separators (1234.5, not 1,234.5)"
		default:
			what += "; expected a time such as 12.5"
		}
		c.bad(where(), what)
	case v == 0 && bytes.ContainsAny(t, "123456789"):
		c.bad(where(), fmt.Sprintf("%s is outside the times fit works with, %g to %g (squares and sums of such times leave the range of numbers); expected the times in another unit", t, MinValue, MaxValue))
	case v == 0:
		c.bad(where(), fmt.Sprintf("%s is not above 0; expected a measured time, above 0 (a time too short for the clock: write half its resolution)", t))
	case v < 0:
		c.bad(where(), fmt.Sprintf("%s is not above 0; expected a measured time, above 0", t))
	case v < MinValue || v > MaxValue:
		c.bad(where(), fmt.Sprintf("%s is outside the times fit works with, %g to %g (squares and sums of such times leave the range of numbers); expected the times in another unit", t, MinValue, MaxValue))
	default:
		c.values = append(c.values, v)
		if c.keepRows {
			c.rows = append(c.rows, int32(c.lineNo))
		}
	}
}

// settle keeps the ambiguous values, read as decimal commas, when the
// column has a value that only a decimal comma can be; else it reports
// each, in line order among the other problems, and leaves them out.
func (c *collector) settle() {
	if len(c.ambiguous) == 0 || c.decimalComma {
		return
	}
	ps := make([]lined, 0, len(c.ambiguousTxt))
	for k, a := range c.ambiguous[:len(c.ambiguousTxt)] {
		text := c.ambiguousTxt[k]
		ps = append(ps, lined{int(a.line), Problem{fmt.Sprintf("%s:%d", c.file, a.line),
			fmt.Sprintf("%q is a number with a thousands separator (%s) or with a decimal comma (%s)?", text, strings.ReplaceAll(text, ",", ""), strings.Replace(text, ",", ".", 1)) +
				"; write it without thousands separators, and with a decimal point or comma that cannot be read as one (1234.5, 2,5)"}})
	}
	last := c.ambiguous[len(c.ambiguous)-1]
	c.merge(ps, len(c.ambiguous), lined{int(last.line), Problem{Where: fmt.Sprintf("%s:%d", c.file, last.line)}})
	for _, a := range c.ambiguous {
		c.values[a.i] = math.NaN()
	}
	c.values = slices.DeleteFunc(c.values, math.IsNaN)
	c.ambiguous, c.ambiguousTxt = nil, nil
}

// lined is a problem and its line (its row in a workbook).
type lined struct {
	line int
	p    Problem
}

// merge adds the problems another pass found: ps, the first of total such
// in line order, the last of them at last. The first maxRowProblems of
// all are kept, in line order, and the rest counted, as bad does.
func (c *collector) merge(ps []lined, total int, last lined) {
	merged := make([]lined, 0, len(c.problems)+len(ps))
	for i, p := range c.problems {
		merged = append(merged, lined{c.lines[i], p})
	}
	merged = append(merged, ps...)
	slices.SortStableFunc(merged, func(a, b lined) int { return a.line - b.line })
	all := len(c.problems) + c.more + total
	c.problems, c.lines = c.problems[:0], c.lines[:0]
	for _, m := range merged[:min(len(merged), maxRowProblems)] {
		c.problems, c.lines = append(c.problems, m.p), append(c.lines, m.line)
	}
	c.more = all - len(c.problems)
	if total > 0 && last.line > c.lastLine {
		c.lastBad, c.lastLine = last.p.Where, last.line
	}
}

func (c *collector) bad(where, what string) {
	c.lastBad, c.lastLine = where, c.lineNo
	if len(c.problems) >= maxRowProblems {
		c.more++
		return
	}
	c.problems = append(c.problems, Problem{where, what})
	c.lines = append(c.lines, c.lineNo)
}

// finish returns the values, or every problem found and too few values.
func (c *collector) finish(where, column string) ([]float64, error) {
	c.settle()
	ps := c.problems
	if c.more > 0 {
		ps = append(ps, Problem{where, fmt.Sprintf("and %d more rows like these, the last at %s", c.more, c.lastBad)})
	}
	ps = append(ps, countProblem(where, column, len(c.values))...)
	if err := ps.orNil(); err != nil {
		return nil, err
	}
	return c.values, nil
}

func (rd *csvReader) read(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(4)
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return Problems{{rd.name, "is a workbook (or another zip file), not CSV text; expected a CSV file, or a column of a workbook as Book.xlsx!Sheet!Column (save the workbook with the .xlsx extension)"}}
	case bytes.HasPrefix(head, []byte{0xD0, 0xCF, 0x11, 0xE0}):
		return Problems{{rd.name, "is an old Excel workbook (.xls), not CSV text; expected a CSV file (save the sheet as CSV UTF-8), or a column of an .xlsx workbook as Book.xlsx!Sheet!Column"}}
	}
	var in io.Reader = br
	if bytes.HasPrefix(head, []byte{0xFF, 0xFE}) || bytes.HasPrefix(head, []byte{0xFE, 0xFF}) {
		// Excel's "Unicode Text" (tab-separated UTF-16, with a byte order
		// mark): read as the UTF-8 it stands for.
		in = transform.NewReader(br, xunicode.UTF16(xunicode.LittleEndian, xunicode.UseBOM).NewDecoder())
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	sc.Split(scanLines)
	sawLine := false
	// record gathers the lines of a record whose quoted field holds line
	// breaks ("first line\nsecond line"), from line recordStart.
	var record []byte
	recordStart := 0
	for sc.Scan() {
		rd.line++
		b := sc.Bytes()
		rd.bytes += int64(len(b)) + 1
		if rd.line == 1 {
			b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
		}
		delims := string(rd.delim)
		if !sawLine {
			delims = "\t;," // the first line sets the delimiter
		} else if rd.delim == 0 {
			delims = ""
		}
		if record != nil || openQuote(b, delims) {
			if record == nil {
				recordStart = rd.line
			} else {
				record = append(record, '\n')
			}
			record = append(record, b...)
			if openQuote(record, delims) {
				if len(record) > maxLine {
					return Problems{{fmt.Sprintf("%s:%d", rd.name, recordStart), "a quoted field opened on this line is not closed within 1 MB; expected a closing quote (\") at the field's end"}}
				}
				continue // the quoted field goes on in the next line
			}
			b, record = record, nil
		} else {
			recordStart = rd.line
		}
		rd.recordLine, rd.lineNo = recordStart, recordStart
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		if !sawLine {
			sawLine = true
			if err := rd.first(b); err != nil {
				return err
			}
			if rd.header != nil {
				continue
			}
		}
		rd.row(b)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return Problems{{fmt.Sprintf("%s:%d", rd.name, rd.line+1), "the line is longer than 1 MB; expected one value (or one row of a table) a line"}}
		}
		return Problems{{rd.name, fmt.Sprintf("cannot read the file (%v)", err)}}
	}
	if record != nil {
		// A quote never closed took every line after it into its field.
		rd.recordLine, rd.lineNo = recordStart, recordStart
		rd.bad(rd.where(), fmt.Sprintf("a quoted field opened on this line is never closed, so the %d lines after it were read as part of it; expected a closing quote (\") at the field's end", rd.line-recordStart))
		return nil
	}
	if !sawLine {
		return Problems{{rd.name, "the file is empty; expected a column of numbers, with or without a header line"}}
	}
	return nil
}

// openQuote reports whether line b ends inside a quoted field: one that
// starts with a quote (after spaces) at the line's start or after one of
// delims, and whose closing quote is not in b ("" stands for a quote). A
// quote inside an unquoted field (12" screen) opens nothing.
func openQuote(b []byte, delims string) bool {
	if bytes.IndexByte(b, '"') < 0 {
		return false
	}
	for i := 0; i < len(b); {
		for i < len(b) && b[i] == ' ' {
			i++
		}
		if i < len(b) && b[i] == '"' {
			closed := false
			for i++; i < len(b); i++ {
				if b[i] == '"' {
					if i+1 < len(b) && b[i+1] == '"' {
						i++
						continue
					}
					closed = true
					i++
					break
				}
			}
			if !closed {
				return true
			}
		}
		for i < len(b) && strings.IndexByte(delims, b[i]) < 0 {
			i++
		}
		if i < len(b) {
			i++ // past the delimiter
		}
	}
	return false
}

// maxLine is the longest line (or record of lines) read.
const maxLine = 1 << 20

// scanLines splits lines at "\n", "\r\n" or a lone "\r" (Excel for Mac's
// "CSV (Macintosh)"), leaving the line end out.
func scanLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
		if data[i] == '\n' {
			return i + 1, data[:i], nil
		}
		if i+1 < len(data) {
			if data[i+1] == '\n' {
				return i + 2, data[:i], nil
			}
			return i + 1, data[:i], nil
		}
		if atEOF {
			return i + 1, data[:i], nil
		}
		return 0, nil, nil // a "\r" last: is a "\n" next?
	}
	if atEOF {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// first reads the first non-blank line: it sets the delimiter, and the
// header and the column when it is a header.
func (rd *csvReader) first(b []byte) error {
	// A tab or a semicolon outside quotes and brackets makes the delimiter (a file
	// that has them uses them: Excel writes ; where the comma is the
	// decimal mark, so "12,5;13,1" holds more commas than semicolons), else
	// a comma; a first line without any of them is a file of one column
	// (what Excel saves of one column, with decimal commas in some
	// countries).
	rd.delim = 0
	unquoted := outsideQuotes(b)
	for _, d := range []byte{'\t', ';', ','} {
		if bytes.IndexByte(unquoted, d) >= 0 {
			rd.delim = d
			break
		}
	}
	defer func() { rd.comma, rd.oneColumn = rd.delim != ',', rd.delim == 0 }()
	fields := splitHeader(b, rd.delim) // a header may hold "time (ms; median)"
	isHeader := false
	rd.comma = rd.delim != ','
	for _, f := range fields {
		if t := strings.TrimSpace(f); t != "" {
			if _, ok := rd.number(t); !ok {
				isHeader = true
			}
		}
	}
	where := fmt.Sprintf("%s:%d", rd.name, rd.recordLine)
	if !isHeader {
		// "1,50": one value with a decimal comma, or two columns? Only a
		// header line tells, whatever column is asked for.
		if rd.delim == ',' && len(fields) == 2 && wholeNumber(fields[0]) && wholeNumber(fields[1]) {
			return Problems{{where, fmt.Sprintf("%q is one value with a decimal comma (%s.%s) or two columns (%s and %s)?; add a header line: one name (ms) for a column of values with decimal commas, a name per column (id,ms) for two columns",
				b, strings.TrimSpace(fields[0]), strings.TrimSpace(fields[1]), strings.TrimSpace(fields[0]), strings.TrimSpace(fields[1]))}}
		}
		if rd.column != "" {
			// Without a header a column is named by its number (from 1)
			// or its letter, as a spreadsheet shows it.
			i, ok := columnIndex(rd.column)
			if !ok || i >= len(fields) {
				return Problems{{where, fmt.Sprintf("the file has no header line (its first line holds numbers only), so it has no column %q; expected --column with the column's number from 1 or its letter (--column 2 or --column B, of %d)", rd.column, len(fields))}}
			}
			rd.col, rd.colName = i, fmt.Sprintf("%d", i+1)
		}
		return nil
	}
	rd.header = fields
	if rd.column == "" {
		return nil
	}
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = strings.TrimSpace(f)
	}
	for i, n := range names {
		if normalize(n) == normalize(rd.column) {
			rd.col, rd.colName = i, n
			return nil
		}
	}
	what := fmt.Sprintf("no column %q", rd.column)
	if dym := suggest.DidYouMean(rd.column, names); dym != "" {
		what += dym
	} else {
		what += "; the columns are " + quoteList(names)
	}
	return Problems{{where, what}}
}

// row reads one data line.
func (rd *csvReader) row(b []byte) {
	if rd.noColumn {
		return
	}
	if rd.delim == ',' && rd.header != nil {
		// A line with more fields than the header: most often a decimal
		// comma, which would otherwise silently read as two fields.
		var ok bool
		if rd.field, ok = fieldAt(b, ',', len(rd.header), rd.field[:0]); ok {
			rd.bad(rd.where(), fmt.Sprintf("the line has %d fields, the header %d; a decimal comma? write 12.5, or save the CSV with ; as separator", len(splitFields(b, ',')), len(rd.header)))
			return
		}
	}
	if rd.col < 0 {
		// No column named: the field of the first data line that is a
		// number. When several look like numbers (an id, a timestamp and
		// a time), the user names the one to fit.
		fields := splitFields(b, rd.delim)
		var numeric []int
		for i, f := range fields {
			if t := strings.TrimSpace(f); looksNumeric(t) {
				numeric = append(numeric, i)
			}
		}
		if len(numeric) > 1 {
			names := make([]string, len(numeric))
			for k, i := range numeric {
				names[k] = rd.columnName(i)
			}
			how := "--column"
			if rd.header == nil {
				how = "--column and its number from 1 (or its letter)"
			}
			rd.bad(rd.where(), fmt.Sprintf("%d columns hold numbers (%s); name the one to fit with %s", len(numeric), quoteList(names), how))
			rd.noColumn = true
			return
		}
		if len(numeric) == 1 {
			// A number, or one that looks like it (2,017; 1.950,50), which
			// take then reports line by line, with its hint.
			rd.col = numeric[0]
		}
		if rd.col < 0 {
			rd.bad(rd.where(), fmt.Sprintf("no field of the first data line is a number (%s); expected a column of numbers, or name it with --column", quoteList(fields)))
			rd.noColumn = true // read nothing more; one problem is enough
			return
		}
		rd.colName = rd.columnName(rd.col)
	}
	var ok bool
	rd.field, ok = fieldAt(b, rd.delim, rd.col, rd.field[:0])
	if !ok {
		rd.bad(rd.where(), fmt.Sprintf("the line has no field %d (column %q); expected a value in it", rd.col+1, rd.colName))
		return
	}
	rd.take(rd.field, rd.where)
	rd.grow()
}

// columnName is column i's header, or its number from 1 in a file without
// a header line.
func (rd *csvReader) columnName(i int) string {
	if rd.header != nil && i < len(rd.header) {
		return strings.TrimSpace(rd.header[i])
	}
	return fmt.Sprintf("%d", i+1)
}

// looksNumeric reports whether a field is, or looks like, a number (one
// written with thousands separators, say): a candidate column to fit.
func looksNumeric(t string) bool {
	if _, ok := parseNumber(t); ok {
		return true
	}
	if t == "" {
		return false
	}
	c := t[0]
	return c >= '0' && c <= '9' || (c == '-' || c == '+' || c == '.') && len(t) > 1 && t[1] >= '0' && t[1] <= '9'
}

// splitHeader splits a first line into its fields as splitFields does,
// but a delimiter inside brackets is part of its field, as outsideQuotes
// does not count it: "time (ms; median);count" is two fields.
func splitHeader(b []byte, delim byte) []string {
	var out []string
	start, quoted, depth := 0, false, 0
	for i := 0; i <= len(b); i++ {
		if i < len(b) {
			switch c := b[i]; {
			case c == '"':
				quoted = !quoted
				continue
			case quoted:
				continue
			case c == '(' || c == '[':
				depth++
				continue
			case (c == ')' || c == ']') && depth > 0:
				depth--
				continue
			case c != delim || depth > 0:
				continue
			}
		}
		f := strings.TrimSpace(string(b[start:i]))
		if len(f) >= 2 && f[0] == '"' && f[len(f)-1] == '"' {
			f = strings.ReplaceAll(f[1:len(f)-1], `""`, `"`)
		}
		out = append(out, f)
		start = i + 1
	}
	return out
}

// outsideQuotes is line b with its quoted and bracketed parts left out: a
// header "time (ms; median)" holds no delimiter.
func outsideQuotes(b []byte) []byte {
	out := make([]byte, 0, len(b))
	quoted, depth := false, 0
	for _, c := range b {
		switch {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(' || c == '[':
			depth++
		case (c == ')' || c == ']') && depth > 0:
			depth--
		case depth == 0:
			out = append(out, c)
		}
	}
	return out
}

// columnIndex reads a column of a file without a header: its number from
// 1 ("2") or its letter ("B"), as 0-based.
func columnIndex(s string) (int, bool) {
	s = strings.TrimSpace(s)
	if n, err := strconv.Atoi(s); err == nil {
		return n - 1, n >= 1
	}
	letters := len(s) > 0 && len(s) <= 3 && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) || r > unicode.MaxASCII }) < 0
	if !letters {
		return 0, false
	}
	col, _, err := xlsx.CellCoordinates(s + "1") // B as in B1
	return col - 1, err == nil
}

// wholeNumber reports whether a field is digits alone.
func wholeNumber(t string) bool {
	t = strings.TrimSpace(t)
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return true
}

// where is the current line: "data.csv:17".
func (rd *csvReader) where() string { return fmt.Sprintf("%s:%d", rd.name, rd.recordLine) }

// grow presizes the values once a thousand lines tell the bytes a line.
func (rd *csvReader) grow() {
	if len(rd.values) != 1000 || rd.size <= 0 {
		return
	}
	est := int(float64(rd.size) / float64(rd.bytes) * float64(rd.line) * 1.05)
	if est > cap(rd.values) {
		v := make([]float64, len(rd.values), est)
		copy(v, rd.values)
		rd.values = v
	}
}

func (rd *csvReader) finish() (*Data, error) {
	if rd.header != nil && rd.line > 0 && rd.col < 0 && !rd.noColumn && len(rd.problems) == 0 {
		return nil, Problems{{rd.name, "the file has a header line and no values under it; expected a column of numbers"}}
	}
	if rd.noColumn {
		return nil, rd.problems
	}
	name := rd.colName
	if name == "" {
		name = rd.column
	}
	values, err := rd.collector.finish(rd.name, name)
	if err != nil {
		return nil, err
	}
	return &Data{Source: rd.name, Column: rd.colName, Values: values}, nil
}

// countProblem checks that there are enough values.
func countProblem(where, column string, n int) Problems {
	if n >= MinValues {
		return nil
	}
	col := "the data hold"
	if column != "" {
		col = fmt.Sprintf("column %q holds", column)
	}
	values := "values"
	if n == 1 {
		values = "value"
	}
	return Problems{{where, fmt.Sprintf("%s %d usable %s; expected at least %d to fit a distribution", col, n, values, MinValues)}}
}

// parseNumber reads a finite decimal number.
func parseNumber(s string) (float64, bool) {
	if s == "" {
		return 0, false
	}
	if c := s[0]; !(c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+') {
		return 0, false // "NaN", "Inf", "0x1p3" and words
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// thousands reports whether b reads as a number once its commas are gone.
// thousandsOrDecimal is a number whose commas could be thousands
// separator or a decimal comma: 2,017 (not 0,125, 12,5 nor 1,234,567).
var thousandsOrDecimal = regexp.MustCompile(`^[1-9][0-9]{0,2},[0-9]{3}$`)

// europeanThousands is a number with dots between thousands and a decimal
// comma: 1.234,5.
var europeanThousands = regexp.MustCompile(`^[-+]?[0-9]{1,3}(\.[0-9]{3})+(,[0-9]+)?$`)

// decimalComma reports whether b is a number with one comma that cannot
// separate thousands (12,5; 0,042; 11,06).
func decimalComma(b []byte) bool {
	i := bytes.IndexByte(b, ',')
	if i < 0 || bytes.Count(b, []byte(",")) != 1 || bytes.IndexByte(b, '.') >= 0 {
		return false
	}
	if _, ok := parseNumber(string(bytes.Replace(b, []byte(","), []byte("."), 1))); !ok {
		return false
	}
	return !thousandsOrDecimal.Match(b)
}

// outOfRange reports whether b is a decimal number too large for a
// float64 (1e400), which parseNumber refuses.
func outOfRange(b []byte) bool {
	if len(b) == 0 || !(b[0] >= '0' && b[0] <= '9' || b[0] == '.' || b[0] == '+') {
		return false
	}
	v, err := strconv.ParseFloat(string(b), 64)
	return errors.Is(err, strconv.ErrRange) && math.IsInf(v, 1)
}

func thousands(b []byte) bool {
	_, ok := parseNumber(string(bytes.ReplaceAll(b, []byte(","), nil)))
	return ok
}

// splitFields splits one line into its fields, unquoting quoted ones.
func splitFields(b []byte, delim byte) []string {
	var out []string
	for i := 0; ; i++ {
		f, ok := fieldAt(b, delim, i, nil)
		if !ok {
			return out
		}
		out = append(out, string(f))
	}
}

// fieldAt appends field col (from 0) of line b to buf and returns it; ok is
// false when the line has fewer fields. A field that starts with a quote
// (after spaces) runs to the closing quote, "" standing for one quote.
func fieldAt(b []byte, delim byte, col int, buf []byte) ([]byte, bool) {
	i := 0
	for k := 0; ; k++ {
		j := i
		for j < len(b) && b[j] == ' ' {
			j++
		}
		quoted := j < len(b) && b[j] == '"'
		if quoted {
			j++
			for j < len(b) {
				if b[j] == '"' {
					if j+1 < len(b) && b[j+1] == '"' {
						if k == col {
							buf = append(buf, '"')
						}
						j += 2
						continue
					}
					j++
					break
				}
				if k == col {
					buf = append(buf, b[j])
				}
				j++
			}
			// Anything between the closing quote and the delimiter.
			for j < len(b) && b[j] != delim {
				if k == col {
					buf = append(buf, b[j])
				}
				j++
			}
		} else {
			e := bytes.IndexByte(b[i:], delim)
			if e < 0 {
				j = len(b)
			} else {
				j = i + e
			}
			if k == col {
				buf = append(buf, b[i:j]...)
			}
		}
		if k == col {
			return buf, true
		}
		if j >= len(b) {
			return buf, false
		}
		i = j + 1
	}
}

// normalize folds a header for matching: case, spaces and underscores do
// not count.
func normalize(s string) string {
	return strings.ToLower(strings.NewReplacer(" ", "", "_", "").Replace(strings.TrimSpace(s)))
}

// quoteList prints names as "a", "b", "c".
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}
