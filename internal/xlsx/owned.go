package xlsx

import (
	"fmt"
	"slices"
	"strings"
)

// OwnerMarker is the sheet-scoped defined name that marks a sheet as
// written by websim. It follows the sheet if the user renames it.
const OwnerMarker = "websim_result"

// OwnedSheetsProperty is the custom document property listing the sheets
// websim wrote, separated by "|".
const OwnedSheetsProperty = "WebsimResultSheets"

// MarkOwned marks sheets as websim's own (OwnerMarker on each that lacks
// it) and lists them in OwnedSheetsProperty, replacing the earlier list: a
// later run may replace exactly these.
func (b *Book) MarkOwned(sheets ...string) error {
	marked := map[string]bool{}
	for _, dn := range b.DefinedNames() {
		if dn.Name == OwnerMarker {
			marked[dn.Scope] = true
		}
	}
	for _, name := range sheets {
		if marked[name] {
			continue // marked by an earlier call
		}
		if err := b.Define(DefinedName{Name: OwnerMarker, RefersTo: QuoteSheet(name) + "!$A$1",
			Comment: "written by websim; replaced by the next run", Scope: name}); err != nil {
			return fmt.Errorf("marking sheet %q: %w", name, err)
		}
	}
	return b.SetProperty(OwnedSheetsProperty, strings.Join(sheets, "|"))
}

// OwnedSheets returns the sheets websim wrote and still owns, in workbook
// order: those that carry OwnerMarker under the name websim gave them
// (listed in OwnedSheetsProperty). A marked sheet under another name is the
// user's: a sheet renamed to keep it, or a copy Excel made (copying a sheet
// copies its sheet-scoped names); those are left alone.
func (b *Book) OwnedSheets() ([]string, error) {
	props, err := b.Properties()
	if err != nil {
		return nil, err
	}
	listed := map[string]bool{}
	if v, ok := props[OwnedSheetsProperty]; ok {
		for _, name := range strings.Split(v, "|") {
			listed[name] = true
		}
	}
	var out []string
	sheets := b.Sheets()
	for _, dn := range b.DefinedNames() {
		if dn.Name == OwnerMarker && dn.Scope != "" && slices.Contains(sheets, dn.Scope) && listed[dn.Scope] {
			out = append(out, dn.Scope)
		}
	}
	slices.SortFunc(out, func(a, c string) int { return slices.Index(sheets, a) - slices.Index(sheets, c) })
	return slices.Compact(out), nil
}

// FreeName returns base when no sheet of existing has that name (ignoring
// case), else the first free of "base (websim)", "base (websim 2)", ...:
// websim never writes over a user's sheet.
func FreeName(existing []string, base string) string {
	taken := func(n string) bool {
		return slices.ContainsFunc(existing, func(e string) bool { return strings.EqualFold(e, n) })
	}
	if !taken(base) {
		return base
	}
	for i := 1; ; i++ {
		n := base + " (websim)"
		if i > 1 {
			n = fmt.Sprintf("%s (websim %d)", base, i)
		}
		if !taken(n) {
			return n
		}
	}
}

// ReplaceOwned deletes the sheets websim owns (OwnedSheets) so that new
// results can take their place. A workbook keeps at least one sheet: when
// it holds nothing else, a placeholder sheet stands in; its name is
// returned, for DeleteSheet once the new sheets are added ("" when none).
func (b *Book) ReplaceOwned() (placeholder string, err error) {
	old, err := b.OwnedSheets()
	if err != nil {
		return "", err
	}
	if len(old) > 0 && len(old) == len(b.Sheets()) {
		placeholder = "websim placeholder"
		if err := b.NewSheet(placeholder); err != nil {
			return "", err
		}
	}
	for _, name := range old {
		if err := b.DeleteSheet(name); err != nil {
			return "", fmt.Errorf("removing the earlier result sheet %q: %w", name, err)
		}
	}
	return placeholder, nil
}
