package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/websim/websim/engine/stats"
	"github.com/websim/websim/internal/xlsx"
)

// withTargets adds a Targets sheet with the given rows to dir's SvcData.xlsx.
func withTargets(t *testing.T, dir string, rows ...[]any) {
	t.Helper()
	path := filepath.Join(dir, "SvcData.xlsx")
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.NewSheet("Targets"); err != nil {
		t.Fatal(err)
	}
	for i, r := range append([][]any{{"Entity", "Measure", "Limit"}}, rows...) {
		if err := f.SetRow("Targets", i+1, r...); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
}

// TestSizeJSONOnMMc sizes samples/mmc (M/M/c, λ = 16, μ = 1) on a mean
// target halfway between Erlang C's values at c = 18 and c = 19.
func TestSizeJSONOnMMc(t *testing.T) {
	dir := copyModel(t, "mmc")
	r18, r19 := stats.MMcResponse(18, 16, 1), stats.MMcResponse(19, 16, 1)
	limit := (r18 + r19) / 2
	withTargets(t, dir, []any{nil, "mean", limit})
	code, stdout, stderr := runCLI(t, "size", dir, "--vary", "AppCapacity", "--loads", "rho0.8", "--max", "30", "--json", "--jobs", "2")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var doc struct {
		Setting string `json:"setting"`
		Points  []struct {
			Scenario, Load string
			Size           *int `json:"size"`
			Probes         int  `json:"probes"`
			Runs           []struct {
				SettingValue int `json:"settingValue"`
				Targets      []struct {
					Measure, Verdict string
					Value, Limit     float64
					CIHalfWidth95    float64 `json:"ciHalfWidth95"`
				} `json:"targets"`
			} `json:"runs"`
		} `json:"points"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if doc.Setting != "AppCapacity" || len(doc.Points) != 1 {
		t.Fatalf("document %+v", doc)
	}
	pt := doc.Points[0]
	if pt.Size == nil || *pt.Size != 19 || len(pt.Runs) != 2 || pt.Runs[0].SettingValue != 19 || pt.Runs[1].SettingValue != 18 {
		t.Fatalf("point %+v", pt)
	}
	for _, r := range pt.Runs {
		tg := r.Targets[0]
		th := stats.MMcResponse(r.SettingValue, 16, 1)
		if tg.Measure != "mean" || math.Abs(tg.Limit-limit) > 1e-9 || math.Abs(tg.Value-th) > 1.5*tg.CIHalfWidth95 {
			t.Errorf("c=%d: %+v, Erlang C %.4f", r.SettingValue, tg, th)
		}
	}
	if want := []string{"holds", "fails"}; pt.Runs[0].Targets[0].Verdict != want[0] || pt.Runs[1].Targets[0].Verdict != want[1] {
		t.Errorf("verdicts %+v", pt.Runs)
	}
	if _, err := os.Stat(filepath.Join(dir, "OutPut.xlsx")); err != nil {
		t.Errorf("no Sizing workbook: %v", err)
	}
}

// TestRunJSONHasTargets: every run of `websim run --json` judges the targets.
func TestRunJSONHasTargets(t *testing.T) {
	dir := copyModel(t, "mmc")
	withTargets(t, dir, []any{nil, "mean", 2}, []any{"Job", "p95", 0.5})
	code, stdout, stderr := runCLI(t, "run", dir, "--loads", "rho0.5", "--observations", "20000", "--json", "--out", filepath.Join(t.TempDir(), "o.xlsx"))
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var doc struct {
		Runs []struct {
			Targets []struct {
				Entity, Measure, Verdict string
			} `json:"targets"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	tg := doc.Runs[0].Targets
	// Mean response ≈ 1 s, far under 2: holds. The p95 (about 3 s) has an
	// interval from one replication too, far above 0.5: fails.
	if len(tg) != 2 || tg[0].Verdict != "holds" || tg[1].Entity != "Job" || tg[1].Measure != "p95" || tg[1].Verdict != "fails" {
		t.Errorf("targets %+v", tg)
	}
}

func TestSizeBadInput(t *testing.T) {
	cases := []struct {
		name    string
		sample  string
		targets bool
		args    []string
		want    string
	}{
		{"no targets", "mmc", false, []string{"--vary", "AppCapacity"},
			"Error: MODEL/SvcData.xlsx: the model has no Targets sheet (or it has no rows); expected a sheet Targets in SvcData.xlsx with the columns Entity, Measure and Limit, for example: blank | p95 | 1000"},
		{"not a capacity", "mmc", true, []string{"--vary", "RATParameter"},
			"Error: --vary RATParameter: not a whole-number capacity setting; expected AppServers, AppCapacity or Capacity:SERVER"},
		{"near miss", "mmc", true, []string{"--vary", "AppCapacty"},
			`Error: --vary AppCapacty: not a whole-number capacity setting; did you mean "AppCapacity"?; expected AppServers, AppCapacity or Capacity:SERVER`},
		{"no servers", "mmc", true, []string{"--vary", "Capacity:GWay"},
			`Error: --vary Capacity:GWay: unknown server "GWay": the model has no external server; expected AppServers or AppCapacity`},
		{"unknown server", "asum", true, []string{"--vary", "Capacity:GWy"},
			`Error: --vary Capacity:GWy: unknown server "GWy"; did you mean "GWay"?; expected AppServers, AppCapacity or Capacity:SERVER for a server of SvcData.xlsx!ServerInfo (DSS, CM, MTC, GWay, RP)`},
		{"min above max", "mmc", true, []string{"--vary", "AppCapacity", "--min", "9", "--max", "3"},
			"Error: --min 9 is above --max 3; expected --min <= --max"},
		{"no vary", "mmc", true, nil,
			"Error: --vary: missing; expected the setting to size: AppServers, AppCapacity or Capacity:SERVER"},
		{"min zero", "mmc", true, []string{"--vary", "AppServers", "--min", "0"},
			"Error: --min 0: expected a whole number of at least 1"},
		{"out not a workbook", "mmc", true, []string{"--vary", "AppCapacity", "--out", "MODEL/notes.xlsx"},
			"Error: --out MODEL/notes.xlsx: the Sizing sheet is added to this workbook, which cannot be opened: notes.xlsx: the file is damaged or not a workbook (zip: not a valid zip file); expected an Excel workbook saved as .xlsx (open it in Excel and save it again); expected an Excel workbook, or the name of a new file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyModel(t, tc.sample)
			if tc.targets && tc.sample == "mmc" {
				withTargets(t, dir, []any{nil, "mean", 2})
			}
			args := slices.Clone(tc.args)
			for i, a := range args {
				if rest, ok := strings.CutPrefix(a, "MODEL/"); ok {
					// A file the user keeps there, which is not a workbook.
					args[i] = filepath.Join(dir, rest)
					if err := os.WriteFile(args[i], []byte("not a workbook\n"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			code, stdout, stderr := runCLI(t, append([]string{"size", dir}, args...)...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if got := strings.TrimSpace(strings.ReplaceAll(stderr, dir, "MODEL")); got != tc.want {
				t.Errorf("stderr\n%s\nwant\n%s", got, tc.want)
			}
			if stdout != "" {
				t.Errorf("stdout %q", stdout)
			}
			if _, err := os.Stat(filepath.Join(dir, "OutPut.xlsx")); err == nil {
				t.Error("OutPut.xlsx written on bad input")
			}
		})
	}
}

// TestSizeWriteBack: `websim size --write-back` adds the Sizing sheet of
// OutPut.xlsx to SvcData.xlsx, keeping the model's sheets; the model still
// reads, and the same answer follows from it. Bad input writes nothing.
func TestSizeWriteBack(t *testing.T) {
	dir := copyModel(t, "mmc")
	withTargets(t, dir, []any{nil, "mean", 1.2})
	svc := filepath.Join(dir, "SvcData.xlsx")
	sheetsOf := func(path string) []string {
		f, err := xlsx.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		return f.Sheets()
	}
	rowsOf := func(path, sheet string) string {
		f, err := xlsx.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		rows, err := f.Rows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, r := range rows {
			if len(r) > 0 && r[0] == "Started" {
				continue
			}
			b.WriteString(strings.Join(r, "|") + "\n")
		}
		return b.String()
	}
	modelSheets := sheetsOf(svc)
	before := map[string]string{}
	for _, sh := range modelSheets {
		before[sh] = rowsOf(svc, sh)
	}
	original, _ := os.ReadFile(svc)
	code, _, stderr := runCLI(t, "size", dir, "--vary", "AppCapacity", "--loads", "rho0.5", "--max", "4", "--write-back", "--jobs", "1", "--observations", "4000", "--min", "9", "--quiet")
	if code != 2 {
		t.Fatalf("--min 9 --max 4: exit %d: %s", code, stderr)
	}
	if now, _ := os.ReadFile(svc); string(now) != string(original) {
		t.Fatal("SvcData.xlsx changed on bad input")
	}
	for i := 1; i <= 2; i++ {
		code, stdout, stderr := runCLI(t, "size", dir, "--vary", "AppCapacity", "--loads", "rho0.5", "--max", "4", "--write-back", "--jobs", "1", "--observations", "4000")
		if code != 0 {
			t.Fatalf("size %d: exit %d: %s", i, code, stderr)
		}
		if !strings.Contains(stdout, "Also added to: "+svc) {
			t.Errorf("size %d does not say where it wrote back:\n%s", i, stdout)
		}
		if got, want := sheetsOf(svc), append(slices.Clone(modelSheets), "Sizing"); !slices.Equal(got, want) {
			t.Errorf("size %d: SvcData.xlsx sheets %q, want %q", i, got, want)
		}
		for _, sh := range modelSheets {
			if got := rowsOf(svc, sh); got != before[sh] {
				t.Errorf("size %d changed the model's sheet %s:\n%s", i, sh, got)
			}
		}
		if got, want := rowsOf(svc, "Sizing"), rowsOf(filepath.Join(dir, "OutPut.xlsx"), "Sizing"); got != want || !strings.Contains(got, "AppCapacity") {
			t.Errorf("size %d: the written-back Sizing sheet differs from OutPut.xlsx's:\n%s\nwant\n%s", i, got, want)
		}
	}
	if code, stdout, stderr := runCLI(t, "validate", dir); code != 0 {
		t.Fatalf("validate after write-back: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// In a model without external servers, a utilization of an unknown server
// says that App is the only server there is, not "ServerInfo ()".
func TestMeasuredUtilizationWithoutServers(t *testing.T) {
	dir := copyModel(t, "mmc")
	path := filepath.Join(dir, "SvcData.xlsx")
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.NewSheet("Measured"); err != nil {
		t.Fatal(err)
	}
	for i, r := range [][]any{{"Entity", "Load", "Measure", "Value"}, {nil, "rho0.8", "utilization:GWy", 0.5}} {
		if err := f.SetRow("Measured", i+1, r...); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, _, stderr := runCLI(t, "validate", dir)
	want := `SvcData.xlsx!Measured!C2: unknown server "GWy" in "utilization:GWy"; expected utilization:SERVER with App, the application servers (the model has no server in ServerInfo)`
	if code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr\n%s\nwant a line\n%s", code, stderr, want)
	}
}
