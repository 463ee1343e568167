package xlsx

import (
	"archive/zip"
	"bytes"
	"strings"
)

// The Excel library writes a value axis's title with its text turned a
// quarter (rot -5400000, as Excel draws it, reading upwards) on the title's
// rich text, and an empty text-properties element beside it with rot 0.
// Excel follows the rich text; LibreOffice follows the text properties and
// draws the title level, which takes a column of the plot's width.
// turnEdits turns the text properties of the titles of vertical
// value axes (left or right; a scatter chart's X axis is a value axis at
// the bottom) a quarter too, so that both draw the title along its axis.
// Only charts written without a namespace prefix, as the library writes
// them, can match: Excel's own charts (c:valAx) are left as they are.

// turnEdits adds to edits the chart parts of zr whose value axis titles
// it turns, with their new content: over an edit's content where edits
// has one already (a chart renumbered keeps its new name).
func turnEdits(zr *zip.Reader, edits map[string]partEdit) error {
	for _, f := range zr.File {
		if !numbered.MatchString(f.Name) || !strings.HasPrefix(f.Name, "xl/charts/") {
			continue
		}
		e := edits[f.Name]
		if e.drop {
			continue
		}
		b, err := contentOf(f, e)
		if err != nil {
			return err
		}
		if out, ok := turnTitles(b); ok {
			e.content = out
			edits[f.Name] = e
		}
	}
	return nil
}

// turnTitles turns the text properties of the title of each value axis of
// a chart part, when they have no rotation; ok says it changed any.
func turnTitles(chart []byte) (out []byte, ok bool) {
	const (
		axisStart, axisEnd   = "<valAx>", "</valAx>"
		titleStart, titleEnd = "<title>", "</title>"
		props, level         = "<txPr><a:bodyPr", ` rot="0"`
	)
	var b bytes.Buffer
	rest := chart
	for {
		i := bytes.Index(rest, []byte(axisStart))
		if i < 0 {
			break
		}
		j := bytes.Index(rest[i:], []byte(axisEnd))
		if j < 0 {
			break
		}
		axis := rest[i : i+j]
		b.Write(rest[:i])
		rest = rest[i+j:]
		if !bytes.Contains(axis, []byte(`<axPos val="l"`)) && !bytes.Contains(axis, []byte(`<axPos val="r"`)) {
			// A scatter chart's X axis is a value axis too: its title
			// stays level.
			b.Write(axis)
			continue
		}
		t := bytes.Index(axis, []byte(titleStart))
		e := bytes.Index(axis, []byte(titleEnd))
		if t < 0 || e < t {
			b.Write(axis)
			continue
		}
		p := bytes.Index(axis[t:e], []byte(props))
		if p < 0 {
			b.Write(axis)
			continue
		}
		p += t
		tag := bytes.IndexByte(axis[p+len(props):], '>') + p + len(props)
		r := bytes.Index(axis[p:tag], []byte(level))
		if r < 0 || bytes.Contains(axis[p:tag], []byte(" vert=")) {
			b.Write(axis)
			continue
		}
		r += p
		b.Write(axis[:r])
		b.WriteString(` rot="-5400000" vert="horz"`)
		b.Write(axis[r+len(level):])
		ok = true
	}
	b.Write(rest)
	return b.Bytes(), ok
}
