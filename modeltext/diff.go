package modeltext

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/websim/websim/internal/xlsx"
)

// Difference is one difference between two models, located and in words.
type Difference struct {
	// Book, Sheet and Cell locate it: in the second model, or, for what
	// the second model no longer has, where the first one had it. Sheet
	// and Cell are blank for a workbook, Cell for a sheet.
	Book, Sheet, Cell string
	// Label names the row and column in words ("GWay, Capacity").
	Label string
	What  string
}

// String prints the difference as one line:
// SvcData.xlsx!ServerInfo!B3 (GWay, Capacity): 90 -> 60.
func (d Difference) String() string {
	loc := d.Book
	if d.Sheet != "" {
		loc += "!" + d.Sheet
	}
	if d.Cell != "" {
		loc += "!" + d.Cell
	}
	if d.Label != "" {
		loc += " (" + d.Label + ")"
	}
	return loc + ": " + d.What
}

// nameColumns are the headers (as the reader compares them) that name a
// row; rows are matched by the first of a sheet's columns among these, or
// the first two, three... until each row's name is unique.
var nameColumns = map[string]bool{
	"name": true, "server": true, "entity": true, "step": true, "scenario": true, "service": true,
	"attribute": true, "measure": true, "load": true, "type": true, "setting": true,
}

// Diff lists what differs from model a to model b: workbooks and sheets
// added, removed, renamed or moved; columns added, removed, renamed or
// moved (matched by header); rows added, removed or moved (matched by
// their name column: Server, Entity, Step, Scenario, Name, Service...);
// and cells changed, a formula changed with the same value included.
// Blank rows are layout, not differences. An empty list means the same
// model.
func Diff(a, b *Model) []Difference {
	var out []Difference
	ca, cb := &computer{m: a}, &computer{m: b}
	defer ca.close()
	defer cb.close()
	for _, bb := range b.Books {
		ba := a.book(bb.Name)
		if ba == nil {
			out = append(out, Difference{Book: bb.Name, What: "workbook added (sheets " + sheetNames(bb) + ")"})
			continue
		}
		out = append(out, diffBook(ba, bb, side{ca, ba}, side{cb, bb})...)
	}
	for _, ba := range a.Books {
		if b.book(ba.Name) == nil {
			out = append(out, Difference{Book: ba.Name, What: "workbook removed (sheets " + sheetNames(ba) + ")"})
		}
	}
	return out
}

func sheetNames(b *Book) string {
	var names []string
	for _, s := range b.Sheets {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}

// diffBook compares the sheets of two versions of a workbook.
func diffBook(a, b *Book, sideA, sideB side) []Difference {
	var out []Difference
	// pairs maps each sheet of b to its sheet in a (by name, or renamed).
	pairs := map[*Sheet]*Sheet{}
	var added []*Sheet
	for _, sb := range b.Sheets {
		if sa := a.sheet(sb.Name); sa != nil {
			pairs[sb] = sa
		} else {
			added = append(added, sb)
		}
	}
	var removed []*Sheet
	for _, sa := range a.Sheets {
		if b.sheet(sa.Name) == nil {
			removed = append(removed, sa)
		}
	}
	// A removed and an added sheet with the same content, or at the same
	// place with the same header, are one sheet renamed.
	renamed := map[*Sheet]bool{}
	pair := func(match func(sa, sb *Sheet) bool) {
		for _, sb := range added {
			if pairs[sb] != nil {
				continue
			}
			for _, sa := range removed {
				if !renamed[sa] && match(sa, sb) {
					pairs[sb], renamed[sa] = sa, true
					break
				}
			}
		}
	}
	pair(func(sa, sb *Sheet) bool { return sameContent(sa, sb) })
	pair(func(sa, sb *Sheet) bool {
		return slices.Index(a.Sheets, sa) == slices.Index(b.Sheets, sb) && slices.Equal(sa.Header, sb.Header)
	})

	// Sheets whose order changed, among those in both.
	var orderB []*Sheet
	for _, sb := range b.Sheets {
		if pairs[sb] != nil {
			orderB = append(orderB, sb)
		}
	}
	var seq []int
	for _, sb := range orderB {
		seq = append(seq, slices.Index(a.Sheets, pairs[sb]))
	}
	kept := map[*Sheet]bool{}
	for p := range inOrder(seq) {
		kept[orderB[p]] = true
	}

	for _, sb := range b.Sheets {
		sa := pairs[sb]
		if sa == nil {
			out = append(out, Difference{Book: b.Name, Sheet: sb.Name, What: "sheet added (" + countRows(sb) + ")"})
			continue
		}
		if sa.Name != sb.Name {
			out = append(out, Difference{Book: b.Name, Sheet: sb.Name, What: fmt.Sprintf("sheet renamed from %q", sa.Name)})
		}
		if !kept[sb] {
			out = append(out, Difference{Book: b.Name, Sheet: sb.Name, What: fmt.Sprintf("sheet moved from place %d to %d in the workbook",
				slices.Index(a.Sheets, sa)+1, slices.Index(b.Sheets, sb)+1)})
		}
		out = append(out, diffSheet(b.Name, sa, sb, sideA, sideB)...)
	}
	for _, sa := range removed {
		if !renamed[sa] {
			out = append(out, Difference{Book: a.Name, Sheet: sa.Name, What: "sheet removed (" + countRows(sa) + ")"})
		}
	}
	return out
}

func countRows(s *Sheet) string {
	n := 0
	for _, r := range s.Rows {
		if len(r) > 0 {
			n++
		}
	}
	if n == 1 {
		return "1 row"
	}
	return strconv.Itoa(n) + " rows"
}

// sameContent tells whether two sheets hold the same cells.
func sameContent(a, b *Sheet) bool {
	if !slices.Equal(a.Header, b.Header) {
		return false
	}
	ra, rb := contentRows(a), contentRows(b)
	return slices.EqualFunc(ra, rb, func(x, y int) bool { return slices.Equal(a.Rows[x], b.Rows[y]) })
}

// contentRows lists the indexes of the rows that are not blank.
func contentRows(s *Sheet) []int {
	var out []int
	for i, r := range s.Rows {
		if len(r) > 0 {
			out = append(out, i)
		}
	}
	return out
}

// diffSheet compares two versions of a sheet: columns by header, rows by
// name.
func diffSheet(book string, a, b *Sheet, sideA, sideB side) []Difference {
	var out []Difference
	keysA, keysB := a.columnKeys(a.width()), b.columnKeys(b.width())

	// Columns: matched by key; a removed and an added column at the same
	// letter are one column renamed.
	colOf := map[int]int{} // b column -> a column
	var addedCols []int
	for j, k := range keysB {
		if i := slices.Index(keysA, k); i >= 0 {
			colOf[j] = i
		} else {
			addedCols = append(addedCols, j)
		}
	}
	var removedCols []int
	for i, k := range keysA {
		if !slices.Contains(keysB, k) {
			removedCols = append(removedCols, i)
		}
	}
	var newCols []int
	for _, j := range addedCols {
		if k := slices.Index(removedCols, j); k >= 0 && !(isColumnRef(keysA[j]) || isColumnRef(keysB[j])) {
			colOf[j] = j
			removedCols = slices.Delete(removedCols, k, k+1)
			what := fmt.Sprintf("column renamed from %s to %s", header(keysA[j]), header(keysB[j]))
			if sameHeader(keysA[j], keysB[j]) {
				what = fmt.Sprintf("column header respelled from %s to %s (the same column to websim, which reads headers ignoring case, spaces and underscores)", header(keysA[j]), header(keysB[j]))
			}
			out = append(out, Difference{Book: book, Sheet: b.Name, Cell: cellRef(j, b.HeaderRow), What: what})
			continue
		}
		newCols = append(newCols, j)
	}

	// Rows: matched by name.
	rowsA, rowsB := contentRows(a), contentRows(b)
	name := rowNamer(a, b, keysA, keysB)
	rowOf := map[int]int{} // b row -> a row; a b row not in it was added
	if name != nil {
		index := map[string]int{}
		for _, i := range rowsA {
			index[name.of(a, i)] = i
		}
		for _, j := range rowsB {
			if i, ok := index[name.of(b, j)]; ok {
				rowOf[j] = i
			}
		}
	} else {
		for n, j := range rowsB {
			if n < len(rowsA) {
				rowOf[j] = rowsA[n]
			}
		}
	}
	matchedA := map[int]bool{}
	for _, i := range rowOf {
		matchedA[i] = true
	}
	label := func(s *Sheet, r int) string {
		if name != nil {
			return name.label(s, r)
		}
		return "row " + strconv.Itoa(s.HeaderRow+1+r)
	}

	for _, j := range newCols {
		out = append(out, Difference{Book: book, Sheet: b.Name, Cell: cellRef(j, b.HeaderRow), Label: keysB[j],
			What: "column added" + columnValues(b, j, rowsB, label)})
	}
	for _, i := range removedCols {
		out = append(out, Difference{Book: book, Sheet: a.Name, Cell: cellRef(i, a.HeaderRow), Label: keysA[i],
			What: "column removed" + columnValues(a, i, rowsA, label)})
	}
	// Columns whose order changed.
	var common []int
	for j := range keysB {
		if _, ok := colOf[j]; ok {
			common = append(common, j)
		}
	}
	var seq []int
	for _, j := range common {
		seq = append(seq, colOf[j])
	}
	stay := map[int]bool{}
	for p := range inOrder(seq) {
		stay[common[p]] = true
	}
	for _, j := range common {
		if !stay[j] {
			out = append(out, Difference{Book: book, Sheet: b.Name, Cell: cellRef(j, b.HeaderRow), Label: keysB[j],
				What: fmt.Sprintf("column moved from %s to %s", colName(colOf[j]), colName(j))})
		}
	}

	// Rows whose order changed.
	var matchedB []int
	for _, j := range rowsB {
		if _, ok := rowOf[j]; ok {
			matchedB = append(matchedB, j)
		}
	}
	seq = seq[:0]
	for _, j := range matchedB {
		seq = append(seq, rowOf[j])
	}
	kept := map[int]bool{}
	for p := range inOrder(seq) {
		kept[matchedB[p]] = true
	}

	for _, j := range rowsB {
		i, ok := rowOf[j]
		if !ok {
			out = append(out, Difference{Book: book, Sheet: b.Name, Cell: cellRef(0, b.HeaderRow+1+j), Label: label(b, j),
				What: "row added: " + rowValues(b, j, keysB)})
			continue
		}
		if !kept[j] {
			out = append(out, Difference{Book: book, Sheet: b.Name, Cell: cellRef(0, b.HeaderRow+1+j), Label: label(b, j),
				What: fmt.Sprintf("row moved from row %d to row %d", a.HeaderRow+1+i, b.HeaderRow+1+j)})
		}
		for _, col := range common {
			ca, cb := at(a.Rows[i], colOf[col]), at(b.Rows[j], col)
			if ca == cb || sameBoolean(ca, cb) {
				continue
			}
			if sameFormulaOneUnsaved(ca, cb) {
				// Excel or LibreOffice saved the value on one side: the
				// same model, if the formula gives that value on the other.
				what := ""
				if ca.Kind == Blank {
					if v, differ := savedDisagrees(sideA, a, cellRef(colOf[col], a.HeaderRow+1+i), cb); differ {
						what = fmt.Sprintf("formula %s: value %s (computed, no saved value) -> %s (saved), which websim runs on", cb.Formula, v, Cell{Kind: cb.Kind, Value: cb.Value})
					}
				} else if v, differ := savedDisagrees(sideB, b, cellRef(col, b.HeaderRow+1+j), ca); differ {
					what = fmt.Sprintf("formula %s: value %s (saved), which websim runs on -> %s (computed, no saved value)", ca.Formula, Cell{Kind: ca.Kind, Value: ca.Value}, v)
				}
				if what != "" {
					out = append(out, Difference{Book: book, Sheet: b.Name, Cell: cellRef(col, b.HeaderRow+1+j),
						Label: label(b, j) + ", " + keysB[col], What: what})
				}
				continue
			}
			out = append(out, Difference{Book: book, Sheet: b.Name, Cell: cellRef(col, b.HeaderRow+1+j),
				Label: label(b, j) + ", " + keysB[col], What: change(ca, cb)})
		}
	}
	for _, i := range rowsA {
		if !matchedA[i] {
			out = append(out, Difference{Book: book, Sheet: a.Name, Cell: cellRef(0, a.HeaderRow+1+i), Label: label(a, i),
				What: "row removed: " + rowValues(a, i, keysA)})
		}
	}
	return out
}

func header(k string) string {
	if isColumnRef(k) {
		return "(blank)"
	}
	return strconv.Quote(k)
}

// sameFormulaOneUnsaved reports whether two cells hold the same formula
// and one has no saved value: a workbook written by import or a script
// and then saved in Excel or LibreOffice gains the values, which websim
// computes the same either way, as long as the saved value is the
// formula's (savedDisagrees checks).
func sameFormulaOneUnsaved(a, b Cell) bool {
	return a.Formula != "" && a.Formula == b.Formula && (a.Kind == Blank || b.Kind == Blank)
}

// change says how a cell changed.
func change(a, b Cell) string {
	if a.Formula != "" && b.Formula != "" && a.Formula != b.Formula && a.Kind == b.Kind && a.Value == b.Value {
		if a.Kind == Blank {
			// Neither has a saved value (workbooks a script wrote): the
			// values are not known to be the same.
			return fmt.Sprintf("formula %s -> %s (neither has a saved value to compare)", a.Formula, b.Formula)
		}
		return fmt.Sprintf("formula %s -> %s, same value %s", a.Formula, b.Formula, Cell{Kind: b.Kind, Value: b.Value})
	}
	return a.String() + " -> " + b.String()
}

// rowValues lists a row's cells in words: "Server DB, Capacity 4".
func rowValues(s *Sheet, r int, keys []string) string {
	var parts []string
	for i, c := range s.Rows[r] {
		if !c.IsBlank() {
			parts = append(parts, keys[i]+" "+c.String())
		}
	}
	return strings.Join(parts, ", ")
}

// columnValues lists a column's cells in words: ": ASUM 100, Auth 50".
func columnValues(s *Sheet, col int, rows []int, label func(*Sheet, int) string) string {
	var parts []string
	for _, r := range rows {
		if c := at(s.Rows[r], col); !c.IsBlank() {
			parts = append(parts, label(s, r)+" "+c.String())
		}
	}
	if len(parts) == 0 {
		return " (no values)"
	}
	return ": " + strings.Join(parts, ", ")
}

// namer names the rows of a sheet by its name columns.
type namer struct {
	// cols are the name columns' keys.
	cols []string
	colA []int
	colB []int
	a    *Sheet
}

func (n *namer) columns(s *Sheet) []int {
	if s == n.a {
		return n.colA
	}
	return n.colB
}

// of is the row's name as a matching key.
func (n *namer) of(s *Sheet, r int) string {
	var parts []string
	for _, c := range n.columns(s) {
		parts = append(parts, at(s.Rows[r], c).key())
	}
	return strings.Join(parts, "\x00")
}

// label is the row's name in words: "GWay", "ASUM, Cards".
func (n *namer) label(s *Sheet, r int) string {
	var parts []string
	for _, c := range n.columns(s) {
		v := at(s.Rows[r], c)
		if v.IsBlank() {
			parts = append(parts, "(blank)")
		} else {
			parts = append(parts, Cell{Kind: v.Kind, Value: v.key()}.String())
		}
	}
	return strings.Join(parts, ", ")
}

// rowNamer finds the name columns of two versions of a sheet: the shortest
// run of its name columns (in b's header order, present in both) whose
// values are unique in both. nil means rows are matched by position.
func rowNamer(a, b *Sheet, keysA, keysB []string) *namer {
	var cands []string
	for _, k := range keysB {
		if nameColumns[normKey(k)] && slices.Contains(keysA, k) {
			cands = append(cands, k)
		}
	}
	for n := 1; n <= len(cands); n++ {
		nm := &namer{cols: cands[:n], a: a}
		for _, k := range nm.cols {
			nm.colA = append(nm.colA, slices.Index(keysA, k))
			nm.colB = append(nm.colB, slices.Index(keysB, k))
		}
		if unique(nm, a) && unique(nm, b) {
			return nm
		}
	}
	return nil
}

func unique(n *namer, s *Sheet) bool {
	seen := map[string]bool{}
	for _, r := range contentRows(s) {
		k := n.of(s, r)
		if seen[k] {
			return false
		}
		seen[k] = true
	}
	return true
}

// inOrder returns the positions of seq that form a longest increasing
// run (not necessarily adjacent): seq lists, in the second model's order,
// where each matched item stood in the first; the positions left out are
// the items that moved.
func inOrder(seq []int) map[int]bool {
	// tails[k] is the position in seq ending the best run of length k+1.
	var tails []int
	prev := make([]int, len(seq))
	for i, v := range seq {
		k, _ := slices.BinarySearchFunc(tails, v, func(t, v int) int { return seq[t] - v })
		if k > 0 {
			prev[i] = tails[k-1]
		} else {
			prev[i] = -1
		}
		if k == len(tails) {
			tails = append(tails, i)
		} else {
			tails[k] = i
		}
	}
	keep := map[int]bool{}
	if len(tails) > 0 {
		for i := tails[len(tails)-1]; i >= 0; i = prev[i] {
			keep[i] = true
		}
	}
	return keep
}

// sameHeader tells whether two headers are one to the workbook reader,
// which ignores case, spaces and underscores.
func sameHeader(a, b string) bool { return xlsx.NormKey(a) == xlsx.NormKey(b) }

// sameBoolean reports whether two cells are the same TRUE or FALSE, one
// typed and one as the formula =TRUE() or =FALSE() with that value: how
// LibreOffice saves a boolean cell.
func sameBoolean(a, b Cell) bool {
	plain, formula := a, b
	if a.Formula != "" {
		plain, formula = b, a
	}
	if plain.Formula != "" || plain.Kind != Bool || formula.Kind != Bool || formula.Value != plain.Value {
		return false
	}
	f := strings.ToUpper(strings.ReplaceAll(formula.Formula, " ", ""))
	return f == "="+strings.ToUpper(plain.Value)+"()"
}

// side is one model of a diff and one of its workbooks, for computing the
// value of a formula saved without one.
type side struct {
	c    *computer
	book *Book
}

// computer computes, as websim does when it reads a workbook, the values
// of formulas saved without one, in the workbooks of one model made in
// memory as import would write them.
type computer struct {
	m    *Model
	made map[*Book]*xlsx.Book
}

func (c *computer) close() {
	for _, x := range c.made {
		if x != nil {
			x.Close()
		}
	}
}

// value is the value websim computes for the formula of cell ref of sheet
// s in book; ok is false when it cannot compute one. A model read from
// workbooks is computed in its own files, where ref and the formula's
// references stand; a model's text, in the workbooks import would write,
// whose header is in row 1 (a sheet whose header is lower, which a text
// never has, is not computed).
func (c *computer) value(book *Book, s *Sheet, ref string) (Cell, bool) {
	if c.made == nil {
		c.made = map[*Book]*xlsx.Book{}
	}
	x, seen := c.made[book]
	if !seen {
		x = c.open(book) // nil when it cannot be
		c.made[book] = x
	}
	if x == nil || !c.fromFiles() && s.HeaderRow != 1 {
		return Cell{}, false
	}
	values, _ := x.Unsaved(s.Name, []string{ref})
	v, ok := values[ref]
	if !ok {
		return Cell{}, false
	}
	switch strings.ToUpper(v) {
	case "TRUE", "FALSE":
		return Cell{Kind: Bool, Value: strings.ToLower(v)}, true
	}
	return number(v), true
}

// fromFiles tells whether the model was read from workbooks (a folder, or
// one workbook), not from its text.
func (c *computer) fromFiles() bool {
	if strings.EqualFold(filepath.Ext(c.m.Source), ".xlsx") {
		return true
	}
	fi, err := os.Stat(c.m.Source)
	return err == nil && fi.IsDir()
}

// open is book as websim reads it: its file, for a model read from
// workbooks, else made in memory as import would write it.
func (c *computer) open(book *Book) *xlsx.Book {
	if !c.fromFiles() {
		x, _ := makeBook(book, layoutFor(c.m))
		return x
	}
	path := c.m.Source
	if !strings.EqualFold(filepath.Ext(path), ".xlsx") {
		found, err := xlsx.Find(path, book.Name)
		if err != nil {
			return nil
		}
		path = found
	}
	x, err := xlsx.Open(path)
	if err != nil {
		return nil
	}
	return x
}

// savedDisagrees reports whether the value saved with a formula on one
// side (saved) is not the one the same formula, saved without a value at
// ref of sheet on the other side (unsaved), gives, with that value:
// websim runs on a saved value and computes a formula without one, so
// the two models would run differently. false when they agree, or when
// the value cannot be computed.
func savedDisagrees(unsaved side, sheet *Sheet, ref string, saved Cell) (computed Cell, differ bool) {
	computed, ok := unsaved.c.value(unsaved.book, sheet, ref)
	return computed, ok && (computed.Kind != saved.Kind || computed.Value != saved.Value)
}
