package workbook

// Checks against input that would crash a run, hang it or give a
// plausible wrong answer: blank cells that mean nothing, times of zero,
// names that built-in names would shadow, deleted columns, renamed sheets.

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/rules"
)

// noArrivals is the word of a load cell whose entity does not arrive at
// that load.
const noArrivals = "None"

// blankArrival is a blank load cell, a problem only where its load runs.
type blankArrival struct {
	entity, load int
	file, sheet  string
	ref          string
}

// interArrival reads a load cell of Arrivals: a distribution of times
// between arrivals with a mean above 0, or None. A blank cell is kept for
// checkBlankArrivals.
func (r *reader) interArrival(t *table, c cell, entity, load int) engine.Dist {
	if c.bad {
		return nil
	}
	if c.blank() {
		r.blankArrivals = append(r.blankArrivals, blankArrival{entity: entity, load: load, file: t.file, sheet: t.sheet, ref: c.ref})
		return nil
	}
	if isWord(cleanText(c.text), noArrivals) {
		return nil
	}
	d, ok := r.arrivalDist(t, c)
	if !ok {
		return nil
	}
	return d
}

// backgroundArrivals reads a BackgroundInterArrival cell (blank: none).
func (r *reader) backgroundArrivals(t *table, c cell) (engine.Dist, bool) {
	if c.blank() || c.bad {
		return nil, !c.bad
	}
	return r.arrivalDist(t, c)
}

// arrivalDist reads a time between arrivals: its mean must be above 0, or
// requests would arrive without end at one instant.
func (r *reader) arrivalDist(t *table, c cell) (engine.Dist, bool) {
	d, ok := r.dist(t, c)
	if !ok || d == nil {
		return d, ok
	}
	if !(d.Mean() > 0) {
		r.errorf(t.file, t.sheet, c.ref, "inter-arrival time %s has a mean of 0, so requests would arrive without end at one instant; expected a time between arrivals above 0, or %s for no arrivals", d.String(), noArrivals)
		return nil, false
	}
	return d, true
}

// checkBlankArrivals reports the blank load cells of the loads that run
// (in any scenario): blank is not "no arrivals", None is.
func (r *reader) checkBlankArrivals(scenarios []scenarioRow) {
	runs := map[int]bool{}
	for _, sc := range scenarios {
		for _, l := range r.loads(&sc.st) {
			runs[l] = true
		}
	}
	for _, b := range r.blankArrivals {
		if runs[b.load] {
			r.errorf(b.file, b.sheet, b.ref, "blank inter-arrival time of %s at load %s, which runs; expected a distribution such as Exp(20), or %s for no arrivals of %s at this load",
				r.model.Entities[b.entity].Name, r.model.Loads[b.load], noArrivals, r.model.Entities[b.entity].Name)
		}
	}
}

// loadHasNoBlank reports whether load l has no blank cell (those are
// reported by checkBlankArrivals).
func (r *reader) loadHasNoBlank(l int) bool {
	for _, b := range r.blankArrivals {
		if b.load == l {
			return false
		}
	}
	return true
}

// reservedNames are the words an attribute or parameter must not be named:
// the names every expression sees, the expression language's words and
// websim's functions (compared ignoring case).
var reservedNames = func() []string {
	out := rules.BuiltinNames()
	out = append(out, "true", "false", "nil", "and", "or", "not", "in", "matches", "contains",
		"startsWith", "endsWith", "let", "if", "else",
		"util", "queue", "busy", "exp", "log", "sqrt", "pow", "abs", "min", "max", "round", "ceil", "floor",
		"int", "float", "len", "upper", "lower", "trim")
	return out
}()

// reservedName returns the built-in name that name would shadow, or "".
func reservedName(name string) string {
	for _, w := range reservedNames {
		if strings.EqualFold(w, name) {
			return w
		}
	}
	return ""
}

// decimalComma finds a number written with a decimal comma inside a
// call's parentheses ("Exp(1,5)").
var decimalComma = regexp.MustCompile(`\(\s*[0-9]+,[0-9]+\s*\)`)

// commaHint says, for a distribution that got one argument too many
// (err), that a decimal comma may be the cause; "" otherwise.
func commaHint(text string, err error) string {
	if err != nil && strings.Contains(err.Error(), "argument") && decimalComma.MatchString(text) {
		return " (a decimal comma? arguments are separated by commas, so write 1.5 with a point for one and a half)"
	}
	return ""
}

// checkSteps checks what a service's steps need from its columns: a
// ProcTime on every step that calls a server or processes on the
// application server (a blank one, or a missing column, would silently be
// a time of 0).
func (r *reader) checkSteps(t *table, svc *engine.Service) {
	if t == nil {
		return
	}
	var needing []string
	for i, rw := range t.rows {
		if i >= len(svc.Steps) {
			break
		}
		st := &svc.Steps[i]
		if st.Kind == engine.Nested {
			continue
		}
		c := t.get(rw, "ProcTime")
		if c.bad || !c.blank() {
			continue
		}
		if !t.has("ProcTime") {
			needing = append(needing, stepLabel(st.Name, rw))
			continue
		}
		what := "processes on the application server"
		if st.Kind == engine.Call {
			what = "calls a server"
			if st.Server >= 0 && st.Server < len(r.model.Servers) {
				what = "calls server " + r.model.Servers[st.Server].Name
			}
		}
		r.errorf(t.file, t.sheet, c.ref, "step %s %s but its ProcTime is blank; expected a time such as Exp(20) (0 for none)", stepLabel(st.Name, rw), what)
	}
	if len(needing) > 0 {
		r.errorCause(xlsx.ErrNotFound, t.file, t.sheet, "", "missing column %q; expected it in the header row (row %d): steps %s call a server or process on the application server and need a time",
			"ProcTime", t.headerRow, strings.Join(needing, ", "))
	}
}

func stepLabel(name string, rw row) string {
	if name == "" {
		return fmt.Sprintf("of row %d", rw.num)
	}
	return fmt.Sprintf("%q", name)
}

// checkServerColumns reports service sheets without a Server column when
// some server of ServerInfo is called by no step: a deleted Server column
// silently turns calls into local processing.
func (r *reader) checkServerColumns(sheets []*svcSheet) {
	if len(r.model.Servers) == 0 {
		return
	}
	called := make([]bool, len(r.model.Servers))
	for _, sv := range r.model.Services {
		for _, st := range sv.Steps {
			if st.Kind == engine.Call && st.Server >= 0 && st.Server < len(called) {
				called[st.Server] = true
			}
		}
	}
	var idle []string
	for i, c := range called {
		if !c {
			idle = append(idle, r.model.Servers[i].Name)
		}
	}
	if len(idle) == 0 {
		return
	}
	for _, s := range sheets {
		if s.service < 0 || s.t == nil || !s.t.has("Step") || s.t.has("Server") || s.t.has("Service") && !s.t.has("ProcTime") {
			continue
		}
		hasTime := false
		for _, rw := range s.t.rows {
			if !s.t.get(rw, "ProcTime").blank() {
				hasTime = true
			}
		}
		if hasTime {
			r.errorCause(xlsx.ErrNotFound, s.t.file, s.t.sheet, "", "missing column %q; expected it in the header row (row %d): without it every step processes on the application server, and no step calls %s of ServerInfo",
				"Server", s.t.headerRow, strings.Join(idle, ", "))
		}
	}
}

// renamedSheet returns the unread SvcData sheet that has the required
// columns of spec (a renamed Settings or ServerInfo), or "".
func (r *reader) renamedSheet(spec sheetSpec) string {
	for _, name := range r.svc.sheets {
		if r.used[r.svc.name+"!"+name] || resultSheets[strings.ToLower(name)] {
			continue
		}
		if r.hasColumnsOf(name, spec) {
			return name
		}
	}
	return ""
}

// hasColumnsOf says whether SvcData's sheet name has every column that
// spec requires.
func (r *reader) hasColumnsOf(name string, spec sheetSpec) bool {
	xt, _ := r.svc.x.ReadTable(name, xlsx.Spec{Columns: spec.columns, Required: spec.required})
	if xt == nil {
		return false
	}
	for _, c := range spec.required {
		if _, ok := xt.Col[c]; !ok {
			return false
		}
	}
	return true
}

// checkMissingSheets reports, once, a missing ServerInfo that steps need
// (instead of an unknown server per step) and a missing Settings sheet,
// saying so when another sheet has its columns (renamed).
func (r *reader) checkMissingSheets() {
	if _, ok := r.svc.hasSheet("ServerInfo"); !ok && len(r.unknownServers) > 0 {
		var names []string
		for _, u := range r.unknownServers {
			if !slices.Contains(names, u) {
				names = append(names, u)
			}
		}
		hint := ""
		if s := r.renamedSheet(serverSpec); s != "" {
			hint = fmt.Sprintf(" (sheet %q has its columns: rename it ServerInfo)", s)
		}
		r.errorCause(xlsx.ErrNotFound, r.svc.name, "ServerInfo", "", "missing sheet; expected a sheet \"ServerInfo\" with the servers the steps call (%s)%s", strings.Join(names, ", "), hint)
	}
	if _, ok := r.svc.hasSheet("Settings"); !ok {
		if s := r.renamedSheet(settingsSpec); s != "" {
			r.errorCause(xlsx.ErrNotFound, r.svc.name, "Settings", "", "missing sheet; expected a sheet \"Settings\" (sheet %q has its columns Name and Value: rename it Settings, or its settings are not read)", s)
		} else {
			// Without the sheet every setting would take its default
			// (100,000 observations, no warm-up) without a word.
			r.errorCause(xlsx.ErrNotFound, r.svc.name, "Settings", "", "missing sheet; expected a sheet \"Settings\" with the columns Name and Value (a setting left out takes its default, but the sheet is needed)")
		}
	}
}
