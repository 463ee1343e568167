package study

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/websim/websim/engine"
)

func editPlan() *Plan {
	m := &engine.Model{Loads: []string{"L1", "L5", "L9"}}
	return &Plan{
		Settings: []Setting{{Name: "Seed", Value: "1"}},
		Scenarios: []Scenario{
			{Name: "Base", Model: m, Run: RunSettings{Seed: 1, Observations: 10, Loads: []int{0, 1, 2}}},
			{Name: "Faster", Model: m, Run: RunSettings{Seed: 1, Observations: 10, Loads: []int{0, 1, 2}}},
		},
	}
}

func TestPlanApply(t *testing.T) {
	for _, tt := range []struct {
		name      string
		edit      Edit
		scenarios []string
		loads     []int
		seed      uint64
		obs       int64
		settings  []Setting
		err       string
	}{
		{name: "nothing", scenarios: []string{"Base", "Faster"}, loads: []int{0, 1, 2}, seed: 1, obs: 10,
			settings: []Setting{{Name: "Seed", Value: "1"}}},
		{name: "all", edit: Edit{Scenarios: []string{"faster", "BASE"}, Loads: []string{"l9", "L1"}, Seed: 7, SeedSet: true, Observations: 99, Source: "command line"},
			// Scenarios in the order named (the charts' legend), loads in
			// the Arrivals' order (the charts' load axis).
			scenarios: []string{"Faster", "Base"}, loads: []int{0, 2}, seed: 7, obs: 99,
			settings: []Setting{{"Seed", "7", "command line"}, {"Observations", "99", "command line"}, {"Loads", "l9,L1", "command line"}, {"Scenarios", "faster,BASE", "command line"}}},
		{name: "seed 0 is a seed", edit: Edit{SeedSet: true}, scenarios: []string{"Base", "Faster"}, loads: []int{0, 1, 2}, obs: 10,
			settings: []Setting{{Name: "Seed", Value: "0"}}},
		{name: "unknown scenario", edit: Edit{Scenarios: []string{"Fastr"}},
			err: `scenarios: no scenario "Fastr"; did you mean "Faster"?; the model has Base, Faster`},
		{name: "unknown load", edit: Edit{Loads: []string{"L2"}}, err: `loads: no load "L2"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := editPlan()
			err := p.Apply(tt.edit)
			if tt.err != "" {
				var e *EditError
				if !errors.As(err, &e) || len(err.Error()) < len(tt.err) || err.Error()[:len(tt.err)] != tt.err {
					t.Fatalf("err = %v, want an *EditError %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, s := range p.Scenarios {
				names = append(names, s.Name)
				if !slices.Equal(s.Run.Loads, tt.loads) || s.Run.Seed != tt.seed || s.Run.Observations != tt.obs {
					t.Errorf("%s: run %+v, want loads %v seed %d observations %d", s.Name, s.Run, tt.loads, tt.seed, tt.obs)
				}
			}
			if !slices.Equal(names, tt.scenarios) {
				t.Errorf("scenarios %v, want %v", names, tt.scenarios)
			}
			if !slices.Equal(p.Settings, tt.settings) {
				t.Errorf("settings %v, want %v", p.Settings, tt.settings)
			}
		})
	}
}

// A load or a scenario named twice is refused: it would run twice, its
// rows repeated in every sheet.
func TestPlanApplyTwice(t *testing.T) {
	for _, e := range []Edit{{Loads: []string{"L1", "l1"}}, {Scenarios: []string{"Base", "base"}}} {
		p := editPlan()
		var ee *EditError
		if err := p.Apply(e); !errors.As(err, &ee) || !strings.Contains(err.Error(), "named twice") {
			t.Errorf("%+v: %v, want an EditError saying it is named twice", e, err)
		}
	}
}

// --loads all runs every load of the model, as the Loads setting's "all"
// does, also where the model's Loads setting runs fewer, and also where a
// load column is headed All (as in the setting).
func TestPlanApplyLoadsAll(t *testing.T) {
	p := editPlan()
	for i := range p.Scenarios {
		p.Scenarios[i].Run.Loads = []int{1}
	}
	if err := p.Apply(Edit{Loads: []string{"ALL"}}); err != nil {
		t.Fatal(err)
	}
	for _, s := range p.Scenarios {
		if !slices.Equal(s.Run.Loads, []int{0, 1, 2}) {
			t.Errorf("%s: loads %v, want every load", s.Name, s.Run.Loads)
		}
	}
	p = editPlan()
	p.Scenarios[0].Model = &engine.Model{Loads: []string{"L1", "All"}}
	p.Scenarios = p.Scenarios[:1]
	if err := p.Apply(Edit{Loads: []string{"all"}}); err != nil || !slices.Equal(p.Scenarios[0].Run.Loads, []int{0, 1}) {
		t.Errorf("a load named All: loads %v (%v), want every load, as the Loads setting", p.Scenarios[0].Run.Loads, err)
	}
}
