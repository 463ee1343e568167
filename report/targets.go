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
// the verdict (verdictCell).
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
		unit, format, hwFormat := targetStyles(t, u)
		cols = append(cols,
			summaryColumn{t.String() + unit, format, func(run *study.Run) any { return judge(run)[i].Value }},
			summaryColumn{t.String() + ": ± 95%" + unit, hwFormat, func(run *study.Run) any { return judge(run)[i].HalfWidth95 }},
			summaryColumn{"Verdict: " + t.String(), fText, func(run *study.Run) any { return verdictCell(judge(run)[i].Verdict) }},
		)
	}
	cols = append(cols,
		summaryColumn{"Verdict: all targets", fText, func(run *study.Run) any { return verdictCell(study.Overall(judge(run))) }},
		summaryColumn{"Targets: why", fText, func(run *study.Run) any {
			if notes := targetNotes(judge(run)); !run.Result.Stable {
				return xlsx.Styled{Value: notes, Style: xlsx.Plain} // words, read on a muted row
			} else {
				return notes
			}
		}},
	)
	return cols
}

// targetNotes joins the reasons of the targets that give one ("" when
// none does): "p95 response of all requests ≤ 1000: no confidence interval
// ...; ...".
func targetNotes(rs []study.TargetResult) string {
	var notes []string
	for _, r := range rs {
		if strings.HasPrefix(r.Why, study.NotStableWhy) {
			// Every target fails alike; the reason has its own column.
			return "every target fails: the run is not stable (see Unstable reason)"
		}
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

// verdictCell is a verdict in words, in its colour. The colour stays on a
// row drawn muted (a run that is not stable), where the verdict is fails.
func verdictCell(v study.Verdict) any {
	st, _ := verdictStyle(string(v))
	return xlsx.Styled{Value: string(v), Style: st}
}

// entityTargets are the Entities sheet's columns for s's targets that
// name an entity, and their cells on a row (a run and one of its
// entities): per target the measured value, its 95% half-width and the
// verdict in its colour, filled on that entity's rows only, then the
// verdict of all the row's entity's targets and why. There are none when
// no target names an entity.
func entityTargets(s *study.Study) (cols []column, cells func(run *study.Run, entity string) []any) {
	var idx []int
	for i, t := range s.Targets {
		if t.Entity != "" {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return nil, func(*study.Run, string) []any { return nil }
	}
	u := unitSuffix(s.TimeUnit)
	for _, i := range idx {
		t := s.Targets[i]
		unit, format, hwFormat := targetStyles(t, u)
		cols = append(cols, column{t.String() + unit, format}, column{t.String() + ": ± 95%" + unit, hwFormat},
			column{"Verdict: " + t.String(), fText})
	}
	cols = append(cols, column{"Verdict: the entity's targets", fText}, column{"Targets: why", fText})
	cells = func(run *study.Run, entity string) []any {
		rs := study.Judge(s.Targets, run)
		out := make([]any, 0, len(cols))
		var own []study.TargetResult
		for _, i := range idx {
			if s.Targets[i].Entity != entity {
				out = append(out, nil, nil, nil)
				continue
			}
			r := rs[i]
			own = append(own, r)
			out = append(out, r.Value, r.HalfWidth95, verdictCell(r.Verdict))
		}
		if len(own) == 0 {
			return append(out, nil, nil)
		}
		return append(out, verdictCell(study.Overall(own)), targetNotes(own))
	}
	return cols, cells
}

// targetStyles are the unit suffix of a target's columns (u for a time,
// none for a share) and the formats of its value and half-width: a
// share's half-width is small beside the share, so two decimals of a
// percent (0.22%, not 0.2%).
func targetStyles(t study.Target, u string) (unit string, value, halfWidth xlsx.Style) {
	if t.Measure.IsShare() {
		return "", fShare, xlsx.Percent2
	}
	return u, fTime, fTime
}
