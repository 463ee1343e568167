package templates

import (
	"github.com/websim/websim/workbook"
	"strings"
	"unicode"
)

// This file lays out sheets that were not generated here (the workbooks
// `websim import` writes) as the templates lay out their own: the comment
// and width of each known header, and the drop-down lists of its column.
// It exposes data only; the caller writes the workbook.

// SheetKind is what a sheet of a model is, for its layout.
type SheetKind int

// The kinds of sheets the templates lay out; OtherSheet is the user's own.
const (
	OtherSheet SheetKind = iota
	SettingsSheet
	ServerInfoSheet
	ArrivalsSheet
	AttributesSheet
	EntitySheet
	ExperimentsSheet
	ServiceSheet
	TargetsSheet
	MeasuredSheet
)

// DropDownRows is the last row the templates' drop-down lists cover (from
// row 2, under the header).
const DropDownRows = validationRows

// CommentAuthor is the author of the templates' header comments.
const CommentAuthor = author

// Column is how the templates present a known column: the comment on its
// header cell and the column's width.
type Column struct {
	Comment string
	Width   float64
}

// ColumnLayout returns the comment and width the templates give header in
// a sheet of the kind. Headers are matched ignoring case, spaces and
// underscores, as the reader matches them. ok is false for a column the
// templates do not know (the user's own).
func ColumnLayout(kind SheetKind, header string) (c Column, ok bool) {
	var cols []column
	switch kind {
	case SettingsSheet:
		cols = settingsColumns
	case ServerInfoSheet:
		cols = serverColumns
	case ArrivalsSheet:
		cols = append([]column{entityArrivalColumn}, retryColumns...)
	case AttributesSheet:
		cols = attributeColumns
	case EntitySheet:
		cols = routeColumns
	case ExperimentsSheet:
		cols = []column{scenarioColumn, chartColumn}
	case ServiceSheet:
		cols = stepColumns
	case TargetsSheet:
		cols = targetColumns
	case MeasuredSheet:
		cols = measuredColumns
	default:
		return Column{}, false
	}
	key := layoutKey(header)
	for _, col := range cols {
		if layoutKey(col.header) == key {
			return Column{Comment: col.comment, Width: col.width}, true
		}
	}
	switch {
	case key == "" || kind != ArrivalsSheet && kind != ExperimentsSheet:
		return Column{}, false
	case kind == ArrivalsSheet:
		col := loadColumn(header)
		return Column{Comment: col.comment, Width: col.width}, true
	}
	return Column{Comment: "The setting " + header + " in this scenario (as in Settings). Blank: the Settings value.", Width: 14}, true
}

// ModelNames are the names of a model that the drop-down lists offer.
type ModelNames struct {
	// Entities are the Arrivals entities, Services the ProcData sheets,
	// Servers the ServerInfo servers.
	Entities, Services, Servers []string
	// Steps are the steps of the service sheet being laid out.
	Steps []string
	// Loads are the load levels (the Arrivals headers of their columns).
	Loads []string
}

// DropDown is a drop-down list on a column's cells (rows 2 to
// DropDownRows).
type DropDown struct {
	Items []string
	// Strict refuses other values; otherwise Excel warns and lets them
	// stand (an expression, a name added later).
	Strict bool
	// What names a value for the messages ("a server").
	What string
}

// ColumnDropDown returns the drop-down list the templates put on the column
// header of a sheet of the kind, given the model's names. ok is false when
// the column has none, or when its list would be empty or longer than
// Excel's 255 characters.
func ColumnDropDown(kind SheetKind, header string, names ModelNames) (DropDown, bool) {
	var d DropDown
	switch key := layoutKey(header); {
	case kind == AttributesSheet && key == "entity":
		d = DropDown{Items: names.Entities, What: "an entity"}
	case kind == MeasuredSheet && key == "entity":
		d = DropDown{Items: names.Entities, What: "an entity"}
	case kind == MeasuredSheet && key == "load":
		d = DropDown{Items: names.Loads, What: "a load"}
	case kind == MeasuredSheet && key == "measure":
		d = DropDown{Items: MeasuredChoices(names.Servers), What: "a measure"}
	case kind == EntitySheet && key == "service":
		d = DropDown{Items: names.Services, What: "a service"}
	case kind == EntitySheet && (key == "onsuccess" || key == "onfailure"):
		d = DropDown{Items: append(append([]string{}, names.Services...), "END", "EXIT"), What: "a service, END or EXIT"}
	case kind == TargetsSheet && key == "entity":
		d = DropDown{Items: names.Entities, What: "an entity"}
	case kind == TargetsSheet && key == "measure":
		d = DropDown{Items: measures, Strict: true, What: "a measure"}
	case kind == ExperimentsSheet && key == "selectionrule":
		d = DropDown{Items: settingChoices("SelectionRule"), Strict: true, What: "a value of SelectionRule"}
	case kind == ServiceSheet && key == "server":
		d = DropDown{Items: append([]string{"App"}, names.Servers...), What: "a server"}
	case kind == ServiceSheet && key == "service":
		d = DropDown{Items: names.Services, What: "a service"}
	case kind == ServiceSheet && key == "mode":
		d = DropDown{Items: modes, What: "a mode"}
	case kind == ServiceSheet && (key == "onsuccess" || key == "onfailure"):
		d = DropDown{Items: append(append([]string{}, names.Steps...), "NEXT", "DONE", "FAIL"), What: "a step, NEXT, DONE or FAIL"}
	default:
		return DropDown{}, false
	}
	if len(d.Items) == 0 || len(strings.Join(d.Items, ",")) > 250 {
		return DropDown{}, false
	}
	return d, true
}

// SettingDropDown returns the drop-down list the templates put on the Value
// cell of the Settings row name (SelectionRule's rules).
func SettingDropDown(name string) (DropDown, bool) {
	for _, b := range workbook.BuiltinSettings {
		if layoutKey(b.Name) == layoutKey(name) && len(b.Choices) > 0 {
			return DropDown{Items: b.Choices, Strict: true, What: "a value of " + b.Name}, true
		}
	}
	return DropDown{}, false
}

// layoutKey is a header as the reader compares it: lower case, without
// spaces and underscores.
func layoutKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '_' || unicode.IsSpace(r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
