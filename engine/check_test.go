package engine

import (
	"math"
	"strings"
	"testing"
)

func TestCheckRefusesModelsThatCannotRun(t *testing.T) {
	valid := func() *Model {
		m := forkModel(2, 1, Parallel, 1)
		m.Attributes = []string{"Cards"}
		m.Entities[0].Attributes = []Attribute{{Index: 0, Dist: constD(3)}}
		return m
	}
	if err := valid().Check(); err != nil {
		t.Fatalf("valid model: %v", err)
	}
	for _, tc := range []struct {
		name   string
		break_ func(*Model)
		want   string
	}{
		{"no app units", func(m *Model) { m.App.Capacity = 0 }, "at least 1 server of at least 1 unit"},
		{"server capacity", func(m *Model) { m.Servers[0].Capacity = 0 }, "server Ext: capacity 0"},
		{"half background", func(m *Model) { m.Servers[0].BackgroundInterArrival = expD(1) }, "needs both"},
		{"call to nowhere", func(m *Model) { m.Services[1].Steps[0].Server = 7 }, "server 7 out of range"},
		{"nest to nowhere", func(m *Model) { m.Services[0].Steps[0].Services = []int{-1} }, "service -1 out of range"},
		{"nest to nothing", func(m *Model) { m.Services[0].Steps[0].Services = nil }, "runs no service"},
		{"route to nowhere", func(m *Model) { m.Services[0].Steps[1].OnSuccess = 9 }, "routes to step 9"},
		{"loads", func(m *Model) { m.Loads = append(m.Loads, "L2") }, "1 inter-arrival distributions for 2 loads"},
		{"no stages", func(m *Model) { m.Entities[0].Stages = nil }, "has no services"},
		{"attribute", func(m *Model) { m.Entities[0].Attributes[0].Index = 3 }, "attribute 3 out of range"},
		{"listed nest to nowhere", func(m *Model) { m.Services[0].Steps[0].Services = []int{1, 5} }, "service 5 out of range"},
		{"max admitted", func(m *Model) { m.App.MaxAdmitted = -1 }, "MaxAdmitted -1"},
		{"units beyond the limit", func(m *Model) { m.App.Servers, m.App.Capacity = 1_000_000_000, 20 }, "more than the limit of 1000000"},
		{"server capacity beyond the limit", func(m *Model) { m.Servers[0].Capacity = 1_000_000_000 }, "server Ext: capacity 1000000000, expected 1 to 1000000"},
		{"constant Count beyond the limit", func(m *Model) { m.Services[0].Steps[0].Count = Const(1e6) }, "Count 1e+06, expected 0 to 10000"},
		{"listed self nesting", func(m *Model) {
			m.Services = append(m.Services, Service{Name: "R", Steps: []Step{{Name: "Back", Kind: Nested, Services: []int{1, 0}, OnSuccess: Done, OnFailure: Fail}}})
			m.Services[0].Steps[0].Services = []int{1, 2}
		}, "P → R → P"},
		{"self nesting", func(m *Model) {
			m.Services[1].Steps[0] = Step{Name: "Again", Kind: Nested, Services: []int{0}, OnSuccess: Done, OnFailure: Fail}
		}, "P → Q → P"},
	} {
		m := valid()
		tc.break_(m)
		err := m.Check()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to say %q", tc.name, err, tc.want)
		}
		if _, err := Run(m, RunConfig{Observations: 10}); err == nil {
			t.Errorf("%s: Run accepted the model", tc.name)
		}
	}
}

func TestRunRefusesWarmUpThatIsNotATime(t *testing.T) {
	m := oneService(expD(1), Step{Name: "work", Kind: Local, ProcTime: expD(0.5)})
	for _, w := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := Run(m, RunConfig{Seed: 1, Observations: 100, WarmUp: w})
		if err == nil || !strings.Contains(err.Error(), "expected a finite time") {
			t.Errorf("WarmUp %g: error %v, want one that asks for a finite time", w, err)
		}
	}
}
