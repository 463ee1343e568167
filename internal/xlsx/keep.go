package xlsx

// What a save must keep of a user's workbook that the library would
// change: each sheet's protection, the workbook's locked structure, and
// the places of the sheets it replaces.

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The library reads a sheet's protection (<sheetProtection sheet="1"
// objects="1" scenarios="1"/>, a password's hash) into a structure of
// plain true/false fields and writes every one of them back: the
// permissions the element left out, which the file format takes as
// locked (formatting, inserting and deleting rows and columns, sorting,
// filtering, pivot tables), come back written as false, that is
// unlocked. So the protection element of each sheet of a workbook read is
// kept as it was written (checkSheets), and put back, byte for byte, in
// place of the library's (keepProtectionEdits).

// keptElement is an element of a sheet as it was written: the sheet's
// name (as it is now) and part, and the element's bytes.
type keptElement struct {
	sheet, part string
	raw         []byte
}

// protectionTag is a sheet's protection element as a file may write it:
// with or without a namespace prefix, empty or with an end tag.
var protectionTag = regexp.MustCompile(`<(?:([A-Za-z_][\w.-]*):)?sheetProtection[\s/>][^>]*>`)

// protectionElement returns the protection element of a sheet from the
// XML b that holds the sheet's end (the last piece scanSheetKeeping
// reads), nil when there is none. The element has no content, so it ends
// at its start tag, or at the end tag that follows it. A "<" only stands
// for a tag in XML, so the element cannot be mistaken for a cell's text.
func protectionElement(b []byte) []byte {
	loc := protectionTag.FindSubmatchIndex(b)
	if loc == nil {
		return nil
	}
	start, end := loc[0], loc[1]
	if !bytes.HasSuffix(b[start:end], []byte("/>")) {
		prefix := ""
		if loc[2] >= 0 {
			prefix = string(b[loc[2]:loc[3]]) + ":"
		}
		closing := []byte("</" + prefix + "sheetProtection>")
		i := bytes.Index(b[end:], closing)
		if i < 0 || len(bytes.TrimSpace(b[end:end+i])) > 0 {
			return nil // not an element this can keep as it is
		}
		end += i + len(closing)
	}
	return bytes.Clone(b[start:end])
}

// libraryProtection is the protection element as the library writes it.
var libraryProtection = regexp.MustCompile(`<sheetProtection\b[^>]*?(?:/>|>\s*</sheetProtection>)`)

// prefixedAttr is an attribute with a namespace prefix (or a namespace
// declaration), which would not be declared where the element is put back.
var prefixedAttr = regexp.MustCompile(`\s+[A-Za-z_][\w.-]*:[\w.-]+\s*=\s*(?:"[^"]*"|'[^']*')`)

// unprefixed is a kept element as it may stand in the library's sheet,
// whose elements have no prefix: the element's own prefix dropped, and any
// prefixed attribute.
func unprefixed(raw []byte) []byte {
	m := protectionTag.FindSubmatchIndex(raw)
	if m == nil || m[2] < 0 {
		return raw
	}
	prefix := string(raw[m[2]:m[3]]) + ":"
	out := bytes.Replace(raw, []byte("<"+prefix), []byte("<"), 1)
	out = bytes.Replace(out, []byte("</"+prefix), []byte("</"), 1)
	return prefixedAttr.ReplaceAll(out, nil)
}

// keepProtectionEdits adds to edits the sheets of the package the library
// wrote (zr) whose protection element differs from the one their sheet
// had when read: the library's element is replaced by that one. A sheet
// is matched by its name and part; one deleted (or a new sheet under a
// deleted one's name) has no kept element. A sheet whose element the
// library did not write once is left as it is.
func (b *Book) keepProtectionEdits(zr *zip.Reader, edits map[string]partEdit) error {
	if len(b.protections) == 0 {
		return nil
	}
	files := partsByName(zr.File)
	sheets, _ := workbookParts(files)
	for _, k := range b.protections {
		if !slices.Contains(sheets, sheetPart{k.sheet, k.part}) {
			continue
		}
		f := files[k.part]
		e := edits[k.part]
		if f == nil || e.drop || f.UncompressedSize64 > partLimit {
			continue
		}
		content, err := contentOf(f, e)
		if err != nil {
			return fmt.Errorf("keeping the protection of sheet %q: %w", k.sheet, err)
		}
		found := libraryProtection.FindAllIndex(content, 2)
		if len(found) != 1 {
			continue
		}
		at := found[0]
		keep := unprefixed(k.raw)
		if bytes.Equal(content[at[0]:at[1]], keep) {
			continue
		}
		e.content = slices.Concat(content[:at[0]], keep, content[at[1]:])
		edits[k.part] = e
	}
	return nil
}

// ErrStructureLocked: a workbook's structure is protected (Excel's Review
// > Protect Workbook): no sheet may be added, deleted, renamed or moved,
// and websim adds none to it.
var ErrStructureLocked = errors.New("its structure is protected")

// CheckStructure refuses (ErrStructureLocked) to add sheets to the
// workbook at path, read or not, when its structure is protected, as
// Excel refuses to: a write-back checks it before anything runs. A file
// that is not there, or not a workbook, passes: opening it says why.
func CheckStructure(path string) error {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil
	}
	defer zr.Close()
	var wb struct {
		Protection *struct {
			LockStructure string `xml:"lockStructure,attr"`
		} `xml:"workbookProtection"`
	}
	for _, f := range zr.File {
		if f.Name == "xl/workbook.xml" {
			if unmarshalPart(f, &wb) && wb.Protection != nil {
				if locked, _ := strconv.ParseBool(strings.TrimSpace(wb.Protection.LockStructure)); locked {
					return structureLocked(path)
				}
			}
			break
		}
	}
	return nil
}

// structureLocked is the error of a workbook at path whose structure is
// protected.
func structureLocked(path string) error {
	return fmt.Errorf("cannot add the results to %s: %w (Review > Protect Workbook), so no sheet may be added or removed, and websim does not lift that protection\nTry: unprotect the workbook's structure in Excel or LibreOffice and run again, or write the results elsewhere (--out, or run without --write-back)", path, ErrStructureLocked)
}

// structureError is the error (kept) of a change to the sheets of a
// workbook read whose structure is protected: nil for a book made by New
// or an unprotected one.
func (b *Book) structureError() error {
	if b.made {
		return nil
	}
	b.Sheets() // the workbook part is read
	wp := b.f.WorkBook.WorkbookProtection
	if wp == nil || !wp.LockStructure {
		return nil
	}
	name := b.path
	if name == "" {
		name = b.Name
	}
	return b.keep(structureLocked(name))
}

// CheckStructure is CheckStructure for the workbook read: a change to its
// sheets is refused, as Excel refuses it, when its structure is protected.
func (b *Book) CheckStructure() error { return b.structureError() }

// place is where a sheet ReplaceOwned deleted stood: before the sheet
// named before ("" for the end), which is not one it deleted; name is
// the name it had.
type place struct{ base, before, name string }

// placesOf returns where each of the sheets old stands among sheets, by
// their base names.
func placesOf(sheets, old []string) []place {
	var out []place
	for i, name := range sheets {
		if !slices.Contains(old, name) {
			continue
		}
		p := place{base: BaseName(name), name: name}
		for _, next := range sheets[i+1:] {
			if !slices.Contains(old, next) {
				p.before = next
				break
			}
		}
		out = append(out, p)
	}
	return out
}

// NameFor is the name for a new result sheet of base name base among the
// sheets existing (FreeName's arguments): the name of the sheet of that base that ReplaceOwned
// deleted when no sheet of existing has taken it, so that a result sheet
// keeps its name from one write-back to the next ("Summary (websim)" stays
// so after the user renames their own "Summary", and the user's formulas
// that read it keep working); else FreeName's.
func (b *Book) NameFor(existing []string, base string) string {
	for _, p := range b.places {
		if strings.EqualFold(p.base, base) && !slices.ContainsFunc(existing, func(s string) bool { return strings.EqualFold(s, p.name) }) {
			return p.name
		}
	}
	return FreeName(existing, base)
}

// placeOwned moves the sheets MarkOwned marks into the places of the
// sheets ReplaceOwned deleted: each into that of the deleted sheet of its
// base name, one without a predecessor just after the sheet before it in
// sheets. With no places (nothing was replaced) the sheets stay where
// they are, at the end.
func (b *Book) placeOwned(sheets []string) error {
	places := b.places
	b.places = nil
	if len(places) == 0 {
		return nil
	}
	prev := ""
	for _, name := range sheets {
		i := slices.IndexFunc(places, func(p place) bool { return strings.EqualFold(p.base, BaseName(name)) })
		switch {
		case i >= 0:
			if err := b.moveSheet(name, places[i].before, false); err != nil {
				return err
			}
			places = slices.Delete(places, i, i+1)
		case prev != "":
			if err := b.moveSheet(name, prev, true); err != nil {
				return err
			}
		}
		prev = name
	}
	return nil
}

// moveSheet moves the sheet name just before the sheet to (just after it
// with after), or to the end when there is no sheet to. The library's own
// move leaves the sheet-scoped names with the index their sheet had, so
// that they would name another sheet: here they follow their sheets, as
// do the active tab and the first tab shown.
func (b *Book) moveSheet(name, to string, after bool) error {
	sheets := b.Sheets()
	from := slices.IndexFunc(sheets, func(s string) bool { return strings.EqualFold(s, name) })
	if from < 0 {
		return b.keep(fmt.Errorf("no sheet %q", name))
	}
	order := slices.Delete(slices.Clone(sheets), from, from+1)
	at := len(order)
	if j := slices.IndexFunc(order, func(s string) bool { return strings.EqualFold(s, to) }); j >= 0 && to != "" {
		at = j
		if after {
			at++
		}
	}
	order = slices.Insert(order, at, sheets[from])
	wb := b.f.WorkBook
	old := wb.Sheets.Sheet
	if len(old) != len(order) {
		return b.keep(fmt.Errorf("moving sheet %q: the workbook lists %d sheets, not %d", name, len(old), len(order)))
	}
	moved := slices.Clone(old)
	newIndex := make([]int, len(old)) // by old index
	for i, s := range old {
		j := slices.Index(order, s.Name)
		if j < 0 {
			return b.keep(fmt.Errorf("moving sheet %q: no sheet %q", name, s.Name))
		}
		moved[j] = s
		newIndex[i] = j
	}
	wb.Sheets.Sheet = moved
	follow := func(i int) int {
		if i >= 0 && i < len(newIndex) {
			return newIndex[i]
		}
		return i
	}
	if wb.DefinedNames != nil {
		for i := range wb.DefinedNames.DefinedName {
			if id := wb.DefinedNames.DefinedName[i].LocalSheetID; id != nil {
				v := follow(*id)
				wb.DefinedNames.DefinedName[i].LocalSheetID = &v
			}
		}
	}
	if wb.BookViews != nil {
		for i := range wb.BookViews.WorkBookView {
			v := &wb.BookViews.WorkBookView[i]
			v.ActiveTab, v.FirstSheet = follow(v.ActiveTab), follow(v.FirstSheet)
		}
	}
	return nil
}
