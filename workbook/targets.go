package workbook

import (
	"strings"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/suggest"
	"github.com/websim/websim/study"
)

// TargetsSheet is the optional sheet of SvcData.xlsx that states what the
// application must achieve; `websim size` needs it.
const TargetsSheet = "Targets"

var targetsSpec = sheetSpec{
	columns:  []string{"Entity", "Measure", "Limit"},
	required: []string{"Measure", "Limit"},
	expected: " with the columns Entity, Measure and Limit",
}

// readTargets reads the Targets sheet (optional): per row an entity (blank
// for all requests), a measure and its limit, a time in TimeUnit or a share
// 0..1.
func (r *reader) readTargets() []study.Target {
	t := r.table(r.svc, TargetsSheet, targetsSpec, false)
	if t == nil || !t.has("Measure") || !t.has("Limit") {
		return nil
	}
	measures := make([]string, len(study.Measures))
	for i, m := range study.Measures {
		measures[i] = string(m)
	}
	entities := make([]string, len(r.model.Entities))
	for i, e := range r.model.Entities {
		entities[i] = e.Name
	}
	var out []study.Target
	for _, rw := range t.rows {
		tg := study.Target{Cell: loc(t, cellName(0, rw.num))}
		ok := true
		if c := t.get(rw, "Entity"); !c.bad && !c.blank() {
			name := cleanText(c.text)
			i := suggest.Index(r.model.Entities, name, func(e engine.Entity) string { return e.Name })
			if i < 0 {
				r.errorf(t.file, t.sheet, c.ref, "unknown entity %q%s; expected an entity of Arrivals (%s), or blank for all requests", name, suggest.DidYouMean(name, entities), strings.Join(entities, ", "))
				ok = false
			} else {
				tg.Entity = r.model.Entities[i].Name
				tg.OnlyEntity = len(r.model.Entities) == 1
			}
		} else if c.bad {
			ok = false
		}
		mc := t.get(rw, "Measure")
		switch m := strings.ToLower(cleanText(mc.text)); {
		case mc.bad:
			ok = false
		case m == "":
			r.errorf(t.file, t.sheet, mc.ref, "a target without a measure; expected one of %s", strings.Join(measures, ", "))
			ok = false
		case suggest.IndexOf(measures, m) < 0:
			r.errorf(t.file, t.sheet, mc.ref, "unknown measure %q%s; expected one of %s", cleanText(mc.text), suggest.DidYouMean(m, measures), strings.Join(measures, ", "))
			ok = false
		default:
			tg.Measure = study.Measure(m)
		}
		lc := t.get(rw, "Limit")
		switch {
		case lc.bad:
			ok = false
		case lc.blank():
			r.errorf(t.file, t.sheet, lc.ref, "a target without a limit; expected %s", limitExpected(tg.Measure, r.base.timeUnit))
			ok = false
		default:
			v, isNum := parseNumber(lc.text)
			switch {
			case !isNum:
				r.errorf(t.file, t.sheet, lc.ref, "%s; expected %s", numberHint(lc.text), limitExpected(tg.Measure, r.base.timeUnit))
				ok = false
			case tg.Measure.IsShare() && (v < 0 || v > 1):
				r.errorf(t.file, t.sheet, lc.ref, "limit %s is not a share; expected %s", formatNumber(v), limitExpected(tg.Measure, r.base.timeUnit))
				ok = false
			case tg.Measure.IsShare() && v == 0:
				// After n requests without one, the share's interval still
				// reaches about 3/n: such a target fails when one is seen,
				// and can never be shown to hold.
				r.warnf(t.file, t.sheet, lc.ref, "a limit of 0 for the %s share can fail but never hold: a run that sees none of n requests %s still leaves a share up to about 3/n possible, so the target stays undecided (and size finds no answer); a small share such as 0.001 (0.1%%) can be decided", tg.Measure, shareVerb(tg.Measure))
			case tg.Measure != "" && !tg.Measure.IsShare() && r.percentCell(t, lc):
				r.errorf(t.file, t.sheet, lc.ref, "limit %s is a percentage, but a %s is a time; expected %s", percentText(lc.text, v), tg.Measure, limitExpected(tg.Measure, r.base.timeUnit))
				ok = false
			case tg.Measure != "" && !tg.Measure.IsShare() && !(v > 0):
				r.errorf(t.file, t.sheet, lc.ref, "limit %s is not a positive time; expected %s", formatNumber(v), limitExpected(tg.Measure, r.base.timeUnit))
				ok = false
			}
			tg.Limit = v
		}
		if ok {
			out = append(out, tg)
		}
	}
	return out
}

// shareVerb is what happens to a request counted by share measure m.
func shareVerb(m study.Measure) string {
	if m == study.MeasureAbandoned {
		return "abandoned"
	}
	return "fail"
}

// limitExpected says what a Limit cell of measure m should hold.
func limitExpected(m study.Measure, unit string) string {
	switch {
	case m.IsShare():
		return "a share of requests from 0 to 1 (0.01 or 1%)"
	case m == "":
		return "a time in " + unit + " (or, for failed and abandoned, a share 0..1)"
	}
	return "a time in " + unit + " greater than 0"
}
