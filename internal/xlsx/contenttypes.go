package xlsx

import (
	"archive/zip"
	"bytes"
	"regexp"
	"slices"
)

// contentTypesPart is the package's list of content types.
const contentTypesPart = "[Content_Types].xml"

// defaultTag matches a Default element of [Content_Types].xml, with its
// Extension.
var defaultTag = regexp.MustCompile(`<Default\b[^>]*?Extension="([^"]*)"[^>]*?(?:/>|>\s*</Default>)`)

// sortDefaults puts the Default elements of a [Content_Types].xml in order
// of their Extension, each in the place of one of them. The library adds
// the image types from a map, so two saves of the same workbook listed
// them in two orders, and their bytes differed. ok says anything moved.
func sortDefaults(types []byte) (out []byte, ok bool) {
	found := defaultTag.FindAllSubmatchIndex(types, -1)
	if len(found) < 2 {
		return types, false
	}
	tags := make([][]byte, len(found))
	for k, m := range found {
		tags[k] = types[m[0]:m[1]]
	}
	extension := func(tag []byte) []byte { return defaultTag.FindSubmatch(tag)[1] }
	sorted := slices.Clone(tags)
	slices.SortStableFunc(sorted, func(a, b []byte) int { return bytes.Compare(extension(a), extension(b)) })
	if slices.EqualFunc(tags, sorted, bytes.Equal) {
		return types, false
	}
	var b bytes.Buffer
	b.Grow(len(types))
	last := 0
	for k, m := range found {
		b.Write(types[last:m[0]])
		b.Write(sorted[k])
		last = m[1]
	}
	b.Write(types[last:])
	return b.Bytes(), true
}

// sortDefaultsEdit adds to edits the content types with their Default
// elements in order (over the pruned content types, when pruning changed
// them).
func sortDefaultsEdit(zr *zip.Reader, edits map[string]partEdit) error {
	for _, f := range zr.File {
		if f.Name != contentTypesPart {
			continue
		}
		e := edits[f.Name]
		types, err := contentOf(f, e)
		if err != nil {
			return err
		}
		if out, ok := sortDefaults(types); ok {
			e.content = out
			edits[f.Name] = e
		}
		return nil
	}
	return nil
}
