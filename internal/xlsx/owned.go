package xlsx

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/xuri/excelize/v2"
)

// OwnerMarker is the sheet-scoped defined name that marks a sheet as
// written by websim. Its value is a text constant, the name websim gave
// the sheet (="Summary"): the marker follows the sheet when the user
// renames it or Excel copies it, and the name in it does not, so a
// renamed sheet or a copy is the user's. Workbooks of earlier versions
// carry a reference (='Summary'!$A$1) instead, with the owned sheets listed
// in OwnedSheetsProperty.
const OwnerMarker = "websim_result"

// OwnedSheetsProperty is the custom document property listing the sheets
// websim owns, separated by "|". The markers alone say which sheets are
// websim's; the list is kept for the markers of earlier versions, whose
// reference follows a renamed sheet (some programs, openpyxl among them,
// drop custom properties when they save a workbook: the markers survive).
const OwnedSheetsProperty = "WebsimResultSheets"

// MarkOwned marks sheets as websim's own, each under the name it has now,
// and adds them to OwnedSheetsProperty: a later write may replace them,
// unless their cells changed since (CellsMarker, filled when the book is
// written).
// Sheets that replace those ReplaceOwned deleted take their places
// (placeOwned): a user's sheet that stood after the results stays after
// them.
func (b *Book) MarkOwned(sheets ...string) error {
	for _, name := range sheets {
		if err := b.redefine(DefinedName{Name: OwnerMarker, RefersTo: textConstant(name),
			Comment: "written by websim; replaced by the next run", Scope: name}); err != nil {
			return fmt.Errorf("marking sheet %q: %w", name, err)
		}
		if err := b.markCells(name); err != nil {
			return fmt.Errorf("marking sheet %q: %w", name, err)
		}
	}
	owned, err := b.OwnedSheets()
	if err != nil {
		return err
	}
	if err := b.placeOwned(sheets); err != nil {
		return err
	}
	return b.SetProperty(OwnedSheetsProperty, strings.Join(owned, "|"))
}

// redefine defines d in place of any defined name of its name and scope.
func (b *Book) redefine(d DefinedName) error {
	for _, dn := range b.DefinedNames() {
		if dn.Name == d.Name && dn.Scope == d.Scope {
			if err := b.keep(b.f.DeleteDefinedName(&excelize.DefinedName{Name: d.Name, Scope: d.Scope})); err != nil {
				return err
			}
		}
	}
	return b.Define(d)
}

// textConstant is name as a formula's text constant: "Summary", with any
// double quote doubled.
func textConstant(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// givenName returns the sheet name a marker's value holds, and whether the
// value is a text constant (a marker of this version).
func givenName(refersTo string) (string, bool) {
	v := strings.TrimPrefix(strings.TrimSpace(refersTo), "=")
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	return strings.ReplaceAll(v[1:len(v)-1], `""`, `"`), true
}

// OwnedSheets returns the sheets websim wrote and still owns, in workbook
// order: those whose OwnerMarker holds the name the sheet has (for a
// marker of an earlier version, a reference: those listed in
// OwnedSheetsProperty). A marked sheet under another name is the user's: a
// sheet renamed to keep it, or a copy Excel made (copying a sheet copies
// its sheet-scoped names); those are left alone.
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
		if dn.Name != OwnerMarker || dn.Scope == "" || !slices.Contains(sheets, dn.Scope) {
			continue
		}
		if given, ok := givenName(dn.RefersTo); ok && given == dn.Scope || !ok && listed[dn.Scope] {
			out = append(out, dn.Scope)
		}
	}
	slices.SortFunc(out, func(a, c string) int { return slices.Index(sheets, a) - slices.Index(sheets, c) })
	return slices.Compact(out), nil
}

// websimSuffix is what FreeName adds to a base name that is taken.
var websimSuffix = regexp.MustCompile(` \(websim(?: [0-9]+)?\)$`)

// BaseName returns the name a sheet called name was given before FreeName
// made it free: "Summary" for "Summary", "Summary (websim)" and
// "Summary (websim 2)".
func BaseName(name string) string { return websimSuffix.ReplaceAllString(name, "") }

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

// ReplaceOwned deletes the sheets websim owns (OwnedSheets) whose base
// name (BaseName) is one of bases, so that a writer's new sheets can take
// their place: run replaces its results and leaves the Sizing sheet that
// size wrote, and the other way round. A workbook keeps at least one
// sheet: when it holds nothing else, a placeholder sheet stands in; its
// name is returned, for DeleteSheet once the new sheets are added ("" when
// none). Where the deleted sheets stood is kept for MarkOwned, which puts
// the new sheets there. Sheets whose cells the user changed since websim
// wrote them (ChangedResults, in the file the book was read from) are
// not deleted: the error's cause is ErrResultsEdited.
func (b *Book) ReplaceOwned(bases ...string) (placeholder string, err error) {
	owned, err := b.OwnedSheets()
	if err != nil {
		return "", err
	}
	old := slices.DeleteFunc(owned, func(name string) bool {
		return !slices.ContainsFunc(bases, func(base string) bool { return strings.EqualFold(BaseName(name), base) })
	})
	if b.path != "" && len(old) > 0 {
		// The user's changes to a result sheet are not replaced: the
		// commands refuse before they run (ChangedResults), and this
		// refuses too should the file have changed since.
		changed, err := ChangedResults(b.path, bases...)
		if err != nil {
			return "", err
		}
		if len(changed) > 0 {
			return "", fmt.Errorf("%w: %s", ErrResultsEdited, strings.Join(changed, ", "))
		}
	}
	b.places = placesOf(b.Sheets(), old)
	if len(old) > 0 && len(old) == len(b.Sheets()) {
		placeholder = FreeName(b.Sheets(), "websim placeholder")
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

// RecalculateOnOpen asks the program that next opens the workbook to
// recalculate every formula (fullCalcOnLoad): a write-back replaces the
// result sheets, and the user's formulas that read them (a dashboard of
// ='Summary'!M2) still hold the values the last run gave them, which
// Excel would otherwise show until a recalculation.
func (b *Book) RecalculateOnOpen() error {
	on := true
	return b.f.SetCalcProps(&excelize.CalcPropsOptions{FullCalcOnLoad: &on})
}
