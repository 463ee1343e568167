package workbook

import (
	"fmt"
	"slices"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/rules"
	"github.com/websim/websim/study"
)

// checkAttributesDrawn refuses an expression that reads an attribute some
// request reaching it does not carry. Attributes are drawn per entity, but
// their names are the model's: a service that entity A's Count: Cards
// reads, run by entity B as well, would read 0 for B's requests, a
// plausible figure from nothing. Each cell is reported once, naming the
// entities whose requests lack what it reads.
func (r *reader) checkAttributesDrawn(scenarios []study.Scenario) {
	m := r.model
	drawn := make([]map[int]bool, len(m.Entities))
	for ei, e := range m.Entities {
		drawn[ei] = map[int]bool{}
		for _, a := range e.Attributes {
			drawn[ei][a.Index] = true
		}
	}
	// uses[c] is the expression of cell c and the entities whose requests
	// evaluate it; cells keeps the order in which they were first met
	// (entity by entity, service by service, step by step).
	type use struct {
		e        *rules.Expr
		column   string
		where    string // "run service \"Fan\"", for the message
		entities []int
	}
	uses := map[string]*use{}
	var cells []string
	note := func(n any, column, where string, ei int) {
		e, ok := n.(*rules.Expr)
		if !ok || e == nil || len(e.Attrs()) == 0 {
			return
		}
		u := uses[e.Cell]
		if u == nil {
			u = &use{e: e, column: column, where: where}
			uses[e.Cell] = u
			cells = append(cells, e.Cell)
		}
		if slices.Contains(u.entities, ei) {
			return
		}
		u.entities = append(u.entities, ei)
	}
	for ei, e := range m.Entities {
		for _, si := range r.servicesRunBy(e) {
			s := &m.Services[si]
			where := fmt.Sprintf("run service %q", s.Name)
			for k := range s.Steps {
				st := &s.Steps[k]
				note(st.Condition, "Condition", where, ei)
				note(st.SuccessRate, "SuccessRate", where, ei)
				note(st.Count, "Count", where, ei)
				note(st.Mode, "Mode", where, ei)
			}
		}
		note(e.RetryProbabilityExpr, "RetryProbability", "retry", ei)
		for _, sc := range scenarios {
			note(sc.Model.App.RAT, "RAT", "take units of the application servers", ei)
		}
	}
	for _, c := range cells {
		u := uses[c]
		var lacking []string
		var missing []int
		for _, ei := range u.entities {
			for _, a := range u.e.Attrs() {
				if !drawn[ei][a] {
					lacking = append(lacking, m.Entities[ei].Name)
					if !slices.Contains(missing, a) {
						missing = append(missing, a)
					}
					break
				}
			}
		}
		if len(lacking) == 0 {
			continue
		}
		for _, ei := range u.entities { // every attribute any of them lacks
			for _, a := range u.e.Attrs() {
				if !drawn[ei][a] && !slices.Contains(missing, a) {
					missing = append(missing, a)
				}
			}
		}
		names := make([]string, len(missing))
		for i, a := range missing {
			names[i] = fmt.Sprintf("%q", m.Attributes[a])
		}
		what, draw := "the attribute", "draws"
		if len(names) > 1 {
			what = "the attributes"
		}
		if len(lacking) > 1 {
			draw = "draw"
		}
		file, sheet, ref := splitCell(c)
		who, attrs := andList(lacking), andList(names)
		r.errorf(file, sheet, ref, "requests of %s %s without %s %s that its %s reads (%s %s none in %s!Attributes), so the %s would read 0 for them; expected a row for %s with %s in Attributes (a value of 0, say, where it does not apply)",
			who, u.where, what, attrs, u.column, who, draw, SvcDataFile, u.column, who, attrs)
	}
}

// servicesRunBy lists the services requests of entity e run: those of its
// service sequence and, through nested steps, every service below them,
// each once.
func (r *reader) servicesRunBy(e engine.Entity) []int {
	seen := make([]bool, len(r.model.Services))
	var order []int
	var visit func(int)
	visit = func(si int) {
		if si < 0 || si >= len(seen) || seen[si] {
			return
		}
		seen[si] = true
		order = append(order, si)
		for _, st := range r.model.Services[si].Steps {
			if st.Kind == engine.Nested {
				for _, n := range st.Services {
					visit(n)
				}
			}
		}
	}
	for _, stage := range e.Stages {
		visit(stage.Service)
	}
	return order
}
