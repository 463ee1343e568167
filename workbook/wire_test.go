package workbook

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/rules"
	"github.com/websim/websim/workbook/wbtest"
)

// problems reads m and returns its problems as text, one per line.
func problemsOf(t *testing.T, m *wbtest.Model) string {
	t.Helper()
	dir := t.TempDir()
	m.Write(t, dir)
	_, err := Read(dir)
	var ps Problems
	if err != nil && !errors.As(err, &ps) {
		t.Fatalf("Read: %v (not Problems)", err)
	}
	return strings.ReplaceAll(ps.Error(), dir, "MODEL")
}

func TestUnitQueueAndMaxAdmittedSettings(t *testing.T) {
	m := wbtest.Valid()
	m.Set(t, "SvcData.xlsx", "Settings", "A13", "Unit Queue")
	m.Set(t, "SvcData.xlsx", "Settings", "B13", "inflightfirst")
	m.Set(t, "SvcData.xlsx", "Settings", "A14", "MaxAdmitted")
	m.Set(t, "SvcData.xlsx", "Settings", "B14", 4)
	m.Set(t, "SvcData.xlsx", "Experiments", "D1", "UnitQueue")
	m.Set(t, "SvcData.xlsx", "Experiments", "E1", "MaxAdmitted")
	m.Set(t, "SvcData.xlsx", "Experiments", "D3", "FCFS")
	m.Set(t, "SvcData.xlsx", "Experiments", "E3", "none")
	dir := t.TempDir()
	m.Write(t, dir)
	plan, err := Read(dir)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	base, big := plan.Scenarios[0].Model.App, plan.Scenarios[1].Model.App
	if base.UnitQueue != engine.InFlightFirst || base.MaxAdmitted != 4 {
		t.Errorf("base: UnitQueue %v, MaxAdmitted %d; want InFlightFirst, 4", base.UnitQueue, base.MaxAdmitted)
	}
	if big.UnitQueue != engine.FCFS || big.MaxAdmitted != 0 {
		t.Errorf("Big: UnitQueue %v, MaxAdmitted %d; want FCFS, 0 (none)", big.UnitQueue, big.MaxAdmitted)
	}

	// As read, the limit holds in a run: with one request admitted at a
	// time, others wait for entry.
	m.Set(t, "SvcData.xlsx", "Settings", "B14", 1)
	dir = t.TempDir()
	m.Write(t, dir)
	if plan, err = Read(dir); err != nil {
		t.Fatal(err)
	}
	r, err := engine.Run(plan.Scenarios[0].Model, engine.RunConfig{Seed: 1, Load: 2, Observations: 2000})
	if err != nil {
		t.Fatal(err)
	}
	waits := int64(0)
	for _, a := range r.AppServers {
		waits += a.AdmissionWaits
		// One request holds at most 8 units: its own, a Parallel parent's
		// and one per copy (Cards is at most 6).
		if a.PeakBusy > 8 {
			t.Errorf("%s: %d units busy at once with MaxAdmitted 1", a.Name, a.PeakBusy)
		}
	}
	if waits == 0 {
		t.Error("MaxAdmitted 1: no request waited for entry")
	}

	// Defaults: FCFS and no limit.
	plain := wbtest.Valid()
	dir = t.TempDir()
	plain.Write(t, dir)
	if plan, err = Read(dir); err != nil {
		t.Fatal(err)
	}
	if a := plan.Scenarios[0].Model.App; a.UnitQueue != engine.FCFS || a.MaxAdmitted != 0 {
		t.Errorf("defaults: UnitQueue %v, MaxAdmitted %d", a.UnitQueue, a.MaxAdmitted)
	}

	// Bad values are located, with what was expected.
	m.Set(t, "SvcData.xlsx", "Settings", "B13", "InFlightFrist")
	m.Set(t, "SvcData.xlsx", "Experiments", "E3", 2.5)
	got := problemsOf(t, m)
	for _, want := range []string{
		`SvcData.xlsx!Settings!B13: unknown unit queue "InFlightFrist"; did you mean "InFlightFirst"?; expected FCFS or InFlightFirst`,
		`SvcData.xlsx!Experiments!E3: MaxAdmitted 2.5 is not a whole number >= 1`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
}

// withGetAuth is the valid model with a fourth service, GetAuth (a call
// to GWay), and ASumSvc's Fetch running GetASum and GetAuth.
func withGetAuth(t *testing.T) *wbtest.Model {
	m := wbtest.Valid()
	m.Add("ProcData.xlsx", "GetAuth",
		[]any{"Step", "ProcTime", "Server", "Service"},
		[]any{"Ask", "Exp(2)", "GWay"},
	)
	m.Set(t, "ProcData.xlsx", "ASumSvc", "E2", "GetASum,  GetAuth")
	return m
}

func TestServiceCellListsSeveralServices(t *testing.T) {
	dir := t.TempDir()
	withGetAuth(t).Write(t, dir)
	plan, err := Read(dir)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	m := plan.Scenarios[0].Model
	fetch := m.Services[1].Steps[0]
	if fetch.Kind != engine.Nested || len(fetch.Services) != 2 || m.Services[fetch.Services[0]].Name != "GetASum" || m.Services[fetch.Services[1]].Name != "GetAuth" {
		t.Fatalf("Fetch runs %v; want GetASum then GetAuth", fetch.Services)
	}
	// The model runs as read: both services are called.
	r, err := engine.Run(m, engine.RunConfig{Seed: 1, Observations: 500})
	if err != nil {
		t.Fatal(err)
	}
	if r.Servers[0].Jobs == 0 || r.Servers[1].Jobs == 0 {
		t.Errorf("jobs at GWay %d, MTC %d; want both called", r.Servers[0].Jobs, r.Servers[1].Jobs)
	}

	cases := []struct{ cell, text, want string }{
		{"E2", "GetASum, GetAuht", `ProcData.xlsx!ASumSvc!E2: unknown service "GetAuht"; did you mean "GetAuth"?`},
		{"E2", "GetASum,", `ProcData.xlsx!ASumSvc!E2: an empty name in the list "GetASum,"`},
		// GetAuth nests ASumSvc, which runs GetAuth: a loop through the
		// second name of the list.
		{"GetAuth!D2", "Log, ASumSvc", `ProcData.xlsx!GetAuth!D2: service "ASumSvc" runs itself (ASumSvc → GetAuth → ASumSvc)`},
	}
	for _, tc := range cases {
		m := withGetAuth(t)
		sheet, cell := "ASumSvc", tc.cell
		if s, c, ok := strings.Cut(tc.cell, "!"); ok {
			sheet, cell = s, c
			m.Set(t, "ProcData.xlsx", "GetAuth", "C2", nil) // Ask now nests, no server
		}
		m.Set(t, "ProcData.xlsx", sheet, cell, tc.text)
		if sheet == "GetAuth" {
			m.Add("ProcData.xlsx", "Log", []any{"Step", "ProcTime"}, []any{"Write", 1})
		}
		got := problemsOf(t, m)
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s = %q: problems lack %q:\n%s", tc.cell, tc.text, tc.want, got)
		}
		if sheet == "GetAuth" && !strings.Contains(got, "runs itself (") {
			t.Errorf("no loop found through the list:\n%s", got)
		}
		t.Log(got)
	}
}

func TestRetryProbabilityExpression(t *testing.T) {
	read := func(t *testing.T, text any) (*engine.Entity, string) {
		t.Helper()
		m := wbtest.Valid()
		m.Set(t, "SvcData.xlsx", "Arrivals", "F2", text)
		dir := t.TempDir()
		m.Write(t, dir)
		plan, err := Read(dir)
		if err != nil {
			return nil, strings.ReplaceAll(err.Error(), dir, "MODEL")
		}
		return &plan.Scenarios[0].Model.Entities[0], ""
	}
	// Users retry quick failures and abandon slow answers.
	e, problems := read(t, "TimedOut ? 0 : (Elapsed < 100 ? 0.9 : 0.2)")
	if e == nil {
		t.Fatal(problems)
	}
	x, ok := e.RetryProbabilityExpr.(*rules.Expr)
	if !ok || x.Cell != "SvcData.xlsx!Arrivals!F2" || x.Kind() != rules.Probability {
		t.Fatalf("RetryProbabilityExpr %#v; want a probability expression of Arrivals!F2", e.RetryProbabilityExpr)
	}
	for _, tc := range []struct {
		elapsed  float64
		timedOut bool
		want     float64
	}{{50, false, 0.9}, {500, false, 0.2}, {50, true, 0}} {
		ctx := engine.EvalContext{Elapsed: tc.elapsed, TimedOut: tc.timedOut, Attrs: make([]float64, 2), Params: make([]float64, 32)}
		if got, err := x.Number(&ctx); err != nil || got != tc.want {
			t.Errorf("Elapsed %v, TimedOut %v: %v, %v; want %v", tc.elapsed, tc.timedOut, got, err, tc.want)
		}
	}

	// A number stays a number, and so does an expression that is one.
	for _, text := range []any{0.5, "= 0.25 * 2"} {
		if e, problems := read(t, text); e == nil || e.RetryProbability != 0.5 || e.RetryProbabilityExpr != nil {
			t.Errorf("%v: %+v %s; want RetryProbability 0.5 and no expression", text, e, problems)
		}
	}

	// Mistakes are located.
	for text, want := range map[string]string{
		"Elapsd < 100 ? 1 : 0": `SvcData.xlsx!Arrivals!F2: expression "Elapsd < 100 ? 1 : 0": unknown name "Elapsd" at column 1; did you mean "Elapsed"?`,
		"2 * 0.75":             `SvcData.xlsx!Arrivals!F2: expression "2 * 0.75": the result 1.5 is not a probability from 0 to 1`,
	} {
		if e, problems := read(t, text); e != nil || !strings.Contains(problems, want) {
			t.Errorf("%q: problems %q; want one at %s", text, problems, want)
		} else {
			t.Log(problems)
		}
	}
}

// Any name that is not a built-in setting is a user parameter: a near miss
// is a warning, and a problem only one letter away from a built-in that
// the sheet does not set.
func TestNearMissesOfBuiltinSettings(t *testing.T) {
	cases := []struct {
		row                    string // where the name goes: a new row, or over a built-in
		name, problem, warning string
	}{
		{"13", "Rate", "", `"Rate" is a parameter of your own, not the built-in setting "RAT"`},
		{"13", "Capacity", "", `"Capacity" is a parameter of your own, not the built-in setting "AppCapacity"`},
		{"13", "Seeds", "", `"Seeds" is a parameter of your own, not the built-in setting "Seed"`},                  // Seed is set
		{"13", "AppCapcity", "", `"AppCapcity" is a parameter of your own, not the built-in setting "AppCapacity"`}, // set
		{"6", "AppCapcity", `"AppCapcity" is not a setting; did you mean "AppCapacity"?`, ""},                       // not set
		{"9", "TActiv", `"TActiv" is not a setting; did you mean "TActive"?`, ""},
		{"5", "AppServer", `"AppServer" is not a setting; did you mean "AppServers"?`, ""},
		{"13", "AppServer", "", `"AppServer" is a parameter of your own`},
		{"13", "Rho", "", ""},
		{"13", "Faktor_ü", "", ""}, // letters of any script, as expressions read them
		{"13", "Größe", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name+"/A"+tc.row, func(t *testing.T) {
			m := wbtest.Valid()
			m.Set(t, "SvcData.xlsx", "Settings", "A"+tc.row, tc.name)
			m.Set(t, "SvcData.xlsx", "Settings", "B"+tc.row, 3)
			dir := t.TempDir()
			m.Write(t, dir)
			plan, err := Read(dir)
			if tc.problem != "" {
				if err == nil || !strings.Contains(err.Error(), "SvcData.xlsx!Settings!A"+tc.row+": "+tc.problem) {
					t.Errorf("error %v; want %q at A%s", err, tc.problem, tc.row)
				}
				return
			}
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			warnings := strings.Join(plan.Warnings, "\n")
			if tc.warning == "" && strings.Contains(warnings, tc.name) || !strings.Contains(warnings, tc.warning) {
				t.Errorf("warnings %q; want %q", warnings, tc.warning)
			}
			found := false
			for _, p := range plan.Scenarios[0].Model.Params {
				found = found || p.Name == tc.name && p.Value == 3
			}
			if !found {
				t.Errorf("no parameter %s = 3 in %+v", tc.name, plan.Scenarios[0].Model.Params)
			}
		})
	}
}

// TargetPrecision's default is none, as the contract says, and "none" may
// be typed for it, in Settings and in Experiments.
func TestTargetPrecisionNone(t *testing.T) {
	m := wbtest.Valid()
	m.Set(t, "SvcData.xlsx", "Settings", "A13", "TargetPrecision")
	m.Set(t, "SvcData.xlsx", "Settings", "B13", 0.05)
	m.Set(t, "SvcData.xlsx", "Experiments", "D1", "TargetPrecision")
	m.Set(t, "SvcData.xlsx", "Experiments", "D3", "None")
	dir := t.TempDir()
	m.Write(t, dir)
	plan, err := Read(dir)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if base, big := plan.Scenarios[0].Run.TargetPrecision, plan.Scenarios[1].Run.TargetPrecision; base != 0.05 || big != 0 {
		t.Errorf("TargetPrecision %v and %v, want 0.05 and 0 (none)", base, big)
	}
}

// Counts multiply down nested services: each within MaxCount, a chain of
// them may still run more services for one request than a run can get
// through, and that is refused at the step where the product passes
// MaxNestedRuns, naming the chain.
func TestNestedCountsMultiply(t *testing.T) {
	for _, tc := range []struct {
		outer any
		want  string
	}{
		{1000, `ProcData.xlsx!ASumSvc!E2: this step's Count and the nested steps of "ASumSvc" run about 2,001,000 services below each run of "ASumSvc" (down ASumSvc → GetASum → Inner), more than the limit of 1,000,000`},
		{400, ""},
		{"Cards", ""}, // an expression: bounded when run
	} {
		m := wbtest.Valid()
		m.Set(t, "ProcData.xlsx", "ASumSvc", "F2", tc.outer)
		for cell, v := range map[string]any{"B2": nil, "C2": nil, "D1": "Service", "E1": "Count", "D2": "Inner", "E2": 2000} {
			m.Set(t, "ProcData.xlsx", "GetASum", cell, v)
		}
		m.Add("ProcData.xlsx", "Inner", []any{"Step", "ProcTime"}, []any{"X", 1})
		got := problemsOf(t, m)
		if tc.want == "" && strings.Contains(got, "Counts of this step") || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("outer Count %v: problems\n%s\nwant %q", tc.outer, got, tc.want)
		}
	}
}

// Sibling nested steps add up: ten steps nesting the next service, seven
// deep, are 10^7 runs of services for one request, with no Count at all.
func TestNestedStepsAddUp(t *testing.T) {
	m := wbtest.Valid()
	m.Set(t, "ProcData.xlsx", "ASumSvc", "F2", nil)
	m.Set(t, "ProcData.xlsx", "ASumSvc", "E2", "L1")
	for level := 1; level <= 7; level++ {
		rows := [][]any{{"Step", "ProcTime", "Service"}}
		for i := range 10 {
			if level < 7 {
				rows = append(rows, []any{fmt.Sprintf("S%d", i), nil, fmt.Sprintf("L%d", level+1)})
			} else {
				rows = append(rows, []any{fmt.Sprintf("S%d", i), 1})
			}
		}
		m.Add("ProcData.xlsx", fmt.Sprintf("L%d", level), rows...)
	}
	got := problemsOf(t, m)
	if !strings.Contains(got, `ProcData.xlsx!L1!C11: this step's Count and the nested steps of "L1" run about 1,111,110 services below each run of "L1"`) {
		t.Errorf("problems:\n%s\nwant the ten-wide, seven-deep nesting refused", got)
	}
}

// A text of numbers joined by "-" in a setting's cell (10-20, a date in a
// cell formatted as text) runs as an expression, with a warning.
func TestRangeOrDateTextWarns(t *testing.T) {
	for _, tc := range []struct {
		text string
		warn bool
	}{
		{"2024-01-05", true},
		{"10-20", true},
		{"0.5", false},
		{"RATParameter - 49.5", false},
	} {
		m := wbtest.Valid()
		m.Set(t, "SvcData.xlsx", "Settings", "B10", tc.text)
		dir := t.TempDir()
		m.Write(t, dir)
		plan, err := Read(dir)
		if err != nil {
			t.Fatalf("%s: %v", tc.text, err)
		}
		warned := strings.Contains(strings.Join(plan.Warnings, "\n"), "is read as the expression")
		if warned != tc.warn {
			t.Errorf("SwitchUtil %q: warned %v, want %v: %q", tc.text, warned, tc.warn, plan.Warnings)
		}
	}
}
