package workbook

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/study"
	"github.com/websim/websim/workbook/wbtest"
)

// hostileCases are the inputs of issue 11 that crashed, hung or silently
// gave wrong answers: each must now be refused at its cell (want: every
// string must be in one problem line, and notWant in none), or, with run
// set, be accepted and end in a run-time error located at want.
var hostileCases = []struct {
	name    string
	change  func(t *testing.T, m *wbtest.Model)
	want    []string
	notWant []string
	run     bool
}{
	// Crashes: sizes beyond what memory holds.
	{name: "AppServers 1e9 in Settings", change: set("SvcData.xlsx", "Settings", "B5", 1e9),
		want: []string{"SvcData.xlsx!Settings!B5: AppServers 1e+09 exceeds the limit of 10000"}},
	{name: "AppServers 1e9 in Experiments", change: set("SvcData.xlsx", "Experiments", "B3", 1e9),
		want: []string{"SvcData.xlsx!Experiments!B3: AppServers 1e+09 exceeds the limit of 10000"}},
	{name: "AppServers 1e7", change: set("SvcData.xlsx", "Settings", "B5", 1e7),
		want: []string{"SvcData.xlsx!Settings!B5: AppServers 1e+07 exceeds the limit"}},
	{name: "units of a scenario", change: func(t *testing.T, m *wbtest.Model) {
		m.Set(t, "SvcData.xlsx", "Settings", "B6", 50_000)
		m.Set(t, "SvcData.xlsx", "Experiments", "B3", 400)
	}, want: []string{"SvcData.xlsx!Experiments!B3: scenario Big has 400 application servers of 50000 units, 20000000 units in all, more than the limit of 100000"}},
	{name: "Replications 1e9", change: func(t *testing.T, m *wbtest.Model) {
		m.Set(t, "SvcData.xlsx", "Settings", "A14", "Replications")
		m.Set(t, "SvcData.xlsx", "Settings", "B14", 1e9)
	}, want: []string{"SvcData.xlsx!Settings!B14: Replications 1e+09 exceeds the limit of 10000"}},
	{name: "external Capacity 1e9 with background load", change: set("SvcData.xlsx", "ServerInfo", "B2", 1e9),
		want: []string{"SvcData.xlsx!ServerInfo!B2: capacity 1e+09 exceeds the limit of 1000000"}},
	{name: "Parallel Count 10^6", change: set("ProcData.xlsx", "ASumSvc", "F2", 1e6),
		want: []string{"ProcData.xlsx!ASumSvc!F2: Count 1e+06 exceeds the limit of 10000"}},
	{name: "constant Count 1e9", change: set("ProcData.xlsx", "ASumSvc", "F2", 1e9),
		want: []string{"ProcData.xlsx!ASumSvc!F2: Count 1e+09 exceeds the limit of 10000"}},
	{name: "constant Count expression", change: set("ProcData.xlsx", "ASumSvc", "F2", "1000 * 1000"),
		want: []string{`ProcData.xlsx!ASumSvc!F2: expression "1000 * 1000" is always Count 1e+06 exceeds the limit`}},
	{name: "Count expression beyond the limit at run time", change: set("ProcData.xlsx", "ASumSvc", "F2", "Cards * 100000"),
		run: true, want: []string{"ProcData.xlsx!ASumSvc!F2: Count gave more than 10,000, the limit,", "each time its Nested step failed"}},

	// Hangs.
	{name: "blank inter-arrival cell of a load that runs", change: set("SvcData.xlsx", "Arrivals", "C3", nil),
		want: []string{"SvcData.xlsx!Arrivals!C3: blank inter-arrival time of Ping at load L2, which runs; expected a distribution such as Exp(20), or None"}},
	{name: "WarmUp 1e12", change: set("SvcData.xlsx", "Settings", "B12", 1e12),
		want: []string{"SvcData.xlsx!Settings!B12: WarmUp 1e+12 lets about 1.5e+10 requests arrive at load L1 before statistics start, more than the limit of 100000000; expected a warm-up of at most 6.6e+09 (or auto)"}},
	{name: "WarmUp 1e308: the warm-up is to blame, not the arrivals", change: set("SvcData.xlsx", "Settings", "B12", 1e308),
		want:    []string{"SvcData.xlsx!Settings!B12: WarmUp 1e+308 lets more than 10^15 requests arrive at load L1"},
		notWant: []string{"Arrivals!"}},
	{name: "an entity named as a settings sheet", change: set("SvcData.xlsx", "Arrivals", "A3", "experiments"),
		want: []string{`SvcData.xlsx!Arrivals!A3: the entity "experiments" has the name of the Experiments sheet`}},
	{name: "inter-arrival mean so large that the clock stops", change: set("SvcData.xlsx", "Arrivals", "B2", "Exp(1e300)"),
		want: []string{"SvcData.xlsx!Arrivals!B2: inter-arrival time Exp(1e+300) of ASUM: 5000 observations would take the simulated clock past 1e+290"}},
	{name: "arrivals far slower than the background load", change: func(t *testing.T, m *wbtest.Model) {
		m.Set(t, "SvcData.xlsx", "Arrivals", "B2", "9223372036854775807")
		m.Set(t, "SvcData.xlsx", "Arrivals", "B3", "9223372036854775807")
	}, want: []string{"SvcData.xlsx!Arrivals!B2: at load L1 requests arrive 2.168404344971009e-19 a time unit, so 5000 observations take about 2.305843009213694e+22 time units, in which the servers' background load (most of it Exp(10) of GWay, SvcData.xlsx!ServerInfo!A2) brings about 2.305843009213694e+21 jobs, more than the limit of 100000000"}},
	{name: "no entity arrives at a load that runs", change: func(t *testing.T, m *wbtest.Model) {
		m.Set(t, "SvcData.xlsx", "Arrivals", "B2", "None")
		m.Set(t, "SvcData.xlsx", "Arrivals", "B3", "none")
	}, want: []string{"SvcData.xlsx!Arrivals!B2: no entity arrives at load L1 (every one is None there), which runs"}},
	{name: "inter-arrival mean so small that requests pile up", change: set("SvcData.xlsx", "Arrivals", "B2", "Exp(1e-300)"),
		run: true, want: []string{"requests in the system at", "arrivals outpace what the application can serve"}},

	{name: "inter-arrival mean whose rate is infinite", change: set("SvcData.xlsx", "Arrivals", "B2", "Exp(1e-309)"),
		want: []string{"SvcData.xlsx!Arrivals!B2: inter-arrival time Exp(1e-309) has a mean of 1e-309, too small to be simulated; expected a mean of at least 1e-307"}},

	// Silently wrong.
	{name: "times 10^14 apart: the clock rounds the short ones away", change: func(t *testing.T, m *wbtest.Model) {
		m.Set(t, "SvcData.xlsx", "Arrivals", "B2", "Exp(1e14)")
		m.Set(t, "SvcData.xlsx", "Arrivals", "B3", "Exp(1e14)")
	}, want: []string{"ProcData.xlsx!Start!B2: ProcTime Exp(2) has a mean of 2, which the simulated clock cannot add faithfully at load L1: a run there lasts about 2.5e+17 time units, where the clock moves in steps of 32, so such times would be off by up to 100%"}},
	{name: "a ProcTime whose draws overflow the clock", change: set("ProcData.xlsx", "Start", "B2", "Exp(1e308)"),
		want: []string{"ProcData.xlsx!Start!B2: ProcTime Exp(1e+308) has a mean of 1e+308, past the largest time a run can reach (1e+290)"}},
	{name: "a background service time whose draws overflow the clock", change: set("SvcData.xlsx", "ServerInfo", "E2", "Exp(1e300)"),
		want: []string{"SvcData.xlsx!ServerInfo!E2: BackgroundServiceTime Exp(1e+300) has a mean of 1e+300, past the largest time a run can reach (1e+290)"}},
	{name: "a TimeLimit below the clock's step, at its cell", change: set("SvcData.xlsx", "ServerInfo", "C2", 1e-300),
		want: []string{"SvcData.xlsx!ServerInfo!C2: TimeLimit 1e-300, which the simulated clock cannot add faithfully at load L1"}},
	{name: "a Patience below the clock's step, at its cell", change: set("SvcData.xlsx", "Arrivals", "E2", "Exp(1e-300)"),
		want: []string{"SvcData.xlsx!Arrivals!E2: Patience Exp(1e-300) has a mean of 1e-300, which the simulated clock cannot add faithfully"}},
	{name: "a time below the clock's step at the run's end", change: set("ProcData.xlsx", "Start", "B2", "Const(1e-10)"),
		want: []string{"ProcData.xlsx!Start!B2: ProcTime 1e-10 has a mean of 1e-10, which the simulated clock cannot add faithfully at load L1"}},
	{name: "Const(1e308) inter-arrival times", change: set("SvcData.xlsx", "Arrivals", "B2", "Const(1e308)"),
		want: []string{"SvcData.xlsx!Arrivals!B2: inter-arrival time 1e+308 of ASUM"}},
	{name: "circular formulas", change: func(t *testing.T, m *wbtest.Model) {
		m.Set(t, "SvcData.xlsx", "Settings", "B4", wbtest.Formula("=B5+1"))
		m.Set(t, "SvcData.xlsx", "Settings", "B5", wbtest.Formula("=B4+1"))
	}, want: []string{"SvcData.xlsx!Settings!B4: the formula =B5+1 refers back to itself (B4 → B5 → B4)"}},
	{name: "a formula that refers to its own cell through INDIRECT", change: set("SvcData.xlsx", "Settings", "B4", wbtest.Formula(`=INDIRECT("B4")`)),
		want: []string{`SvcData.xlsx!Settings!B4: the formula =INDIRECT("B4") uses INDIRECT, whose reference is made as it is computed`}},
	{name: "a formula that refers to its own cell through INDIRECT, built from text", change: set("SvcData.xlsx", "Settings", "B4", wbtest.Formula(`=INDIRECT("B"&ROW())+5`)),
		want: []string{`SvcData.xlsx!Settings!B4: the formula =INDIRECT("B"&ROW())+5 uses INDIRECT`}},
	{name: "a volatile function without a saved value", change: set("SvcData.xlsx", "Settings", "B4", wbtest.Formula(`=RANDBETWEEN(1,40)`)),
		want: []string{`SvcData.xlsx!Settings!B4: the formula =RANDBETWEEN(1,40) uses RANDBETWEEN, which Excel computes afresh at every recalculation`}},
	{name: "arithmetic on a range without a saved value", change: set("SvcData.xlsx", "Settings", "B4", wbtest.Formula(`=SUMPRODUCT(B2:B3*1)/50`)),
		want: []string{`SvcData.xlsx!Settings!B4: the formula =SUMPRODUCT(B2:B3*1)/50 does arithmetic on the range B2:B3 (an array formula)`}},
	{name: "attribute AppUtil", change: set("SvcData.xlsx", "Attributes", "B3", "AppUtil"),
		want: []string{`SvcData.xlsx!Attributes!B3: attribute name "AppUtil" is the built-in name AppUtil`}},
	{name: "attribute Now", change: set("SvcData.xlsx", "Attributes", "B3", "Now"),
		want: []string{`SvcData.xlsx!Attributes!B3: attribute name "Now" is the built-in name Now`}},
	{name: "attribute Attempt", change: set("SvcData.xlsx", "Attributes", "B3", "attempt"),
		want: []string{`SvcData.xlsx!Attributes!B3: attribute name "attempt" is the built-in name Attempt`}},
	{name: "attribute true", change: set("SvcData.xlsx", "Attributes", "B3", "true"),
		want: []string{`SvcData.xlsx!Attributes!B3: attribute name "true" is the built-in name true`}},
	{name: "attribute Copy", change: set("SvcData.xlsx", "Attributes", "B3", "Copy"),
		want: []string{`SvcData.xlsx!Attributes!B3: attribute name "Copy" is the built-in name Copy`}},
	{name: "attribute with a hyphen", change: set("SvcData.xlsx", "Attributes", "B3", "Cards-1"),
		want: []string{`SvcData.xlsx!Attributes!B3: attribute name "Cards-1" cannot be used in expressions; expected letters, digits and _, not starting with a digit (e.g. Cards_1)`}},
	{name: "attribute starting with a digit", change: set("SvcData.xlsx", "Attributes", "B3", "2nd card"),
		want: []string{`SvcData.xlsx!Attributes!B3: attribute name "2nd card" cannot be used in expressions; expected letters, digits and _, not starting with a digit (e.g. N2ndcard)`}},
	{name: "parameter with a dot", change: func(t *testing.T, m *wbtest.Model) {
		m.Set(t, "SvcData.xlsx", "Settings", "A14", "Switch.Util")
		m.Set(t, "SvcData.xlsx", "Settings", "B14", 3)
	}, want: []string{`SvcData.xlsx!Settings!A14: "Switch.Util" is not a setting; expected a built-in setting or a parameter name of letters, digits and _, not starting with a digit, that expressions can use (e.g. Switch_Util)`}},
	{name: "a built-in's name with a hyphen", change: func(t *testing.T, m *wbtest.Model) {
		m.Set(t, "SvcData.xlsx", "Settings", "A14", "Warm-Up")
		m.Set(t, "SvcData.xlsx", "Settings", "B14", 3)
	}, want: []string{`SvcData.xlsx!Settings!A14: "Warm-Up" is not a setting; did you mean "WarmUp"?`, `that expressions can use (e.g. SwitchUtil)`}},
	{name: "parameter Now", change: func(t *testing.T, m *wbtest.Model) {
		m.Set(t, "SvcData.xlsx", "Settings", "A14", "Now")
		m.Set(t, "SvcData.xlsx", "Settings", "B14", 3)
	}, want: []string{`SvcData.xlsx!Settings!A14: parameter name "Now" is the built-in name Now`}},
	{name: "deleted ProcTime column", change: func(t *testing.T, m *wbtest.Model) {
		s := m.Sheet(t, "ProcData.xlsx", "Start")
		for i := range s.Rows {
			s.Rows[i] = append(s.Rows[i][:1:1], s.Rows[i][2:]...)
		}
	}, want: []string{`ProcData.xlsx!Start: missing column "ProcTime"; expected it in the header row (row 1): steps "Auth", "Log"`}},
	{name: "blank ProcTime on a call step", change: set("ProcData.xlsx", "Start", "B2", nil),
		want: []string{`ProcData.xlsx!Start!B2: step "Auth" calls server GWay but its ProcTime is blank`}},
	{name: "blank ProcTime on a local step", change: set("ProcData.xlsx", "Start", "B3", nil),
		want: []string{`ProcData.xlsx!Start!B3: step "Log" processes on the application server but its ProcTime is blank`}},
	{name: "deleted Server column", change: func(t *testing.T, m *wbtest.Model) {
		s := m.Sheet(t, "ProcData.xlsx", "GetASum")
		s.Rows = [][]any{{"Step", "ProcTime"}, {"Gw", "Exp(3)"}}
	}, want: []string{`ProcData.xlsx!GetASum: missing column "Server"; expected it in the header row (row 1): without it every step processes on the application server, and no step calls MTC`}},
	{name: "renamed ServerInfo", change: rename("ServerInfo", "Backends"),
		want:    []string{`SvcData.xlsx!ServerInfo: missing sheet; expected a sheet "ServerInfo" with the servers the steps call (GWay, MTC) (sheet "Backends" has its columns: rename it ServerInfo)`},
		notWant: []string{"unknown server", "Backends: sheet left alone"}},
	{name: "a call to an unknown server without ProcTime and without ServerInfo", change: func(t *testing.T, m *wbtest.Model) {
		m.Remove(t, "SvcData.xlsx", "ServerInfo")
		m.Set(t, "ProcData.xlsx", "Start", "B2", nil)
	}, want: []string{`ProcData.xlsx!Start!B2: step "Auth" calls a server but its ProcTime is blank`, `SvcData.xlsx!ServerInfo: missing sheet; expected a sheet "ServerInfo" with the servers the steps call (GWay, MTC)`}},
	{name: "deleted Settings", change: func(t *testing.T, m *wbtest.Model) { m.Remove(t, "SvcData.xlsx", "Settings") },
		want: []string{`SvcData.xlsx!Settings: missing sheet; expected a sheet "Settings" with the columns Name and Value (a setting left out takes its default, but the sheet is needed)`}},
	{name: "renamed Settings", change: rename("Settings", "Parameters"),
		want: []string{`SvcData.xlsx!Settings: missing sheet; expected a sheet "Settings" (sheet "Parameters" has its columns Name and Value`}},
	{name: "a step that can only succeed routes to itself", change: set("ProcData.xlsx", "ASumSvc", "I3", "Render"),
		want: []string{`ProcData.xlsx!ASumSvc!I3: a request that reaches step "Render" never finishes: it can only succeed (no SuccessRate), its OnSuccess leads to Render, and from there every route comes back without reaching DONE or FAIL`}},
	{name: "an endless route beside problems elsewhere, all reported", change: func(t *testing.T, m *wbtest.Model) {
		m.Set(t, "ProcData.xlsx", "ASumSvc", "I3", "Render")
		m.Set(t, "SvcData.xlsx", "Settings", "B9", -1)
		m.Set(t, "SvcData.xlsx", "Arrivals", "C2", "Expo(3")
	}, want: []string{
		`SvcData.xlsx!Settings!B9: TActive -1 is negative`,
		`SvcData.xlsx!Arrivals!C2: distribution "Expo(3"`,
		`ProcData.xlsx!ASumSvc!I3: a request that reaches step "Render" never finishes`}},
	{name: "a percentage as a time limit", change: func(t *testing.T, m *wbtest.Model) {
		m.Add("SvcData.xlsx", "Targets", []any{"Entity", "Measure", "Limit"}, []any{nil, "p95", "50%"})
	}, want: []string{`SvcData.xlsx!Targets!C2: limit 50% is a percentage, but a p95 is a time; expected a time`}},
	{name: "a percentage as a measured time", change: func(t *testing.T, m *wbtest.Model) {
		m.Add("SvcData.xlsx", "Measured", []any{"Entity", "Load", "Measure", "Value"}, []any{nil, "L1", "mean", "20%"})
	}, want: []string{`SvcData.xlsx!Measured!D2: value 20% is a percentage, but a mean is a time; expected a time`}},
	{name: "misspelt Experiments", change: rename("Experiments", "Experiment"),
		want: []string{`SvcData.xlsx!Experiment: sheet "Experiment" not read: did you mean "Experiments"? it has that sheet's columns: rename it Experiments for websim to read it, or give it a name further from that to keep it as notes`}},
	{name: "Experiments with a space", change: rename("Experiments", "Experi ments"),
		want: []string{`SvcData.xlsx!Experi ments: sheet "Experi ments" not read: did you mean "Experiments"?`}},
	{name: "TimedOut outside a RetryProbability", change: set("ProcData.xlsx", "Start", "C3", "TimedOut ? 0 : 1"),
		want: []string{`ProcData.xlsx!Start!C3: expression "TimedOut ? 0 : 1": TimedOut, whether a TimeLimit failed the attempt, is known only in a RetryProbability; here it would always be false at column 1`}},
	{name: "decimal comma in a distribution", change: set("ProcData.xlsx", "Start", "B2", "Exp(1,5)"),
		want: []string{`ProcData.xlsx!Start!B2: distribution "Exp(1,5)"`, "(a decimal comma? arguments are separated by commas, so write 1.5 with a point"}},
	{name: "Observations 1e12", change: set("SvcData.xlsx", "Settings", "B4", 1e12),
		want:    []string{"SvcData.xlsx!Settings!B4: Observations 1e+12 exceeds the limit of 100000000"},
		notWant: []string{"not a whole number"}},
	{name: "zero inter-arrival time", change: set("SvcData.xlsx", "Arrivals", "B2", 0),
		want: []string{"SvcData.xlsx!Arrivals!B2: inter-arrival time 0 has a mean of 0, so requests would arrive without end at one instant"}},
	{name: "zero inter-arrival Const(0)", change: set("SvcData.xlsx", "Arrivals", "D3", "Const(0)"),
		want: []string{"SvcData.xlsx!Arrivals!D3: inter-arrival time 0 has a mean of 0"}},
	{name: "zero background inter-arrival", change: set("SvcData.xlsx", "ServerInfo", "D2", "Uniform(0,0)"),
		want: []string{"SvcData.xlsx!ServerInfo!D2: inter-arrival time Uniform(0,0) has a mean of 0"}},
}

// TestClockGuardCells checks that the reader locates what the engine's
// clock guard names: each inter-arrival cell, each entity's and server's
// row.
func TestClockGuardCells(t *testing.T) {
	dir := t.TempDir()
	wbtest.Valid().Write(t, dir)
	plan, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := plan.Scenarios[0].Model
	ping := m.Entities[1]
	if got := strings.Join(ping.InterArrivalCells, " "); got != "SvcData.xlsx!Arrivals!B3 SvcData.xlsx!Arrivals!C3 SvcData.xlsx!Arrivals!D3" || ping.Cell != "SvcData.xlsx!Arrivals!A3" {
		t.Errorf("Ping's cells %q, row %q", got, ping.Cell)
	}
	if ping.InterArrival[1] != nil {
		t.Errorf("None read as %v", ping.InterArrival[1])
	}
	if got := m.Servers[1].Cell; got != "SvcData.xlsx!ServerInfo!A3" {
		t.Errorf("MTC's cell %q", got)
	}
}

func set(file, sheet, ref string, v any) func(t *testing.T, m *wbtest.Model) {
	return func(t *testing.T, m *wbtest.Model) { m.Set(t, file, sheet, ref, v) }
}

func rename(from, to string) func(t *testing.T, m *wbtest.Model) {
	return func(t *testing.T, m *wbtest.Model) { m.Sheet(t, "SvcData.xlsx", from).Name = to }
}

func TestHostileInput(t *testing.T) {
	for _, tc := range hostileCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			m := wbtest.Valid()
			tc.change(t, m)
			m.Write(t, dir)
			start := time.Now()
			plan, err := Read(dir)
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("Read took %v", d)
			}
			var lines []string
			if tc.run {
				if err != nil {
					t.Fatalf("Read: %v", err)
				}
				lines = []string{runTiny(t, plan)}
			} else {
				var problems Problems
				if !errors.As(err, &problems) {
					t.Fatalf("Read: %v, want problems", err)
				}
				for _, p := range problems {
					lines = append(lines, p.Error())
				}
			}
			all := strings.Join(lines, "\n")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("no problem says %q; got:\n%s", w, all)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(all, w) {
					t.Errorf("a problem says %q; got:\n%s", w, all)
				}
			}
		})
	}
}

// runTiny runs every scenario of the plan at its first load for a few
// observations, within a deadline, and returns the error it must end with,
// or else why its runs are unstable and the warnings they gave.
func runTiny(t *testing.T, plan *study.Plan) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for i := range plan.Scenarios {
		run := &plan.Scenarios[i].Run
		run.Observations, run.Replications, run.WarmUp, run.AutoWarmUp = 200, 1, 0, false
		run.Loads = run.Loads[:1]
	}
	st, err := study.Execute(ctx, plan, study.Options{Jobs: 1})
	if errors.Is(err, context.DeadlineExceeded) {
		t.Fatal("the run did not end in time")
	}
	if err != nil {
		var re *engine.RunError
		if !errors.As(err, &re) {
			t.Errorf("error %v is not an engine.RunError", err)
		}
		return err.Error()
	}
	var why []string
	for _, r := range st.Runs {
		if !r.Result.Stable {
			why = append(why, r.Result.Unstable)
		}
	}
	for _, w := range st.Warnings {
		if study.RunWarning(w) {
			why = append(why, w)
		}
	}
	if len(why) == 0 {
		t.Fatal("the runs ended stable, without an error or a warning")
	}
	return strings.Join(why, "\n")
}

// TestRunsLimitAfterTheCommandLine: a study of more than study.MaxRuns runs
// is refused at the cell that sets its size, but only as it will run:
// --loads or --scenarios (Plan.Apply) may bring it within the limit.
func TestRunsLimitAfterTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	m := wbtest.Valid() // 2 scenarios × 2 loads
	m.Set(t, "SvcData.xlsx", "Settings", "A14", "Replications")
	m.Set(t, "SvcData.xlsx", "Settings", "B14", 5000)
	m.Write(t, dir)
	read := func() *study.Plan {
		plan, err := Read(dir)
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		return plan
	}
	want := "SvcData.xlsx!Settings!B14: the study has 20000 runs (scenarios × loads × replications), more than the limit of 10000"
	if err := read().CheckRuns(); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("CheckRuns = %v, want %q", err, want)
	}
	var re *study.RunsError
	if err := read().Apply(study.Edit{}); !errors.As(err, &re) || re.Runs != 20000 {
		t.Errorf("Apply without narrowing = %v, want a RunsError of 20000 runs", err)
	}
	for _, e := range []study.Edit{{Loads: []string{"L1"}}, {Scenarios: []string{"Base"}}} {
		p := read()
		if err := p.Apply(e); err != nil {
			t.Errorf("Apply(%+v) = %v, want the study within the limit (%d runs)", e, err, p.Runs())
		}
	}
}
