package workbook

import (
	"archive/zip"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/rules"
	"github.com/websim/websim/study"
	"github.com/websim/websim/workbook/wbtest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func TestReadValid(t *testing.T) {
	dir := t.TempDir()
	wbtest.Valid().Write(t, dir)
	plan, err := Read(dir)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if len(plan.Warnings) > 0 {
		t.Errorf("warnings: %q", plan.Warnings)
	}
	if plan.TimeUnit != "ms" || plan.Model != filepath.Base(dir) || len(plan.Inputs) != 2 || len(plan.Inputs[0].SHA256) != 64 {
		t.Errorf("plan header: %q %q %+v", plan.TimeUnit, plan.Model, plan.Inputs)
	}
	if len(plan.Scenarios) != 2 || plan.Scenarios[0].Name != "Base" || plan.Scenarios[1].Name != "Big" {
		t.Fatalf("scenarios: %+v", plan.Scenarios)
	}
	base, big := plan.Scenarios[0], plan.Scenarios[1]
	m := base.Model

	if got := strings.Join(m.Loads, ","); got != "L1,L2,L3" {
		t.Errorf("loads %q", got)
	}
	if len(m.Servers) != 2 || m.Servers[0].Name != "GWay" || m.Servers[0].Capacity != 4 || m.Servers[0].TimeLimit != 2000 ||
		m.Servers[0].BackgroundInterArrival == nil || m.Servers[1].BackgroundInterArrival != nil {
		t.Errorf("servers %+v", m.Servers)
	}
	if got := strings.Join(m.Attributes, ","); got != "Cards,Pages" {
		t.Errorf("attributes %q", got)
	}

	// Services: indexes, kinds and routing.
	if len(m.Services) != 3 || m.Services[0].Name != "Start" || m.Services[1].Name != "ASumSvc" || m.Services[2].Name != "GetASum" {
		t.Fatalf("services %+v", m.Services)
	}
	auth, log := m.Services[0].Steps[0], m.Services[0].Steps[1]
	if auth.Kind != engine.Call || auth.Server != 0 || auth.SuccessRate != engine.Const(0.99) || auth.OnSuccess != 1 || auth.OnFailure != engine.Fail ||
		auth.Cell != "ProcData.xlsx!Start!A2" {
		t.Errorf("Auth %+v", auth)
	}
	if log.Kind != engine.Local || log.OnSuccess != engine.Done || log.OnFailure != engine.Fail || log.ProcTime.Mean() != 1 {
		t.Errorf("Log %+v", log)
	}
	fetch, render := m.Services[1].Steps[0], m.Services[1].Steps[1]
	if fetch.Kind != engine.Nested || !slices.Equal(fetch.Services, []int{2}) || fetch.OnSuccess != 1 || fetch.OnFailure != engine.Fail {
		t.Errorf("Fetch %+v", fetch)
	}
	if e, ok := fetch.Count.(*rules.Expr); !ok || e.Cell != "ProcData.xlsx!ASumSvc!F2" {
		t.Errorf("Fetch Count %#v", fetch.Count)
	}
	if e, ok := fetch.Mode.(*rules.Expr); !ok || e.Kind() != rules.Mode {
		t.Errorf("Fetch Mode %#v", fetch.Mode)
	}
	if render.Kind != engine.Local || render.Condition == nil || render.OnSuccess != engine.Done || render.OnFailure != engine.Fail {
		t.Errorf("Render %+v", render)
	}
	if gw := m.Services[2].Steps[0]; gw.Kind != engine.Call || gw.Server != 1 {
		t.Errorf("Gw %+v", gw)
	}

	// Entities: arrivals per load, attributes, stages.
	asum, ping := m.Entities[0], m.Entities[1]
	if asum.Name != "ASUM" || len(asum.InterArrival) != 3 || asum.RetryProbability != 0.5 || asum.MaxRetries != 2 || asum.RetryDelay == nil {
		t.Errorf("ASUM %+v", asum)
	}
	if len(asum.Attributes) != 2 || asum.Attributes[0].Dist == nil || asum.Attributes[1].Index != 1 || asum.Attributes[1].Expr == nil {
		t.Errorf("ASUM attributes %+v", asum.Attributes)
	}
	wantStages := []engine.Stage{{Service: 0, OnSuccess: 1, OnFailure: engine.Exit}, {Service: 1, OnSuccess: engine.End, OnFailure: engine.Exit}}
	if len(asum.Stages) != 2 || asum.Stages[0] != wantStages[0] || asum.Stages[1] != wantStages[1] {
		t.Errorf("ASUM stages %+v", asum.Stages)
	}
	if ping.InterArrival[1] != nil || ping.InterArrival[2] == nil {
		t.Errorf("Ping arrivals %v", ping.InterArrival)
	}

	// Settings, parameters and scenarios.
	if m.App != (engine.AppConfig{Servers: 2, Capacity: 10, Selection: engine.RandomServer, RATParameter: 50}) {
		t.Errorf("base app %+v", m.App)
	}
	if big.Model.App.Servers != 4 || big.Model.App.Selection != engine.LeastBusy || !slices.Equal(big.Model.Services[1].Steps[0].Services, []int{2}) {
		t.Errorf("Big app %+v", big.Model.App)
	}
	params := map[string]float64{}
	for _, p := range big.Model.Params {
		params[p.Name] = p.Value
	}
	if params["AppServers"] != 4 || params["SwitchUtil"] != 0.5 || params["AppCapacity"] != 10 || params["Replications"] != 1 {
		t.Errorf("Big params %+v", big.Model.Params)
	}
	if m.Params[2] != (engine.Param{Name: "AppServers", Value: 2}) {
		t.Errorf("base params %+v", m.Params)
	}
	if r := base.Run; r.Seed != 7 || !r.AutoWarmUp || r.Observations != 5000 || r.Replications != 1 || len(r.Loads) != 2 || r.Loads[1] != 1 {
		t.Errorf("run %+v", r)
	}
	if len(big.Overrides) != 2 || big.Overrides[0].Name != "AppServers" {
		t.Errorf("overrides %+v", big.Overrides)
	}
}

// TestFormulaValue checks that a formula without a saved value is computed.
func TestFormulaValue(t *testing.T) {
	m := wbtest.Valid()
	m.Set(t, "SvcData.xlsx", "Settings", "B4", wbtest.Formula("=1000*5+B3"))
	m.Set(t, "SvcData.xlsx", "ServerInfo", "C2", wbtest.Formula("=2*1000"))
	dir := t.TempDir()
	m.Write(t, dir)
	plan, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := plan.Scenarios[0].Run.Observations; got != 5007 {
		t.Errorf("Observations = %d, want 5007", got)
	}
	if got := plan.Scenarios[0].Model.Servers[0].TimeLimit; got != 2000 {
		t.Errorf("TimeLimit = %v, want 2000", got)
	}
}

// brokenCases change the valid model in one way each; the golden files
// hold the exact problem lines expected.
var brokenCases = []struct {
	name   string
	change func(t *testing.T, m *wbtest.Model, dir string)
	// after changes the written files.
	after func(t *testing.T, dir string)
}{
	{name: "missing_workbook", after: func(t *testing.T, dir string) {
		must(t, os.Remove(filepath.Join(dir, "ProcData.xlsx")))
	}},
	{name: "missing_sheet", change: func(t *testing.T, m *wbtest.Model, _ string) {
		m.Remove(t, "SvcData.xlsx", "Ping")
		m.Remove(t, "ProcData.xlsx", "GetASum")
	}},
	{name: "missing_arrivals", change: func(t *testing.T, m *wbtest.Model, _ string) {
		m.Remove(t, "SvcData.xlsx", "Arrivals")
	}},
	{name: "missing_column", change: func(t *testing.T, m *wbtest.Model, _ string) {
		m.Set(t, "SvcData.xlsx", "ServerInfo", "B1", "Capacty")
	}},
	{name: "bad_distribution", change: func(t *testing.T, m *wbtest.Model, _ string) {
		m.Set(t, "ProcData.xlsx", "Start", "B2", "Expo(3")
		m.Set(t, "SvcData.xlsx", "Arrivals", "C2", "Uniform(5,2)")
	}},
	{name: "unknown_names", change: func(t *testing.T, m *wbtest.Model, _ string) {
		m.Set(t, "ProcData.xlsx", "Start", "D2", "GWy")
		m.Set(t, "ProcData.xlsx", "ASumSvc", "E2", "GetASun")
		m.Set(t, "ProcData.xlsx", "ASumSvc", "I3", "Fetc")
		m.Set(t, "SvcData.xlsx", "ASUM", "A3", "ASumSv")
		m.Set(t, "SvcData.xlsx", "Attributes", "A3", "ASMU")
	}},
	{name: "probability", change: func(t *testing.T, m *wbtest.Model, _ string) {
		m.Set(t, "ProcData.xlsx", "Start", "C2", 1.5)
		m.Set(t, "SvcData.xlsx", "Arrivals", "F2", -0.1)
	}},
	{name: "capacity", change: func(t *testing.T, m *wbtest.Model, _ string) {
		m.Set(t, "SvcData.xlsx", "ServerInfo", "B2", 0)
		m.Set(t, "SvcData.xlsx", "Settings", "B5", 0)
		m.Set(t, "SvcData.xlsx", "Settings", "B6", 2.5)
	}},
	{name: "duplicates", change: func(t *testing.T, m *wbtest.Model, _ string) {
		m.Set(t, "ProcData.xlsx", "Start", "A3", "auth")
		m.Set(t, "SvcData.xlsx", "ServerInfo", "A4", "GWAY")
		m.Set(t, "SvcData.xlsx", "ServerInfo", "B4", 1)
		m.Set(t, "SvcData.xlsx", "Arrivals", "A4", "asum")
		m.Set(t, "SvcData.xlsx", "Arrivals", "B4", "Exp(1)")
		m.Set(t, "SvcData.xlsx", "Experiments", "A3", "base")
		m.Set(t, "SvcData.xlsx", "Settings", "A14", "seed")
		m.Set(t, "SvcData.xlsx", "Settings", "B14", 3)
	}},
	{name: "routing_cycle", change: func(t *testing.T, m *wbtest.Model, _ string) {
		s := m.Sheet(t, "ProcData.xlsx", "GetASum")
		s.Rows = [][]any{
			{"Step", "ProcTime", "Server", "OnSuccess", "OnFailure"},
			{"Gw", "Exp(3)", "MTC", "Retry", "Retry"},
			{"Retry", "Exp(1)", "MTC", "Gw", "gw"},
		}
		m.Set(t, "SvcData.xlsx", "ASUM", "B3", "Start")
		m.Set(t, "SvcData.xlsx", "ASUM", "C3", "Start")
	}},
	{name: "self_nesting", change: func(t *testing.T, m *wbtest.Model, _ string) {
		m.Set(t, "ProcData.xlsx", "GetASum", "D1", "Service")
		m.Set(t, "ProcData.xlsx", "GetASum", "D2", "ASumSvc")
		m.Set(t, "ProcData.xlsx", "GetASum", "B2", nil)
		m.Set(t, "ProcData.xlsx", "GetASum", "C2", nil)
		m.Add("ProcData.xlsx", "Loop", []any{"Step", "Service"}, []any{"Again", "Loop"})
	}},
	{name: "experiments_column", change: func(t *testing.T, m *wbtest.Model, _ string) {
		m.Set(t, "SvcData.xlsx", "Experiments", "B1", "AppServer")
		m.Set(t, "SvcData.xlsx", "Experiments", "D1", "Switch_Util")
		m.Set(t, "SvcData.xlsx", "Experiments", "D3", 0.8)
	}},
	{name: "repeated_load", change: func(t *testing.T, m *wbtest.Model, _ string) {
		m.Set(t, "SvcData.xlsx", "Arrivals", "D1", "l2")
		m.Set(t, "SvcData.xlsx", "Settings", "B11", "L1, L9")
	}},
	{name: "text_in_number", change: func(t *testing.T, m *wbtest.Model, _ string) {
		m.Set(t, "SvcData.xlsx", "ServerInfo", "B2", "four")
		m.Set(t, "SvcData.xlsx", "ServerInfo", "C2", "2,5")
		m.Set(t, "SvcData.xlsx", "Settings", "B4", "lots")
	}},
	{name: "formula_error", change: func(t *testing.T, m *wbtest.Model, _ string) {
		m.Set(t, "SvcData.xlsx", "ServerInfo", "B3", wbtest.Formula("=1/0"))
		m.Set(t, "SvcData.xlsx", "Settings", "B4", wbtest.Formula("=NOSUCHFUNCTION(1)"))
		// An expression typed with a leading "=": Excel's #NAME?.
		m.Set(t, "ProcData.xlsx", "ASumSvc", "H2", wbtest.Formula("=AppUtil < SwitchUtil"))
		// The same as Excel saves it: the error is the cell's value.
		m.Set(t, "ProcData.xlsx", "ASumSvc", "H3", "#NAME?")
	}},
	{name: "expressions", change: func(t *testing.T, m *wbtest.Model, _ string) {
		m.Set(t, "ProcData.xlsx", "ASumSvc", "F2", "Crads")
		m.Set(t, "ProcData.xlsx", "ASumSvc", "G2", "paralel")
		m.Set(t, "ProcData.xlsx", "ASumSvc", "H3", "Pages =")
		m.Set(t, "SvcData.xlsx", "Attributes", "C2", "Pages + 1")
	}},
	{name: "warnings_only_and_errors", change: func(t *testing.T, m *wbtest.Model, _ string) {
		m.Add("SvcData.xlsx", "My notes", []any{"anything"})
		m.Set(t, "SvcData.xlsx", "ServerInfo", "F1", "Colour")
		m.Set(t, "SvcData.xlsx", "ServerInfo", "G1", "Capasity")
		m.Set(t, "ProcData.xlsx", "Start", "E1", "Count")
		m.Set(t, "ProcData.xlsx", "Start", "E3", 3)
		m.Set(t, "SvcData.xlsx", "ServerInfo", "B3", nil)
	}},
	{name: "newer_template", change: func(t *testing.T, m *wbtest.Model, _ string) {
		m.Svc.Props = map[string]any{"WebsimTemplateVersion": "2"}
		m.Proc.Props = map[string]any{"WebsimTemplateVersion": "1"}
		m.Remove(t, "SvcData.xlsx", "Arrivals") // not reported: the version comes first
	}},
	{name: "truncated", after: func(t *testing.T, dir string) {
		path := filepath.Join(dir, "SvcData.xlsx")
		data, err := os.ReadFile(path)
		must(t, err)
		must(t, os.WriteFile(path, data[:len(data)*2/3], 0o644))
	}},
	{name: "zip_bomb", after: func(t *testing.T, dir string) {
		must(t, os.WriteFile(filepath.Join(dir, "ProcData.xlsx"), zipBomb(t), 0o644))
	}},
}

func TestBroken(t *testing.T) {
	for _, tc := range brokenCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			m := wbtest.Valid()
			if tc.change != nil {
				tc.change(t, m, dir)
			}
			m.Write(t, dir)
			if tc.after != nil {
				tc.after(t, dir)
			}
			start := time.Now()
			plan, err := Read(dir)
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("Read took %v", d)
			}
			got := ""
			var problems Problems
			switch {
			case err == nil:
				got = strings.Join(plan.Warnings, "\n") // warnings only
				t.Errorf("Read accepted the model")
			case errors.As(err, &problems):
				got = strings.ReplaceAll(problems.Error(), dir, "MODEL")
				for _, p := range problems {
					if p.File == "" || p.Msg == "" {
						t.Errorf("problem not located: %#v", p)
					}
				}
			default:
				t.Fatalf("Read: %v (not Problems)", err)
			}
			golden(t, filepath.Join("testdata", "broken", tc.name+".golden"), got+"\n")
		})
	}
}

// TestEmptyRows reads a sheet whose last row is a million rows down,
// quickly, and reads that row: a row past a long run of empty ones once
// ended the sheet unread, and a model's row typed far down was dropped
// without a word.
func TestEmptyRows(t *testing.T) {
	m := wbtest.Valid()
	m.Sheet(t, "ProcData.xlsx", "Start").Far = map[int][]any{1_000_000: {nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, "a note far down"}}
	m.Sheet(t, "SvcData.xlsx", "Arrivals").Far = map[int][]any{1_048_576: {"Far", "Exp("}}
	dir := t.TempDir()
	m.Write(t, dir)
	start := time.Now()
	_, err := Read(dir)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Read took %v", d)
	}
	if err == nil || !strings.Contains(err.Error(), `SvcData.xlsx!Arrivals!B1048576: distribution "Exp("`) {
		t.Errorf("the row a million rows down was not read: %v", err)
	}
}

func TestTemplateVersion(t *testing.T) {
	m := wbtest.Valid()
	m.Svc.Props = map[string]any{"WebsimTemplateVersion": "1"}
	m.Proc.Props = map[string]any{"WebsimTemplateVersion": int32(1)}
	dir := t.TempDir()
	m.Write(t, dir)
	if _, err := Read(dir); err != nil {
		t.Fatal(err)
	}
	if v := SupportedTemplateVersions(); len(v) == 0 || v[len(v)-1] != TemplateVersion {
		t.Errorf("SupportedTemplateVersions() = %v", v)
	}
}

// zipBomb is a small .xlsx whose sheet expands to 80 MB of spaces.
func zipBomb(t *testing.T) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("xl/worksheets/sheet1.xml")
	must(t, err)
	chunk := bytes.Repeat([]byte(" "), 1<<20)
	for range 80 {
		_, err := w.Write(chunk)
		must(t, err)
	}
	must(t, zw.Close())
	if buf.Len() > 1<<20 {
		t.Fatalf("the bomb is %d bytes", buf.Len())
	}
	return buf.Bytes()
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		must(t, os.MkdirAll(filepath.Dir(path), 0o755))
		must(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./workbook -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("problems differ from %s\n got:\n%s\nwant:\n%s", path, got, want)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestSettingsAndExperimentsHoldExpressions(t *testing.T) {
	// A Settings value may be an expression of the settings above it, and
	// an Experiments cell one of the scenario's settings.
	m := wbtest.Valid()
	m.Set(t, "SvcData.xlsx", "Settings", "B10", "= RATParameter / 100")         // SwitchUtil
	m.Set(t, "SvcData.xlsx", "Experiments", "D1", "SwitchUtil")                 // new column
	m.Set(t, "SvcData.xlsx", "Experiments", "D3", "min(AppCapacity * 0.08, 1)") // Big's SwitchUtil
	dir := t.TempDir()
	m.Write(t, dir)
	plan, err := Read(dir)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	switchUtil := func(sc int) float64 {
		md := plan.Scenarios[sc].Model
		for i, p := range md.Params {
			if p.Name == "SwitchUtil" {
				return md.Params[i].Value
			}
		}
		t.Fatal("no SwitchUtil parameter")
		return 0
	}
	if got := switchUtil(0); got != 0.5 {
		t.Errorf("base SwitchUtil = %v, want RATParameter/100 = 0.5", got)
	}
	if got := switchUtil(1); got != 0.8 {
		t.Errorf("Big's SwitchUtil = %v, want min(10*0.08, 1) = 0.8", got)
	}

	// A setting cannot read itself, and a misspelt name is located.
	m.Set(t, "SvcData.xlsx", "Settings", "B10", "SwitchUtil + 1")
	m.Set(t, "SvcData.xlsx", "Experiments", "D3", "AppCapasity * 2")
	dir = t.TempDir()
	m.Write(t, dir)
	_, err = Read(dir)
	var ps Problems
	if !errors.As(err, &ps) || len(ps.Errors()) != 2 {
		t.Fatalf("want two problems, got %v", err)
	}
	for i, want := range []string{"SvcData.xlsx!Settings!B10: ", "SvcData.xlsx!Experiments!D3: "} {
		if got := ps.Errors()[i].Error(); !strings.HasPrefix(got, want) {
			t.Errorf("problem %d = %q, want it at %s", i, got, want)
		}
	}
	if got := ps.Errors()[1].Error(); !strings.Contains(got, `did you mean "AppCapacity"`) {
		t.Errorf("no suggestion: %q", got)
	}
}

func TestMisspeltSettingAndEmptyArrivals(t *testing.T) {
	m := wbtest.Valid()
	m.Set(t, "SvcData.xlsx", "Settings", "A6", "AppCapcity") // AppCapacity, misspelt
	dir := t.TempDir()
	m.Write(t, dir)
	_, err := Read(dir)
	var ps Problems
	if !errors.As(err, &ps) || len(ps.Errors()) != 1 ||
		!strings.HasPrefix(ps.Errors()[0].Error(), `SvcData.xlsx!Settings!A6: "AppCapcity" is not a setting; did you mean "AppCapacity"?`) {
		t.Fatalf("got %v", err)
	}

	m = wbtest.Valid()
	s := m.Sheet(t, "SvcData.xlsx", "Arrivals")
	s.Rows = s.Rows[:1] // the header alone
	dir = t.TempDir()
	m.Write(t, dir)
	_, err = Read(dir)
	if !errors.As(err, &ps) || !strings.Contains(err.Error(), "SvcData.xlsx!Arrivals!A2: no request type") {
		t.Fatalf("got %v", err)
	}
}

func TestExperimentsChartColumn(t *testing.T) {
	// Chart names the groups a scenario is drawn in: a comma list,
	// trimmed, repeats dropped; it is not a setting (no warning, no
	// override), and a blank cell leaves the scenario in no named group.
	m := wbtest.Valid()
	m.Set(t, "SvcData.xlsx", "Experiments", "D1", "chart")
	m.Set(t, "SvcData.xlsx", "Experiments", "D2", " Fig. 7 (10 servers) ,Fig. 8,, Fig. 7 (10 servers)")
	dir := t.TempDir()
	m.Write(t, dir)
	plan, err := Read(dir)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if got := plan.Scenarios[1].Charts; got != nil {
		t.Errorf("%s charts %q, want none", plan.Scenarios[1].Name, got)
	}
	// A group named again in another case or spacing is the same group,
	// spelt as first written.
	m.Set(t, "SvcData.xlsx", "Experiments", "D3", "fig. 8, FIG.  7 (10 servers)")
	dir = t.TempDir()
	m.Write(t, dir)
	plan, err = Read(dir)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if got, want := plan.Scenarios[0].Charts, []string{"Fig. 7 (10 servers)", "Fig. 8"}; !slices.Equal(got, want) {
		t.Errorf("%s charts %q, want %q", plan.Scenarios[0].Name, got, want)
	}
	if got, want := plan.Scenarios[1].Charts, []string{"Fig. 8", "Fig. 7 (10 servers)"}; !slices.Equal(got, want) {
		t.Errorf("%s charts %q, want %q", plan.Scenarios[1].Name, got, want)
	}
	for _, sc := range plan.Scenarios {
		for _, o := range sc.Overrides {
			if strings.EqualFold(o.Name, "chart") {
				t.Errorf("%s overrides %q: Chart is not a setting", sc.Name, o.Name)
			}
		}
	}
	for _, w := range plan.Warnings {
		if strings.Contains(w, "Experiments") {
			t.Errorf("warning %q", w)
		}
	}
}

// A notes sheet whose name is near an optional sheet's but that lacks its
// columns is the user's: a warning with a hint, not a problem.
func TestNotesSheetNearAnOptionalName(t *testing.T) {
	m := wbtest.Valid()
	m.Add("SvcData.xlsx", "Measures", []any{"what we measured last week"}, []any{"p95 was fine"})
	m.Add("SvcData.xlsx", "Markets", []any{"Region", "Share"}, []any{"EU", 0.4})
	dir := t.TempDir()
	m.Write(t, dir)
	plan, err := Read(dir)
	var ps Problems
	if errors.As(err, &ps) && len(ps.Errors()) > 0 {
		t.Fatalf("problems: %v", ps.Errors())
	}
	if plan == nil {
		t.Fatalf("Read: %v", err)
	}
	joined := strings.Join(plan.Warnings, "\n")
	for _, want := range []string{
		`SvcData.xlsx!Measures: sheet left alone: it is not a websim sheet nor named as an entity of Arrivals (if it is meant as the Measured sheet, rename it Measured and give it its columns)`,
		`SvcData.xlsx!Markets: sheet left alone: it is not a websim sheet nor named as an entity of Arrivals (if it is meant as the Targets sheet`,
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings lack %q:\n%s", want, joined)
		}
	}
}

// A Limit typed as 7% in Excel is the number 0.07 in a percent format:
// for a time measure it is a problem, as the text "50%" is.
func TestPercentFormattedTimeLimit(t *testing.T) {
	m := wbtest.Valid()
	m.Add("SvcData.xlsx", "Targets", []any{"Entity", "Measure", "Limit"}, []any{nil, "p95", 0.07}, []any{nil, "failed", 0.01})
	dir := t.TempDir()
	m.Write(t, dir)
	path := filepath.Join(dir, "SvcData.xlsx")
	b, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	b.SetLook("Targets", "C2", "C3", xlsx.Look{NumFormat: "0%"})
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	b.Close()
	_, err = Read(dir)
	want := "SvcData.xlsx!Targets!C2: limit 7% is a percentage, but a p95 is a time"
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "Targets!C3") {
		t.Errorf("got %v, want only %q (a share may be a percentage)", err, want)
	}
}

// A sheet of notes (Notes, Read me, ...) and a result sheet websim wrote
// under another name (Summary (websim)) are left alone without a word;
// another sheet websim does not read still gets its warning, in case it is
// a misnamed entity or service.
func TestNotesSheetsAreQuiet(t *testing.T) {
	m := wbtest.Valid()
	for _, name := range []string{"Notes", "Read me", "CHANGE_LOG", "Summary (websim)", "Scratch"} {
		m.Add("SvcData.xlsx", name, []any{"my own words"})
	}
	m.Add("ProcData.xlsx", "readme", []any{"how the services were measured"})
	m.Add("ProcData.xlsx", "Spare", []any{"an old service, without its Step column"})
	dir := t.TempDir()
	m.Write(t, dir)
	plan, err := Read(dir)
	if plan == nil {
		t.Fatalf("Read: %v", err)
	}
	joined := strings.Join(plan.Warnings, "\n")
	for _, quiet := range []string{"Notes:", "Read me:", "CHANGE_LOG:", "Summary (websim):", "readme:"} {
		if strings.Contains(joined, quiet) {
			t.Errorf("a warning for %s\n%s", quiet, joined)
		}
	}
	for _, loud := range []string{"SvcData.xlsx!Scratch: sheet left alone", "ProcData.xlsx!Spare: sheet left alone"} {
		if !strings.Contains(joined, loud) {
			t.Errorf("no warning %q:\n%s", loud, joined)
		}
	}
}

// A number Excel shows as a date or a time is a count of days: in a model
// cell it would pass for a time (0:00:01 reads 1.157e-05) or a count, so it
// is a problem at its cell; the same number with a plain format is read.
func TestDateFormattedNumbersAreRefused(t *testing.T) {
	dir := t.TempDir()
	m := wbtest.Valid()
	m.Set(t, "ProcData.xlsx", "Start", "B3", 1.0/86400)
	m.Write(t, dir)
	for _, f := range []struct{ file, sheet, ref, format string }{
		{"ProcData.xlsx", "Start", "B3", "h:mm:ss"},
		{"ProcData.xlsx", "Start", "C3", "0.0%"}, // a share: fine
	} {
		b, err := xlsx.Open(filepath.Join(dir, f.file))
		if err != nil {
			t.Fatal(err)
		}
		b.SetLook(f.sheet, f.ref, f.ref, xlsx.Look{NumFormat: f.format})
		if err := b.Save(filepath.Join(dir, f.file)); err != nil {
			t.Fatal(err)
		}
		b.Close()
	}
	_, err := Read(dir)
	var ps Problems
	if !errors.As(err, &ps) || len(ps.Errors()) != 1 {
		t.Fatalf("got %v, want one problem", err)
	}
	p := ps.Errors()[0]
	if p.Where() != "ProcData.xlsx!Start!B3" || !strings.Contains(p.Msg, `a date or a time (shown as "0:00:01")`) || !errors.Is(p, xlsx.ErrDate) {
		t.Errorf("problem %q at %s, want the time at ProcData.xlsx!Start!B3", p.Msg, p.Where())
	}
}

// A workbook from another producer numbers its own number formats below
// Excel's 164, some on the id of a built-in format: the format it defines
// is the one the cell shows. A success rate in a "0.00" numbered 14 (the
// built-in date's id) is read; a time in an "h:mm:ss" numbered 60 is
// refused as a date.
func TestNumberFormatsNumberedLow(t *testing.T) {
	dir := t.TempDir()
	m := wbtest.Valid()
	m.Set(t, "ProcData.xlsx", "Start", "B3", 1.0/86400)
	m.Write(t, dir)
	path := filepath.Join(dir, "ProcData.xlsx")
	b, err := xlsx.Open(path)
	must(t, err)
	b.SetLook("Start", "B3", "B3", xlsx.Look{NumFormat: "h:mm:ss"})
	b.SetLook("Start", "C2", "C2", xlsx.Look{NumFormat: "0.00"})
	must(t, b.Save(path))
	b.Close()
	// Renumber the two formats as the other producer does.
	renumber := map[string]string{"h:mm:ss": "60", "0.00": "14"}
	editPart(t, path, "xl/styles.xml", func(text string) string {
		for code, id := range renumber {
			i := strings.Index(text, `" formatCode="`+code+`"`)
			if i < 0 {
				t.Fatalf("no format %q in styles.xml:\n%s", code, text)
			}
			old := text[strings.LastIndex(text[:i], `numFmtId="`):i] + `"`
			text = strings.ReplaceAll(text, old, `numFmtId="`+id+`"`)
		}
		return text
	})
	_, err = Read(dir)
	var ps Problems
	if !errors.As(err, &ps) || len(ps.Errors()) != 1 {
		t.Fatalf("got %v, want one problem", err)
	}
	if p := ps.Errors()[0]; p.Where() != "ProcData.xlsx!Start!B3" || !strings.Contains(p.Msg, `shown as "0:00:01"`) || !errors.Is(p, xlsx.ErrDate) {
		t.Errorf("problem %q at %s, want the time at ProcData.xlsx!Start!B3", p.Msg, p.Where())
	}
}

// editPart rewrites one part of the package at path with edit.
func editPart(t *testing.T, path, part string, edit func(string) string) {
	t.Helper()
	zr, err := zip.OpenReader(path)
	must(t, err)
	defer zr.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	found := false
	for _, f := range zr.File {
		rc, err := f.Open()
		must(t, err)
		data, err := io.ReadAll(rc)
		must(t, err)
		rc.Close()
		if f.Name == part {
			found = true
			data = []byte(edit(string(data)))
		}
		w, err := zw.Create(f.Name)
		must(t, err)
		_, err = w.Write(data)
		must(t, err)
	}
	must(t, zw.Close())
	if !found {
		t.Fatalf("no part %s in %s", part, path)
	}
	must(t, os.WriteFile(path, buf.Bytes(), 0o644))
}

// An attribute named as a setting would hide the setting from every
// expression (an Experiments column of it would change nothing); two
// attributes of one entity differing in case only are one name to a reader.
func TestAttributeNameClashes(t *testing.T) {
	for _, tt := range []struct {
		name, settingRow, attr, want string
	}{
		{"a user parameter", "cards", "", `SvcData.xlsx!Attributes!B2: attribute name "Cards" is also the setting cards of the Settings sheet`},
		{"a built-in setting", "", "TActive", `SvcData.xlsx!Attributes!B4: attribute name "TActive" is also the setting TActive`},
		{"case only", "", "pages", `SvcData.xlsx!Attributes!B4: attribute "pages" of "ASUM" repeats B3 (names are compared ignoring case)`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := wbtest.Valid()
			if tt.settingRow != "" {
				s := m.Sheet(t, "SvcData.xlsx", "Settings")
				s.Rows = append(s.Rows, []any{tt.settingRow, 3})
			}
			if tt.attr != "" {
				s := m.Sheet(t, "SvcData.xlsx", "Attributes")
				s.Rows = append(s.Rows, []any{"ASUM", tt.attr, 1})
			}
			dir := t.TempDir()
			m.Write(t, dir)
			_, err := Read(dir)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TRUE and FALSE are saved as 1 and 0: a number cell holding one is a
// problem (not 1 unit), a Condition reads it as true, and a parameter of
// the user's is 1 or 0, as Excel counts it.
func TestBooleanCells(t *testing.T) {
	m := wbtest.Valid()
	m.Set(t, "SvcData.xlsx", "Settings", "B6", true) // AppServers
	m.Set(t, "ProcData.xlsx", "ASumSvc", "H3", true) // a Condition
	s := m.Sheet(t, "SvcData.xlsx", "Settings")
	s.Rows = append(s.Rows, []any{"UseCache", true}, []any{"Slow", false})
	dir := t.TempDir()
	m.Write(t, dir)
	_, err := Read(dir)
	var ps Problems
	if !errors.As(err, &ps) || len(ps.Errors()) != 1 || ps.Errors()[0].Where() != "SvcData.xlsx!Settings!B6" || !strings.Contains(ps.Errors()[0].Msg, `"TRUE" is not a number`) {
		t.Errorf("got %v, want one problem: TRUE at Settings!B6 is not a number", err)
	}
	// Without the refused cell, the parameters are 1 and 0.
	m.Set(t, "SvcData.xlsx", "Settings", "B6", 2)
	m.Write(t, dir)
	plan, err := Read(dir)
	if plan == nil {
		t.Fatal(err)
	}
	model := plan.Scenarios[0].Model
	for name, want := range map[string]float64{"UseCache": 1, "Slow": 0} {
		i := slices.IndexFunc(model.Params, func(p engine.Param) bool { return p.Name == name })
		if i < 0 || model.Params[i].Value != want {
			t.Errorf("parameter %s: %v, want %v", name, model.Params, want)
		}
	}
}

// A TimeLimit of 0 is no limit, as models written so ran, and a warning
// says so rather than keep it silent.
func TestZeroTimeLimit(t *testing.T) {
	m := wbtest.Valid()
	m.Set(t, "SvcData.xlsx", "ServerInfo", "C2", 0)
	dir := t.TempDir()
	m.Write(t, dir)
	plan, err := Read(dir)
	if plan == nil {
		t.Fatal(err)
	}
	if got := plan.Scenarios[0].Model.Servers[0].TimeLimit; got != 0 {
		t.Errorf("TimeLimit %v, want 0 (none)", got)
	}
	if w := strings.Join(plan.Warnings, "\n"); !strings.Contains(w, "SvcData.xlsx!ServerInfo!C2: time limit 0 is read as no limit") {
		t.Errorf("warnings:\n%s", w)
	}
}

// A load named twice in the Loads setting is a problem: it would run twice.
func TestLoadsNamedTwice(t *testing.T) {
	m := wbtest.Valid()
	m.Set(t, "SvcData.xlsx", "Settings", "B11", "L1, l1")
	dir := t.TempDir()
	m.Write(t, dir)
	_, err := Read(dir)
	if err == nil || !strings.Contains(err.Error(), `SvcData.xlsx!Settings!B11: load "L1" is named twice in "L1, l1"`) {
		t.Errorf("got %v", err)
	}
}

// A Seed typed as a number may be any whole number below 2^64 (Excel keeps
// 15 of its digits, which a warning says); above it, the message names the
// limit the README gives.
func TestSeedAsANumber(t *testing.T) {
	for _, tt := range []struct {
		seed    any
		want    uint64
		problem string
	}{
		{3e9, 3000000000, ""},
		// 2^63 as a script saves it, read at Excel's 15 digits as every
		// number is (9.22337203685478E+18), so that the model's text,
		// which keeps 15, runs the same seed.
		{"9.2233720368547758E+18", 9223372036854779904, "Seed read as 9223372036854779904: Excel keeps 15 digits"},
		{1e30, 0, "Seed 1e+30 is above 18446744073709551615"},
		// The largest seed typed as a number reads as 2^64: said so, with
		// the way to give it.
		{"18446744073709551615", 18446744073709551615, ""},
		{"1.8446744073709552E+19", 0, "above 18446744073709551615 as the cell holds it (a number cell keeps 15 significant digits"},
		{-1, 0, "Seed -1 is not a whole number from 0 to 18446744073709551615"},
	} {
		m := wbtest.Valid()
		m.Set(t, "SvcData.xlsx", "Settings", "B3", tt.seed)
		dir := t.TempDir()
		m.Write(t, dir)
		plan, err := Read(dir)
		all := fmt.Sprint(err)
		if plan != nil {
			all += strings.Join(plan.Warnings, "\n")
		}
		if tt.problem != "" && !strings.Contains(all, tt.problem) {
			t.Errorf("seed %v: %s\nwant %q", tt.seed, all, tt.problem)
		}
		if tt.want != 0 && (plan == nil || plan.Scenarios[0].Run.Seed != tt.want) {
			t.Errorf("seed %v: plan %v, err %v; want seed %d", tt.seed, plan != nil, err, tt.want)
		}
	}
}

// A formula that refers to an empty cell shows 0 in Excel and gives
// nothing to the formula engine: it is a problem, not the setting's
// default. A formula that gives an empty text (=IF(..,"",..), =TRIM of an
// empty cell) is a blank, as Excel shows it.
func TestFormulaOfAnEmptyCell(t *testing.T) {
	m := wbtest.Valid()
	m.Set(t, "SvcData.xlsx", "Settings", "B7", wbtest.Formula("=Z99"))               // AppCapacity
	m.Set(t, "ProcData.xlsx", "ASumSvc", "J3", wbtest.Formula(`=IF(1>2,"FAIL","")`)) // OnFailure: blank
	m.Set(t, "SvcData.xlsx", "Settings", "D2", wbtest.Formula("=Z98"))               // a column not read
	m.Set(t, "SvcData.xlsx", "Arrivals", "E2", wbtest.Formula("=TRIM(Z2)"))          // Patience: blank, as Excel shows it
	m.Set(t, "SvcData.xlsx", "Arrivals", "E3", wbtest.Formula(`=Z3&Y3`))             // Patience: blank
	m.Set(t, "SvcData.xlsx", "Settings", "B8", wbtest.Formula("=(Z97)"))             // Excel shows 0: a problem
	m.Set(t, "SvcData.xlsx", "Settings", "B9", wbtest.Formula("=INDEX(Z1:Z100,96)")) // likewise
	dir := t.TempDir()
	m.Write(t, dir)
	_, err := Read(dir)
	var ps Problems
	if !errors.As(err, &ps) || len(ps.Errors()) != 3 || ps.Errors()[0].Where() != "SvcData.xlsx!Settings!B7" ||
		!strings.Contains(ps.Errors()[0].Msg, "the formula =Z99 refers to an empty cell (Excel shows 0)") ||
		ps.Errors()[1].Where() != "SvcData.xlsx!Settings!B8" || !strings.Contains(ps.Errors()[1].Msg, "the formula =(Z97) gives no value") ||
		ps.Errors()[2].Where() != "SvcData.xlsx!Settings!B9" || !strings.Contains(ps.Errors()[2].Msg, "the formula =INDEX(Z1:Z100,96) gives no value") {
		t.Errorf("got %v, want problems at Settings!B7, B8 and B9 and none at the formulas that make text", err)
	}
}

// A problem is one line: a cell of 20,000 characters is quoted by its
// start and end, and the caret shows the part around the error.
func TestLongCellInAProblem(t *testing.T) {
	m := wbtest.Valid()
	long := strings.Repeat("1+", 5000) + "?"
	m.Set(t, "ProcData.xlsx", "Start", "C2", long)
	dir := t.TempDir()
	m.Write(t, dir)
	_, err := Read(dir)
	var ps Problems
	if !errors.As(err, &ps) || len(ps.Errors()) != 1 {
		t.Fatalf("got %v, want one problem", err)
	}
	d := ps.Errors()[0].Detailed()
	if len(d) > 600 || !strings.Contains(d, "characters) …") || !strings.Contains(d, "…") {
		t.Errorf("a problem of %d characters:\n%s", len(d), d)
	}
}

// A missing entity sheet names the sheet it probably is: one that no
// entity runs and that has an entity sheet's columns.
func TestMissingEntitySheetHint(t *testing.T) {
	m := wbtest.Valid()
	m.Sheet(t, "SvcData.xlsx", "Ping").Name = "Png"
	dir := t.TempDir()
	m.Write(t, dir)
	_, err := Read(dir)
	want := `SvcData.xlsx!Ping: missing sheet for the entity "Ping" of Arrivals!A3; expected a sheet named as the entity, with the columns Service, OnSuccess and OnFailure; the sheet "Png" has those columns and no entity runs it: rename it "Ping"?`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// An expression of Settings alone has one value in each scenario: one that
// a scenario makes out of range (P 2 for a probability) is a problem when
// the model is read, naming the scenario, not a run that stops.
func TestScenarioMakesAnExpressionOutOfRange(t *testing.T) {
	m := wbtest.Valid()
	s := m.Sheet(t, "SvcData.xlsx", "Settings")
	s.Rows = append(s.Rows, []any{"P", 0.5})
	m.Set(t, "ProcData.xlsx", "Start", "C2", "P")
	ex := m.Sheet(t, "SvcData.xlsx", "Experiments")
	ex.Rows[0] = append(ex.Rows[0], "P")
	ex.Rows[2] = append(ex.Rows[2], 2)
	dir := t.TempDir()
	m.Write(t, dir)
	_, err := Read(dir)
	want := `ProcData.xlsx!Start!C2: in scenario Big: expression "P" gave 2, which is not a probability from 0 to 1; the expression reads Settings alone`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant %s", err, want)
	}
	// In range everywhere, the model reads.
	ex.Rows[2][len(ex.Rows[2])-1] = 0.9
	m.Write(t, dir)
	if _, err := Read(dir); err != nil {
		t.Errorf("P 0.9: %v", err)
	}
}

// Cells that read, but likely not as meant, are taken with a warning at
// their cell: a load header with a comma runs only with Loads all (--loads
// and Loads read commas as separators); Patience 0 abandons every request
// not answered at once (like a time limit of 0, it may have meant none).
func TestCellWarnings(t *testing.T) {
	for _, c := range []struct {
		cell  string
		value any
		want  string
	}{
		{"D1", "L3,peak", `SvcData.xlsx!Arrivals!D1: load "L3,peak" holds a comma, which --loads and the Loads setting read as a separator: this load runs only with Loads all; expected a label without commas (L3_peak, say)`},
		{"E2", 0, `SvcData.xlsx!Arrivals!E2: Patience 0: every request not answered the instant it arrives is abandoned by its user`},
	} {
		m := wbtest.Valid()
		m.Set(t, "SvcData.xlsx", "Arrivals", c.cell, c.value)
		dir := t.TempDir()
		m.Write(t, dir)
		plan, err := Read(dir)
		if plan == nil {
			t.Fatalf("Arrivals!%s %v: Read: %v", c.cell, c.value, err)
		}
		if joined := strings.Join(plan.Warnings, "\n"); !strings.Contains(joined, c.want) {
			t.Errorf("Arrivals!%s %v: warnings lack %q:\n%s", c.cell, c.value, c.want, joined)
		}
	}
}

// Names of attributes and parameters may hold letters of any script, as
// the expressions that read them do: the model reads as it does with ASCII
// names, and its expressions see the values.
func TestNamesInAnyScript(t *testing.T) {
	m := wbtest.Valid()
	m.Set(t, "SvcData.xlsx", "Attributes", "B2", "Kärtchen")
	m.Set(t, "SvcData.xlsx", "Attributes", "C3", "Kärtchen * 2")
	m.Set(t, "ProcData.xlsx", "ASumSvc", "F2", "Kärtchen")
	m.Set(t, "SvcData.xlsx", "Settings", "A14", "Schwelle_ü")
	m.Set(t, "SvcData.xlsx", "Settings", "B14", 0.7)
	m.Set(t, "ProcData.xlsx", "ASumSvc", "G2", `AppUtil < Schwelle_ü ? "parallel" : "sequential"`)
	dir := t.TempDir()
	m.Write(t, dir)
	plan, err := Read(dir)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	model := plan.Scenarios[0].Model
	if !slices.Contains(model.Attributes, "Kärtchen") {
		t.Errorf("attributes %q; want Kärtchen among them", model.Attributes)
	}
	found := false
	for _, p := range model.Params {
		found = found || p.Name == "Schwelle_ü" && p.Value == 0.7
	}
	if !found {
		t.Errorf("no parameter Schwelle_ü = 0.7 in %+v", model.Params)
	}
}

// An Experiments sheet whose rows were all cleared runs the base settings
// as scenario Base, as without the sheet, and says so.
func TestExperimentsWithHeaderOnly(t *testing.T) {
	m := wbtest.Valid()
	s := m.Sheet(t, "SvcData.xlsx", "Experiments")
	s.Rows = s.Rows[:1]
	dir := t.TempDir()
	m.Write(t, dir)
	plan, err := Read(dir)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if len(plan.Scenarios) != 1 || plan.Scenarios[0].Name != "Base" {
		t.Errorf("%d scenarios, the first %q; want Base alone", len(plan.Scenarios), plan.Scenarios[0].Name)
	}
	if w := strings.Join(plan.Warnings, "\n"); !strings.Contains(w, "SvcData.xlsx!Experiments: no scenarios under the header: the base settings run alone, as scenario Base") {
		t.Errorf("warnings %q; want one about the empty Experiments sheet", w)
	}
}

// TestNearlyWholeNumbersRound: a whole number computed by a formula is
// saved a hair off (Excel saves =0.57*100 as 56.999999999999993); every
// reading of a whole number takes the number it stands for, never the
// one below, and a fraction anyone would type is still refused.
func TestNearlyWholeNumbersRound(t *testing.T) {
	const below, above = 56.999999999999993, 3.00000000001
	cases := []struct {
		name      string
		file      string
		sheet     string
		ref       string
		value     any
		get       func(p *study.Plan) float64
		want      float64
		refusedAt string // "" when the value reads as want
	}{
		{"AppCapacity", "SvcData.xlsx", "Settings", "B6", below,
			func(p *study.Plan) float64 { return float64(p.Scenarios[0].Model.App.Capacity) }, 57, ""},
		{"AppServers", "SvcData.xlsx", "Settings", "B5", 2.99999999999,
			func(p *study.Plan) float64 { return float64(p.Scenarios[0].Model.App.Servers) }, 3, ""},
		{"Observations", "SvcData.xlsx", "Settings", "B4", 1999.99999999999,
			func(p *study.Plan) float64 { return float64(p.Scenarios[0].Run.Observations) }, 2000, ""},
		{"Seed", "SvcData.xlsx", "Settings", "B3", 6.99999999999,
			func(p *study.Plan) float64 { return float64(p.Scenarios[0].Run.Seed) }, 7, ""},
		{"Capacity", "SvcData.xlsx", "ServerInfo", "B3", 1.99999999999,
			func(p *study.Plan) float64 { return float64(p.Scenarios[0].Model.Servers[1].Capacity) }, 2, ""},
		{"MaxRetries", "SvcData.xlsx", "Arrivals", "H2", 0.99999999999,
			func(p *study.Plan) float64 { return float64(p.Scenarios[0].Model.Entities[0].MaxRetries) }, 1, ""},
		{"Count", "ProcData.xlsx", "ASumSvc", "F2", above,
			func(p *study.Plan) float64 { return countOf(t, p, "ASumSvc", 0) }, 3, ""},
		{"Count expression", "ProcData.xlsx", "ASumSvc", "F2", "0.57 * 100 / 19",
			func(p *study.Plan) float64 { return countOf(t, p, "ASumSvc", 0) }, 3, ""},
		{"AppCapacity a fraction", "SvcData.xlsx", "Settings", "B6", 56.99, nil, 0, "B6"},
		{"Count a fraction", "ProcData.xlsx", "ASumSvc", "F2", 2.5, nil, 0, "F2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := wbtest.Valid()
			m.Set(t, c.file, c.sheet, c.ref, c.value)
			dir := t.TempDir()
			m.Write(t, dir)
			plan, err := Read(dir)
			if c.refusedAt != "" {
				want := c.file + "!" + c.sheet + "!" + c.refusedAt + ":"
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("Read = %v; want a problem at %s", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := c.get(plan); got != c.want {
				t.Errorf("%s %v read as %v; want %v", c.name, c.value, got, c.want)
			}
		})
	}
}

// countOf is the Count of step i of service name, evaluated.
func countOf(t *testing.T, p *study.Plan, name string, i int) float64 {
	t.Helper()
	m := p.Scenarios[0].Model
	for _, s := range m.Services {
		if s.Name == name {
			v, err := s.Steps[i].Count.Number(&engine.EvalContext{})
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
	}
	t.Fatalf("no service %s", name)
	return 0
}

// TestLoadsRunInArrivalsOrder: loads named out of order in the Loads
// setting run, and show on the charts' load axis, in the order of the
// Arrivals columns.
func TestLoadsRunInArrivalsOrder(t *testing.T) {
	m := wbtest.Valid()
	m.Set(t, "SvcData.xlsx", "Settings", "B11", "L3, L1")
	dir := t.TempDir()
	m.Write(t, dir)
	plan, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range plan.Scenarios {
		if !slices.Equal(sc.Run.Loads, []int{0, 2}) {
			t.Errorf("%s: loads %v; want [0 2] (L1, L3)", sc.Name, sc.Run.Loads)
		}
	}
}
