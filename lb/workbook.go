package lb

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/websim/websim/internal/xlsx"
)

// The sheets of the parameters workbook.
const (
	SettingsSheet = "Settings"
	TypesSheet    = "RequestTypes"
	typeColumn    = "type"
)

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
func NewParametersWorkbook(p Params) (*xlsx.Book, error) {
	b := xlsx.New()
	if err := writeParameters(b, p); err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

func writeParameters(b *xlsx.Book, p Params) error {
	b.RenameSheet(b.Sheets()[0], SettingsSheet)
	b.NewSheet(TypesSheet)

	b.SetRow(SettingsSheet, 1, "Name", "Value", "Note")
	b.SetStyle(SettingsSheet, "A1", "C1", xlsx.Bold)
	values := []any{p.Servers, p.RequestsPerSec, p.Requests, string(p.Method), p.Seed}
	for i, key := range settingKeys {
		b.SetRow(SettingsSheet, i+2, key, values[i], settingNotes[key])
		b.Comment(SettingsSheet, fmt.Sprintf("A%d", i+2), "", settingNotes[key])
	}
	b.Comment(SettingsSheet, "A1", "", "The setting's name, as in the YAML file; case, spaces and underscores do not matter.")
	b.Comment(SettingsSheet, "B1", "", "The setting's value; websim lb --"+KeyServers+"=N and the other flags override it.")
	methodRow := slices.Index(settingKeys, KeyMethod) + 2
	b.AddDropList(SettingsSheet, fmt.Sprintf("B%d", methodRow), xlsx.DropList{Items: methods, Strict: true,
		Title: "method", Message: "Choose roundrobin or busyness."})
	b.ColWidths(SettingsSheet, 0, 30, 14, 100)
	b.FreezeRows(SettingsSheet, 1)
	b.PrintOneWide(SettingsSheet) // the notes' column, not a page of its own

	headers := append([]string{typeColumn}, typeKeys...)
	for i, h := range headers {
		b.SetCell(TypesSheet, xlsx.CellName(i, 1), h)
		b.Comment(TypesSheet, xlsx.CellName(i, 1), "", typeNotes[h])
	}
	b.SetStyle(TypesSheet, "A1", "E1", xlsx.Bold)
	for i, t := range p.Types {
		b.SetRow(TypesSheet, i+2, t.Name, t.OutputCapacity, t.Proportion, t.AvgServiceTimeSecs, t.DeviationServiceTimeSecs)
	}
	b.ColWidths(TypesSheet, 0, 14, 17, 12, 23, 29)
	b.FreezeRows(TypesSheet, 1)
	b.SetActiveSheet(0)
	return b.Err()
}

// loadWorkbook reads the workbook twin of the YAML file.
func loadWorkbook(path string) (*Source, error) {
	f, err := xlsx.Open(path)
	if err != nil {
		var p Problem
		if errors.As(err, &p) {
			return nil, Problems{p}
		}
		return nil, err
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
// returns its rows (raw values, formulas resolved by the xlsx layer) by
// position: rows[r] is row r+1. Its problems are reported; ok is false
// when it is missing, unreadable or empty.
func (s *Source) sheet(file, want string) ([][]string, bool) {
	var names []string
	for _, n := range s.Workbook.Sheets() {
		if xlsx.NormKey(n) != xlsx.NormKey(want) {
			names = append(names, n)
			continue
		}
		grid, ps, ok := s.Workbook.ReadGrid(n)
		s.problems = append(s.problems, ps...) // located, with their causes
		if !ok {
			return nil, false
		}
		if len(grid) == 0 {
			s.fail("", file+"!"+n, "the sheet is empty; expected a header row")
			return nil, false
		}
		rows := make([][]string, grid[len(grid)-1].Num)
		for _, r := range grid {
			rows[r.Num-1] = r.Cells
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
		if strings.Contains(xlsx.NormKey(n), xlsx.NormKey(want)) || strings.Contains(xlsx.NormKey(want), xlsx.NormKey(n)) {
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
			if xlsx.NormKey(h) == xlsx.NormKey(w) {
				at[w], present[w], hit = i, true, true
			}
		}
		if !hit {
			cell := xlsx.CellName(i, 1)
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
		nameCell := xlsx.CellName(cols["Name"], r+1)
		valueCell := xlsx.CellName(cols["Value"], r+1)
		raw := cellAt(rows, r, cols["Name"])
		if raw == "" {
			continue
		}
		key := ""
		for _, k := range settingKeys {
			if xlsx.NormKey(k) == xlsx.NormKey(raw) {
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
		nameCell := xlsx.CellName(cols[typeColumn], r+1)
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
			cell := xlsx.CellName(cols[k], r+1)
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
