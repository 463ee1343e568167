// Package report presents a study's results: an Excel workbook (Write), the
// same sheets added to the model's SvcData.xlsx (WriteBack), and JSON
// (WriteJSON).
//
// A results workbook holds six sheets:
//
//   - Summary: a row per scenario × load (stability first, then counts,
//     response-time figures, the difference from the first scenario,
//     shares);
//   - Servers: a row per scenario × load × server, external servers first,
//     then the application servers as App1..AppN;
//   - Entities: a row per scenario × load × entity (request type);
//   - Charts: native Excel line charts against load, per chart group (the
//     Experiments column Chart) and measure, a line per scenario, drawn
//     from a data block on the same sheet (an unstable run is a blank cell
//     there, so a gap in its line, and the chart says so), the share of
//     abandoned requests when a run abandoned any, and with two or more
//     entities each entity's mean response;
//   - Timeline: each run over successive intervals of simulated time, with
//     charts of the baseline scenario's loads and of the unstable runs;
//   - Run: websim's version, the seed, the date, the SHA-256 of each input,
//     the settings and each scenario's overrides, and the warnings.
//
// In Summary, Servers and Entities the columns Stable and Unstable reason
// follow Scenario and Load, an unstable run's row is grey and struck
// through but for its reason, and the header row and the first three
// columns stay in view. A text wider than its column (60 characters)
// wraps, and its row grows to show it whole, on screen and in print.
//
// Every sheet websim writes carries a sheet-scoped defined name
// (ResultMarker) holding the name websim gave it, so that a later
// write-back replaces websim's own sheets and never a user's, even one
// that happens to be called Summary; the workbook's custom property
// ResultSheetsProperty lists them too, for the markers of earlier
// versions.
//
// Files are written to a temporary file in the same folder and renamed into
// place, so a failure leaves the previous file whole. A target open in Excel
// yields a *LockedError after the results were saved beside it.
package report

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/study"
)

// ResultMarker is the sheet-scoped defined name that marks a sheet as
// written by websim (xlsx.OwnerMarker). It follows the sheet if the user
// renames it.
const ResultMarker = xlsx.OwnerMarker

// ResultSheetsProperty is the custom document property listing websim's
// result sheets, separated by "|" (xlsx.OwnedSheetsProperty).
const ResultSheetsProperty = xlsx.OwnedSheetsProperty

// baseNames are the result sheets' names, in order.
var baseNames = [...]string{"Summary", "Servers", "Entities", "Charts", "Timeline", "Run"}

// ReplacedSheets are the names of the sheets a write-back of run's
// results replaces (the Validation sheet among them), before any
// " (websim)" that a user's sheet of the same name made the sheet take.
func ReplacedSheets() []string { return append(baseNames[:], ValidationSheet) }

// sheetNames are the names the result sheets get in one workbook.
type sheetNames struct{ Summary, Servers, Entities, Charts, Timeline, Run string }

func (n sheetNames) list() []string {
	return []string{n.Summary, n.Servers, n.Entities, n.Charts, n.Timeline, n.Run}
}

// Write writes the study's results to a new workbook at path, replacing any
// file there only once the new one is complete.
func Write(path string, s *study.Study) error {
	b := xlsx.New()
	defer b.Close()
	names := freeNames(nil, xlsx.FreeName)
	if err := b.RenameSheet("Sheet1", names.Summary); err != nil {
		return err
	}
	if err := addResults(b, names, s); err != nil {
		return fmt.Errorf("building %s: %w", path, err)
	}
	b.SetActiveSheet(0)
	return save(b, path)
}

// WriteBack adds the study's result sheets to the workbook at svcDataPath
// (the model's SvcData.xlsx), keeping every other sheet, cell, style,
// comment, formula and data validation. Result sheets of an earlier
// write-back are replaced, and the Sizing sheet of `websim size
// --write-back` is kept; a user's sheet is never touched: when one already
// has a result sheet's name, the result sheet is called "Summary (websim)".
// The result sheets take the places of those they replace, and each
// sheet's protection is kept as it was; a workbook whose structure is
// protected is refused (xlsx.ErrStructureLocked), as Excel refuses to add
// sheets to it.
func WriteBack(svcDataPath string, s *study.Study) error {
	b, err := xlsx.Open(svcDataPath)
	if err != nil {
		return fmt.Errorf("opening %s for write-back: %w", svcDataPath, err)
	}
	defer b.Close()
	if err := sameAsRead(b, svcDataPath, s.Inputs); err != nil {
		return err
	}
	if err := b.CheckStructure(); err != nil {
		return err
	}
	placeholder, err := b.ReplaceOwned(ReplacedSheets()...)
	if err != nil {
		return fmt.Errorf("%s: %w", svcDataPath, err)
	}
	existing := slices.DeleteFunc(b.Sheets(), func(n string) bool { return n == placeholder })
	names := freeNames(existing, b.NameFor)
	if err := addResults(b, names, s); err != nil {
		return fmt.Errorf("adding results to %s: %w", svcDataPath, err)
	}
	if placeholder != "" {
		if err := b.DeleteSheet(placeholder); err != nil {
			return err
		}
	}
	if err := b.RecalculateOnOpen(); err != nil {
		return err
	}
	return save(b, svcDataPath)
}

// sameAsRead refuses (*xlsx.ChangedError) to add results to the input
// workbook b, read from path, when it is no longer the workbook the
// results were computed from (inputs): saved by Excel during the run, its
// settings would stand beside figures they did not make.
func sameAsRead(b *xlsx.Book, path string, inputs []study.Input) error {
	for _, in := range inputs {
		if strings.EqualFold(in.Name, filepath.Base(path)) && in.SHA256 != "" && in.SHA256 != b.SHA256 {
			return &xlsx.ChangedError{Path: path}
		}
	}
	return nil
}

// ResultSheets returns the sheets of b that websim wrote as results and
// still owns, in workbook order (xlsx.Book.OwnedSheets): a marked sheet
// under another name is the user's, and a write-back leaves it alone.
func ResultSheets(b *xlsx.Book) ([]string, error) { return b.OwnedSheets() }

// freeNames picks the result sheets' names among the existing sheets with
// nameFor: xlsx.FreeName (the plain name when free, else "Name (websim)",
// "Name (websim 2)", ...), or a Book's NameFor, which keeps the name a
// replaced result sheet had.
func freeNames(existing []string, nameFor func(existing []string, base string) string) sheetNames {
	pick := func(base string) string { return nameFor(existing, base) }
	return sheetNames{pick(baseNames[0]), pick(baseNames[1]), pick(baseNames[2]), pick(baseNames[3]), pick(baseNames[4]), pick(baseNames[5])}
}

// addResults adds (or fills, for a sheet that exists already) the result
// sheets and marks them as websim's.
func addResults(b *xlsx.Book, names sheetNames, s *study.Study) error {
	if s == nil {
		return errors.New("no study to write")
	}
	for _, name := range names.list() {
		if err := b.NewSheet(name); err != nil {
			return err
		}
	}
	if err := writeSummary(b, names.Summary, s); err != nil {
		return err
	}
	if err := writeServers(b, names.Servers, s); err != nil {
		return err
	}
	if err := writeEntities(b, names.Entities, s); err != nil {
		return err
	}
	if err := writeCharts(b, names.Charts, s); err != nil {
		return err
	}
	if err := writeTimeline(b, names.Timeline, s); err != nil {
		return err
	}
	if err := writeRun(b, names.Run, s); err != nil {
		return err
	}
	owned := names.list()
	if v, err := writeValidation(b, s); err != nil {
		return err
	} else if v != "" {
		owned = append(owned, v)
	}
	return b.MarkOwned(owned...)
}
