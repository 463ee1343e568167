package templates

import (
	"strings"

	"github.com/websim/websim/internal/xlsx"
)

// model is the content of a template's SvcData.xlsx and ProcData.xlsx. The
// model files (asum.go, mmc.go, blank.go) fill it; the writers below lay it
// out with headers, comments, widths and drop-down lists.
type model struct {
	settings []setting
	servers  []server
	// loads are the Arrivals load columns' headers, in order.
	loads    []string
	arrivals []arrival
	// attributes are Attributes rows: entity, attribute, value.
	attributes [][3]string
	entities   []entity
	// experiments is nil for no Experiments sheet; else its setting
	// columns and rows.
	experiments *experiments
	// targets are the Targets sheet's rows; nil for no sheet.
	targets []target
	// measured adds an empty Measured sheet, laid out for the user's
	// figures.
	measured bool
	services []service
	// placeholder marks the blank template: its entity and service sheets
	// are placeholders to rename, not names to offer in drop-down lists.
	placeholder bool
}

type setting struct {
	name  string
	value any // a number or text
	note  string
}

type server struct {
	name     string
	capacity int
	// timeLimit is 0 for none.
	timeLimit              float64
	backgroundInterArrival string
	backgroundServiceTime  string
}

type arrival struct {
	entity string
	// interArrival has one distribution per load, as loads.
	interArrival []string
}

type entity struct {
	name     string
	services []route
}

// route is a row of an entity sheet: a service and where to go next
// (blank for the default).
type route struct{ service, onSuccess, onFailure string }

type experiments struct {
	columns []string
	rows    [][]any // scenario name first, then one value per column
}

type service struct {
	name  string
	steps []step
}

// step is a ProcData row; blank fields take their defaults.
type step struct {
	name, procTime string
	successRate    any // nil, a number or an expression
	server         string
	nested         string // the Service column
	count          any    // nil, a number or an expression
	mode           string
	condition      string
	onSuccess      string
	onFailure      string
}

// column is a header with the comment that explains it.
type column struct {
	header, comment string
	width           float64
}

// The column comments, in the contract's words.
var (
	settingsColumns = []column{
		{"Name", settingsNameComment(), 16},
		{"Value", "The setting's value. A blank takes the default.", 26},
		{"Note", "Your notes; websim does not read this column.", 70},
	}
	serverColumns = []column{
		{"Server", "An external (back-end) server's name, used in ProcData's Server column. App is reserved for the application servers.", 12},
		{"Capacity", "How many jobs the server serves at once (1 or more).", 11},
		{"TimeLimit", "Once this time has passed since a call was sent (time in the server's queue included), the call fails for the request and its extra AppRes unit is released; the server still does the work to the end. Blank: no limit.", 11},
		{"BackgroundInterArrival", "Time between background jobs (a distribution, e.g. Exp(20.8)): load from other applications. Blank, with BackgroundServiceTime blank: no background load.", 24},
		{"BackgroundServiceTime", "Service time of a background job (a distribution, e.g. Exp(150)).", 23},
	}
	entityArrivalColumn = column{"Entity", "The entity (request type); a sheet of the same name lists the services it runs.", 12}
	retryColumns        = []column{
		{"Patience", "A request still unanswered after this time is abandoned by its user; the work already started goes on. Blank: users wait for ever.", 11},
		{"RetryProbability", "After a failure, the probability that the user retries, as a new attempt of the same request: a number, or an expression that sees Elapsed (the failed attempt's time) and TimedOut (a TimeLimit failed it), e.g. TimedOut ? 0.1 : 0.8. Blank: 0.", 17},
		{"RetryDelay", "Time between a failure and the retry (a number or a distribution).", 12},
		{"MaxRetries", "The most retries a request makes.", 12},
	}
	attributeColumns = []column{
		{"Entity", "The entity (as in Arrivals) whose requests carry the attribute.", 12},
		{"Attribute", "The attribute's name, usable in every expression (e.g. as a Count).", 14},
		{"Value", "A distribution or an expression, drawn once per request at arrival, e.g. UniformInt(1,6).", 18},
	}
	routeColumns = []column{
		{"Service", "A service (a ProcData sheet) the entity runs. The first row is the first service.", 16},
		{"OnSuccess", "Where to go when the service succeeds: a service name, END or EXIT. Blank: the next row (END after the last).", 14},
		{"OnFailure", "Where to go when the service fails: a service name, END or EXIT. Blank: EXIT.", 14},
	}
	scenarioColumn = column{"Scenario", "A scenario's name. Each row overrides the settings named in the other columns and runs over the Loads; the first scenario is the baseline that differences are measured from.", 16}
	stepColumns    = []column{
		{"Step", "The step's name, unique in this sheet; OnSuccess and OnFailure may name it.", 12},
		{"ProcTime", "Processing time (a distribution, e.g. Exp(30)): on the named Server, or on the application server itself when Server is blank or App.", 12},
		{"SuccessRate", "Probability that the step succeeds (a number or an expression). Blank: 1.", 12},
		{"Server", "A ServerInfo server: the step is a call, holding one more AppRes unit while it waits for the answer. Blank or App: processing on the application server, on the unit the request already holds.", 10},
		{"Service", "Another service (a ProcData sheet), or several separated by commas (GetCards, GetAuth), run as nested services, each Count times in Mode; a copy's expressions see Copy, its number from 1.", 12},
		{"Count", "How many times the nested Service runs (an expression, e.g. Cards). Blank: 1.", 9},
		{"Mode", "parallel or sequential, or an expression that yields one of the two, e.g. AppUtil < SwitchUtil ? \"parallel\" : \"sequential\". Parallel: the parent holds one more AppRes unit and waits for all copies; the first failure fails it at once. Blank: sequential.", 46},
		{"Condition", "An expression; when false the step is skipped as a success. Blank: always run.", 12},
		{"OnSuccess", "Where to go after success: a step of this sheet, NEXT (the next row), DONE (the service succeeds) or FAIL (it fails). Blank: NEXT; after the last row NEXT means DONE.", 12},
		{"OnFailure", "Where to go after failure: a step of this sheet, NEXT, DONE or FAIL. Blank: FAIL.", 12},
	}
)

// loadColumn is the comment of a load level's column in Arrivals.
func loadColumn(label string) column {
	return column{label, "Load level " + label + ": the time between arrivals of each entity (a distribution, e.g. Exp(40)). One column per load level; the header is the level's label, used in Settings' Loads.", 10}
}

const (
	validationRows = 500 // drop-down lists cover rows 2..validationRows
	author         = "websim"
)

type sheetWriter struct {
	b     *xlsx.Book
	first bool
}

func newSheetWriter() *sheetWriter { return &sheetWriter{b: xlsx.New(), first: true} }

// sheet adds a sheet with a header row: each header styled, with its
// comment, its column width, and the header frozen.
func (w *sheetWriter) sheet(name string, cols []column) {
	if w.first {
		w.b.RenameSheet("Sheet1", name)
		w.first = false
	} else {
		w.b.NewSheet(name)
	}
	for i, c := range cols {
		cell := cellName(i+1, 1)
		w.b.SetCell(name, cell, c.header)
		w.b.Comment(name, cell, c.header, c.comment)
		w.b.ColWidths(name, i, c.width)
	}
	if len(cols) > 0 {
		w.b.SetStyle(name, "A1", cellName(len(cols), 1), xlsx.Header)
	}
	w.b.FreezeRows(name, 1)
}

// row writes values from column A; nil and "" leave a cell blank.
func (w *sheetWriter) row(sheet string, row int, values ...any) {
	for i, v := range values {
		if v == nil || v == "" {
			continue
		}
		w.b.SetCell(sheet, cellName(i+1, row), v)
	}
}

// dropDown puts a drop-down list on rows 2..validationRows of the 1-based
// column col; items too long for Excel's list are left out.
func (w *sheetWriter) dropDown(sheet string, col int, items []string, strict bool, what string) {
	if len(items) == 0 || len(strings.Join(items, ",")) > 250 {
		return
	}
	w.dropDownAt(sheet, cellName(col, 2)+":"+cellName(col, validationRows), items, strict, what)
}

func (w *sheetWriter) dropDownAt(sheet, sqref string, items []string, strict bool, what string) {
	d := xlsx.DropList{Items: items, Strict: strict, Title: "Not " + what + " in the list",
		Message: "This is not " + what + " known when the template was made (" + strings.Join(items, ", ") + "). Keep it if you added it, or an expression."}
	if strict {
		d.Title, d.Message = "Not "+what, "Choose "+what+" from the list: "+strings.Join(items, ", ")+"."
	}
	w.b.AddDropList(sheet, sqref, d)
}

// done stamps the workbook and returns it, or the first error met.
func (w *sheetWriter) done(template, what string) (*xlsx.Book, error) {
	stamp(w.b, template, what)
	if err := w.b.Err(); err != nil {
		w.b.Close()
		return nil, err
	}
	w.b.SetActiveSheet(0)
	return w.b, nil
}

// cellName is the A1 name of the 1-based column col in row.
func cellName(col, row int) string { return xlsx.CellName(col-1, row) }

// svcData lays out SvcData.xlsx.
func (m *model) svcData(template string) (*xlsx.Book, error) {
	w := newSheetWriter()
	w.sheet("Settings", settingsColumns)
	for i, s := range m.settings {
		w.row("Settings", i+2, s.name, s.value, s.note)
		if choices := settingChoices(s.name); len(choices) > 0 {
			w.dropDownAt("Settings", cellName(2, i+2), choices, true, "a value of "+s.name)
		}
	}

	w.sheet("ServerInfo", serverColumns)
	for i, s := range m.servers {
		var limit any
		if s.timeLimit > 0 {
			limit = s.timeLimit
		}
		w.row("ServerInfo", i+2, s.name, s.capacity, limit, s.backgroundInterArrival, s.backgroundServiceTime)
	}

	cols := []column{entityArrivalColumn}
	for _, l := range m.loads {
		cols = append(cols, loadColumn(l))
	}
	cols = append(cols, retryColumns...)
	w.sheet("Arrivals", cols)
	for i, a := range m.arrivals {
		vals := []any{a.entity}
		for _, d := range a.interArrival {
			vals = append(vals, d)
		}
		w.row("Arrivals", i+2, vals...)
	}

	w.sheet("Attributes", attributeColumns)
	for i, a := range m.attributes {
		w.row("Attributes", i+2, a[0], a[1], a[2])
	}
	w.dropDown("Attributes", 1, m.entityNames(), false, "an entity")

	serviceNames := m.serviceNames()
	targets := append(append([]string{}, serviceNames...), "END", "EXIT")
	for _, e := range m.entities {
		w.sheet(e.name, routeColumns)
		for i, r := range e.services {
			w.row(e.name, i+2, r.service, r.onSuccess, r.onFailure)
		}
		w.dropDown(e.name, 1, serviceNames, false, "a service")
		w.dropDown(e.name, 2, targets, false, "a service, END or EXIT")
		w.dropDown(e.name, 3, targets, false, "a service, END or EXIT")
	}

	if x := m.experiments; x != nil {
		cols := []column{scenarioColumn}
		for _, c := range x.columns {
			if c == chartColumn.header {
				cols = append(cols, chartColumn)
				continue
			}
			cols = append(cols, column{c, "The setting " + c + " in this scenario (as in Settings). Blank: the Settings value.", 14})
		}
		w.sheet("Experiments", cols)
		for i, r := range x.rows {
			w.row("Experiments", i+2, r...)
		}
		for i, c := range x.columns {
			if choices := settingChoices(c); len(choices) > 0 {
				w.dropDown("Experiments", i+2, choices, true, "a value of "+c)
			}
		}
	}
	m.writeTargets(w)
	m.writeMeasured(w)
	return w.done(template, "websim model: services, servers and load (SvcData)")
}

// chartColumn is the Experiments column of chart groups (not a setting).
var chartColumn = column{"Chart", "The chart groups this scenario is drawn in on the Charts sheet, a comma list; scenarios with the same name share charts. Blank everywhere: one group of every scenario.", 40}

// procData lays out ProcData.xlsx: a sheet per service.
func (m *model) procData(template string) (*xlsx.Book, error) {
	w := newSheetWriter()
	servers := []string{"App"}
	for _, s := range m.servers {
		servers = append(servers, s.name)
	}
	for _, s := range m.services {
		w.sheet(s.name, stepColumns)
		var steps []string
		for i, st := range s.steps {
			steps = append(steps, st.name)
			w.row(s.name, i+2, st.name, st.procTime, st.successRate, st.server, st.nested,
				st.count, st.mode, st.condition, st.onSuccess, st.onFailure)
		}
		goTo := append(steps, "NEXT", "DONE", "FAIL")
		w.dropDown(s.name, 4, servers, false, "a server")
		w.dropDown(s.name, 5, m.serviceNames(), false, "a service")
		w.dropDown(s.name, 7, modes, false, "a mode")
		w.dropDown(s.name, 9, goTo, false, "a step, NEXT, DONE or FAIL")
		w.dropDown(s.name, 10, goTo, false, "a step, NEXT, DONE or FAIL")
	}
	return w.done(template, "websim model: the steps of each service (ProcData)")
}

var modes = []string{"parallel", "sequential"}

func (m *model) serviceNames() []string {
	if m.placeholder {
		return nil
	}
	var out []string
	for _, s := range m.services {
		out = append(out, s.name)
	}
	return out
}

func (m *model) entityNames() []string {
	if m.placeholder {
		return nil
	}
	var out []string
	for _, a := range m.arrivals {
		out = append(out, a.entity)
	}
	return out
}

// ColumnNote returns the note the templates put on a column's header, for
// a sheet as workbook.Sheets names it ("ServerInfo", "<entity>",
// "<service>"); "" when there is none.
func ColumnNote(sheet, header string) string {
	var cols []column
	switch sheet {
	case "Settings":
		cols = settingsColumns
	case "ServerInfo":
		cols = serverColumns
	case "Arrivals":
		cols = append([]column{entityArrivalColumn}, retryColumns...)
	case "Attributes":
		cols = attributeColumns
	case "<entity>":
		cols = routeColumns
	case "Experiments":
		cols = []column{scenarioColumn, chartColumn}
	case "<service>":
		cols = stepColumns
	case "Targets":
		cols = targetColumns
	case "Measured":
		cols = measuredColumns
	}
	for _, c := range cols {
		if c.header == header {
			return c.comment
		}
	}
	return ""
}
