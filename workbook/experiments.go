package workbook

import (
	"maps"
	"slices"
	"strings"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/suggest"
	"github.com/websim/websim/rules"
	"github.com/websim/websim/study"
)

var experimentsSpec = sheetSpec{
	columns:  []string{"Scenario", "Chart"},
	required: []string{"Scenario"},
	extra:    true,
}

// scenarioRow is a scenario's settings before they are resolved.
type scenarioRow struct {
	name      string
	st        state
	overrides []study.Setting
	// charts are the chart groups of the Chart column, in order.
	charts []string
}

// readExperiments reads the scenarios: one per Experiments row, each
// overriding some settings of the base, or the base alone as "Base".
func (r *reader) readExperiments() []scenarioRow {
	t := r.table(r.svc, "Experiments", experimentsSpec, false)
	if t == nil {
		return []scenarioRow{{name: "Base", st: r.base}}
	}
	if !t.has("Scenario") {
		return nil
	}
	if len(t.rows) == 0 {
		// Its rows cleared: as without the sheet, which the optional
		// Targets and Measured sheets are too when only their header is left.
		r.warnf(t.file, t.sheet, "", "no scenarios under the header: the base settings run alone, as scenario Base (delete the sheet, or add a row per scenario)")
		return []scenarioRow{{name: "Base", st: r.base}}
	}
	type column struct {
		extraColumn
		name string
	}
	var cols []column
	seen := map[string]string{}
	for _, e := range t.extra {
		name, ok := r.settingName(e.header)
		switch {
		case !ok:
			r.errorf(t.file, t.sheet, e.cell, "column %q is not a setting%s; expected a Name of the Settings sheet (a built-in setting or a parameter)", e.header, suggest.DidYouMean(e.header, r.allSettingNames()))
			continue
		case name == "TimeUnit":
			r.errorf(t.file, t.sheet, e.cell, "TimeUnit cannot change between scenarios; expected it in the Settings sheet only")
			continue
		}
		if prev, dup := seen[name]; dup {
			r.errorf(t.file, t.sheet, e.cell, "setting %q repeats %s; expected each setting once", name, prev)
			continue
		}
		seen[name] = e.cell
		cols = append(cols, column{e, name})
	}
	var out []scenarioRow
	names := map[string]string{}
	for _, rw := range t.rows {
		name, _, ok := r.rowName(t, rw, "Scenario", "scenario", "a scenario without a name", names)
		if !ok {
			continue
		}
		sc := scenarioRow{name: name, st: r.base, charts: chartGroups(t.get(rw, "Chart").text)}
		sc.st.params = slices.Clone(r.base.params)
		sc.st.cells = maps.Clone(r.base.cells)
		for _, c := range cols {
			v := t.at(rw, c.index)
			if v.bad || v.blank() {
				continue
			}
			text := cleanText(v.text)
			r.apply(&sc.st, t.file, t.sheet, v.ref, c.name, text)
			sc.overrides = append(sc.overrides, study.Setting{Name: c.name, Value: text})
		}
		out = append(out, sc)
	}
	if len(out) == 0 {
		r.errorf(t.file, t.sheet, "", "no scenarios; expected a row per scenario under the header, or no Experiments sheet for the base settings alone")
	}
	sameChartGroups(out)
	return out
}

// sameChartGroups spells each chart group as its first row does, so that
// names that differ only in case or spacing ("Fig. 7" and " fig.  7")
// are one group, as headers are matched.
func sameChartGroups(rows []scenarioRow) {
	first := map[string]string{}
	for i := range rows {
		var groups []string
		for _, g := range rows[i].charts {
			key := strings.ToLower(strings.Join(strings.Fields(g), " "))
			if f, ok := first[key]; ok {
				g = f
			} else {
				first[key] = g
			}
			if !slices.Contains(groups, g) {
				groups = append(groups, g)
			}
		}
		rows[i].charts = groups
	}
}

// scenario resolves a scenario's loads and RAT and gives it its own model,
// sharing the services, servers and entities.
func (r *reader) scenario(sc scenarioRow) study.Scenario {
	m := *r.model
	m.App = sc.st.app
	m.App.RAT = r.rat(&sc.st)
	m.Params = make([]engine.Param, len(r.paramNames))
	for i, n := range r.paramNames {
		m.Params[i] = engine.Param{Name: n, Value: sc.st.params[i]}
	}
	run := sc.st.run
	run.Loads = r.loads(&sc.st)
	return study.Scenario{Name: sc.name, Model: &m, Run: run, Overrides: sc.overrides, Charts: sc.charts}
}

// chartGroups splits a Chart cell ("Figure 7, 10 servers") into its group
// names, trimmed, blanks and repeats dropped.
func chartGroups(cell string) []string {
	var out []string
	for _, g := range strings.Split(cell, ",") {
		if g = strings.TrimSpace(cleanText(g)); g != "" && !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	return out
}

// rat compiles a RAT setting once per place it is written.
func (r *reader) rat(s *state) engine.Number {
	if s.rat == "" {
		return nil
	}
	key := strings.Join(s.ratLoc[:], "!")
	if v, ok := r.ratCache[key]; ok {
		return v
	}
	file, sheet, ref := s.ratLoc[0], s.ratLoc[1], s.ratLoc[2]
	var out engine.Number
	if v, isNum := parseNumber(s.rat); isNum {
		if v < 0 {
			r.errorf(file, sheet, ref, "RAT %s is negative; expected a time >= 0 or an expression", formatNumber(v))
		}
		out = engine.Const(v)
	} else if e, err := rules.Compile(s.rat, rules.Time, r.names()); err != nil {
		r.errorCause(err, file, sheet, ref, "%s", exprMessage(s.rat, err))
	} else {
		e.Cell = file + "!" + sheet + "!" + ref
		out = e
		if v, isConst := e.Const(); isConst {
			out = engine.Const(v)
		}
	}
	if r.ratCache == nil {
		r.ratCache = map[string]engine.Number{}
	}
	r.ratCache[key] = out
	return out
}

// loads resolves a Loads setting once per place it is written.
func (r *reader) loads(s *state) []int {
	key := strings.Join(s.loadsLoc[:], "!")
	if v, ok := r.loadsCache[key]; ok {
		return v
	}
	out := r.resolveLoads(s)
	if r.loadsCache == nil {
		r.loadsCache = map[string][]int{}
	}
	r.loadsCache[key] = out
	return out
}
