package workbook

import (
	"strconv"
	"strings"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/suggest"
	"github.com/websim/websim/study"
)

// MeasuredSheet is the optional sheet of SvcData.xlsx holding figures
// measured on the real system, which a run sets beside the simulated ones
// (the Validation sheet of OutPut.xlsx).
const MeasuredSheet = "Measured"

var measuredSpec = sheetSpec{
	columns:  []string{"Entity", "Load", "Measure", "Value"},
	required: []string{"Load", "Measure", "Value"},
	expected: " with the columns Entity, Load, Measure and Value",
}

// readMeasured reads the Measured sheet (optional): per row an entity
// (blank for all requests), a load of Arrivals, a measure (a Targets
// measure, or utilization:SERVER for an external server or App) and the
// value measured, a time in TimeUnit or a share 0..1.
func (r *reader) readMeasured() []study.Measured {
	t := r.table(r.svc, MeasuredSheet, measuredSpec, false)
	if t == nil || !t.has("Load") || !t.has("Measure") || !t.has("Value") {
		return nil
	}
	measures := make([]string, 0, len(study.Measures)+1)
	for _, m := range study.Measures {
		measures = append(measures, string(m))
	}
	measureList := strings.Join(measures, ", ") + " or utilization:SERVER"
	entities := make([]string, len(r.model.Entities))
	for i, e := range r.model.Entities {
		entities[i] = e.Name
	}
	servers := []string{study.AppServer}
	for _, s := range r.model.Servers {
		servers = append(servers, s.Name)
	}
	var out []study.Measured
	// seen has the first row of each figure: a second one (a measurement
	// repeated on another day) is shown too, with a warning.
	seen := map[[4]string]string{}
	for _, rw := range t.rows {
		m := study.Measured{Cell: loc(t, cellName(0, rw.num))}
		ok := true
		bad := func(ref, format string, args ...any) {
			r.errorf(t.file, t.sheet, ref, format, args...)
			ok = false
		}

		ec := t.get(rw, "Entity")
		if name := cleanText(ec.text); ec.bad {
			ok = false
		} else if name != "" {
			i := suggest.Index(r.model.Entities, name, func(e engine.Entity) string { return e.Name })
			if i < 0 {
				bad(ec.ref, "unknown entity %q%s; expected an entity of Arrivals (%s), or blank for all requests", name, suggest.DidYouMean(name, entities), strings.Join(entities, ", "))
			} else {
				m.Entity = r.model.Entities[i].Name
				m.OnlyEntity = len(r.model.Entities) == 1
			}
		}

		lc := t.get(rw, "Load")
		switch name := cleanText(lc.text); {
		case lc.bad:
			ok = false
		case name == "":
			bad(lc.ref, "a measured figure without a load; expected a load of Arrivals (%s)", strings.Join(r.model.Loads, ", "))
		default:
			i := suggest.IndexOf(r.model.Loads, name)
			if i < 0 {
				bad(lc.ref, "unknown load %q%s; expected a load of Arrivals (%s)", name, suggest.DidYouMean(name, r.model.Loads), strings.Join(r.model.Loads, ", "))
			} else {
				m.Load = r.model.Loads[i]
			}
		}

		mc := t.get(rw, "Measure")
		text := cleanText(mc.text)
		what, server, isUtil := strings.Cut(text, ":")
		switch lower := strings.ToLower(cleanText(what)); {
		case mc.bad:
			ok = false
		case text == "":
			bad(mc.ref, "a measured figure without a measure; expected one of %s", measureList)
		case isUtil && lower == string(study.MeasureUtilization):
			name := cleanText(server)
			i := suggest.IndexOf(servers, name)
			switch {
			case name == "":
				bad(mc.ref, "utilization without a server; expected utilization:SERVER with %s, e.g. utilization:%s", serverChoice(servers), servers[len(servers)-1])
			case i < 0:
				bad(mc.ref, "unknown server %q in %q%s; expected utilization:SERVER with %s", name, text, suggest.DidYouMean(name, servers), serverChoice(servers))
			case m.Entity != "":
				bad(mc.ref, "a utilization is of a server, not of the entity %s; expected Entity blank on this row", m.Entity)
			default:
				m.Measure, m.Server = study.MeasureUtilization, servers[i]
			}
		case !isUtil && lower == string(study.MeasureUtilization):
			bad(mc.ref, "utilization without a server; expected utilization:SERVER with %s, e.g. utilization:%s", serverChoice(servers), servers[len(servers)-1])
		case isUtil || suggest.IndexOf(measures, lower) < 0:
			bad(mc.ref, "unknown measure %q%s; expected one of %s", text, suggest.DidYouMean(lower, append(measures, string(study.MeasureUtilization))), measureList)
		default:
			m.Measure = study.Measure(lower)
		}

		vc := t.get(rw, "Value")
		switch {
		case vc.bad:
			ok = false
		case vc.blank():
			bad(vc.ref, "a measured figure without a value; expected %s", measuredExpected(m, r.base.timeUnit))
		default:
			v, isNum := parseNumber(vc.text)
			switch {
			case !isNum:
				bad(vc.ref, "%s; expected %s", numberHint(vc.text), measuredExpected(m, r.base.timeUnit))
			case m.Measure != "" && !m.IsShare() && r.percentCell(t, vc):
				bad(vc.ref, "value %s is a percentage, but a %s is a time; expected %s", percentText(vc.text, v), m.Measure, measuredExpected(m, r.base.timeUnit))
			case v < 0:
				bad(vc.ref, "value %s is negative; expected %s", formatNumber(v), measuredExpected(m, r.base.timeUnit))
			case m.Measure != "" && m.IsShare() && v > 1:
				bad(vc.ref, "value %s is not a share; expected %s", formatNumber(v), measuredExpected(m, r.base.timeUnit))
			}
			m.Value = v
		}
		if ok {
			key := [4]string{strings.ToLower(m.Entity), m.Load, string(m.Measure), m.Server}
			if first, dup := seen[key]; dup {
				r.warnf(t.file, t.sheet, mc.ref, "the same figure as row %s (%s at %s); both are set beside the simulated one", first, measuredWhat(m), m.Load)
			} else {
				seen[key] = strconv.Itoa(rw.num)
			}
			out = append(out, m)
		}
	}
	return out
}

// measuredWhat names a Measured row's figure: "p95 of all requests",
// "utilization of MTC".
func measuredWhat(m study.Measured) string {
	if m.Measure == study.MeasureUtilization {
		return "utilization of " + m.Server
	}
	who := "all requests"
	if m.Entity != "" {
		who = m.Entity
	}
	return string(m.Measure) + " of " + who
}

// measuredExpected says what a Value cell of the Measured row m should
// hold.
func measuredExpected(m study.Measured, unit string) string {
	switch {
	case m.Measure == "":
		return "a time in " + unit + " (or, for failed, abandoned and a utilization, a share 0..1)"
	case m.IsShare():
		return "a share from 0 to 1 (0.5 or 50%)"
	}
	return "a time in " + unit + ", 0 or more"
}

// serverChoice names the servers a utilization may be of: those of
// ServerInfo (servers[1:], after App), or App alone in a model without
// external servers.
func serverChoice(servers []string) string {
	if len(servers) < 2 {
		return "App, the application servers (the model has no server in ServerInfo)"
	}
	return "a server of ServerInfo (" + strings.Join(servers[1:], ", ") + ") or App"
}
