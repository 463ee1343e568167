// Package report presents a study's results: an Excel workbook (Write), the
// same sheets added to the model's SvcData.xlsx (WriteBack), and JSON
// (WriteJSON).
//
// A results workbook holds four sheets:
//
//   - Summary: a row per scenario × load (counts, response-time figures,
//     the difference from the first scenario, shares, stability);
//   - Servers: a row per scenario × load × server, external servers first,
//     then the application servers as App1..AppN;
//   - Charts: native Excel line charts against load, one line per scenario,
//     drawn from a data block on the same sheet (an unstable run is a blank
//     cell there, so a gap in its line);
//   - Run: websim's version, the seed, the date, the SHA-256 of each input,
//     the settings and each scenario's overrides, and the warnings.
//
// Every sheet websim writes carries a sheet-scoped defined name
// (ResultMarker), and the workbook a custom property (ResultSheetsProperty)
// listing them, so that a later write-back replaces websim's own sheets and
// never a user's, even one that happens to be called Summary.
//
// Files are written to a temporary file in the same folder and renamed into
// place, so a failure leaves the previous file whole. A target open in Excel
// yields a *LockedError after the results were saved beside it.
package report

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/websim/websim/study"
)

// ResultMarker is the sheet-scoped defined name that marks a sheet as
// written by websim. It follows the sheet if the user renames it.
const ResultMarker = "websim_result"

// ResultSheetsProperty is the custom document property listing websim's
// result sheets, separated by "|".
const ResultSheetsProperty = "WebsimResultSheets"

// baseNames are the result sheets' names, in order.
var baseNames = [...]string{"Summary", "Servers", "Charts", "Run"}

// sheetNames are the names the result sheets get in one workbook.
type sheetNames struct{ Summary, Servers, Charts, Run string }

func (n sheetNames) list() []string { return []string{n.Summary, n.Servers, n.Charts, n.Run} }

// Write writes the study's results to a new workbook at path, replacing any
// file there only once the new one is complete.
func Write(path string, s *study.Study) error {
	f := excelize.NewFile()
	defer f.Close()
	names := sheetNames{"Summary", "Servers", "Charts", "Run"}
	if err := f.SetSheetName("Sheet1", names.Summary); err != nil {
		return err
	}
	if err := addResults(f, names, s); err != nil {
		return fmt.Errorf("building %s: %w", path, err)
	}
	f.SetActiveSheet(0)
	return save(f, path)
}

// WriteBack adds the study's result sheets to the workbook at svcDataPath
// (the model's SvcData.xlsx), keeping every other sheet, cell, style,
// comment, formula and data validation. Result sheets of an earlier
// write-back are replaced; a user's sheet is never touched: when one already
// has a result sheet's name, the result sheet is called "Summary (websim)".
func WriteBack(svcDataPath string, s *study.Study) error {
	f, err := excelize.OpenFile(svcDataPath)
	if err != nil {
		return fmt.Errorf("opening %s for write-back: %w", svcDataPath, err)
	}
	defer f.Close()
	old, err := ResultSheets(f)
	if err != nil {
		return err
	}
	// A workbook keeps at least one sheet: when it holds nothing but
	// earlier results, a placeholder stands in until the new ones are added.
	placeholder := ""
	if len(old) > 0 && len(old) == len(f.GetSheetList()) {
		placeholder = "websim placeholder"
		if _, err := f.NewSheet(placeholder); err != nil {
			return err
		}
	}
	for _, name := range old {
		if err := f.DeleteSheet(name); err != nil {
			return fmt.Errorf("removing the earlier result sheet %q of %s: %w", name, svcDataPath, err)
		}
	}
	existing := slices.DeleteFunc(f.GetSheetList(), func(n string) bool { return n == placeholder })
	names := freeNames(existing)
	if err := addResults(f, names, s); err != nil {
		return fmt.Errorf("adding results to %s: %w", svcDataPath, err)
	}
	if placeholder != "" {
		if err := f.DeleteSheet(placeholder); err != nil {
			return err
		}
	}
	return save(f, svcDataPath)
}

// ResultSheets returns the sheets of f that websim wrote as results and
// still owns, in workbook order: those that carry ResultMarker under the
// name websim gave them (listed in ResultSheetsProperty). A marked sheet
// under another name is the user's: a result sheet renamed to keep it, or
// a copy Excel made (copying a sheet copies its sheet-scoped names); a
// write-back leaves those alone.
func ResultSheets(f *excelize.File) ([]string, error) {
	listed := map[string]bool{}
	props, err := f.GetCustomProps()
	if err != nil {
		return nil, err
	}
	for _, p := range props {
		if v, ok := p.Value.(string); ok && p.Name == ResultSheetsProperty {
			for _, name := range strings.Split(v, "|") {
				listed[name] = true
			}
		}
	}
	var out []string
	sheets := f.GetSheetList()
	for _, dn := range f.GetDefinedName() {
		if dn.Name == ResultMarker && dn.Scope != "Workbook" && slices.Contains(sheets, dn.Scope) && listed[dn.Scope] {
			out = append(out, dn.Scope)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		return slices.Index(sheets, a) - slices.Index(sheets, b)
	})
	return slices.Compact(out), nil
}

// freeNames picks the result sheets' names among the existing sheets: the
// plain name when free, else "Name (websim)", "Name (websim 2)", ...
func freeNames(existing []string) sheetNames {
	taken := func(n string) bool {
		for _, e := range existing {
			if strings.EqualFold(e, n) {
				return true
			}
		}
		return false
	}
	pick := func(base string) string {
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
	return sheetNames{pick(baseNames[0]), pick(baseNames[1]), pick(baseNames[2]), pick(baseNames[3])}
}

// addResults adds (or fills, for a sheet that exists already) the four
// result sheets and marks them.
func addResults(f *excelize.File, names sheetNames, s *study.Study) error {
	if s == nil {
		return errors.New("no study to write")
	}
	st, err := newStyles(f)
	if err != nil {
		return err
	}
	for _, name := range names.list() {
		if idx, _ := f.GetSheetIndex(name); idx < 0 {
			if _, err := f.NewSheet(name); err != nil {
				return err
			}
		}
	}
	if err := writeSummary(f, names.Summary, s, st); err != nil {
		return err
	}
	if err := writeServers(f, names.Servers, s, st); err != nil {
		return err
	}
	if err := writeCharts(f, names.Charts, s, st); err != nil {
		return err
	}
	if err := writeRun(f, names.Run, s, st); err != nil {
		return err
	}
	for _, name := range names.list() {
		if err := f.SetDefinedName(&excelize.DefinedName{
			Name:     ResultMarker,
			RefersTo: sheetRef(name) + "!$A$1",
			Comment:  "written by websim; replaced by the next write-back",
			Scope:    name,
		}); err != nil {
			return fmt.Errorf("marking sheet %q: %w", name, err)
		}
	}
	return f.SetCustomProps(excelize.CustomProperty{
		Name:  ResultSheetsProperty,
		Value: strings.Join(names.list(), "|"),
	})
}

// sheetRef quotes a sheet name for a formula: 'Summary (websim)'.
func sheetRef(name string) string {
	return "'" + strings.ReplaceAll(name, "'", "''") + "'"
}
