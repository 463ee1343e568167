package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/websim/websim/engine"
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
	var f *excelize.File
	fresh := false
	if _, err := os.Stat(path); err == nil {
		if f, err = excelize.OpenFile(path); err != nil {
			return fmt.Errorf("opening %s to add the %s sheet: %w", path, SizingSheet, err)
		}
	} else {
		f, fresh = excelize.NewFile(), true
	}
	defer f.Close()
	listed, err := listedResultSheets(f)
	if err != nil {
		return err
	}
	name := SizingSheet
	if fresh {
		if err := f.SetSheetName("Sheet1", name); err != nil {
			return err
		}
	} else {
		owned, err := ResultSheets(f)
		if err != nil {
			return err
		}
		for _, s := range owned {
			if strings.EqualFold(s, SizingSheet) || strings.HasPrefix(s, SizingSheet+" (websim") {
				if err := f.DeleteSheet(s); err != nil {
					return fmt.Errorf("removing the earlier %s sheet of %s: %w", s, path, err)
				}
				listed = slices.DeleteFunc(listed, func(n string) bool { return n == s })
			}
		}
		name = freeName(f.GetSheetList(), SizingSheet)
		if _, err := f.NewSheet(name); err != nil {
			return err
		}
	}
	st, err := newStyles(f)
	if err != nil {
		return err
	}
	if err := writeSizingSheet(f, name, sz, st); err != nil {
		return fmt.Errorf("building %s: %w", path, err)
	}
	if err := f.SetDefinedName(&excelize.DefinedName{
		Name: ResultMarker, RefersTo: sheetRef(name) + "!$A$1",
		Comment: "written by websim; replaced by the next write-back", Scope: name,
	}); err != nil {
		return fmt.Errorf("marking sheet %q: %w", name, err)
	}
	if err := f.SetCustomProps(excelize.CustomProperty{
		Name: ResultSheetsProperty, Value: strings.Join(append(listed, name), "|"),
	}); err != nil {
		return err
	}
	if idx, err := f.GetSheetIndex(name); err == nil {
		f.SetActiveSheet(idx)
	}
	return save(f, path)
}

// listedResultSheets returns the names in ResultSheetsProperty.
func listedResultSheets(f *excelize.File) ([]string, error) {
	props, err := f.GetCustomProps()
	if err != nil {
		return nil, err
	}
	for _, p := range props {
		if v, ok := p.Value.(string); ok && p.Name == ResultSheetsProperty && v != "" {
			return strings.Split(v, "|"), nil
		}
	}
	return nil, nil
}

// freeName is base when no sheet has it (ignoring case), else
// "base (websim)", "base (websim 2)", ...
func freeName(existing []string, base string) string {
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

// sizingColumns are the Sizing sheet's columns: the answer, then for the
// probes at the answer and one below, the setting's value, the verdict
// and the main figures, then each target's value and verdict.
func sizingColumns(sz *study.Sizing) []column {
	u := unitSuffix(sz.TimeUnit)
	cols := []column{
		{"Scenario", fText}, {"Load", fText}, {"Size (" + sz.Setting + ")", fCount}, {"Outcome", fText},
		{"Answer", fText}, {"Probes", fCount}, {"Runs", fCount}, {"Min", fCount}, {"Max", fCount},
	}
	for _, at := range []string{"at size", "at size − 1"} {
		cols = append(cols,
			column{sz.Setting + " " + at, fCount}, column{"Verdict " + at, fText},
			column{"Mean " + at + u, fTime}, column{"P95 " + at + u, fTime},
			column{"Failure share " + at, fShare}, column{"App utilization " + at, fShare},
			column{"Stable " + at, fText},
		)
		for _, t := range sz.Targets {
			unit := u
			if t.Measure.IsShare() {
				unit = ""
			}
			cols = append(cols, column{t.String() + " " + at + unit, targetFormat(t)}, column{"± 95% " + at, targetFormat(t)},
				column{"Verdict of " + t.String() + " " + at, fText})
		}
	}
	return cols
}

func targetFormat(t study.Target) format {
	if t.Measure.IsShare() {
		return fShare
	}
	return fTime
}

// probeCells are the columns of one probe (nil: not probed).
func probeCells(pr *study.Probe, targets int) []any {
	cells := make([]any, 7+3*targets)
	if pr == nil {
		return cells
	}
	r := &pr.Run.Result
	cells[0], cells[1] = float64(pr.Value), string(pr.Verdict)
	if r.Stable {
		cells[2], cells[3] = responseOrNil(r, r.Response.Mean), responseOrNil(r, r.Response.P95)
	}
	cells[4], cells[5], cells[6] = share(r.Failed, finished(r)), r.AppUtilization, stableText(r)
	for i, t := range pr.Targets {
		cells[7+3*i], cells[8+3*i], cells[9+3*i] = t.Value, t.HalfWidth95, string(t.Verdict)
	}
	return cells
}

func stableText(r *engine.Result) string {
	if r.Stable {
		return "yes"
	}
	return "NO: " + r.Unstable
}

func writeSizingSheet(f *excelize.File, sheet string, sz *study.Sizing, st *styles) error {
	cols := sizingColumns(sz)
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
	if err := table(f, sheet, st, cols, rows); err != nil {
		return err
	}
	if err := styleVerdicts(f, sheet, cols, len(rows)); err != nil {
		return err
	}
	next, err := sizingChart(f, sheet, sz, st, len(rows)+3)
	if err != nil {
		return err
	}
	return sizingAbout(f, sheet, sz, st, next+1)
}

// styleVerdicts colours verdict cells: green holds, red fails, amber
// undecided, so that the answer reads at a glance.
func styleVerdicts(f *excelize.File, sheet string, cols []column, n int) error {
	fills := map[string]string{string(study.Holds): "C6EFCE", string(study.Fails): "FFC7CE", string(study.Undecided): "FFEB9C"}
	ids := map[string]int{}
	for v, color := range fills {
		id, err := f.NewStyle(&excelize.Style{Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{color}}})
		if err != nil {
			return err
		}
		ids[v] = id
	}
	for c, col := range cols {
		if !strings.HasPrefix(col.header, "Verdict") {
			continue
		}
		for r := 2; r <= n+1; r++ {
			ref := cellName(c+1, r)
			v, err := f.GetCellValue(sheet, ref)
			if err != nil {
				return err
			}
			if id, ok := ids[v]; ok {
				if err := f.SetCellStyle(sheet, ref, ref, id); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// sizingChart writes a data block (Load, a column per scenario, the size
// or a blank) from row top, and a line chart of it; it returns the row
// after the block.
func sizingChart(f *excelize.File, sheet string, sz *study.Sizing, st *styles, top int) (int, error) {
	title := "Size (" + sz.Setting + ") against load"
	if err := f.SetCellStr(sheet, cellName(1, top), title+" (chart data)"); err != nil {
		return 0, err
	}
	if err := f.SetCellStyle(sheet, cellName(1, top), cellName(1, top), st.title); err != nil {
		return 0, err
	}
	hdr := top + 1
	if err := f.SetCellStr(sheet, cellName(1, hdr), "Load"); err != nil {
		return 0, err
	}
	for j, sc := range sz.Scenarios {
		if err := f.SetCellStr(sheet, cellName(j+2, hdr), sc); err != nil {
			return 0, err
		}
	}
	if err := f.SetCellStyle(sheet, cellName(1, hdr), cellName(len(sz.Scenarios)+1, hdr), st.header); err != nil {
		return 0, err
	}
	first, last := hdr+1, hdr+len(sz.Loads)
	for i, load := range sz.Loads {
		if err := f.SetCellStr(sheet, cellName(1, first+i), load); err != nil {
			return 0, err
		}
		for j, sc := range sz.Scenarios {
			for _, pt := range sz.Points {
				if pt.Scenario == sc && pt.Load == load && (pt.Outcome == study.SizeFound || pt.Outcome == study.SizeNotMonotone) {
					if err := f.SetCellInt(sheet, cellName(j+2, first+i), int64(pt.Size)); err != nil {
						return 0, err
					}
				}
			}
		}
	}
	ref := sheetRef(sheet)
	var series []excelize.ChartSeries
	for j := range sz.Scenarios {
		col, _ := excelize.ColumnNumberToName(j + 2)
		series = append(series, excelize.ChartSeries{
			Name:       fmt.Sprintf("%s!$%s$%d", ref, col, hdr),
			Categories: fmt.Sprintf("%s!$A$%d:$A$%d", ref, first, last),
			Values:     fmt.Sprintf("%s!$%s$%d:$%s$%d", ref, col, first, col, last),
			Marker:     excelize.ChartMarker{Symbol: "circle", Size: 5},
		})
	}
	if len(series) > 0 && len(sz.Loads) > 0 {
		chartCol, _ := excelize.ColumnNumberToName(len(sz.Scenarios) + 3)
		chart := &excelize.Chart{
			Type:         excelize.Line,
			Series:       series,
			Title:        excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: title}}},
			Dimension:    excelize.ChartDimension{Width: chartWidth, Height: chartHeight},
			Legend:       excelize.ChartLegend{Position: "right"},
			ShowBlanksAs: "gap",
			XAxis:        excelize.ChartAxis{Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "Load"}}}},
			YAxis: excelize.ChartAxis{
				Title:          excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: sz.Setting}}},
				MajorGridLines: true,
				NumFmt:         excelize.ChartNumFmt{CustomNumFmt: "0"},
			},
			Format: excelize.GraphicOptions{AltText: title + ", one line per scenario; a gap where no size meets the targets"},
		}
		if err := f.AddChart(sheet, fmt.Sprintf("%s%d", chartCol, top), chart); err != nil {
			return 0, fmt.Errorf("chart %q: %w", title, err)
		}
	}
	return max(last, top+chartRows) + 1, nil
}

// sizingAbout writes what produced the sheet, from row top.
func sizingAbout(f *excelize.File, sheet string, sz *study.Sizing, st *styles, top int) error {
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
	if err := f.SetCellStr(sheet, cellName(1, top), "How this sheet was made"); err != nil {
		return err
	}
	if err := f.SetCellStyle(sheet, cellName(1, top), cellName(1, top), st.title); err != nil {
		return err
	}
	for i, r := range rows {
		if err := f.SetCellStr(sheet, cellName(1, top+1+i), r[0]); err != nil {
			return err
		}
		if err := f.SetCellStr(sheet, cellName(2, top+1+i), r[1]); err != nil {
			return err
		}
	}
	return nil
}

// JSONSizing is the document `websim size --json` prints (contract
// section 5); the fields after the contract's own are extras.
type JSONSizing struct {
	Setting string          `json:"setting"`
	Points  []JSONSizePoint `json:"points"`

	Model    string       `json:"model"`
	TimeUnit string       `json:"timeUnit"`
	Version  string       `json:"version"`
	Seed     uint64       `json:"seed"`
	Targets  []JSONTarget `json:"targets"`
	Warnings []string     `json:"warnings"`
}

// JSONSizePoint is the answer at one scenario and load: Size is null when
// no value up to Max meets the targets (or the answer is undecided), and
// Runs holds the runs at Size (or AtMost) and at the next smaller value.
type JSONSizePoint struct {
	Scenario string        `json:"scenario"`
	Load     string        `json:"load"`
	Size     *int          `json:"size"`
	Runs     []JSONSizeRun `json:"runs"`

	Outcome string `json:"outcome"`
	Text    string `json:"text"`
	AtMost  *int   `json:"atMost,omitempty"`
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
		Version: sz.Version, Seed: sz.Seed, Targets: []JSONTarget{}, Warnings: nonNil(sz.Warnings),
	}
	for _, t := range sz.Targets {
		doc.Targets = append(doc.Targets, JSONTarget{Entity: t.Entity, Measure: string(t.Measure), Limit: Number(t.Limit)})
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
		if pt.AtMost > 0 {
			at := pt.AtMost
			jp.AtMost = &at
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
