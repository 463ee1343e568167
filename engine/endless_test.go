package engine

import (
	"fmt"
	"testing"
)

// alwaysTrue is a Condition that the routing check cannot see through.
type alwaysTrue struct{}

func (alwaysTrue) Bool(*EvalContext) (bool, error) { return true, nil }

// rateExpr is a SuccessRate expression.
type rateExpr struct{}

func (rateExpr) Number(*EvalContext) (float64, error) { return 1, nil }

func TestEndlessRoutes(t *testing.T) {
	local := func(name string, rate Number, onSuccess, onFailure StepTarget) Step {
		return Step{Name: name, Kind: Local, ProcTime: expD(1), SuccessRate: rate, OnSuccess: onSuccess, OnFailure: onFailure}
	}
	nested := func(name string, count Number, onSuccess, onFailure StepTarget, services ...int) Step {
		return Step{Name: name, Kind: Nested, Services: services, Count: count, OnSuccess: onSuccess, OnFailure: onFailure}
	}
	for _, tc := range []struct {
		name     string
		services []Service
		stages   []Stage
		limit    float64 // the server's TimeLimit
		want     []string
	}{
		{name: "a step that can only succeed routes to itself",
			services: []Service{{Name: "S", Steps: []Step{local("A", nil, 0, Fail)}}},
			want:     []string{"S.A OnSuccess"}},
		{name: "a SuccessRate of 1 is no way out either",
			services: []Service{{Name: "S", Steps: []Step{local("A", Const(1), 0, Fail)}}},
			want:     []string{"S.A OnSuccess"}},
		{name: "a SuccessRate of 0 retrying on failure",
			services: []Service{{Name: "S", Steps: []Step{local("A", Const(0), Done, 0)}}},
			want:     []string{"S.A OnFailure"}},
		{name: "a retry loop that can fail out",
			services: []Service{{Name: "S", Steps: []Step{local("A", Const(0.5), 0, Fail)}}}},
		{name: "a SuccessRate expression may fail",
			services: []Service{{Name: "S", Steps: []Step{local("A", rateExpr{}, 0, Fail)}}}},
		{name: "a loop of two steps that only succeed",
			services: []Service{{Name: "S", Steps: []Step{local("A", nil, 1, Fail), local("B", nil, 0, Fail)}}},
			want:     []string{"S.A OnSuccess", "S.B OnSuccess"}},
		{name: "a step the loop leaves is fine, a step after it unreachable",
			services: []Service{{Name: "S", Steps: []Step{local("A", Const(0.9), Done, 0), local("B", nil, 1, Fail)}}}},
		{name: "a Condition skips as a success only",
			services: []Service{{Name: "S", Steps: []Step{{Name: "A", Kind: Local, Condition: alwaysTrue{}, OnSuccess: 0, OnFailure: Fail}}}},
			want:     []string{"S.A OnSuccess"}},
		{name: "a call with a TimeLimit can fail",
			services: []Service{{Name: "S", Steps: []Step{{Name: "C", Kind: Call, Server: 0, ProcTime: expD(1), OnSuccess: 0, OnFailure: Fail}}}},
			limit:    5},
		{name: "a call without a TimeLimit cannot",
			services: []Service{{Name: "S", Steps: []Step{{Name: "C", Kind: Call, Server: 0, ProcTime: expD(1), OnSuccess: 0, OnFailure: Fail}}}},
			want:     []string{"S.C OnSuccess"}},
		{name: "a nested service that cannot fail, looped on success",
			services: []Service{{Name: "Outer", Steps: []Step{nested("N", nil, 0, Fail, 1)}}, {Name: "Inner", Steps: []Step{local("W", nil, Done, Fail)}}},
			want:     []string{"Outer.N OnSuccess"}},
		{name: "a nested service that can fail",
			services: []Service{{Name: "Outer", Steps: []Step{nested("N", nil, 0, Fail, 1)}}, {Name: "Inner", Steps: []Step{local("W", Const(0.99), Done, Fail)}}}},
		{name: "a nested service that never returns is blamed, not its caller",
			services: []Service{{Name: "Outer", Steps: []Step{nested("N", nil, Done, Fail, 1)}}, {Name: "Inner", Steps: []Step{local("W", nil, 0, Fail)}}},
			want:     []string{"Inner.W OnSuccess"}},
		{name: "a Count that may be 0 succeeds at once",
			services: []Service{{Name: "Outer", Steps: []Step{nested("N", rateExpr{}, Done, Fail, 1)}}, {Name: "Inner", Steps: []Step{local("W", Const(0), Done, Fail)}}}},
		{name: "a Condition can skip a step that can only fail out of a loop",
			services: []Service{{Name: "S", Steps: []Step{{Name: "A", Kind: Local, Condition: alwaysTrue{}, SuccessRate: Const(0), OnSuccess: Done, OnFailure: 0}}}}},
		{name: "a Count that may be 0 succeeds at once, without the SuccessRate's draw",
			services: []Service{{Name: "Outer", Steps: []Step{{Name: "N", Kind: Nested, Services: []int{1}, Count: rateExpr{}, SuccessRate: Const(0), OnSuccess: Done, OnFailure: 0}}},
				{Name: "Inner", Steps: []Step{local("W", Const(0), Done, Fail)}}}},
		{name: "a step turned off (Condition FALSE) does not run its nested service",
			services: []Service{{Name: "S", Steps: []Step{{Name: "Legacy", Kind: Nested, Services: []int{1}, Condition: ConstBool(false), OnSuccess: Done, OnFailure: Fail}}},
				{Name: "Draft", Steps: []Step{local("Poll", nil, 0, Fail)}}}},
		{name: "a step turned off that routes to itself on success never finishes",
			services: []Service{{Name: "S", Steps: []Step{{Name: "Off", Kind: Local, Condition: ConstBool(false), SuccessRate: Const(0), OnSuccess: 0, OnFailure: Done}}}},
			want:     []string{"S.Off OnSuccess"}},
		{name: "a Count of 0 looping on itself never finishes, whatever its service",
			services: []Service{{Name: "S", Steps: []Step{nested("N", Const(0), 0, Fail, 1)}}, {Name: "Inner", Steps: []Step{local("Loop", nil, 0, Fail)}}},
			want:     []string{"S.N OnSuccess"}},
		{name: "a Count of 0 routes on success only, though its service could fail",
			services: []Service{{Name: "S", Steps: []Step{nested("A", Const(0), 1, Done, 1), local("B", nil, 0, Fail)}}, {Name: "Sub", Steps: []Step{local("W", Const(0.5), Done, Fail)}}},
			want:     []string{"S.A OnSuccess", "S.B OnSuccess"}},
		{name: "a service no request runs is not checked",
			services: []Service{{Name: "S", Steps: []Step{local("A", nil, Done, Fail)}}, {Name: "Spare", Steps: []Step{local("Loop", nil, 0, Fail)}}}},
		{name: "nor one nested only from a step no request reaches",
			services: []Service{{Name: "S", Steps: []Step{local("A", nil, Done, Fail), nested("Never", nil, Done, Fail, 1)}}, {Name: "Inner", Steps: []Step{local("Loop", nil, 0, Fail)}}}},
		{name: "nor one nested under a Count of 0",
			services: []Service{{Name: "S", Steps: []Step{nested("N", Const(0), Done, Fail, 1)}}, {Name: "Inner", Steps: []Step{local("Loop", nil, 0, Fail)}}}},
		{name: "a step before a nested service that never ends is not blamed",
			services: []Service{{Name: "Outer", Steps: []Step{local("P", nil, 1, Fail), nested("N", nil, Done, Fail, 1)}}, {Name: "Inner", Steps: []Step{local("W", nil, 0, Fail)}}},
			want:     []string{"Inner.W OnSuccess"}},
		{name: "an entity's stages looping on success",
			services: []Service{{Name: "S", Steps: []Step{local("A", nil, Done, Fail)}}},
			stages:   []Stage{{Service: 0, OnSuccess: 0, OnFailure: Exit}},
			want:     []string{"entity Req stage 0"}},
		{name: "an entity's stages that can fail out",
			services: []Service{{Name: "S", Steps: []Step{local("A", Const(0.5), Done, Fail)}}},
			stages:   []Stage{{Service: 0, OnSuccess: 0, OnFailure: Exit}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := oneService(expD(1))
			m.Services = tc.services
			m.Servers = []Server{{Name: "DB", Capacity: 1, TimeLimit: tc.limit}}
			if tc.stages != nil {
				m.Entities[0].Stages = tc.stages
			}
			if err := m.Check(); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range m.EndlessRoutes() {
				if e.Entity >= 0 {
					got = append(got, fmt.Sprintf("entity %s stage %d", m.Entities[e.Entity].Name, e.Step))
					continue
				}
				got = append(got, fmt.Sprintf("%s.%s %s", m.Services[e.Service].Name, m.Services[e.Service].Steps[e.Step].Name, e.Route))
				if e.Why == "" {
					t.Errorf("%s: no reason", got[len(got)-1])
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("endless %v, want %v", got, tc.want)
			}
		})
	}
}
