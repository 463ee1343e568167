package lb

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/xuri/excelize/v2"
)

// The sheets of the parameters workbook.
const (
	SettingsSheet = "Settings"
	TypesSheet    = "RequestTypes"
	typeColumn    = "type"
)

// openOptions bound what a workbook may unzip to (a small zip can otherwise
// expand to gigabytes) and read values as saved, not as formatted.
var openOptions = excelize.Options{UnzipSizeLimit: 64 << 20, UnzipXMLSizeLimit: 16 << 20}
var rawValues = excelize.Options{RawCellValue: true}

// settingNotes explain each setting, in the Note column and in comments.
var settingNotes = map[string]string{
	KeyServers:  "Number of servers behind the load balancer (a whole number, at least 1).",
	KeyRate:     "Requests arriving per second, on average; inter-arrival times are exponential. Fractions are used as given.",
	KeyRequests: "Number of requests simulated in each replication.",
	KeyMethod:   "How the load balancer picks a server: roundrobin (0, 1, 2, ... in turn) or busyness (fewest busy units of all types, the lowest number on ties).",
	KeySeed:     "Seed of the random streams: the same seed gives the same results.",
}

// typeNotes explain each RequestTypes column, in header comments.
var typeNotes = map[string]string{
	typeColumn:    "Name of the request type (for example dma).",
	KeyCapacity:   "Units of this type over all servers, dealt one at a time: server i gets floor(C/n), plus 1 if i < C mod n. A server with no unit fails this type's requests.",
	KeyProportion: "Share of the requests of this type, 0 to 1; the shares of all types add up to 1.",
	KeyAvgService: "Mean service time in seconds (Normal distribution; values <= 0 are drawn again).",
	KeyDevService: "Standard deviation of the service time in seconds (0: always the mean).",
}

// NewParametersWorkbook returns the workbook twin of p: a sheet Settings
// (Name, Value, Note) with the top-level keys and a sheet RequestTypes with a
// row per type, with header comments, a drop-down for method, frozen header
// rows and column widths. `websim lb Parameters.xlsx` reads it back to p.
func NewParametersWorkbook(p Params) (*excelize.File, error) {
	f := excelize.NewFile()
	if err := writeParameters(f, p); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func writeParameters(f *excelize.File, p Params) error {
	w := sheetWriter{f: f}
	first := f.GetSheetName(0)
	w.newSheet(SettingsSheet)
	if first != SettingsSheet {
		if err := f.DeleteSheet(first); err != nil {
			return err
		}
	}
	w.newSheet(TypesSheet)
	bold := w.style(&excelize.Style{Font: &excelize.Font{Bold: true}})

	w.row(SettingsSheet, 1, "Name", "Value", "Note")
	w.setStyle(SettingsSheet, "A1", "C1", bold)
	values := []any{p.Servers, p.RequestsPerSec, p.Requests, string(p.Method), p.Seed}
	for i, key := range settingKeys {
		w.row(SettingsSheet, i+2, key, values[i], settingNotes[key])
		w.comment(SettingsSheet, fmt.Sprintf("A%d", i+2), settingNotes[key])
	}
	w.comment(SettingsSheet, "A1", "The setting's name, as in the YAML file; case, spaces and underscores do not matter.")
	w.comment(SettingsSheet, "B1", "The setting's value; websim lb --"+KeyServers+"=N and the other flags override it.")
	methodRow := slices.Index(settingKeys, KeyMethod) + 2
	dv := excelize.NewDataValidation(false)
	dv.SetSqref(fmt.Sprintf("B%d", methodRow))
	if err := dv.SetDropList(methods); err != nil {
		return err
	}
	dv.SetError(excelize.DataValidationErrorStyleStop, "method", "Choose roundrobin or busyness.")
	w.do(f.AddDataValidation(SettingsSheet, dv))
	w.widths(SettingsSheet, 30, 14, 100)
	w.freeze(SettingsSheet)

	headers := append([]string{typeColumn}, typeKeys...)
	w.row(TypesSheet, 1, anys(headers)...)
	w.setStyle(TypesSheet, "A1", "E1", bold)
	for i, h := range headers {
		cell, _ := excelize.CoordinatesToCellName(i+1, 1)
		w.comment(TypesSheet, cell, typeNotes[h])
	}
	for i, t := range p.Types {
		w.row(TypesSheet, i+2, t.Name, t.OutputCapacity, t.Proportion, t.AvgServiceTimeSecs, t.DeviationServiceTimeSecs)
	}
	w.widths(TypesSheet, 14, 17, 12, 23, 29)
	w.freeze(TypesSheet)
	f.SetActiveSheet(0)
	return w.err
}

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// sheetWriter keeps the first error of a run of excelize calls.
type sheetWriter struct {
	f   *excelize.File
	err error
}

func (w *sheetWriter) do(err error) {
	if w.err == nil && err != nil {
		w.err = err
	}
}

func (w *sheetWriter) newSheet(name string) {
	_, err := w.f.NewSheet(name)
	w.do(err)
}

func (w *sheetWriter) row(sheet string, row int, values ...any) {
	w.do(w.f.SetSheetRow(sheet, fmt.Sprintf("A%d", row), &values))
}

func (w *sheetWriter) cell(sheet, cell string, v any) { w.do(w.f.SetCellValue(sheet, cell, v)) }

func (w *sheetWriter) style(s *excelize.Style) int {
	id, err := w.f.NewStyle(s)
	w.do(err)
	return id
}

func (w *sheetWriter) setStyle(sheet, from, to string, id int) {
	w.do(w.f.SetCellStyle(sheet, from, to, id))
}

func (w *sheetWriter) comment(sheet, cell, text string) {
	w.do(w.f.AddComment(sheet, excelize.Comment{Cell: cell, Author: "websim", Text: text, Width: 300, Height: 90}))
}

func (w *sheetWriter) widths(sheet string, widths ...float64) {
	for i, width := range widths {
		col, _ := excelize.ColumnNumberToName(i + 1)
		w.do(w.f.SetColWidth(sheet, col, col, width))
	}
}

func (w *sheetWriter) freeze(sheet string) {
	w.freezeAt(sheet, 1)
}

func (w *sheetWriter) freezeAt(sheet string, rows int) {
	w.do(w.f.SetPanes(sheet, &excelize.Panes{Freeze: true, YSplit: rows,
		TopLeftCell: fmt.Sprintf("A%d", rows+1), ActivePane: "bottomLeft"}))
}

// loadWorkbook reads the workbook twin of the YAML file.
func loadWorkbook(path string) (*Source, error) {
	f, err := excelize.OpenFile(path, openOptions)
	if err != nil {
		if strings.Contains(err.Error(), "no such file") {
			return nil, err
		}
		return nil, Problems{{Where: filepath.Base(path), What: "not a workbook websim can read: " + err.Error()}}
	}
	src := newSource(path)
	src.Workbook = f
	name := filepath.Base(path)
	src.where[""] = name
	if settings, ok := src.sheet(name, SettingsSheet); ok {
		src.readSettings(name, settings)
	} else {
		for _, k := range settingKeys {
			src.bad[k] = true
		}
	}
	if types, ok := src.sheet(name, TypesSheet); ok {
		src.readTypes(name, types)
	} else {
		src.bad[KeyTypes], src.bad[sumKey] = true, true
	}
	return src, nil
}

// sheet finds a sheet by name, ignoring case, spaces and underscores, and
// returns its rows (raw values); a problem when it is missing or unreadable.
func (s *Source) sheet(file, want string) ([][]string, bool) {
	var names []string
	for _, n := range s.Workbook.GetSheetList() {
		if normKey(n) != normKey(want) {
			names = append(names, n)
			continue
		}
		// A truncated sheet can read as no rows without an error: probe first.
		if _, err := s.Workbook.GetCellValue(n, "A1"); err != nil {
			s.fail("", file+"!"+n, "cannot read the sheet: "+err.Error())
			return nil, false
		}
		rows, err := s.Workbook.GetRows(n, rawValues)
		if err != nil {
			s.fail("", file+"!"+n, "cannot read the sheet: "+err.Error())
			return nil, false
		}
		if len(rows) == 0 {
			s.fail("", file+"!"+n, "the sheet is empty; expected a header row")
			return nil, false
		}
		return rows, true
	}
	what := fmt.Sprintf("missing sheet %q", want)
	if c := closestSheet(want, names); c != "" {
		what += fmt.Sprintf("; did you mean %q?", c)
	}
	s.fail("", file, what)
	return nil, false
}

func closestSheet(want string, names []string) string {
	best := ""
	for _, n := range names {
		if strings.Contains(normKey(n), normKey(want)) || strings.Contains(normKey(want), normKey(n)) {
			best = n
		}
	}
	return best
}

// columns maps each wanted header (matched ignoring case, spaces and
// underscores) to its column index in the header row.
func columns(header []string, want []string) (map[string]int, []found, map[string]bool) {
	at := map[string]int{}
	present := map[string]bool{}
	var unknown []found
	for i, h := range header {
		if strings.TrimSpace(h) == "" {
			continue
		}
		hit := false
		for _, w := range want {
			if normKey(h) == normKey(w) {
				at[w], present[w], hit = i, true, true
			}
		}
		if !hit {
			cell, _ := excelize.CoordinatesToCellName(i+1, 1)
			unknown = append(unknown, found{strings.TrimSpace(h), cell})
		}
	}
	return at, unknown, present
}

func cellAt(rows [][]string, row, col int) string {
	if row < len(rows) && col < len(rows[row]) {
		return strings.TrimSpace(rows[row][col])
	}
	return ""
}

func (s *Source) readSettings(file string, rows [][]string) {
	loc := func(cell string) string { return file + "!" + SettingsSheet + "!" + cell }
	cols, unknownCols, present := columns(rows[0], []string{"Name", "Value"})
	for i := range unknownCols {
		unknownCols[i].where = loc(unknownCols[i].where)
	}
	s.reconcile(unknownCols, present, []string{"Name", "Value"}, []string{"Name", "Value"},
		"", loc("A1"), "column", "", true)
	if !present["Name"] || !present["Value"] {
		for _, k := range settingKeys {
			s.bad[k] = true
		}
		return
	}
	seen := map[string]bool{}
	var unknown []found
	for r := 1; r < len(rows); r++ {
		nameCell, _ := excelize.CoordinatesToCellName(cols["Name"]+1, r+1)
		valueCell, _ := excelize.CoordinatesToCellName(cols["Value"]+1, r+1)
		raw := cellAt(rows, r, cols["Name"])
		if raw == "" {
			continue
		}
		key := ""
		for _, k := range settingKeys {
			if normKey(k) == normKey(raw) {
				key = k
			}
		}
		if key == "" {
			unknown = append(unknown, found{raw, loc(nameCell)})
			continue
		}
		if seen[key] {
			s.fail(key, loc(nameCell), fmt.Sprintf("%s is set twice (also at %s)", key, s.where[key]))
			continue
		}
		seen[key] = true
		s.where[key] = loc(valueCell)
		value := cellAt(rows, r, cols["Value"])
		switch {
		case value == "" && key == KeySeed:
			s.Params.Seed = defaultSeed
		case value == "":
			s.fail(key, loc(valueCell), key+" has no value")
		default:
			if msg := s.Params.set(key, value); msg != "" {
				s.fail(key, loc(valueCell), key+" "+msg)
			}
		}
	}
	if !seen[KeySeed] {
		s.Params.Seed = defaultSeed
	}
	s.reconcile(unknown, seen, settingKeys, settingKeys[:4], "", loc("A1"), "setting", "", false)
}

func (s *Source) readTypes(file string, rows [][]string) {
	loc := func(cell string) string { return file + "!" + TypesSheet + "!" + cell }
	s.where[KeyTypes] = file + "!" + TypesSheet
	want := append([]string{typeColumn}, typeKeys...)
	cols, unknown, present := columns(rows[0], want)
	for i := range unknown {
		unknown[i].where = loc(unknown[i].where)
	}
	before := len(s.problems)
	s.reconcile(unknown, present, want, want, "", loc("A1"), "column", "", true)
	if len(s.problems) > before {
		s.bad[KeyTypes] = true
		s.bad[sumKey] = true
		return
	}
	for r := 1; r < len(rows); r++ {
		name := cellAt(rows, r, cols[typeColumn])
		nameCell, _ := excelize.CoordinatesToCellName(cols[typeColumn]+1, r+1)
		blank := name == ""
		for _, k := range typeKeys {
			blank = blank && cellAt(rows, r, cols[k]) == ""
		}
		if blank {
			continue
		}
		t := RequestType{Name: name}
		prefix := KeyTypes + "." + name + "."
		if name == "" {
			s.fail("", loc(nameCell), "a row with values but no type name")
			s.bad[sumKey] = true
			continue
		}
		s.where[KeyTypes+"."+name] = loc(nameCell)
		for _, k := range typeKeys {
			cell, _ := excelize.CoordinatesToCellName(cols[k]+1, r+1)
			s.where[prefix+k] = loc(cell)
			value := cellAt(rows, r, cols[k])
			if value == "" {
				s.fail(prefix+k, loc(cell), name+" "+k+" has no value")
			} else if msg := t.set(k, value); msg != "" {
				s.fail(prefix+k, loc(cell), name+" "+k+" "+msg)
			}
		}
		s.Params.Types = append(s.Params.Types, t)
	}
}
