package study

import (
	"fmt"
	"slices"
	"strings"

	"github.com/websim/websim/internal/suggest"
)

// Edit changes a plan for one study, as a command line does: keep some
// scenarios, run some loads, another seed or number of observations. Zero
// fields change nothing.
type Edit struct {
	// Scenarios keeps these scenarios, in this order (names ignore case).
	Scenarios []string
	// Loads runs these loads (labels ignore case) in every scenario;
	// "all" alone runs every load of the model, as in the Loads setting
	// (a load column headed All included).
	Loads []string
	// Seed, when SeedSet, replaces every scenario's seed.
	Seed    uint64
	SeedSet bool
	// Observations, when above 0, replaces every scenario's.
	Observations int64
	// Source says where the edit comes from, recorded as the Source of
	// each setting it changes in Plan.Settings ("command line").
	Source string
}

// EditError is an Edit naming what the plan does not have: Field is the
// Edit's field in lower case ("scenarios", "loads").
type EditError struct {
	Field, Msg string
}

func (e *EditError) Error() string { return e.Field + ": " + e.Msg }

// Apply applies e to p: it keeps and orders the scenarios, sets the loads,
// seed and observations of each, and records the changed settings in
// p.Settings (each with e.Source). An unknown scenario or
// load is an *EditError, with the closest name as a hint, and p is left
// partly edited.
func (p *Plan) Apply(e Edit) error {
	if len(e.Scenarios) > 0 {
		var names []string
		for _, s := range p.Scenarios {
			names = append(names, s.Name)
		}
		var keep []Scenario
		for _, want := range e.Scenarios {
			i := slices.IndexFunc(p.Scenarios, func(s Scenario) bool { return strings.EqualFold(s.Name, want) })
			if i < 0 {
				return &EditError{"scenarios", fmt.Sprintf("no scenario %q%s; the model has %s", want, suggest.DidYouMean(want, names), strings.Join(names, ", "))}
			}
			if slices.ContainsFunc(keep, func(s Scenario) bool { return s.Name == p.Scenarios[i].Name }) {
				return &EditError{"scenarios", fmt.Sprintf("scenario %q is named twice; expected each scenario once", p.Scenarios[i].Name)}
			}
			keep = append(keep, p.Scenarios[i])
		}
		p.Scenarios = keep
	}
	record := func(name, value string) {
		for i := range p.Settings {
			if strings.EqualFold(p.Settings[i].Name, name) {
				p.Settings[i].Value, p.Settings[i].Source = value, e.Source
				return
			}
		}
		p.Settings = append(p.Settings, Setting{Name: name, Value: value, Source: e.Source})
	}
	if e.SeedSet {
		record("Seed", fmt.Sprint(e.Seed))
	}
	if e.Observations > 0 {
		record("Observations", fmt.Sprint(e.Observations))
	}
	if len(e.Loads) > 0 {
		record("Loads", strings.Join(e.Loads, ","))
	}
	if len(e.Scenarios) > 0 {
		record("Scenarios", strings.Join(e.Scenarios, ","))
	}
	for i := range p.Scenarios {
		sc := &p.Scenarios[i]
		if e.SeedSet {
			sc.Run.Seed = e.Seed
		}
		if e.Observations > 0 {
			sc.Run.Observations = e.Observations
		}
		if len(e.Loads) > 0 {
			var idx []int
			if len(e.Loads) == 1 && strings.EqualFold(e.Loads[0], "all") {
				// As in the Loads setting: every load column of Arrivals.
				for j := range sc.Model.Loads {
					idx = append(idx, j)
				}
				sc.Run.Loads = idx
				continue
			}
			for _, want := range e.Loads {
				j := slices.IndexFunc(sc.Model.Loads, func(l string) bool { return strings.EqualFold(l, want) })
				if j < 0 {
					return &EditError{"loads", fmt.Sprintf("no load %q%s; the model has %s", want, suggest.DidYouMean(want, sc.Model.Loads), strings.Join(sc.Model.Loads, ", "))}
				}
				if slices.Contains(idx, j) {
					return &EditError{"loads", fmt.Sprintf("load %q is named twice; expected each load once", sc.Model.Loads[j])}
				}
				idx = append(idx, j)
			}
			// Run, and shown, in the order of the Arrivals columns, which is
			// the order of the charts' load axis, whatever the order named.
			slices.Sort(idx)
			sc.Run.Loads = idx
		}
	}
	return p.CheckRuns()
}
