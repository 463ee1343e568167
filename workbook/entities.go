package workbook

import (
	"strings"

	"fmt"
	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/suggest"
	"github.com/websim/websim/internal/xlsx"
	"slices"
)

var entitySpec = sheetSpec{
	columns:  []string{"Service", "OnSuccess", "OnFailure"},
	required: []string{"Service"},
	expected: " named as the entity, with the columns Service, OnSuccess and OnFailure",
}

// stageRef is a stage whose service is resolved once ProcData is read.
type stageRef struct {
	entity, stage int
	ref           serviceRef
}

// readEntities reads each entity's sheet: its sequence of services and the
// routing between them.
func (r *reader) readEntities() {
	for ei := range r.model.Entities {
		e := &r.model.Entities[ei]
		t := r.table(r.svc, e.Name, entitySpec, false)
		if t == nil || !t.has("Service") {
			if _, ok := r.svc.hasSheet(e.Name); !ok {
				r.errorCause(xlsx.ErrNotFound, r.svc.name, e.Name, "", "missing sheet for the entity %q of Arrivals!%s; expected a sheet named as the entity, with the columns Service, OnSuccess and OnFailure%s", e.Name, r.entityRows[ei].ref, r.entitySheetHint(e.Name))
			}
			continue
		}
		var svcNames []string
		var rows []row
		for _, rw := range t.rows {
			c := t.get(rw, "Service")
			name := cleanText(c.text)
			if c.bad {
				continue
			}
			if name == "" {
				r.errorf(t.file, t.sheet, c.ref, "a row without a service; expected a service of ProcData.xlsx")
				continue
			}
			if isWord(name, "END", "EXIT") {
				r.errorf(t.file, t.sheet, c.ref, "%s belongs in OnSuccess or OnFailure; expected a service of ProcData.xlsx in column %s", strings.ToUpper(name), colLetter(t, "Service"))
				continue
			}
			r.stageRefs = append(r.stageRefs, stageRef{entity: ei, stage: len(e.Stages), ref: serviceRef{t: t, c: c, name: name}})
			e.Stages = append(e.Stages, engine.Stage{Service: -1})
			svcNames = append(svcNames, name)
			rows = append(rows, rw)
		}
		if len(e.Stages) == 0 {
			r.errorf(t.file, t.sheet, "", "no services; expected at least one row with a service under the header")
			continue
		}
		target := func(c cell, def engine.StageTarget) engine.StageTarget {
			text := cleanText(c.text)
			switch {
			case c.bad:
				return def
			case text == "":
				return def
			case isWord(text, "END"):
				return engine.End
			case isWord(text, "EXIT"):
				return engine.Exit
			}
			if i := suggest.IndexOf(svcNames, text); i >= 0 {
				return engine.StageTarget(i)
			}
			r.errorf(t.file, t.sheet, c.ref, "unknown service %q in the sequence of %q%s; expected END, EXIT or a service of column %s",
				text, e.Name, suggest.DidYouMean(text, append([]string{"END", "EXIT"}, svcNames...)), colLetter(t, "Service"))
			return def
		}
		for i, rw := range rows {
			next := engine.StageTarget(i + 1)
			if i+1 == len(rows) {
				next = engine.End
			}
			e.Stages[i].OnSuccess = target(t.get(rw, "OnSuccess"), next)
			e.Stages[i].OnFailure = target(t.get(rw, "OnFailure"), engine.Exit)
		}
		for _, i := range trapped(len(e.Stages), func(i int) []int { return []int{int(e.Stages[i].OnSuccess), int(e.Stages[i].OnFailure)} }) {
			r.errorf(t.file, t.sheet, t.get(rows[i], "Service").ref, "the sequence can never reach END or EXIT from service %q (OnSuccess and OnFailure lead round in a loop); expected a path to END or EXIT", svcNames[i])
		}
	}
}

// isWord tells whether s is one of the words, ignoring case and spaces.
func isWord(s string, words ...string) bool {
	for _, w := range words {
		if normKey(s) == normKey(w) {
			return true
		}
	}
	return false
}

// trapped returns the nodes 0..n-1 from which no path along next reaches a
// negative target (an end), in order.
func trapped(n int, next func(int) []int) []int {
	ends := make([]bool, n)
	for changed := true; changed; {
		changed = false
		for i := range n {
			if ends[i] {
				continue
			}
			for _, j := range next(i) {
				if j < 0 || (j < n && ends[j]) {
					ends[i], changed = true, true
					break
				}
			}
		}
	}
	var out []int
	for i, ok := range ends {
		if !ok {
			out = append(out, i)
		}
	}
	return out
}

// modelSheets are SvcData.xlsx's sheets of settings, not an entity's.
var modelSheets = []string{"Settings", "ServerInfo", "Arrivals", "Attributes", "Experiments", TargetsSheet, MeasuredSheet}

// entitySheetHint points at the sheet a missing entity sheet probably is:
// one that no entity of Arrivals names and that has an entity sheet's
// Service column (the blank template's "Entity", an "Jbo" for "Job"),
// the closest in name first.
func (r *reader) entitySheetHint(entity string) string {
	taken := func(s string) bool {
		for _, e := range r.model.Entities {
			if strings.EqualFold(e.Name, s) {
				return true
			}
		}
		for _, known := range modelSheets {
			if strings.EqualFold(known, s) {
				return true
			}
		}
		return leftAloneQuietly(s)
	}
	var found []string
	for _, s := range r.svc.sheets {
		if !taken(s) && !r.hintedSheets[s] && r.hasColumnsOf(s, entitySpec) {
			found = append(found, s)
		}
	}
	if len(found) == 0 {
		return ""
	}
	slices.SortStableFunc(found, func(a, b string) int { return suggest.Distance(a, entity) - suggest.Distance(b, entity) })
	// A sheet is offered to one missing entity only.
	if r.hintedSheets == nil {
		r.hintedSheets = map[string]bool{}
	}
	r.hintedSheets[found[0]] = true
	return fmt.Sprintf("; the sheet %q has those columns and no entity runs it: rename it %q?", found[0], entity)
}
