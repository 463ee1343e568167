package workbook

import (
	"strings"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/rules"
	"github.com/websim/websim/study"
)

// checkScenarioExpressions checks, in every scenario, the expressions that
// read Settings names alone (SuccessRate P): each has one value there, and
// a scenario of Experiments may make it what the cell does not allow (P 2
// for a probability). Found when the model is read, such a value is a
// problem at its cell, naming the scenario, rather than a run that stops.
func (r *reader) checkScenarioExpressions(scenarios []study.Scenario) {
	seen := map[string]bool{} // one problem a cell
	for _, sc := range scenarios {
		m := sc.Model
		ctx := engine.EvalContext{Params: make([]float64, len(m.Params))}
		for i, p := range m.Params {
			ctx.Params[i] = p.Value
		}
		check := func(n engine.Number) {
			e, ok := n.(*rules.Expr)
			if !ok || !e.SettingsOnly() || seen[e.Cell] {
				return
			}
			// The run's own check, met once here: a value the cell does not
			// allow (a probability of 2), or a domain error (log of a
			// negative setting). A Count past its limit fails its step
			// when it runs, as the contract says, and is left to it.
			if _, err := e.Number(&ctx); err != nil {
				seen[e.Cell] = true
				file, sheet, ref := splitCell(e.Cell)
				r.errorf(file, sheet, ref, "in scenario %s: %s; the expression reads Settings alone, so every run of the scenario would stop there", sc.Name, strings.TrimPrefix(err.Error(), e.Cell+": "))
			}
		}
		for _, s := range m.Services {
			for _, st := range s.Steps {
				check(st.SuccessRate)
				check(st.Count)
			}
		}
		for _, e := range m.Entities {
			check(e.RetryProbabilityExpr)
		}
		check(m.App.RAT)
	}
}
