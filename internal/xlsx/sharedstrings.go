package xlsx

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// checkSharedStrings finds the first cell of each sheet that refers to a
// shared text the package does not hold (an index past the end of
// xl/sharedStrings.xml, or none at all). The library reads such a cell as
// blank, so a damaged workbook would pass for a valid one whose setting
// takes its default: each is a located problem instead. Parts it cannot
// find or read are left to the library's own checks.
func checkSharedStrings(data []byte, file string) []Problem {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil
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
			return nil
		}
		count = sharedItems(b)
	}
	var out []Problem
	for _, s := range sheets {
		f := parts[s.part]
		if f == nil {
			continue
		}
		b, err := readPart(f)
		if err != nil {
			continue
		}
		ref, index, bad := firstBadSharedString(b, count)
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
	return out
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
// parts, and the part of its shared strings, from xl/workbook.xml and its
// relationships.
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
		if p, ok := target[s.ID]; ok {
			sheets = append(sheets, sheetPart{s.Name, p})
		}
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
// it has none.
func attr(tag []byte, name string) string {
	key := []byte(" " + name + `="`)
	i := bytes.Index(tag, key)
	if i < 0 {
		return ""
	}
	v := tag[i+len(key):]
	if j := bytes.IndexByte(v, '"'); j >= 0 {
		return string(v[:j])
	}
	return ""
}
