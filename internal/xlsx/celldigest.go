package xlsx

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"hash"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// CellsMarker is the sheet-scoped defined name that holds a digest of the
// cells of a sheet websim wrote, as it wrote them (="v1-…"): a later write
// that would replace the sheet first compares it with the cells the sheet
// holds then (ChangedResults), so that a user's notes typed into a result
// sheet are not lost without a word. The digest is of what the cells hold
// (values, texts, formulas), not of how they are written: Excel or
// LibreOffice saving the workbook again, which writes every sheet anew
// (shared texts for inline ones, numbers to 17 digits), leaves it the
// same; a format, a width or a colour changed does too.
const CellsMarker = "websim_cells"

// digestVersion prefixes a digest: a later way of computing it gets
// another, and a digest of another version is not compared.
const digestVersion = "v1-"

// pendingDigest is the value MarkOwned gives CellsMarker; Write puts the
// digest of the sheet as written in its place.
const pendingDigest = "pending"

// ErrResultsEdited is the cause of a refusal to replace result sheets
// whose cells were changed since websim wrote them (ChangedResults).
var ErrResultsEdited = errors.New("result sheets were changed after websim wrote them")

// markCells gives sheet a pending CellsMarker, which Write fills.
func (b *Book) markCells(sheet string) error {
	if b.marked == nil {
		b.marked = map[string]bool{}
	}
	b.marked[sheet] = true
	return b.redefine(DefinedName{Name: CellsMarker, RefersTo: textConstant(pendingDigest),
		Comment: "what websim wrote here, to see whether you changed it before replacing the sheet", Scope: sheet})
}

// definedNameElement matches a defined name of the workbook part as the
// library writes it: its attributes, then its value (escaped).
var definedNameElement = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`<definedName\b([^>]*)>([^<]*)</definedName>`)
})

// digestEdits adds to edits the workbook part of zr with each pending
// CellsMarker that this book marked (markCells; not one left pending in
// the file read, which would take the user's cells for websim's) holding
// the digest of its sheet's cells as the package has them. A sheet whose
// cells cannot be read keeps the pending value, which ChangedResults does
// not compare.
func (b *Book) digestEdits(zr *zip.Reader, edits map[string]partEdit) error {
	if len(b.marked) == 0 {
		return nil
	}
	files := partsByName(zr.File)
	sheets, sst := workbookParts(files)
	book := files["xl/workbook.xml"]
	if book == nil || edits[book.Name].content != nil || edits[book.Name].drop {
		return nil
	}
	content, err := readPart(book)
	if err != nil {
		return fmt.Errorf("reading the workbook part: %w", err)
	}
	pending := []byte(`>` + escapeText(textConstant(pendingDigest)) + `<`)
	if !bytes.Contains(content, pending) {
		return nil
	}
	texts := &sharedTexts{f: files[sst]}
	out := definedNameElement().ReplaceAllFunc(content, func(el []byte) []byte {
		m := definedNameElement().FindSubmatch(el)
		attrs := m[1]
		if attr(attrs, "name") != CellsMarker || xmlText(m[2]) != textConstant(pendingDigest) {
			return el
		}
		i, err := strconv.Atoi(attr(attrs, "localSheetId"))
		if err != nil || i < 0 || i >= len(sheets) || !b.marked[sheets[i].name] {
			return el
		}
		part := files[sheets[i].part]
		if e := edits[sheets[i].part]; part == nil || e.drop || e.name != "" && e.name != part.Name {
			return el
		}
		var sum string
		if e := edits[part.Name]; e.content != nil {
			var r io.Reader
			if r, err = e.open(); err == nil {
				sum, err = cellsDigest(r, e.size(), texts)
			}
		} else {
			sum, err = partDigest(part, texts)
		}
		if err != nil {
			return el
		}
		return slices.Concat(el[:len(el)-len(m[2])-len("</definedName>")],
			[]byte(escapeText(textConstant(sum))), []byte("</definedName>"))
	})
	edits[book.Name] = partEdit{name: book.Name, content: out}
	return nil
}

// escapeText is s escaped as XML text, as the library escapes it.
func escapeText(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// xmlText is the text of an element's content, unescaped.
func xmlText(b []byte) string {
	var v struct {
		Text string `xml:",chardata"`
	}
	if xml.Unmarshal(slices.Concat([]byte("<v>"), b, []byte("</v>")), &v) != nil {
		return ""
	}
	return v.Text
}

// ChangedResults returns the sheets of the workbook at path that websim
// wrote and still owns (OwnedSheets' rule), whose base name (BaseName)
// is one of bases (any, when none is given), and whose cells are no
// longer those websim wrote there (CellsMarker): a write that would
// replace them would lose the user's changes. A sheet written by an
// earlier version, without the marker, is taken as unchanged. It reads
// the file's parts, not the library's reading of them; an error means
// the file is not a workbook that can be read so.
func ChangedResults(path string, bases ...string) ([]string, error) {
	zr, o, err := openOwnership(path)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	files := partsByName(zr.File)
	sheets, sst := workbookParts(files)
	texts := &sharedTexts{f: files[sst]}
	var changed []string
	for _, s := range sheets {
		recorded, ok := o.digests[s.name]
		if !o.owned[s.name] || !ok || !strings.HasPrefix(recorded, digestVersion) {
			continue
		}
		if len(bases) > 0 && !slices.ContainsFunc(bases, func(b string) bool { return strings.EqualFold(BaseName(s.name), b) }) {
			continue
		}
		f := files[s.part]
		if f == nil {
			continue
		}
		sum, err := partDigest(f, texts)
		if err != nil {
			return nil, fmt.Errorf("%w (sheet %q: %v)", ErrDamaged, s.name, err)
		}
		if sum != recorded {
			changed = append(changed, s.name)
		}
	}
	return changed, nil
}

// sharedTexts are the shared texts of a package, read when a cell first
// needs them.
type sharedTexts struct {
	f     *zip.File
	read  bool
	texts [][]byte // normalized (normalText)
	err   error
}

// at returns shared text i, normalized (normalText).
func (s *sharedTexts) at(i int) ([]byte, error) {
	if !s.read {
		s.read = true
		if s.f != nil {
			s.texts, s.err = readSharedTexts(s.f)
		}
	}
	if s.err != nil {
		return nil, s.err
	}
	if i < 0 || i >= len(s.texts) {
		return nil, fmt.Errorf("shared text %d of %d", i, len(s.texts))
	}
	return s.texts[i], nil
}

// readSharedTexts reads the items of a shared strings part: each the text
// of its t elements, those of its runs, not its phonetic runs (rPh),
// normalized (normalText).
func readSharedTexts(f *zip.File) ([][]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	dec := xml.NewDecoder(io.LimitReader(rc, partLimit))
	var texts [][]byte
	var cur []byte
	depthRPh, inT := 0, false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return texts, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "si":
				cur = cur[:0]
			case "rPh":
				depthRPh++
			case "t":
				inT = depthRPh == 0
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "si":
				texts = append(texts, normalText(slices.Clone(cur)))
			case "rPh":
				depthRPh--
			case "t":
				inT = false
			}
		case xml.CharData:
			if inT {
				cur = append(cur, t...)
			}
		}
	}
}

// partDigest is cellsDigest of a sheet's part, read in pieces that end
// after a row's end tag (a cell never spans one), so that a sheet of a
// million rows is never held whole.
func partDigest(f *zip.File, texts *sharedTexts) (string, error) {
	d := newCellHasher(texts)
	if err := eachPiece(f, func(piece []byte, _ bool) error { return d.scan(piece) }); err != nil {
		return "", err
	}
	return d.sum(), nil
}

// cellsDigest returns the digest of the cells of the worksheet XML read
// from r (about size bytes), piece by piece: of each cell that holds something, in the order written, its
// place and what it holds, read as a program reads it (a shared or
// inline text as its text, a number to Excel's 15 significant digits, a
// formula as its text, without the value it last gave).
func cellsDigest(r io.Reader, size int64, texts *sharedTexts) (string, error) {
	d := newCellHasher(texts)
	piece := int(min(max(size+1, 4<<10), sheetPiece))
	if err := eachPieceOf(r, piece, func(piece []byte, _ bool) error { return d.scan(piece) }); err != nil {
		return "", err
	}
	return d.sum(), nil
}

// cellHasher folds cells into a digest, piece by piece of a sheet's XML.
type cellHasher struct {
	h     hash.Hash
	texts *sharedTexts
	// row and col are the place of the last cell, for a cell or row
	// written without its reference (r), which follows the one before.
	row, col int
	// value, formula, inline and number hold the cell being read, and buf
	// what is hashed of it: reused, cell after cell.
	value, formula, inline, number, buf []byte
}

func newCellHasher(texts *sharedTexts) *cellHasher {
	return &cellHasher{h: sha256.New(), texts: texts}
}

func (d *cellHasher) sum() string {
	return digestVersion + hex.EncodeToString(d.h.Sum(nil)[:16])
}

// scan folds the rows and cells of b, a piece of a sheet's XML that ends
// between rows.
func (d *cellHasher) scan(b []byte) error {
	for at := 0; ; {
		open := bytes.IndexByte(b[at:], '<')
		if open < 0 {
			return nil
		}
		open += at
		gt := bytes.IndexByte(b[open:], '>')
		if gt < 0 {
			return nil
		}
		gt += open
		tag := b[open+1 : gt]
		at = gt + 1
		name, closing := elementName(tag)
		if closing {
			continue
		}
		switch string(name) {
		case "row":
			if r, err := strconv.Atoi(string(attrBytes(tag, "r"))); err == nil {
				d.row = r
			} else {
				d.row++
			}
			d.col = 0
		case "c":
			if col, row, ok := cellPlace(attrBytes(tag, "r")); ok {
				d.col, d.row = col, row
			} else {
				d.col++
			}
			if bytes.HasSuffix(tag, []byte("/")) {
				continue // no value
			}
			end, err := d.cell(tag, b[at:])
			if err != nil {
				return err
			}
			at += end
		}
	}
}

// elementName is the name of the element whose tag text (after "<") is
// tag, without its namespace prefix, and whether the tag is an end tag.
func elementName(tag []byte) (name []byte, closing bool) {
	if len(tag) > 0 && tag[0] == '/' {
		closing, tag = true, tag[1:]
	}
	name = tag
	if i := bytes.IndexAny(name, " \t\r\n/"); i >= 0 {
		name = name[:i]
	}
	if i := bytes.IndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	return name, closing
}

// attrBytes is attr without a copy, and as XML allows it written: the
// value of attribute name in a start tag's text (in double or single
// quotes, with spaces about the "=" or none), nil when it has none.
func attrBytes(tag []byte, name string) []byte {
	for at := 0; ; {
		i := bytes.Index(tag[at:], []byte(name))
		if i < 0 {
			return nil
		}
		i += at
		at = i + len(name)
		if i == 0 || !isSpace(tag[i-1]) {
			continue
		}
		rest := bytes.TrimLeft(tag[at:], " \t\r\n")
		if len(rest) == 0 || rest[0] != '=' {
			continue
		}
		rest = bytes.TrimLeft(rest[1:], " \t\r\n")
		if len(rest) == 0 || rest[0] != '"' && rest[0] != '\'' {
			continue
		}
		if j := bytes.IndexByte(rest[1:], rest[0]); j >= 0 {
			return rest[1 : 1+j]
		}
		return nil
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// cellPlace reads a cell reference (A1; $ signs allowed) as its 1-based
// column and row.
func cellPlace(ref []byte) (col, row int, ok bool) {
	i := 0
	if i < len(ref) && ref[i] == '$' {
		i++
	}
	for ; i < len(ref) && ref[i]|0x20 >= 'a' && ref[i]|0x20 <= 'z'; i++ {
		col = col*26 + int(ref[i]|0x20-'a') + 1
		if col > 1<<20 {
			return 0, 0, false
		}
	}
	if i < len(ref) && ref[i] == '$' {
		i++
	}
	digits := 0
	for ; i < len(ref) && ref[i] >= '0' && ref[i] <= '9'; i++ {
		row = row*10 + int(ref[i]-'0')
		if digits++; digits > 8 {
			return 0, 0, false
		}
	}
	return col, row, col > 0 && row > 0 && digits > 0 && i == len(ref)
}

// cell folds the cell whose start tag's text is tag and whose content
// follows in rest, and returns how much of rest it read (up to the cell's
// end tag).
func (d *cellHasher) cell(tag, rest []byte) (int, error) {
	d.value, d.formula, d.inline = d.value[:0], d.formula[:0], d.inline[:0]
	// The shapes websim and most programs write, read at once: a value,
	// or an inline text of one run.
	for _, shape := range plainCells {
		if !bytes.HasPrefix(rest, shape.open) {
			continue
		}
		body := rest[len(shape.open):]
		end := bytes.IndexByte(body, '<')
		if end < 0 || !bytes.HasPrefix(body[end:], shape.close) {
			break
		}
		if shape.inline {
			d.inline = append(d.inline, body[:end]...)
		} else {
			d.value = append(d.value, body[:end]...)
		}
		return len(shape.open) + end + len(shape.close), d.fold(attrBytes(tag, "t"), !shape.inline, false)
	}
	hasValue, hasFormula, inValue, inFormula, inText := false, false, false, false, false
	rph := 0
	at := 0
	for {
		open := bytes.IndexByte(rest[at:], '<')
		if open < 0 {
			return len(rest), d.cutShort()
		}
		// collect keeps text (still escaped) for what the cell is inside.
		collect := func(text []byte) {
			switch {
			case inValue:
				d.value = append(d.value, text...)
			case inFormula:
				d.formula = append(d.formula, text...)
			case inText && rph == 0:
				d.inline = append(d.inline, text...)
			}
		}
		collect(rest[at : at+open])
		open += at
		if cdata := []byte("<![CDATA["); bytes.HasPrefix(rest[open:], cdata) {
			// Text taken as it is: kept escaped, as the rest is until fold
			// unescapes it.
			end := bytes.Index(rest[open+len(cdata):], []byte("]]>"))
			if end < 0 {
				return len(rest), d.cutShort()
			}
			collect([]byte(escapeText(string(rest[open+len(cdata) : open+len(cdata)+end]))))
			at = open + len(cdata) + end + len("]]>")
			continue
		}
		gt := bytes.IndexByte(rest[open:], '>')
		if gt < 0 {
			return len(rest), d.cutShort()
		}
		gt += open
		t := rest[open+1 : gt]
		at = gt + 1
		empty := bytes.HasSuffix(t, []byte("/"))
		name, closing := elementName(t)
		switch string(name) {
		case "c":
			if closing {
				return at, d.fold(attrBytes(tag, "t"), hasValue, hasFormula)
			}
		case "v":
			hasValue = hasValue || !closing
			inValue = !closing && !empty
		case "f":
			hasFormula = hasFormula || !closing
			inFormula = !closing && !empty
		case "t":
			inText = !closing && !empty
		case "rPh":
			switch {
			case closing:
				rph--
			case !empty:
				rph++
			}
		}
	}
}

// cutShort is the error of a cell whose XML ends before its end tag: what
// it holds cannot be told, so neither can whether it changed.
func (d *cellHasher) cutShort() error {
	return fmt.Errorf("cell %s is cut short", CellName(d.col-1, d.row))
}

// plainCells are the shapes of a cell's content that cell reads at once
// (the general reading gives the same).
var plainCells = []struct {
	open, close []byte
	inline      bool
}{
	{[]byte("<v>"), []byte("</v></c>"), false},
	{[]byte("<is><t>"), []byte("</t></is></c>"), true},
}

// fold adds one cell to the digest: its place, then what it holds by its
// type (typ, the t attribute) from its raw value, formula and inline text
// (d.value, d.formula, d.inline, still escaped). A cell that holds
// nothing (no value, an empty text) is left out, as a program that saves
// the workbook again may leave it out.
func (d *cellHasher) fold(typ []byte, hasValue, hasFormula bool) error {
	var kind byte
	var what []byte
	switch {
	case hasFormula:
		kind, what = 'f', unescape(d.formula)
	case string(typ) == "inlineStr":
		kind, what = 's', normalText(unescape(d.inline))
	case !hasValue:
		return nil
	case string(typ) == "s":
		i, err := strconv.Atoi(string(bytes.TrimSpace(unescape(d.value))))
		if err != nil {
			return fmt.Errorf("cell %s: shared text %q", CellName(d.col-1, d.row), d.value)
		}
		text, err := d.texts.at(i)
		if err != nil {
			return fmt.Errorf("cell %s: %v", CellName(d.col-1, d.row), err)
		}
		kind, what = 's', text
	case string(typ) == "str":
		kind, what = 's', normalText(unescape(d.value))
	case string(typ) == "b":
		kind, what = 'b', []byte("0")
		if v := bytes.TrimSpace(unescape(d.value)); string(v) == "1" || bytes.EqualFold(v, []byte("true")) {
			what = []byte("1")
		}
	case string(typ) == "e", string(typ) == "d":
		kind, what = typ[0], bytes.TrimSpace(unescape(d.value))
	default:
		kind, what = 'n', bytes.TrimSpace(unescape(d.value))
		if neg, mant, exp, ok := decimalOf(what); ok {
			kind, what = 'N', d.appendDecimal(neg, mant, exp)
		} else if x, err := strconv.ParseFloat(string(what), 64); err == nil {
			// More than 15 significant digits (0.10000000000000001 for
			// 0.1): the number as Excel keeps it, at 15.
			if neg, mant, exp, ok := decimalOf(strconv.AppendFloat(d.number[:0], x, 'g', 15, 64)); ok {
				kind, what = 'N', d.appendDecimal(neg, mant, exp)
			}
		}
	}
	if len(what) == 0 {
		return nil
	}
	d.buf = strconv.AppendInt(d.buf[:0], int64(d.row), 10)
	d.buf = append(d.buf, ',')
	d.buf = strconv.AppendInt(d.buf, int64(d.col), 10)
	d.buf = append(d.buf, 0, kind)
	d.buf = append(d.buf, what...)
	d.buf = append(d.buf, 1)
	d.h.Write(d.buf)
	return nil
}

// decimalOf reads a number's text as sign × mant × 10^exp, mant without
// trailing zeros (0 for zero, whatever its sign and exponent), when it has
// at most 15 significant digits: then two texts are the same number (as
// Excel keeps numbers, to 15 digits) exactly when they read the same
// ("1", "1.0", "1E0"). ok is false for a text with more digits, or that is
// not a plain number.
func decimalOf(text []byte) (neg bool, mant uint64, exp int, ok bool) {
	i := 0
	if i < len(text) && (text[i] == '-' || text[i] == '+') {
		neg = text[i] == '-'
		i++
	}
	digits, sawDigit, point := 0, false, false
	for ; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '.' && !point:
			point = true
		case c >= '0' && c <= '9':
			sawDigit = true
			if c == '0' && mant == 0 {
				if point {
					exp-- // a leading zero after the point
				}
				continue
			}
			if digits == 15 {
				if c != '0' {
					return false, 0, 0, false
				}
				if !point {
					exp++ // a trailing zero beyond 15 digits
				}
				continue
			}
			mant = mant*10 + uint64(c-'0')
			digits++
			if point {
				exp--
			}
		default:
			goto exponent
		}
	}
exponent:
	if !sawDigit {
		return false, 0, 0, false
	}
	if i < len(text) {
		if text[i] != 'e' && text[i] != 'E' {
			return false, 0, 0, false
		}
		e, err := strconv.Atoi(string(text[i+1:]))
		if err != nil || e > 1000 || e < -1000 {
			return false, 0, 0, false
		}
		exp += e
	}
	if mant == 0 {
		return false, 0, 0, true
	}
	for mant%10 == 0 {
		mant /= 10
		exp++
	}
	return neg, mant, exp, true
}

// appendDecimal is what the digest holds of a number read by decimalOf.
func (d *cellHasher) appendDecimal(neg bool, mant uint64, exp int) []byte {
	b := d.number[:0]
	if neg {
		b = append(b, '-')
	}
	b = strconv.AppendUint(b, mant, 10)
	b = append(b, 'e')
	b = strconv.AppendInt(b, int64(exp), 10)
	d.number = b
	return b
}

// unescape is the text of raw XML content: entities and character
// references replaced (cell keeps a CDATA section's text escaped).
func unescape(raw []byte) []byte {
	if bytes.IndexByte(raw, '&') < 0 && bytes.IndexByte(raw, '<') < 0 {
		return raw
	}
	return []byte(xmlText(raw))
}

// escapedChar matches the _xHHHH_ escape of a character that XML cannot
// hold, which Excel writes for a control character in a text.
var escapedChar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`_x[0-9A-Fa-f]{4}_`) })

// normalText is a cell's text as programs that save it again keep it:
// ends of lines as "\n", and a character written as _xHHHH_ as itself.
func normalText(s []byte) []byte {
	if bytes.Contains(s, []byte("_x")) {
		s = escapedChar().ReplaceAllFunc(s, func(e []byte) []byte {
			n, _ := strconv.ParseUint(string(e[2:6]), 16, 32)
			return []byte(string(rune(n)))
		})
	}
	if bytes.IndexByte(s, '\r') >= 0 {
		s = bytes.ReplaceAll(bytes.ReplaceAll(s, []byte("\r\n"), []byte("\n")), []byte("\r"), []byte("\n"))
	}
	return s
}
