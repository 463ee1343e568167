package report

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/study"
	"github.com/websim/websim/workbook"
	"github.com/websim/websim/workbook/wbtest"
)

// M/M/1 at the server Disk: arrivals Exp(10) and Exp(6.25), service Exp(5),
// so utilization 0.5 and 0.8 and a mean response 1/(μ−λ) of 10 and 25
// (the application server, 100 units and no RAT, adds no wait). The
// percentiles of an M/M/1 response are those of Exp(1/(μ−λ)): p95 = ln 20
// times the mean.
var (
	mm1Mean = map[string]float64{"L5": 10, "L8": 25}
	mm1P95  = map[string]float64{"L5": 10 * math.Log(20), "L8": 25 * math.Log(20)}
)

// mm1Model is the M/M/1 model with Measured rows: the theory's figures
// (which should lie inside the simulated intervals) and a wrong mean (13
// for 10, which should not).
func mm1Model() *wbtest.Model {
	m := &wbtest.Model{}
	m.Add("SvcData.xlsx", "Settings",
		[]any{"Name", "Value"},
		[]any{"TimeUnit", "s"}, []any{"Seed", 11}, []any{"Observations", 30000},
		[]any{"Replications", 3}, []any{"WarmUp", 500},
		[]any{"AppServers", 1}, []any{"AppCapacity", 100},
	)
	m.Add("SvcData.xlsx", "ServerInfo", []any{"Server", "Capacity"}, []any{"Disk", 1})
	m.Add("SvcData.xlsx", "Arrivals", []any{"Entity", "L5", "L8"}, []any{"Req", "Exp(10)", "Exp(6.25)"})
	m.Add("SvcData.xlsx", "Req", []any{"Service"}, []any{"Serve"})
	m.Add("SvcData.xlsx", "Measured",
		[]any{"Entity", "Load", "Measure", "Value"},
		[]any{nil, "L5", "mean", mm1Mean["L5"]},
		[]any{nil, "L5", "mean", 13},
		[]any{nil, "L5", "p95", mm1P95["L5"]},
		[]any{nil, "L5", "utilization:Disk", 0.5},
		[]any{"Req", "L8", "mean", mm1Mean["L8"]},
		[]any{nil, "L8", "p95", mm1P95["L8"]},
		[]any{nil, "L8", "failed", 0},
		[]any{nil, "L8", "utilization:Disk", "80%"},
	)
	m.Add("ProcData.xlsx", "Serve", []any{"Step", "ProcTime", "Server"}, []any{"Use", "Exp(5)", "Disk"})
	return m
}

func runMM1(t *testing.T) *study.Study {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "mm1")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	mm1Model().Write(t, dir)
	plan, err := workbook.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := study.Execute(context.Background(), plan, study.Options{Jobs: 2, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestValidationAgainstTheory(t *testing.T) {
	st := runMM1(t)
	path := filepath.Join(t.TempDir(), "OutPut.xlsx")
	if err := Write(path, st); err != nil {
		t.Fatal(err)
	}
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Sheets(); !slices.Contains(got, ValidationSheet) {
		t.Fatalf("sheets %q: no %s", got, ValidationSheet)
	}
	if owned, _ := f.OwnedSheets(); !slices.Contains(owned, ValidationSheet) {
		t.Errorf("the %s sheet is not marked as websim's: %q", ValidationSheet, owned)
	}
	rows, _ := f.Rows(ValidationSheet)
	f.Close()

	// Inside 95% says yes for the theory's figures and no for the wrong mean.
	col := slices.Index(rows[0], "Inside 95%")
	want := []string{"yes", "no", "yes", "", "yes", "yes", "yes", ""}
	for i, w := range want {
		if got := rows[i+1][col]; got != w {
			t.Errorf("row %d (%s %s %s): inside %q, want %q", i+2, rows[i+1][1], rows[i+1][3], rows[i+1][6], got, w)
		}
	}
	golden(t, "validation.txt", dumpSheets(t, path, ValidationSheet)+dumpCharts(t, path))
}

func TestValidationJSON(t *testing.T) {
	st := runMM1(t)
	var b strings.Builder
	if err := WriteJSON(&b, st); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Load     string           `json:"load"`
			Measured []map[string]any `json:"measured"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(b.String()), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 2 || len(doc.Runs[0].Measured) != 4 || len(doc.Runs[1].Measured) != 4 {
		t.Fatalf("runs %+v", doc.Runs)
	}
	right, wrong, util := doc.Runs[0].Measured[0], doc.Runs[0].Measured[1], doc.Runs[0].Measured[3]
	for _, key := range []string{"entity", "measure", "measured", "simulated", "ciHalfWidth95", "differencePercent", "inside"} {
		if _, ok := right[key]; !ok {
			t.Errorf("runs[0].measured[0] has no %q: %v", key, right)
		}
	}
	if right["entity"] != "" || right["measure"] != "mean" || right["measured"] != 10.0 || right["inside"] != true {
		t.Errorf("the right mean: %v", right)
	}
	if sim := right["simulated"].(float64); math.Abs(sim-10) > right["ciHalfWidth95"].(float64) {
		t.Errorf("the simulated mean %v is not within its interval of 10", right)
	}
	if wrong["inside"] != false || wrong["differencePercent"].(float64) > -15 {
		t.Errorf("the wrong mean: %v", wrong)
	}
	if util["measure"] != "utilization:Disk" || util["ciHalfWidth95"] != nil || util["inside"] != nil || util["note"] == "" {
		t.Errorf("a utilization has no interval: %v", util)
	}
	if d := util["differencePercent"].(float64); math.Abs(d) > 3 {
		t.Errorf("Disk utilization %v%% from 0.5", d)
	}
	if doc.Runs[1].Load != "L8" || doc.Runs[1].Measured[0]["entity"] != "Req" {
		t.Errorf("runs[1] %+v", doc.Runs[1])
	}
}

// A write-back adds the Validation sheet beside the user's Measured sheet,
// and the next write-back replaces it; a study without Measured rows has
// no Validation sheet.
func TestValidationWriteBack(t *testing.T) {
	st := runMM1(t)
	path := filepath.Join(t.TempDir(), "SvcData.xlsx")
	userWorkbook(t, path)
	for range 2 {
		if err := WriteBack(path, readFrom(t, path, st)); err != nil {
			t.Fatal(err)
		}
	}
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	got := f.Sheets()
	n := 0
	for _, sh := range got {
		if strings.HasPrefix(sh, ValidationSheet) {
			n++
		}
	}
	if n != 1 || got[len(got)-1] != ValidationSheet || !slices.Contains(got, "Notes") || !slices.Contains(got, "Summary (websim)") {
		t.Errorf("sheets after two write-backs %q, want the user's and one %s, last", got, ValidationSheet)
	}
	f.Close()

	st.Measured = nil
	out := filepath.Join(t.TempDir(), "OutPut.xlsx")
	if err := Write(out, st); err != nil {
		t.Fatal(err)
	}
	if f, err = xlsx.Open(out); err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if slices.Contains(f.Sheets(), ValidationSheet) {
		t.Errorf("a Validation sheet without Measured rows: %q", f.Sheets())
	}
}

// A run that is not stable is marked before its figures, which are grey and
// struck through, and is a gap in the Validation chart, which says so.
func TestValidationMarksUnstableRuns(t *testing.T) {
	s := testStudy()
	s.Measured = []study.Measured{{Load: "L3", Measure: study.MeasureMean, Value: 110}}
	path := filepath.Join(t.TempDir(), "OutPut.xlsx")
	if err := Write(path, s); err != nil {
		t.Fatal(err)
	}
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := f.Rows(ValidationSheet)
	var unstableRow int
	for i, r := range rows {
		if len(r) > 2 && r[0] == "P10" && r[1] == "L3" {
			unstableRow = i + 1
			if r[2] != "no" || r[3] == "" {
				t.Errorf("the unstable run's row %q: want Stable no and the reason", r)
			}
		}
	}
	if unstableRow == 0 {
		t.Fatalf("no row for P10 at L3:\n%q", rows)
	}
	col := slices.Index(rows[0], "Simulated")
	look, _ := f.LookOf(ValidationSheet, xlsx.CellName(col, unstableRow))
	if look.FontColor == "" {
		t.Errorf("the unstable run's simulated figure is not greyed: %+v", look)
	}
	f.Close()
	charts, found := dumpCharts(t, path), false
	for _, line := range strings.Split(charts, "\n") {
		if strings.Contains(line, "Mean response of all requests: measured and simulated") {
			found = true
			if !strings.Contains(line, "Gaps: not stable") || !strings.Contains(line, "P10 at L3") {
				t.Errorf("the Validation chart does not say the unstable run is a gap: %s", line)
			}
		}
	}
	if !found {
		t.Errorf("no Validation chart:\n%s", charts)
	}
}
