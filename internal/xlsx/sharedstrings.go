package xlsx

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/html/charset"
)

// checkSheets finds the damage in each sheet's XML that the library would
// read past in silence, so that a damaged workbook would pass for a valid
// one: a sheet cut short (its rows are streamed, and the stream ends at
// the cut without an error, so a column read for fit would lose its last
// rows), and the first cell that refers to a shared text the package does
// not hold (an index past the end of xl/sharedStrings.xml, or none at
// all), which the library reads as blank, so that a setting would take its
// default. Each is a located problem. Parts it cannot find or read are
// left to the library's own checks. It also returns each sheet's
// protection element as written, for the save to keep (keptProtection).
func checkSheets(data []byte, file string) ([]Problem, []keptElement, map[string]map[string]bool) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, nil, nil
	}
	parts := map[string]*zip.File{}
	for _, f := range zr.File {
		parts[f.Name] = f
	}
	sheets, sst := workbookParts(parts)
	count := -1 // unknown: no part of shared strings to count
	if f := parts[sst]; f != nil {
		b, err := readPart(f)
		if err != nil {
			return nil, nil, nil
		}
		if _, syntax := firstSyntaxError(bytes.NewReader(b)); syntax != nil {
			// Every text cell of every sheet would fail to read.
			return []Problem{{File: file, Err: ErrDamaged,
				Msg: fmt.Sprintf("the workbook's shared texts (%s) are damaged (line %d: %s): the file is damaged; %s", sst, syntax.Line, syntax.Msg, repairIt)}}, nil, nil
		}
		count = sharedItems(b)
	}
	var out []Problem
	var kept []keptElement
	savedEmpty := map[string]map[string]bool{}
	for _, s := range sheets {
		f := parts[s.part]
		if f == nil {
			continue
		}
		ref, index, bad, cut, protection, empties, err := scanSheetKeeping(f, count)
		if err != nil {
			continue
		}
		for _, e := range empties {
			if savedEmpty[s.name] == nil {
				savedEmpty[s.name] = map[string]bool{}
			}
			savedEmpty[s.name][e] = true
		}
		if protection != nil {
			kept = append(kept, keptElement{sheet: s.name, part: s.part, raw: protection})
		}
		if cut {
			out = append(out, Problem{File: file, Sheet: s.name, Err: ErrDamaged,
				Msg: "the sheet's XML stops before its end (the file was cut short when it was written): the file is damaged; expected an Excel workbook saved as .xlsx (open it in Excel and save it again)"})
			continue
		}
		if p, damaged := syntaxProblem(f, file, s.name); damaged {
			out = append(out, p)
			continue
		}
		if !bad {
			continue
		}
		held := fmt.Sprintf("the workbook holds %d", max(count, 0))
		if count < 0 {
			held = "the workbook holds none"
		}
		out = append(out, Problem{File: file, Sheet: s.name, Cell: ref, Err: ErrDamaged,
			Msg: fmt.Sprintf("the cell refers to shared text number %d, but %s: the file is damaged; expected an Excel workbook saved as .xlsx (open it in Excel and save it again)", index, held)})
	}
	return out, kept, savedEmpty
}

// syntaxProblem decodes the sheet's XML as the library's row stream does
// and returns the first syntax error as a problem located at the last cell
// before it. The stream stops at such an error without one (a stray "<"
// in row 4 reads as a sheet of three rows, and the settings below it
// would take their defaults), so the whole part is read here once.
func syntaxProblem(f *zip.File, file, sheet string) (Problem, bool) {
	rc, err := f.Open()
	if err != nil {
		return Problem{}, false
	}
	defer rc.Close()
	last, syntax := firstSyntaxError(rc)
	if syntax == nil {
		return Problem{}, false
	}
	where := "before its first cell"
	if last != "" {
		where = "near this cell, the last one begun before the damage"
	}
	return Problem{File: file, Sheet: sheet, Cell: last, Err: ErrDamaged,
		Msg: fmt.Sprintf("the sheet's XML is damaged %s (line %d: %s), and the library would read the sheet only up to there: the file is damaged; %s",
			where, syntax.Line, syntax.Msg, repairIt)}, true
}

// repairIt is what a damaged package's problem expects.
const repairIt = "expected an Excel workbook saved as .xlsx (open it in Excel, which offers to repair it, and save it again)"

// firstSyntaxError decodes XML as the library does (encoding/xml, with
// the library's reader of declared character sets) and returns its first
// syntax error, nil when there is none, with the reference of the last
// cell (c element) begun before it. Other errors (a character set not
// known) are left to the library's own checks.
func firstSyntaxError(r io.Reader) (lastCell string, syntax *xml.SyntaxError) {
	d := xml.NewDecoder(r)
	d.CharsetReader = charset.NewReaderLabel
	for {
		tok, err := d.Token()
		if err != nil {
			errors.As(err, &syntax)
			return lastCell, syntax
		}
		if e, ok := tok.(xml.StartElement); ok && e.Name.Local == "c" {
			for _, a := range e.Attr {
				if a.Name.Local == "r" {
					lastCell = a.Value
				}
			}
		}
	}
}

// sheetPiece is the size of the pieces scanSheet reads a sheet in.
const sheetPiece = 1 << 20

// pieceFor is the size of the first piece scanSheet reads part f in: the
// size its zip entry declares, and one byte more so that a sheet read
// whole meets its end at once, between 4 KiB and sheetPiece. A small
// sheet then takes a small buffer: a megabyte for each sheet of a model,
// cleared and touched page by page, was a sixth of a small run's CPU.
// A declared size that lies costs only a larger or a further read.
func pieceFor(f *zip.File) int {
	return int(min(max(f.UncompressedSize64+1, 4<<10), sheetPiece))
}

// scanSheet reads the XML of a sheet's part in pieces that end after a
// row's end tag, so that a sheet of a million rows is never held whole,
// and finds in it the first cell whose shared text the package does not
// hold (firstBadSharedString, with count) and whether the XML is cut
// short (cutShort, on its last piece).
func scanSheet(f *zip.File, count int) (ref string, index int64, bad, cut bool, err error) {
	ref, index, bad, cut, _, _, err = scanSheetKeeping(f, count)
	return ref, index, bad, cut, err
}

// scanSheetKeeping is scanSheet that also returns the sheet's protection
// element as it is written (nil when it has none), from the last piece,
// which holds all that follows the sheet's last row (keptProtection), and
// the cells whose formula has an empty text saved as its value
// (savedEmptyTexts).
func scanSheetKeeping(f *zip.File, count int) (ref string, index int64, bad, cut bool, protection []byte, savedEmpty []string, err error) {
	err = eachPiece(f, func(piece []byte, last bool) error {
		if !bad {
			ref, index, bad = firstBadSharedString(piece, count)
		}
		savedEmpty = append(savedEmpty, savedEmptyTexts(piece)...)
		if last {
			cut, protection = cutShort(piece), protectionElement(piece)
		}
		return nil
	})
	if err != nil {
		return "", 0, false, false, nil, nil, err
	}
	return ref, index, bad, cut, protection, savedEmpty, nil
}

// savedEmptyTexts returns the cells of the worksheet XML b whose formula
// has a value saved, and that value is empty (<v></v> or <v/>): a text
// formula that gave "" when Excel or LibreOffice last computed it
// (=IF(TODAY()>A1,"","late")). The library reads it as no value at all,
// as it reads a formula a script wrote without one.
func savedEmptyTexts(b []byte) []string {
	var out []string
	for _, empty := range [][]byte{[]byte("<v></v>"), []byte("<v/>")} {
		for at := 0; ; {
			k := bytes.Index(b[at:], empty)
			if k < 0 {
				break
			}
			pos := at + k
			at = pos + len(empty)
			start := bytes.LastIndex(b[:pos], []byte("<c "))
			if start < 0 {
				continue
			}
			end := bytes.IndexByte(b[start:], '>')
			if end < 0 || start+end > pos {
				continue
			}
			if !bytes.Contains(b[start+end:pos], []byte("<f")) {
				continue // a value, not a formula's
			}
			if ref := attr(b[start+1:start+end], "r"); ref != "" {
				out = append(out, strings.ToUpper(ref))
			}
		}
	}
	return out
}

// eachPiece calls fn with the XML of a sheet's part in pieces that end
// after a row's end tag (a cell never spans one), so that a sheet of a
// million rows is never held whole; last says the piece is the last,
// which holds all that follows the sheet's last row.
func eachPiece(f *zip.File, fn func(piece []byte, last bool) error) error {
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return eachPieceOf(rc, pieceFor(f), fn)
}

// eachPieceOf is eachPiece of a sheet's XML read from r, in pieces of
// about size bytes.
func eachPieceOf(r io.Reader, size int, fn func(piece []byte, last bool) error) error {
	buf := make([]byte, 0, size)
	for {
		n, err := io.ReadFull(r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		last := err == io.EOF || err == io.ErrUnexpectedEOF
		if err != nil && !last {
			return err
		}
		end := len(buf)
		if !last {
			if end = afterLastRow(buf); end < 0 {
				buf = slices.Grow(buf, cap(buf)) // a row longer than the piece
				continue
			}
		}
		if err := fn(buf[:end], last); err != nil || last {
			return err
		}
		buf = buf[:copy(buf, buf[end:])]
	}
}

// partsByName maps the parts of a package by name; of a name written
// twice, the first (the library may write a sheet's part twice, and the
// first is the one it wrote last: writePackage).
func partsByName(files []*zip.File) map[string]*zip.File {
	parts := make(map[string]*zip.File, len(files))
	for _, f := range files {
		if _, seen := parts[f.Name]; !seen {
			parts[f.Name] = f
		}
	}
	return parts
}

// afterLastRow returns the index just after the last end tag of a row in
// b (</row>, with or without a namespace prefix), -1 when there is none:
// a cell never spans it.
func afterLastRow(b []byte) int {
	for end := len(b); ; {
		i := bytes.LastIndex(b[:end], []byte("row>"))
		if i < 0 {
			return -1
		}
		name := b[:i]
		if j := bytes.LastIndexByte(name, '<'); j >= 0 && j+1 < len(name) && name[j+1] == '/' {
			prefix := name[j+2:]
			if len(prefix) == 0 || (prefix[len(prefix)-1] == ':' && bytes.IndexAny(prefix, " <>/") < 0) {
				return i + len("row>")
			}
		}
		end = i
	}
}

// sharedRoot matches the root element of the shared strings part, and the
// namespace prefix its elements are written with, if any.
var sharedRoot = regexp.MustCompile(`<(?:([A-Za-z_][\w.-]*):)?sst[\s>]`)

// sharedItems counts the items (si elements) of the shared strings part b.
func sharedItems(b []byte) int {
	prefix := ""
	if m := sharedRoot.FindSubmatch(b[:min(len(b), 4096)]); m != nil && len(m[1]) > 0 {
		prefix = string(m[1]) + ":"
	}
	n := 0
	for _, tag := range []string{"<" + prefix + "si>", "<" + prefix + "si ", "<" + prefix + "si/>"} {
		n += bytes.Count(b, []byte(tag))
	}
	return n
}

// sheetPart is a worksheet's name and the package part that holds it.
type sheetPart struct{ name, part string }

// workbookParts reads the sheets of the workbook, in order, with their
// parts ("" for a sheet its relationships do not name), and the part of
// its shared strings, from xl/workbook.xml and its relationships.
func workbookParts(parts map[string]*zip.File) (sheets []sheetPart, sst string) {
	const book = "xl/workbook.xml"
	sst = "xl/sharedStrings.xml"
	var wb struct {
		Sheets []struct {
			Name string `xml:"name,attr"`
			ID   string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sheets>sheet"`
	}
	var rels struct {
		Rels []struct {
			ID     string `xml:"Id,attr"`
			Type   string `xml:"Type,attr"`
			Target string `xml:"Target,attr"`
		} `xml:"Relationship"`
	}
	if !unmarshalPart(parts[book], &wb) || !unmarshalPart(parts[relsOf(book)], &rels) {
		return nil, sst
	}
	target := map[string]string{}
	for _, r := range rels.Rels {
		p := r.Target
		if strings.HasPrefix(p, "/") {
			p = strings.TrimPrefix(p, "/")
		} else {
			p = path.Join(path.Dir(book), p)
		}
		target[r.ID] = p
		if strings.HasSuffix(r.Type, "/sharedStrings") {
			sst = p
		}
	}
	for _, s := range wb.Sheets {
		// Every sheet, in order (its index is a defined name's
		// localSheetId); one whose relationship is missing has no part.
		sheets = append(sheets, sheetPart{s.Name, target[s.ID]})
	}
	return sheets, sst
}

// unmarshalPart decodes the XML of part f into v; false when it cannot.
func unmarshalPart(f *zip.File, v any) bool {
	if f == nil {
		return false
	}
	b, err := readPart(f)
	return err == nil && xml.Unmarshal(b, v) == nil
}

// firstBadSharedString finds the first cell of the worksheet XML b whose
// type is a shared string (t="s") and whose value is not an index below
// count (count < 0: the package has no shared strings). It looks only
// where such a type is written, so that a sheet of numbers is passed over
// quickly.
func firstBadSharedString(b []byte, count int) (ref string, index int64, bad bool) {
	for at := 0; ; {
		k := bytes.Index(b[at:], []byte(`t="s"`))
		if k < 0 {
			return "", 0, false
		}
		pos := at + k
		at = pos + 5
		start := bytes.LastIndexByte(b[:pos], '<')
		end := bytes.IndexByte(b[pos:], '>')
		if start < 0 || end < 0 {
			return "", 0, false
		}
		end += pos
		tag := b[start+1 : end]
		if !isCellTag(tag) || bytes.HasSuffix(tag, []byte("/")) {
			continue // another element's attribute, or a cell without a value
		}
		v, ok := cellValue(b[end+1:])
		if !ok {
			continue
		}
		i, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err == nil && i >= 0 && i < int64(count) {
			continue
		}
		if err != nil {
			i = -1
		}
		return attr(tag, "r"), i, true
	}
}

// isCellTag reports whether the start tag's text (name and attributes) is
// a cell's: c, with or without a namespace prefix.
func isCellTag(tag []byte) bool {
	name, _, _ := bytes.Cut(tag, []byte(" "))
	if _, local, ok := bytes.Cut(name, []byte(":")); ok {
		name = local
	}
	return string(name) == "c"
}

// cellValue returns the text of the cell's v element, which follows its
// start tag at the beginning of rest (after a formula, say), up to the
// cell's end.
func cellValue(rest []byte) (string, bool) {
	for {
		open := bytes.IndexByte(rest, '<')
		if open < 0 {
			return "", false
		}
		gt := bytes.IndexByte(rest[open:], '>')
		if gt < 0 {
			return "", false
		}
		tag := rest[open+1 : open+gt]
		closing := bytes.HasPrefix(tag, []byte("/"))
		name, _, _ := bytes.Cut(bytes.TrimPrefix(tag, []byte("/")), []byte(" "))
		if _, local, ok := bytes.Cut(name, []byte(":")); ok {
			name = local
		}
		switch {
		case closing && string(name) == "c":
			return "", false
		case !closing && string(name) == "v" && !bytes.HasSuffix(tag, []byte("/")):
			text := rest[open+gt+1:]
			if end := bytes.IndexByte(text, '<'); end >= 0 {
				return string(text[:end]), true
			}
			return "", false
		}
		rest = rest[open+gt+1:]
	}
}

// attr returns the value of attribute name in a start tag's text, "" when
// it has none (attrBytes' reading: either quote, spaces about "=").
func attr(tag []byte, name string) string { return string(attrBytes(tag, name)) }

// cutShort reports whether the XML of a sheet stops before the end tag of
// its root element: what is left after the root may only be white space,
// comments and processing instructions, which end in ">" too, so the
// last tag is looked at only when it is not one of those.
func cutShort(b []byte) bool {
	b = bytes.TrimRight(b, " \t\r\n")
	if !bytes.HasSuffix(b, []byte(">")) {
		return true
	}
	if bytes.HasSuffix(b, []byte("-->")) || bytes.HasSuffix(b, []byte("?>")) {
		return false
	}
	open := bytes.LastIndexByte(b, '<')
	if open < 0 {
		return true
	}
	name := b[open+1 : len(b)-1]
	if !bytes.HasPrefix(name, []byte("/")) {
		return true // a start tag or an empty element last: the root is not closed
	}
	name = bytes.TrimSpace(name[1:])
	if _, local, ok := bytes.Cut(name, []byte(":")); ok {
		name = local
	}
	switch string(name) {
	case "worksheet", "chartsheet", "dialogsheet", "macrosheet":
		return false
	}
	return true
}
