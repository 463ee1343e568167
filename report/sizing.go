package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/study"
)

// SizingSheet is the name of the sheet `websim size` writes.
const SizingSheet = "Sizing"

// WriteSizing writes the Sizing sheet to the workbook at path: into the
// results workbook already there (replacing an earlier Sizing sheet that
// websim wrote, keeping every other sheet), or into a new workbook. The
// sheet has a row per scenario × load (the answer, in numbers and words,
// the probes, and the figures at the answer and one below it), a chart of
// size against load with a line per scenario, and what produced it.
func WriteSizing(path string, sz *study.Sizing) error {
	if sz == nil {
		return errors.New("no sizing to write")
	}
	if _, err := os.Stat(path); err != nil {
		b := xlsx.New()
		defer b.Close()
		if err := b.RenameSheet("Sheet1", SizingSheet); err != nil {
			return err
		}
		if err := writeSizingSheet(b, SizingSheet, sz); err != nil {
			return fmt.Errorf("building %s: %w", path, err)
		}
		if err := b.MarkOwned(SizingSheet); err != nil {
			return err
		}
		return save(b, path)
	}
	return addSizing(path, sz, true, nil)
}

// WriteSizingBack adds the Sizing sheet to the model's own SvcData.xlsx at
// svcDataPath, as `websim size --write-back` does: a new sheet that websim
// owns (called "Sizing (websim)" when the user has a sheet Sizing),
// replacing the Sizing sheet of an earlier write-back and keeping every
// other sheet, cell, style, comment, formula and data validation, and the
// result sheets of `websim run --write-back`. The file is replaced only
// once the new one is whole, and the sheet the user last looked at stays
// the active one.
func WriteSizingBack(svcDataPath string, sz *study.Sizing) error {
	if sz == nil {
		return errors.New("no sizing to write")
	}
	return addSizing(svcDataPath, sz, false, sz.Inputs)
}

// addSizing adds the Sizing sheet to the existing workbook at path; show
// makes it the active sheet.
func addSizing(path string, sz *study.Sizing, show bool, inputs []study.Input) error {
	b, err := xlsx.Open(path)
	if err != nil {
		return fmt.Errorf("opening %s to add the %s sheet: %w", path, SizingSheet, err)
	}
	defer b.Close()
	if err := sameAsRead(b, path, inputs); err != nil {
		return err
	}
	placeholder, err := b.ReplaceOwned(SizingSheet)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	name := b.NameFor(b.Sheets(), SizingSheet)
	if err := b.NewSheet(name); err != nil {
		return err
	}
	if placeholder != "" {
		if err := b.DeleteSheet(placeholder); err != nil {
			return err
		}
	}
	if err := writeSizingSheet(b, name, sz); err != nil {
		return fmt.Errorf("building %s: %w", path, err)
	}
	if err := b.MarkOwned(name); err != nil {
		return err
	}
	if show {
		b.SetActiveSheet(slices.Index(b.Sheets(), name))
	}
	if err := b.RecalculateOnOpen(); err != nil {
		return err
	}
	return save(b, path)
}

// sizingColumns are the Sizing sheet's columns: the answer, then for the
// probes at the answer and one below, the setting's value, the verdict
// and the main figures, then each target's value and verdict.
func sizingColumns(sz *study.Sizing) []column {
	u := unitSuffix(sz.TimeUnit)
	cols := []column{
		{"Scenario", fText}, {"Load", fText}, {"Size (" + sz.Setting + ")", fCount}, {"Outcome", fText},
		{"Answer", fWords}, {"Probes", fCount}, {"Runs", fCount}, {"Min", fCount}, {"Max", fCount},
	}
	for _, at := range []string{"at size", "at size − 1"} {
		value := sz.Setting + " " + at
		if at == "at size" {
			// Without an answer (outcome none or undecided) the probe
			// shown is the one at Max: its value says so.
			value += " (Max when none)"
		}
		cols = append(cols,
			column{value, fCount}, column{"Verdict " + at, fText}, column{"Stable " + at, fText},
			column{"Observations " + at, fCount}, column{"Replications " + at, fCount},
			column{"Mean " + at + u, fTime}, column{"P95 " + at + u, fTime},
			column{"Failure share " + at, fShare}, column{"App utilization " + at, fShare},
		)
		for _, t := range sz.Targets {
			unit, format, hw := targetStyles(t, u)
			cols = append(cols, column{t.String() + " " + at + unit, format}, column{"± 95% of " + t.String() + " " + at, hw},
				column{"Verdict of " + t.String() + " " + at, fText})
		}
	}
	return cols
}

// probeCells are the columns of one probe (nil: not probed): its value,
// verdict and stability first, then, for a stable run, its figures. A run
// that is not stable has no steady state to read figures of: they stay
// blank, its Stable cell says why, and every target's verdict is fails.
// Observations are the requests it finished (as in Summary and the JSON),
// which a run stopped early has fewer of than it was to run.
func probeCells(pr *study.Probe, targets int) []any {
	cells := make([]any, 9+3*targets)
	if pr == nil {
		return cells
	}
	r := &pr.Run.Result
	cells[0], cells[1], cells[2] = float64(pr.Value), string(pr.Verdict), stableText(r)
	cells[3], cells[4] = float64(finished(r)), float64(max(pr.Replications, 1))
	if r.Stable {
		cells[5], cells[6] = responseOrNil(r, r.Response.Mean), responseOrNil(r, r.Response.P95)
		cells[7], cells[8] = share(r.Failed, finished(r)), r.AppUtilization
	}
	for i, t := range pr.Targets {
		if r.Stable {
			cells[9+3*i], cells[10+3*i] = t.Value, t.HalfWidth95
		}
		cells[11+3*i] = string(t.Verdict)
	}
	return cells
}

func stableText(r *engine.Result) string {
	switch {
	case r.Stable && r.Untested:
		return "untested: " + UntestedReason(r)
	case r.Stable:
		return "yes"
	}
	return "NO: " + r.Unstable
}

func writeSizingSheet(b *xlsx.Book, sheet string, sz *study.Sizing) error {
	// Times in the style of Summary's: by the typical time of the probes.
	var probed []study.Run
	for _, pt := range sz.Points {
		for _, pr := range []*study.Probe{pt.At, pt.Below} {
			if pr != nil && pr.Run != nil {
				probed = append(probed, *pr.Run)
			}
		}
	}
	cols := withTimeStyle(sizingColumns(sz), probed)
	rows := make([][]any, 0, len(sz.Points))
	for _, pt := range sz.Points {
		var size any
		if pt.Outcome == study.SizeFound || pt.Outcome == study.SizeNotMonotone {
			size = float64(pt.Size)
		}
		row := []any{pt.Scenario, pt.Load, size, string(pt.Outcome), pt.Text, float64(pt.Probes), float64(pt.Runs), float64(pt.Min), float64(pt.Max)}
		row = append(row, probeCells(pt.At, len(sz.Targets))...)
		row = append(row, probeCells(pt.Below, len(sz.Targets))...)
		rows = append(rows, row)
	}
	if err := frozenTable(b, sheet, cols, rows, 2); err != nil { // Scenario, Load
		return err
	}
	styleVerdicts(b, sheet, cols, rows)
	// The labels below ("Target SvcData.xlsx!Targets!A2", "Input SHA-256
	// ...") stand in column A: wide enough to be read.
	if w, _ := b.ColWidth(sheet, 0); w < aboutLabelWidth {
		b.ColWidths(sheet, 0, aboutLabelWidth)
	}
	next, err := sizingChart(b, sheet, sz, len(rows)+3)
	if err != nil {
		return err
	}
	end, err := sizingAbout(b, sheet, sz, next+1)
	if err != nil {
		return err
	}
	// The sheet prints as the answer: the columns up to Max, one page
	// wide, with the chart and how it was made. The columns of each
	// probe's figures (39 with two targets) are for the screen: printed,
	// they made 65 pages of a few columns each for 10 rows.
	return b.PrintPage(sheet, "A1", cellName(answerColumns, end))
}

// sizingChartWidth is the Sizing chart's width in pixels, at most: the
// printed answer is fitted to a page wide, and the chart as wide as it
// within the printed columns.
const sizingChartWidth = 800

// areaPixels is the width in pixels of the first cols columns of sheet.
func areaPixels(b *xlsx.Book, sheet string, cols int) int {
	px := 0
	for col := range cols {
		w, err := b.ColWidth(sheet, col)
		if err != nil {
			break
		}
		px += int(7*w + 5) // Excel's pixels for a width in characters
	}
	return px
}

// answerColumns is how many of the Sizing sheet's first columns print:
// Scenario to Max.
const answerColumns = 9

// styleVerdicts colours verdict cells: green holds, red fails, amber
// undecided, so that the answer reads at a glance.
func styleVerdicts(b *xlsx.Book, sheet string, cols []column, rows [][]any) {
	for c, col := range cols {
		if !strings.HasPrefix(col.header, "Verdict") {
			continue
		}
		for r, row := range rows {
			v, _ := row[c].(string)
			if st, ok := verdictStyle(v); ok {
				// Top-aligned as the rest of a row the Answer makes tall.
				ref := cellName(c+1, r+2)
				b.SetStyle(sheet, ref, ref, st|xlsx.Wrapped)
			}
		}
	}
}

// sizingChart writes a data block (Load, a column per scenario, the size
// or a blank) from row top, on a printed page of its own, and a line chart
// of it below; it returns the row after the chart.
func sizingChart(b *xlsx.Book, sheet string, sz *study.Sizing, top int) (int, error) {
	title := "Size (" + sz.Setting + ") against load"
	b.SetCell(sheet, cellName(1, top), title+" (chart data)")
	b.SetStyle(sheet, cellName(1, top), cellName(1, top), xlsx.Title)
	hdr := top + 1
	b.SetCell(sheet, cellName(1, hdr), "Load")
	for j, sc := range sz.Scenarios {
		b.SetCell(sheet, cellName(j+2, hdr), sc)
	}
	b.SetStyle(sheet, cellName(1, hdr), cellName(len(sz.Scenarios)+1, hdr), xlsx.Header)
	first, last := hdr+1, hdr+len(sz.Loads)
	for i, load := range sz.Loads {
		rate := math.NaN()
		if i < len(sz.ArrivalRates) {
			rate = sz.ArrivalRates[i]
		}
		b.SetCell(sheet, cellName(1, first+i), loadLabel(load, rate, sz.TimeUnit))
		for j, sc := range sz.Scenarios {
			for _, pt := range sz.Points {
				if pt.Scenario == sc && pt.Load == load && (pt.Outcome == study.SizeFound || pt.Outcome == study.SizeNotMonotone) {
					b.SetCell(sheet, cellName(j+2, first+i), float64(pt.Size))
				}
			}
		}
	}
	if err := b.Err(); err != nil {
		return 0, err
	}
	var series []xlsx.Series
	for j := range sz.Scenarios {
		series = append(series, xlsx.Series{
			Name:       xlsx.AbsRange(sheet, j+1, hdr, hdr),
			Categories: xlsx.AbsRange(sheet, 0, first, last),
			Values:     xlsx.AbsRange(sheet, j+1, first, last),
		})
	}
	// The chart stands below the block from column A (beside it, it fell
	// on columns widened by the table above and was cut between pages),
	// and starts a printed page of its own, as the block does: below the
	// block and the repeated header it was cut at the page's foot.
	b.PageBreakBefore(sheet, top)
	if len(series) > 0 && len(sz.Loads) > 0 {
		b.PageBreakBefore(sheet, last+1)
		anchor := fmt.Sprintf("A%d", last+2)
		if err := b.AddChart(sheet, anchor, xlsx.Chart{
			Kind: xlsx.LineChart, Series: series, Markers: true,
			Title: title, Note: sizingGaps(sz), XTitle: sizingLoadTitle(sz), YTitle: sz.Setting, YFormat: "0",
			Width: uint(min(areaPixels(b, sheet, answerColumns)-10, sizingChartWidth)), Height: chartHeight, Legend: "right",
			AltText: title + ", one line per scenario; a gap where no size meets the targets",
		}); err != nil {
			return 0, fmt.Errorf("chart %q: %w", title, err)
		}
	}
	if len(series) == 0 || len(sz.Loads) == 0 {
		return last + 1, nil
	}
	return last + 2 + chartRows, nil
}

// sizingLoadTitle is the Sizing chart's load axis title: with the unit of
// the arrival rates its labels carry, when some rate is known.
func sizingLoadTitle(sz *study.Sizing) string {
	for _, r := range sz.ArrivalRates {
		if !math.IsNaN(r) && !math.IsInf(r, 0) {
			return "Load (arrival rate" + rateUnit(sz.TimeUnit) + ")"
		}
	}
	return "Load"
}

// sizingGaps says which points of the Sizing chart are gaps, and why: no
// value up to --max meets the targets, or the answer is undecided; "" when
// every point has a size. Each scenario's loads are named together
// ("none up to --max (M10 at L5, L6; P10 at L6)"); when they would be
// longer than maxGapText, the note counts them and points to the table,
// whose Outcome column names each.
func sizingGaps(sz *study.Sizing) string {
	var none, undecided []gapLine
	add := func(gaps []gapLine, pt study.SizePoint) []gapLine {
		if n := len(gaps); n > 0 && gaps[n-1].scenario == pt.Scenario {
			gaps[n-1].loads = append(gaps[n-1].loads, pt.Load)
			return gaps
		}
		return append(gaps, gapLine{scenario: pt.Scenario, loads: []string{pt.Load}})
	}
	for _, pt := range sz.Points {
		switch pt.Outcome {
		case study.SizeNone:
			none = add(none, pt)
		case study.SizeUndecided:
			undecided = add(undecided, pt)
		}
	}
	list := func(gaps []gapLine) string {
		if t := gapText(gaps); len(t) <= maxGapText {
			return t
		}
		return fmt.Sprintf("%d points: the table's Outcome column names each", gapCount(gaps))
	}
	var notes []string
	if len(none) > 0 {
		notes = append(notes, "none up to --max ("+list(none)+")")
	}
	if len(undecided) > 0 {
		notes = append(notes, "undecided ("+list(undecided)+")")
	}
	if len(notes) == 0 {
		return ""
	}
	return "Gaps: " + strings.Join(notes, "; ")
}

// sizingAbout writes what produced the sheet, from row top, and returns
// its last row.
func sizingAbout(b *xlsx.Book, sheet string, sz *study.Sizing, top int) (int, error) {
	rows := [][2]string{
		{"websim version", sz.Version}, {"Model", sz.Model}, {"Seed", strconv.FormatUint(sz.Seed, 10)},
		{"Setting varied", sz.Setting},
	}
	if !sz.Started.IsZero() {
		rows = append(rows, [2]string{"Started", sz.Started.Format("2006-01-02 15:04:05 -07:00")})
	}
	for _, t := range sz.Targets {
		rows = append(rows, [2]string{"Target " + t.Cell, t.String()})
	}
	for _, in := range sz.Inputs {
		rows = append(rows, [2]string{"Input SHA-256 " + in.Name, in.SHA256})
	}
	for _, w := range sz.Warnings {
		rows = append(rows, [2]string{"Warning", w})
	}
	b.SetCell(sheet, cellName(1, top), "How this sheet was made")
	b.SetStyle(sheet, cellName(1, top), cellName(1, top), xlsx.Title)
	for i, r := range rows {
		b.SetCell(sheet, cellName(1, top+1+i), r[0])
		b.SetCell(sheet, cellName(2, top+1+i), r[1])
		// A long text (a warning) wraps across the printed columns, its
		// label top-aligned beside it.
		if wrapped, _ := b.WrapAcross(sheet, cellName(2, top+1+i), cellName(answerColumns, top+1+i), r[1]); wrapped {
			b.SetStyle(sheet, cellName(1, top+1+i), cellName(1, top+1+i), xlsx.Text|xlsx.Wrapped)
		}
	}
	return top + len(rows), b.Err()
}

// JSONSizing is the document `websim size --json` prints (contract
// section 5); the fields after the contract's own are extras.
type JSONSizing struct {
	Setting string          `json:"setting"`
	Points  []JSONSizePoint `json:"points"`

	Model    string          `json:"model"`
	TimeUnit string          `json:"timeUnit"`
	Version  string          `json:"version"`
	Seed     uint64          `json:"seed"`
	Targets  []JSONTargetDef `json:"targets"`
	Warnings []string        `json:"warnings"`
}

// JSONTargetDef is a row of the Targets sheet, as given (the verdicts are
// each run's).
type JSONTargetDef struct {
	Entity  string `json:"entity"`
	Measure string `json:"measure"`
	Limit   Number `json:"limit"`
}

// JSONSizePoint is the answer at one scenario and load: Size is null when
// no value up to Max meets the targets, and Runs holds the runs at Size
// (or Max) and at the next smaller value.
type JSONSizePoint struct {
	Scenario string        `json:"scenario"`
	Load     string        `json:"load"`
	Size     *int          `json:"size"`
	Runs     []JSONSizeRun `json:"runs"`

	Outcome string `json:"outcome"`
	Text    string `json:"text"`
	Probes  int    `json:"probes"`
	Sims    int    `json:"simulations"`
	Min     int    `json:"min"`
	Max     int    `json:"max"`
}

// JSONSizeRun is a run as in `websim run --json`, with the setting's value
// and the verdict of all targets at it.
type JSONSizeRun struct {
	SettingValue int    `json:"settingValue"`
	Verdict      string `json:"verdict"`
	JSONRun
}

// JSONTarget is one target judged at a run (contract section 5).
type JSONTarget struct {
	Entity        string `json:"entity"`
	Measure       string `json:"measure"`
	Limit         Number `json:"limit"`
	Value         Number `json:"value"`
	CIHalfWidth95 Number `json:"ciHalfWidth95"`
	Verdict       string `json:"verdict"`
	Why           string `json:"why,omitempty"`
}

// jsonTargets converts judged targets; never nil, so that JSON has [].
func jsonTargets(rs []study.TargetResult) []JSONTarget {
	out := []JSONTarget{}
	for _, r := range rs {
		out = append(out, JSONTarget{
			Entity: r.Entity, Measure: string(r.Measure), Limit: Number(r.Limit),
			Value: Number(r.Value), CIHalfWidth95: Number(r.HalfWidth95), Verdict: string(r.Verdict), Why: r.Why,
		})
	}
	return out
}

// WriteSizingJSON writes the sizing as one JSON document, indented.
func WriteSizingJSON(w io.Writer, sz *study.Sizing) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(NewJSONSizing(sz))
}

// NewJSONSizing converts a sizing to its JSON document.
func NewJSONSizing(sz *study.Sizing) *JSONSizing {
	doc := &JSONSizing{
		Setting: sz.Setting, Points: []JSONSizePoint{}, Model: sz.Model, TimeUnit: sz.TimeUnit,
		Version: sz.Version, Seed: sz.Seed, Targets: []JSONTargetDef{}, Warnings: nonNil(sz.Warnings),
	}
	for _, t := range sz.Targets {
		doc.Targets = append(doc.Targets, JSONTargetDef{Entity: t.Entity, Measure: string(t.Measure), Limit: Number(t.Limit)})
	}
	for _, pt := range sz.Points {
		jp := JSONSizePoint{
			Scenario: pt.Scenario, Load: pt.Load, Runs: []JSONSizeRun{},
			Outcome: string(pt.Outcome), Text: pt.Text, Probes: pt.Probes, Sims: pt.Runs, Min: pt.Min, Max: pt.Max,
		}
		if pt.Outcome == study.SizeFound || pt.Outcome == study.SizeNotMonotone {
			size := pt.Size
			jp.Size = &size
		}
		for _, pr := range []*study.Probe{pt.At, pt.Below} {
			if pr == nil {
				continue
			}
			jr := jsonRun(pr.Run)
			jr.Targets = jsonTargets(pr.Targets)
			jp.Runs = append(jp.Runs, JSONSizeRun{SettingValue: pr.Value, Verdict: string(pr.Verdict), JSONRun: jr})
		}
		doc.Points = append(doc.Points, jp)
	}
	return doc
}

// aboutLabelWidth is the width of column A of the Sizing sheet, for the
// labels of "How this sheet was made".
const aboutLabelWidth = 34
