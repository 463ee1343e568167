package modeltext

import (
	"strings"

	"github.com/websim/websim/templates"
)

// sheetLayout is how import presents a sheet, as the templates present
// theirs: a comment on each known header, column widths and drop-down
// lists, all by column.
type sheetLayout struct {
	comments  []string
	widths    []float64
	dropDowns []cellDropDown
}

// cellDropDown is a drop-down list on the cells sqref.
type cellDropDown struct {
	sqref string
	templates.DropDown
}

// The model's workbooks, by the names the reader looks for.
const (
	SvcData  = "SvcData.xlsx"
	ProcData = "ProcData.xlsx"
)

// layoutFor returns the layout function of a model: it lays out the
// sheets of SvcData.xlsx and ProcData.xlsx by what they are, with the
// names the model's drop-down lists offer; other workbooks' sheets get a
// plain frozen header.
func layoutFor(m *Model) func(*Book, *Sheet) sheetLayout {
	names := modelNames(m)
	entity := map[string]bool{}
	for _, e := range names.Entities {
		entity[strings.ToLower(e)] = true
	}
	return func(b *Book, s *Sheet) sheetLayout {
		kind := templates.OtherSheet
		switch {
		case strings.EqualFold(b.Name, SvcData):
			kind = svcKind(s.Name, entity)
			// An entity sheet not yet named in Arrivals (the blank
			// template's) is known by its header.
			if kind == templates.OtherSheet && column(s, "service") >= 0 && (column(s, "onsuccess") >= 0 || column(s, "onfailure") >= 0) {
				kind = templates.EntitySheet
			}
		case strings.EqualFold(b.Name, ProcData) && (column(s, "step") >= 0 || column(s, "proctime") >= 0):
			kind = templates.ServiceSheet
		}
		n := names
		if kind == templates.ServiceSheet {
			n.Steps = values(s, "step")
		}
		return layoutSheet(s, kind, n)
	}
}

// svcKind is what a SvcData sheet is, by its name.
func svcKind(name string, entity map[string]bool) templates.SheetKind {
	switch strings.ToLower(name) {
	case "settings":
		return templates.SettingsSheet
	case "serverinfo":
		return templates.ServerInfoSheet
	case "arrivals":
		return templates.ArrivalsSheet
	case "attributes":
		return templates.AttributesSheet
	case "experiments":
		return templates.ExperimentsSheet
	case "targets":
		return templates.TargetsSheet
	case "measured":
		return templates.MeasuredSheet
	}
	if entity[strings.ToLower(name)] {
		return templates.EntitySheet
	}
	return templates.OtherSheet
}

// layoutSheet lays out one sheet of the kind.
func layoutSheet(s *Sheet, kind templates.SheetKind, names templates.ModelNames) sheetLayout {
	l := sheetLayout{comments: make([]string, len(s.Header)), widths: make([]float64, len(s.Header))}
	for i, h := range s.Header {
		if h.IsBlank() {
			continue
		}
		if c, ok := templates.ColumnLayout(kind, h.Value); ok {
			l.comments[i], l.widths[i] = c.Comment, c.Width
		}
		if d, ok := templates.ColumnDropDown(kind, h.Value, names); ok {
			l.dropDowns = append(l.dropDowns, cellDropDown{cellRef(i, 2) + ":" + cellRef(i, templates.DropDownRows), d})
		}
	}
	if kind == templates.SettingsSheet {
		name, value := column(s, "name"), column(s, "value")
		for r, row := range s.Rows {
			if name < 0 || value < 0 {
				break
			}
			if d, ok := templates.SettingDropDown(at(row, name).Value); ok {
				l.dropDowns = append(l.dropDowns, cellDropDown{cellRef(value, r+2), d})
			}
		}
	}
	return l
}

// modelNames gathers the names a model's drop-down lists offer: the
// entities of Arrivals, the servers of ServerInfo, the service sheets of
// ProcData.
func modelNames(m *Model) templates.ModelNames {
	var n templates.ModelNames
	if b := m.bookFold(SvcData); b != nil {
		if s := b.sheetFold("Arrivals"); s != nil {
			n.Entities = values(s, "entity")
			n.Loads = loadHeaders(s)
		}
		if s := b.sheetFold("ServerInfo"); s != nil {
			n.Servers = values(s, "server")
		}
	}
	if b := m.bookFold(ProcData); b != nil {
		for _, s := range b.Sheets {
			n.Services = append(n.Services, s.Name)
		}
	}
	return n
}

// arrivalsColumns are the Arrivals columns that are not load levels.
var arrivalsColumns = map[string]bool{"entity": true, "patience": true, "retryprobability": true, "retrydelay": true, "maxretries": true,
	"note": true, "notes": true, "comment": true, "comments": true, "description": true, "remark": true, "remarks": true}

// loadHeaders lists the load levels of an Arrivals sheet: the headers of
// the columns after Entity that are not its other known columns or notes.
func loadHeaders(s *Sheet) []string {
	var out []string
	for _, h := range s.Header {
		if v := strings.TrimSpace(h.Value); v != "" && !arrivalsColumns[normKey(v)] {
			out = append(out, v)
		}
	}
	return out
}

// column finds the column whose header is key (compared as the reader
// compares headers), or -1.
func column(s *Sheet, key string) int {
	for i, h := range s.Header {
		if normKey(h.Value) == key {
			return i
		}
	}
	return -1
}

// values lists the non-blank texts of the column key, in row order.
func values(s *Sheet, key string) []string {
	i := column(s, key)
	if i < 0 {
		return nil
	}
	var out []string
	for _, r := range s.Rows {
		if v := strings.TrimSpace(at(r, i).Value); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// normKey is a header as the reader compares it: lower case, without
// spaces and underscores.
func normKey(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == ' ' || r == '\t' || r == '\u00a0' {
			return -1
		}
		return r
	}, strings.ToLower(strings.TrimSpace(s)))
}

func (m *Model) bookFold(name string) *Book {
	for _, b := range m.Books {
		if strings.EqualFold(b.Name, name) {
			return b
		}
	}
	return nil
}

func (b *Book) sheetFold(name string) *Sheet {
	for _, s := range b.Sheets {
		if strings.EqualFold(s.Name, name) {
			return s
		}
	}
	return nil
}
