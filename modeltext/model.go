package modeltext

import (
	"math"
	"strconv"
	"strings"

	"github.com/websim/websim/internal/numtext"
	"github.com/websim/websim/internal/xlsx"
)

// Model is one or more workbooks as text: what Export writes and Import
// reads.
type Model struct {
	// Source names where the model came from (a folder, a workbook or a
	// text file), for messages.
	Source string
	Books  []*Book
}

// Book is one workbook: its file name ("SvcData.xlsx") and its sheets in
// the workbook's order.
type Book struct {
	Name   string
	Sheets []*Sheet
}

// Sheet is one sheet: its header row and the rows under it.
type Sheet struct {
	Name string
	// Header holds the header row's cells by column (index 0 is column A);
	// a blank header is a Blank cell.
	Header []Cell
	// HeaderRow is the header's row number in the sheet (1 for a sheet
	// read from text); Rows[i] is row HeaderRow+1+i.
	HeaderRow int
	// Rows hold each row's cells by column; a blank row keeps the rows
	// under it in place.
	Rows [][]Cell
}

// Kind is the type of a cell's value.
type Kind int

// The kinds of values a cell holds.
const (
	Blank Kind = iota
	Number
	Text
	Bool
)

// Cell is one cell as written: a value, or a formula with the value Excel
// saved for it.
type Cell struct {
	// Formula is the formula with its leading "=", or "" for a plain value.
	Formula string
	// Kind and Value are the value (of a formula: the saved one; Blank when
	// none was saved). Value is a number in its canonical form (see
	// FormatNumber), the text, or "true"/"false".
	Kind  Kind
	Value string
}

// IsBlank tells whether the cell holds nothing at all.
func (c Cell) IsBlank() bool { return c.Formula == "" && c.Kind == Blank }

// String is the cell in words, as diff prints it: a number, a text
// (quoted when it could be mistaken), TRUE, a formula with its value, or
// (blank).
func (c Cell) String() string {
	if c.Formula != "" {
		if c.Kind == Blank {
			return c.Formula + " (no saved value)"
		}
		return c.Formula + " (value " + Cell{Kind: c.Kind, Value: c.Value}.String() + ")"
	}
	switch c.Kind {
	case Blank:
		return "(blank)"
	case Bool:
		return strings.ToUpper(c.Value)
	case Text:
		if needsQuotes(c.Value) {
			return strconv.Quote(c.Value)
		}
	}
	return c.Value
}

// needsQuotes tells whether a text shown bare could be read as something
// else: a number, a blank, a formula, or text with edges of space.
func needsQuotes(s string) bool {
	if s == "" || strings.TrimSpace(s) != s || strings.HasPrefix(s, "=") || strings.ContainsAny(s, "\n\t\"") || s == "(blank)" {
		return true
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil || strings.EqualFold(s, "true") || strings.EqualFold(s, "false")
}

// key is the cell's value as the diff compares names: its text.
func (c Cell) key() string {
	if c.Formula != "" && c.Kind == Blank {
		return c.Formula
	}
	return c.Value
}

// FormatNumber is the canonical form of a number in the text: a whole
// number below 2^53 as an integer, every digit kept ("100000", a seed
// written by a script; import writes it whole), any other at Excel's
// precision of 15 significant digits (numtext.AsExcelKeeps: a workbook
// keeps no more of a number typed, the library writes no more, and the
// simulation reads every number so, so that 1/3 computed elsewhere reads
// as 0.333333333333333 and import(export) gives the same model), as
// an integer when that is whole below 2^53, else as the shortest decimal
// of its 15 digits ("0.1", "2.5e-07"). It is its own fixed point:
// FormatNumber(parse(FormatNumber(v))) == FormatNumber(v).
func FormatNumber(v float64) string {
	v = numtext.AsExcelKeeps(v)
	if isExactInteger(v) {
		if v == 0 {
			return "0" // and not -0
		}
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// isExactInteger reports whether v is a whole number that a float64 holds
// exactly with every integer beside it (below 2^53).
func isExactInteger(v float64) bool { return v == math.Trunc(v) && math.Abs(v) < 1<<53 }

// number makes a Number cell from a saved text, or a Text cell when the
// text is not a number.
func number(raw string) Cell {
	v, err := strconv.ParseFloat(raw, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return Cell{Kind: Text, Value: raw}
	}
	return Cell{Kind: Number, Value: FormatNumber(v)}
}

// colName is the letter name of the 0-based column i ("A").
func colName(i int) string { return xlsx.ColumnName(i) }

// cellRef is the A1 name of the 0-based column i in row n.
func cellRef(i, n int) string { return colName(i) + strconv.Itoa(n) }

// columnKeys are the row keys of the sheet's columns, by column: the
// header's text, unless it is blank, repeats an earlier header, or has the
// shape of another column's key; then the column's letter in parentheses,
// "(C)".
func (s *Sheet) columnKeys(width int) []string {
	seen := map[string]bool{}
	keys := make([]string, width)
	for i := range keys {
		h := at(s.Header, i)
		k := h.key()
		if h.IsBlank() || seen[k] || isColumnRef(k) && k != "("+colName(i)+")" {
			keys[i] = "(" + colName(i) + ")"
			continue
		}
		seen[k] = true
		keys[i] = k
	}
	return keys
}

// isColumnRef tells whether s has the shape of a column key "(C)".
func isColumnRef(s string) bool {
	if len(s) < 3 || s[0] != '(' || s[len(s)-1] != ')' {
		return false
	}
	for _, r := range s[1 : len(s)-1] {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

// width is the number of columns the sheet uses: its header's and its
// widest row's.
func (s *Sheet) width() int {
	w := len(s.Header)
	for _, r := range s.Rows {
		w = max(w, len(r))
	}
	return w
}

// trim drops blank cells at the end of the header and of each row, and
// blank rows at the end, so that a sheet has one form.
func (s *Sheet) trim() {
	s.Header = trimCells(s.Header)
	for i := range s.Rows {
		s.Rows[i] = trimCells(s.Rows[i])
	}
	for len(s.Rows) > 0 && len(s.Rows[len(s.Rows)-1]) == 0 {
		s.Rows = s.Rows[:len(s.Rows)-1]
	}
}

func trimCells(cs []Cell) []Cell {
	for len(cs) > 0 && cs[len(cs)-1].IsBlank() {
		cs = cs[:len(cs)-1]
	}
	return cs
}

// at returns the cell in column i of cs, Blank past its end.
func at(cs []Cell, i int) Cell {
	if i < len(cs) {
		return cs[i]
	}
	return Cell{}
}

// book returns the workbook named name, or nil.
func (m *Model) book(name string) *Book {
	for _, b := range m.Books {
		if b.Name == name {
			return b
		}
	}
	return nil
}

// sheet returns the sheet named name, or nil.
func (b *Book) sheet(name string) *Sheet {
	for _, s := range b.Sheets {
		if s.Name == name {
			return s
		}
	}
	return nil
}
