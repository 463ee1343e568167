package report

import (
	"strings"

	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/study"
)

// targetColumns are the result columns of s's targets, for the Summary
// sheet: per target (in the Targets sheet's order) the measured value, the
// half-width of its 95% interval and the verdict (holds, fails, undecided),
// then the verdict of all targets together and, in words, why a target is
// undecided or fails when its interval alone does not say it. They are
// empty when the model has no targets. The verdict cells are coloured by
// styleVerdicts (their headers begin with "Verdict").
func targetColumns(s *study.Study) []summaryColumn {
	if len(s.Targets) == 0 {
		return nil
	}
	judged := map[*study.Run][]study.TargetResult{}
	judge := func(run *study.Run) []study.TargetResult {
		rs, ok := judged[run]
		if !ok {
			rs = study.Judge(s.Targets, run)
			judged[run] = rs
		}
		return rs
	}
	u := unitSuffix(s.TimeUnit)
	var cols []summaryColumn
	for i, t := range s.Targets {
		unit, format := u, fTime
		if t.Measure.IsShare() {
			unit, format = "", fShare
		}
		cols = append(cols,
			summaryColumn{t.String() + unit, format, func(run *study.Run) any { return judge(run)[i].Value }},
			summaryColumn{t.String() + ": ± 95%" + unit, format, func(run *study.Run) any { return judge(run)[i].HalfWidth95 }},
			summaryColumn{"Verdict: " + t.String(), fText, func(run *study.Run) any { return string(judge(run)[i].Verdict) }},
		)
	}
	cols = append(cols,
		summaryColumn{"Verdict: all targets", fText, func(run *study.Run) any { return string(study.Overall(judge(run))) }},
		summaryColumn{"Targets: why", fText, func(run *study.Run) any { return targetNotes(judge(run)) }},
	)
	return cols
}

// targetNotes joins the reasons of the targets that give one ("" when
// none does): "p95 response of all requests ≤ 1000: no confidence interval
// ...; ...".
func targetNotes(rs []study.TargetResult) string {
	var notes []string
	for _, r := range rs {
		if r.Why != "" {
			notes = append(notes, r.Target.String()+": "+r.Why)
		}
	}
	return strings.Join(notes, "; ")
}

// verdictStyle is the cell style of a verdict in words: green holds, red
// fails, amber undecided.
func verdictStyle(v string) (xlsx.Style, bool) {
	switch study.Verdict(v) {
	case study.Holds:
		return xlsx.Good, true
	case study.Fails:
		return xlsx.Bad, true
	case study.Undecided:
		return xlsx.Unsure, true
	}
	return xlsx.Text, false
}

// entityTargetColumn is a column of the Entities sheet for the targets
// that name an entity: its value at a row (a run and one of its entities);
// nil leaves the cell blank, as on the rows of other entities.
type entityTargetColumn struct {
	header string
	format xlsx.Style
	value  func(run *study.Run, entity string) any
}

// entityTargetColumns are the Entities sheet's columns for s's targets
// that name an entity: per target the measured value, its 95% half-width
// and the verdict, filled on that entity's rows only, then the verdict of
// all the row's entity's targets and why. They are empty when no target
// names an entity. The verdict headers begin with "Verdict", for
// styleVerdicts.
func entityTargetColumns(s *study.Study) []entityTargetColumn {
	var idx []int
	for i, t := range s.Targets {
		if t.Entity != "" {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return nil
	}
	judged := map[*study.Run][]study.TargetResult{}
	judge := func(run *study.Run) []study.TargetResult {
		rs, ok := judged[run]
		if !ok {
			rs = study.Judge(s.Targets, run)
			judged[run] = rs
		}
		return rs
	}
	// of returns the results of the targets of entity at run.
	of := func(run *study.Run, entity string) []study.TargetResult {
		var out []study.TargetResult
		for _, i := range idx {
			if s.Targets[i].Entity == entity {
				out = append(out, judge(run)[i])
			}
		}
		return out
	}
	u := unitSuffix(s.TimeUnit)
	var cols []entityTargetColumn
	for _, i := range idx {
		t := s.Targets[i]
		unit, format := u, fTime
		if t.Measure.IsShare() {
			unit, format = "", fShare
		}
		cell := func(f func(r study.TargetResult) any) func(*study.Run, string) any {
			return func(run *study.Run, entity string) any {
				if entity != t.Entity {
					return nil
				}
				return f(judge(run)[i])
			}
		}
		cols = append(cols,
			entityTargetColumn{t.String() + unit, format, cell(func(r study.TargetResult) any { return r.Value })},
			entityTargetColumn{t.String() + ": ± 95%" + unit, format, cell(func(r study.TargetResult) any { return r.HalfWidth95 })},
			entityTargetColumn{"Verdict: " + t.String(), fText, cell(func(r study.TargetResult) any { return string(r.Verdict) })},
		)
	}
	cols = append(cols,
		entityTargetColumn{"Verdict: the entity's targets", fText, func(run *study.Run, entity string) any {
			if rs := of(run, entity); len(rs) > 0 {
				return string(study.Overall(rs))
			}
			return nil
		}},
		entityTargetColumn{"Targets: why", fText, func(run *study.Run, entity string) any { return targetNotes(of(run, entity)) }},
	)
	return cols
}
