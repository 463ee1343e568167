package xlsx

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Deleting a sheet leaves its drawing and chart parts in the package (the
// Excel library removes the sheet and its relationships only), so each
// write-back that replaces the result sheets would grow SvcData.xlsx by
// the charts it replaced. pruneParts drops, from a saved package, every
// drawing and chart part that no relationship reaches from the package's
// root, with its relationships and its content type, and numbers the
// drawings and charts that remain 1, 2, ... again: the library names a new
// part after the number of parts, so a gap would make it write a new
// chart into a part that is still in use.

// prunable are the folders (and names) whose unreachable parts are
// dropped.
var prunable = []string{"xl/drawings/", "xl/charts/", "xl/comments"}

type relationships struct {
	Rels []struct {
		Target     string `xml:"Target,attr"`
		TargetMode string `xml:"TargetMode,attr"`
	} `xml:"Relationship"`
}

// relsOf is the relationships part of a part: xl/worksheets/sheet1.xml →
// xl/worksheets/_rels/sheet1.xml.rels ("" → _rels/.rels).
func relsOf(part string) string {
	dir, base := path.Split(part)
	return dir + "_rels/" + base + ".rels"
}

// pruneParts returns the package data without its unreachable drawing
// and chart parts (data itself when there are none).
func pruneParts(data []byte) ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	edits, err := pruneEdits(zr)
	if err != nil || edits == nil {
		return data, err
	}
	var out bytes.Buffer
	if err := writePackage(&out, zr, edits, false); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// pruneEdits returns how to rewrite the package of zr without its
// unreachable drawing and chart parts, the others numbered again: by
// part name, those dropped, renamed or given new content (relationships,
// content types). It returns nil when there is nothing to do, or when the
// package should be left as it is (a part it cannot read, references it
// cannot all find).
func pruneEdits(zr *zip.Reader) (map[string]partEdit, error) {
	files := map[string]*zip.File{}
	folded := map[string]bool{}
	for _, f := range zr.File {
		files[f.Name] = f
		folded[strings.ToLower(f.Name)] = true
	}
	read := func(name string) []byte {
		f, ok := files[name]
		if !ok {
			return nil
		}
		b, _ := readPart(f)
		return b
	}
	reached := map[string]bool{}
	// shows maps a sheet's VML drawing to the comments it shows (both
	// named by the sheet's relationships).
	shows := map[string]string{}
	// relTargets has each relationships part's internal targets, resolved,
	// to check that the rewriting below finds every one it must rename.
	relTargets := map[string][]string{}
	queue := []string{""}
	for len(queue) > 0 {
		part := queue[0]
		queue = queue[1:]
		rels := relsOf(part)
		reached[rels] = true
		var rs relationships
		if content := read(rels); content != nil && xml.Unmarshal(content, &rs) != nil {
			// A relationships part this cannot read (a declared encoding
			// other than UTF-8, say) may reach any part: leave the package
			// as it is rather than drop or rename what it names.
			return nil, nil
		}
		var comments string
		var vmls, targets []string
		for _, r := range rs.Rels {
			if strings.EqualFold(r.TargetMode, "External") {
				continue
			}
			target := strings.TrimPrefix(path.Clean("/"+path.Join(path.Dir(part), r.Target)), "/")
			if strings.HasPrefix(r.Target, "/") {
				target = strings.TrimPrefix(path.Clean(r.Target), "/")
			}
			targets = append(targets, target)
			if m := numbered.FindStringSubmatch(target); m != nil {
				switch m[1] {
				case "comments":
					comments = target
				case "drawings/vmlDrawing":
					vmls = append(vmls, target)
				}
			}
			if _, ok := files[target]; !ok && folded[strings.ToLower(target)] {
				// Part names are not case-sensitive, and this reading is:
				// leave the package as it is.
				return nil, nil
			}
			if !reached[target] {
				reached[target] = true
				queue = append(queue, target)
			}
		}
		relTargets[rels] = targets
		if comments != "" {
			// A sheet may have a second VML drawing (a header's picture):
			// then the one numbered as the comments shows them, if any.
			switch num := numbered.FindStringSubmatch(comments)[2]; {
			case len(vmls) == 1:
				shows[vmls[0]] = comments
			case len(vmls) > 1:
				for _, v := range vmls {
					if numbered.FindStringSubmatch(v)[2] == num {
						shows[v] = comments
					}
				}
			}
		}
	}
	drop := map[string]bool{}
	for name := range files {
		for _, dir := range prunable {
			if strings.HasPrefix(name, dir) && !reached[name] {
				drop[name] = true
			}
		}
	}
	rename := renumber(files, drop, shows)
	if len(drop) == 0 && len(rename) == 0 {
		return nil, nil
	}
	newName := func(name string) string {
		if n, ok := rename[name]; ok {
			return n
		}
		return name
	}
	// A relationships part follows its source part's new name.
	for name := range files {
		if src, ok := sourceOf(name); ok && rename[src] != "" {
			rename[name] = relsOf(rename[src])
		}
	}
	// The references are rewritten by pattern: one written otherwise
	// (single quotes, a prefix) would keep the old name of a part renamed,
	// so a count short of the parsed one leaves the package as it is.
	missed := false
	edits := map[string]partEdit{}
	for _, f := range zr.File {
		if drop[f.Name] {
			edits[f.Name] = partEdit{drop: true}
			continue
		}
		e := partEdit{name: newName(f.Name)}
		switch {
		case f.Name == "[Content_Types].xml":
			var n int
			e.content, n = dropOverrides(read(f.Name), drop, rename)
			missed = missed || n != overridesOf(read(f.Name), drop, rename)
		case strings.HasSuffix(f.Name, ".rels"):
			if src, ok := sourceOf(f.Name); ok {
				var n int
				e.content, n = retarget(read(f.Name), src, rename)
				want := 0
				for _, t := range relTargets[f.Name] {
					if rename[t] != "" {
						want++
					}
				}
				missed = missed || (reached[f.Name] && n != want)
			}
		}
		if e.content != nil || e.name != f.Name {
			edits[f.Name] = e
		}
	}
	if missed {
		return nil, nil
	}
	return edits, nil
}

// overridesOf counts the content types (Override elements, parsed) of the
// parts dropped or renamed.
func overridesOf(types []byte, drop map[string]bool, rename map[string]string) int {
	var ct struct {
		Overrides []struct {
			PartName string `xml:"PartName,attr"`
		} `xml:"Override"`
	}
	if xml.Unmarshal(types, &ct) != nil {
		return -1
	}
	n := 0
	for _, o := range ct.Overrides {
		if p := strings.TrimPrefix(o.PartName, "/"); drop[p] || rename[p] != "" {
			n++
		}
	}
	return n
}

// partEdit is what writePackage does with one part: drop it, or write it
// under name (its own when "") with content (its own when nil).
type partEdit struct {
	drop    bool
	name    string
	content []byte
	// rows, when not nil, are a streamed sheet's rows, which go into
	// content at rowsAt (spliceRows).
	rows   *rowSpool
	rowsAt int
}

// contentOf is what part f holds as edit e leaves it: e's content, or
// else f's own.
func contentOf(f *zip.File, e partEdit) ([]byte, error) {
	if e.content != nil {
		return e.content, nil
	}
	return readPart(f)
}

// size is the length of the edit's content, with its rows.
func (e partEdit) size() int64 {
	n := int64(len(e.content))
	if e.rows != nil {
		n += e.rows.size
	}
	return n
}

// open reads the edit's content, with its rows in their place.
func (e partEdit) open() (io.Reader, error) {
	if e.rows == nil {
		return bytes.NewReader(e.content), nil
	}
	rows, err := e.rows.reader()
	if err != nil {
		return nil, err
	}
	return io.MultiReader(bytes.NewReader(e.content[:e.rowsAt]), rows, bytes.NewReader(e.content[e.rowsAt:])), nil
}

// partOrder orders part names canonically, in one order whatever order
// they were written in: [Content_Types].xml, then _rels/.rels, then the
// rest by name. The formula library writes its sheets from a map, so two
// saves of the same workbook could differ in their bytes (and so in the
// input hashes of the Run sheet, and in version control).
func partOrder(a, b string) int {
	rank := func(name string) int {
		switch name {
		case "[Content_Types].xml":
			return 0
		case "_rels/.rels":
			return 1
		}
		return 2
	}
	if ra, rb := rank(a), rank(b); ra != rb {
		return ra - rb
	}
	return strings.Compare(a, b)
}

// writePackage writes the parts of zr to w as a new package, each as
// edits says by its name (a part without an edit is kept as it is, and
// copied without being decompressed), in their order or, with canonical,
// in canonical order of their new names.
func writePackage(w io.Writer, zr *zip.Reader, edits map[string]partEdit, canonical bool) error {
	type part struct {
		f *zip.File
		e partEdit
	}
	parts := make([]part, 0, len(zr.File))
	seen := map[string]bool{}
	for _, f := range zr.File {
		// The library may write a part twice: a sheet it holds in a
		// temporary file (read from a workbook, over 16 MB), deleted,
		// and a new sheet streamed under its name. The first is the new.
		if seen[f.Name] {
			continue
		}
		seen[f.Name] = true
		e := edits[f.Name]
		if e.drop {
			continue
		}
		if e.name == "" {
			e.name = f.Name
		}
		parts = append(parts, part{f, e})
	}
	if canonical {
		slices.SortStableFunc(parts, func(a, b part) int { return partOrder(a.e.name, b.e.name) })
	}
	zw := newZipWriter(w)
	// Parts left as they are go over as they were deflated, through one
	// buffer (zip.Writer.Copy takes a new one of 32 KB for each part).
	var buf []byte
	for _, p := range parts {
		f, e := p.f, p.e
		if e.content == nil && e.name == f.Name {
			if buf == nil {
				buf = make([]byte, 32<<10)
			}
			if err := copyRaw(zw, f, buf); err != nil {
				return err
			}
			continue
		}
		if e.content == nil {
			b, err := readPart(f)
			if err != nil {
				return err
			}
			e.content = b
		}
		pw, err := zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: f.Modified})
		if err != nil {
			return err
		}
		r, err := e.open()
		if err != nil {
			return err
		}
		if buf == nil {
			buf = make([]byte, 32<<10)
		}
		if _, err := io.CopyBuffer(pw, r, buf); err != nil {
			return err
		}
	}
	return zw.Close()
}

// copyRaw adds f to zw as it is, still deflated, through buf: what
// zip.Writer.Copy does, without a buffer of its own.
func copyRaw(zw *zip.Writer, f *zip.File, buf []byte) error {
	fh := f.FileHeader
	w, err := zw.CreateRaw(&fh)
	if err != nil {
		return err
	}
	r, err := f.OpenRaw()
	if err != nil {
		return err
	}
	_, err = io.CopyBuffer(w, r, buf)
	return err
}

// partLimit is the most of a part readPart reads.
const partLimit = 64 << 20

// readPart returns a part's content (at most partLimit bytes).
func readPart(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(io.LimitReader(rc, partLimit))
}

// numbered are the parts the library names by their count: drawings,
// charts, and a sheet's comments with the VML drawing that shows them.
var numbered = regexp.MustCompile(`^xl/(drawings/drawing|charts/chart|comments|drawings/vmlDrawing)([0-9]+)\.(xml|vml)$`)

// vmlOnlyBase numbers the VML drawings that show no comments (form
// controls), out of the way of the comments' numbers.
const vmlOnlyBase = 10_000

// renumber maps the kept numbered parts to new names (only those whose
// name changes): drawings and charts 1, 2, ... per family in their old
// order; comments 1, 2, ... likewise, each VML drawing that shows comments
// (shows: VML drawing → comments) taking its comments' new number, and the
// other VML drawings numbers from vmlOnlyBase. The library names a sheet's
// first comments, and their VML drawing, after the count of comments parts
// plus one, so both names must be free (a package saved by LibreOffice
// numbers comments by sheet, with gaps, and VML drawings 1, 2, ...), and
// it takes a sheet's comments to be numbered as its VML drawing.
func renumber(files map[string]*zip.File, drop map[string]bool, shows map[string]string) map[string]string {
	byFamily := map[string][]int{}
	ext := map[string]string{}
	for name := range files {
		if m := numbered.FindStringSubmatch(name); m != nil && !drop[name] {
			n, _ := strconv.Atoi(m[2])
			byFamily[m[1]] = append(byFamily[m[1]], n)
			ext[m[1]] = m[3]
		}
	}
	out := map[string]string{}
	move := func(family string, from, to int) {
		if from != to {
			out[fmt.Sprintf("xl/%s%d.%s", family, from, ext[family])] = fmt.Sprintf("xl/%s%d.%s", family, to, ext[family])
		}
	}
	for family, nums := range byFamily {
		slices.Sort(nums)
		if family == "drawings/vmlDrawing" {
			continue // after the comments
		}
		for i, n := range nums {
			move(family, n, i+1)
		}
	}
	newNumber := map[string]int{} // a comments part → its new number
	for i, n := range byFamily["comments"] {
		newNumber[fmt.Sprintf("xl/comments%d.%s", n, ext["comments"])] = i + 1
	}
	others := 0
	for _, n := range byFamily["drawings/vmlDrawing"] {
		name := fmt.Sprintf("xl/drawings/vmlDrawing%d.%s", n, ext["drawings/vmlDrawing"])
		if to, ok := newNumber[shows[name]]; ok {
			move("drawings/vmlDrawing", n, to)
			continue
		}
		others++
		move("drawings/vmlDrawing", n, vmlOnlyBase+others)
	}
	return out
}

// sourceOf is the part a relationships part belongs to.
func sourceOf(rels string) (string, bool) {
	dir, base := path.Split(rels)
	if !strings.HasSuffix(dir, "_rels/") || !strings.HasSuffix(base, ".rels") {
		return "", false
	}
	return strings.TrimSuffix(dir, "_rels/") + strings.TrimSuffix(base, ".rels"), true
}

var targetAttr = regexp.MustCompile(`Target="([^"]*)"`)

// retarget rewrites the targets of a relationships part of src that point
// at renamed parts (nil when none does), and counts them.
func retarget(rels []byte, src string, rename map[string]string) ([]byte, int) {
	changed := 0
	out := targetAttr.ReplaceAllFunc(rels, func(attr []byte) []byte {
		t := string(targetAttr.FindSubmatch(attr)[1])
		abs := strings.HasPrefix(t, "/")
		full := strings.TrimPrefix(path.Clean("/"+path.Join(path.Dir(src), t)), "/")
		if abs {
			full = strings.TrimPrefix(path.Clean(t), "/")
		}
		to, ok := rename[full]
		if !ok {
			return attr
		}
		if abs {
			changed++
			return []byte(`Target="/` + to + `"`)
		}
		rel, err := relPath(path.Dir(src), to)
		if err != nil {
			return attr
		}
		changed++
		return []byte(`Target="` + rel + `"`)
	})
	if changed == 0 {
		return nil, 0
	}
	return out, changed
}

// relPath is to relative to the folder from ("xl/drawings", "xl/charts/chart1.xml" → "../charts/chart1.xml").
func relPath(from, to string) (string, error) {
	f := strings.Split(strings.Trim(from, "/"), "/")
	t := strings.Split(to, "/")
	if from == "" || from == "." {
		f = nil
	}
	i := 0
	for i < len(f) && i < len(t)-1 && f[i] == t[i] {
		i++
	}
	parts := slices.Repeat([]string{".."}, len(f)-i)
	return strings.Join(append(parts, t[i:]...), "/"), nil
}

// overrideTag is a content type's Override element, self-closed or
// not (the library writes <Override ...></Override>).
var overrideTag = regexp.MustCompile(`<Override\b[^>]*?PartName="([^"]*)"[^>]*?(?:/>|>\s*</Override>)`)

// dropOverrides removes the content types of the dropped parts and
// renames those of the renamed ones.
// It returns how many it changed.
func dropOverrides(types []byte, drop map[string]bool, rename map[string]string) ([]byte, int) {
	n := 0
	out := overrideTag.ReplaceAllFunc(types, func(tag []byte) []byte {
		m := overrideTag.FindSubmatch(tag)
		part := strings.TrimPrefix(string(m[1]), "/")
		if drop[part] {
			n++
			return nil
		}
		if to, ok := rename[part]; ok {
			n++
			return bytes.Replace(tag, m[1], []byte("/"+to), 1)
		}
		return tag
	})
	return out, n
}
