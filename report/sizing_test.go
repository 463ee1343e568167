package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/study"
)

// testSizing is a sizing built by hand from testStudy's runs: M10 found at
// every load, P10 none at L2 and undecided at L3.
func testSizing() *study.Sizing {
	s := testStudy()
	targets := []study.Target{
		{Measure: study.MeasureP95, Limit: 250, Cell: "SvcData.xlsx!Targets!A2"},
		{Measure: study.MeasureFailed, Limit: 0.01, Cell: "SvcData.xlsx!Targets!A3"},
	}
	sz := &study.Sizing{
		Model: s.Model, TimeUnit: s.TimeUnit, Version: s.Version, Seed: s.Seed,
		Started: time.Date(2026, 5, 4, 13, 14, 15, 0, time.UTC), Setting: "AppServers",
		Targets: targets, Scenarios: s.Scenarios, Loads: s.Loads, Inputs: s.Inputs,
		ArrivalRates: []float64{0.025, 0.05, math.NaN()}, // per ms: 25/s, 50/s, not known
	}
	probe := func(run *study.Run, v int, verdict study.Verdict) *study.Probe {
		rs := []study.TargetResult{
			{Target: targets[0], Value: run.Result.Response.P95, HalfWidth95: 3, Verdict: verdict},
			{Target: targets[1], Value: 0.008, HalfWidth95: 0.001, Verdict: study.Holds},
		}
		return &study.Probe{Value: v, Verdict: verdict, Targets: rs, Observations: 1000, Run: run}
	}
	for i := range s.Runs {
		run := &s.Runs[i]
		pt := study.SizePoint{Scenario: run.Scenario, Load: run.Load, Min: 1, Max: 40, Probes: 5, Runs: 6}
		switch {
		case run.Scenario == "P10" && run.Load == "L2":
			pt.Outcome, pt.Text, pt.Probes, pt.Runs = study.SizeNone, "none up to 40: p95 of all requests ≤ 250 fails", 2, 2
			pt.At = probe(run, 40, study.Fails)
		case run.Scenario == "P10" && run.Load == "L3":
			// The run below the answer is not stable (the fixture's
			// deadlocked run): its row says so before its figures.
			pt.Outcome, pt.Size, pt.Text = study.SizeFound, 12, "12: every target holds; at 11 p95 of all requests ≤ 250 fails (the run is not stable)"
			pt.At, pt.Below = probe(&s.Runs[0], 12, study.Holds), probe(run, 11, study.Fails)
		case run.Scenario == "M10" && run.Load == "L3":
			pt.Outcome, pt.Text = study.SizeUndecided, "undecided: at 40 (the --max) p95 of all requests ≤ 250 is undecided"
			pt.At, pt.Below = probe(run, 40, study.Undecided), probe(run, 39, study.Fails)
		default:
			pt.Outcome, pt.Size, pt.Text = study.SizeFound, 8+i, "found"
			pt.At, pt.Below = probe(run, 8+i, study.Holds), probe(run, 7+i, study.Fails)
		}
		sz.Points = append(sz.Points, pt)
	}
	return sz
}

func TestWriteSizingGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "OutPut.xlsx")
	if err := WriteSizing(path, testSizing()); err != nil {
		t.Fatal(err)
	}
	golden(t, "sizing.txt", dumpSheets(t, path, SizingSheet)+dumpCharts(t, path))
}

// TestWriteSizingIntoResults adds the Sizing sheet to a results workbook,
// keeping its sheets, and replaces it the second time.
func TestWriteSizingIntoResults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "OutPut.xlsx")
	if err := Write(path, testStudy()); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := WriteSizing(path, testSizing()); err != nil {
			t.Fatal(err)
		}
	}
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, want := f.Sheets(), []string{"Summary", "Servers", "Entities", "Charts", "Timeline", "Run", "Sizing"}; !slices.Equal(got, want) {
		t.Errorf("sheets %q, want %q", got, want)
	}
	if marked, _ := ResultSheets(f); !slices.Equal(marked, f.Sheets()) {
		t.Errorf("ResultSheets = %q", marked)
	}
}

func TestWriteSizingJSON(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSizingJSON(&b, testSizing()); err != nil {
		t.Fatal(err)
	}
	golden(t, "sizing.json", b.String())
	doc := NewJSONSizing(testSizing())
	if doc.Setting != "AppServers" || len(doc.Points) != 6 || doc.Points[0].Size == nil || *doc.Points[0].Size != 8 ||
		doc.Points[2].Size != nil || doc.Points[4].Size != nil || doc.Points[5].Size == nil || *doc.Points[5].Size != 12 ||
		len(doc.Points[0].Runs) != 2 || len(doc.Points[4].Runs) != 1 {
		t.Errorf("document %+v", doc)
	}
	if tg := doc.Points[0].Runs[0].Targets; len(tg) != 2 || tg[0].Measure != "p95" || tg[0].Verdict != "holds" || math.IsNaN(float64(tg[0].Value)) {
		t.Errorf("targets %+v", tg)
	}
	if !strings.Contains(b.String(), `"size": null`) {
		t.Error("no null size")
	}
}

// A second `websim size` into a workbook that holds only its Sizing sheet
// replaces that sheet rather than adding "Sizing (websim)" beside it.
func TestWriteSizingAloneTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "OutPut.xlsx")
	for range 2 {
		if err := WriteSizing(path, testSizing()); err != nil {
			t.Fatal(err)
		}
	}
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.Sheets(); !slices.Equal(got, []string{SizingSheet}) {
		t.Errorf("sheets %q", got)
	}
	if marked, _ := ResultSheets(f); !slices.Equal(marked, []string{SizingSheet}) {
		t.Errorf("ResultSheets = %q", marked)
	}
}

// TestWriteSizingBackKeepsTheUsersWork: `websim size --write-back` adds
// the Sizing sheet to SvcData.xlsx, the same as in OutPut.xlsx, next to
// the result sheets of `websim run --write-back`, keeping every cell,
// formula, comment, validation, style, name and property of the user's; a
// user's own sheet called Sizing stays, and the second write-back replaces
// websim's Sizing sheet rather than adding one.
func TestWriteSizingBackKeepsTheUsersWork(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "SvcData.xlsx")
	userWorkbook(t, path)
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	f.NewSheet("Sizing")
	f.SetCell("Sizing", "A1", "the user's own sizing notes")
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	f.Close()
	before := readUserState(t, path)
	userSizing := dumpSheets(t, path, "Sizing")
	if err := WriteBack(path, readFrom(t, path, testStudy())); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "OutPut.xlsx")
	for i := 1; i <= 2; i++ {
		// The sizing as read from the workbook as it is (its hash shown).
		sz := sizingReadFrom(t, path, testSizing())
		if err := WriteSizing(out, sz); err != nil {
			t.Fatal(err)
		}
		want := strings.Replace(dumpSheets(t, out, SizingSheet), "== Sizing\n", "== Sizing (websim)\n", 1)
		if err := WriteSizingBack(path, sz); err != nil {
			t.Fatalf("write-back %d: %v", i, err)
		}
		if after := readUserState(t, path); !equalState(before, after) {
			t.Errorf("write-back %d changed the user's work:\nbefore %+v\nafter  %+v", i, before, after)
		}
		if got := dumpSheets(t, path, "Sizing"); got != userSizing {
			t.Errorf("write-back %d changed the user's Sizing sheet:\n%s", i, got)
		}
		if got := dumpSheets(t, path, "Sizing (websim)"); got != want {
			t.Errorf("write-back %d: the Sizing sheet differs from OutPut.xlsx's:\n%s", i, got)
		}
		f, err := xlsx.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		wantSheets := []string{"Settings", "Notes", "Summary", "Sizing", "Summary (websim)", "Servers", "Entities", "Charts", "Timeline", "Run", "Sizing (websim)"}
		if got := f.Sheets(); !slices.Equal(got, wantSheets) {
			t.Errorf("write-back %d: sheets %q, want %q", i, got, wantSheets)
		}
		if marked, _ := ResultSheets(f); !slices.Equal(marked, wantSheets[4:]) {
			t.Errorf("write-back %d: result sheets %q", i, marked)
		}
		f.Close()
		if charts := dumpCharts(t, path); !strings.Contains(charts, "'Sizing (websim)'!") {
			t.Errorf("write-back %d: no chart on the Sizing sheet:\n%s", i, charts)
		}
	}
}

// A write-back that fails mid-way leaves SvcData.xlsx as it was, and no
// temporary file behind.
func TestWriteSizingBackReplacesOnlyWhenComplete(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "SvcData.xlsx")
	userWorkbook(t, path)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	saved := writeWorkbook
	t.Cleanup(func() { writeWorkbook = saved })
	writeWorkbook = func(f *xlsx.Book, w io.Writer) error {
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			return err
		}
		w.Write(buf.Bytes()[:buf.Len()/2])
		return errors.New("disk full")
	}
	if err := WriteSizingBack(path, sizingReadFrom(t, path, testSizing())); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("err = %v, want disk full", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("SvcData.xlsx changed after a failed write-back")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left behind: %v", entries)
	}
}

// Times read alike on every sheet: the Charts data blocks and the Sizing
// sheet take Summary's format of times (by the study's typical time), not
// three decimals whatever the unit.
func TestTimesHaveSummarysFormatEverywhere(t *testing.T) {
	path := filepath.Join(t.TempDir(), "OutPut.xlsx")
	if err := Write(path, testStudy()); err != nil {
		t.Fatal(err)
	}
	if err := WriteSizing(path, testSizing()); err != nil {
		t.Fatal(err)
	}
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	formatOf := func(sheet, header string) string {
		t.Helper()
		rows, _ := f.Rows(sheet)
		for c, h := range rows[0] {
			if h == header {
				l, _ := f.LookOf(sheet, xlsx.CellName(c, 2))
				return l.NumFormat
			}
		}
		t.Fatalf("%s has no column %q", sheet, header)
		return ""
	}
	want := formatOf("Summary", "Mean (ms)")
	if got := formatOf(SizingSheet, "Mean at size (ms)"); got != want {
		t.Errorf("Sizing's mean reads %q, Summary's %q", got, want)
	}
	rows, _ := f.Rows("Charts")
	seen := 0
	for r, row := range rows {
		for c, v := range row {
			if typ, _ := f.TypeOf("Charts", xlsx.CellName(c, r+1)); (typ != xlsx.NumberCell && typ != xlsx.Unset) || v == "" {
				continue
			}
			if _, err := strconv.ParseFloat(v, 64); err != nil {
				continue
			}
			l, _ := f.LookOf("Charts", xlsx.CellName(c, r+1))
			if strings.Contains(l.NumFormat, "%") {
				continue // a share
			}
			if seen++; l.NumFormat != want {
				t.Fatalf("Charts!%s reads %q, Summary's times %q", xlsx.CellName(c, r+1), l.NumFormat, want)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no time in the Charts data blocks")
	}
}

// TestSizingPrintsTheAnswer: the Sizing sheet prints its answer columns
// (Scenario to Max) one page wide, the header row on each page and not
// the key columns, down to its last line; a warning too long for a line
// wraps across the printed columns.
func TestSizingPrintsTheAnswer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "OutPut.xlsx")
	sz := testSizing()
	sz.Warnings = []string{strings.Repeat("a warning long enough to wrap over lines ", 8)}
	if err := WriteSizing(path, sz); err != nil {
		t.Fatal(err)
	}
	b, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	rows, err := b.Rows(SizingSheet)
	if err != nil {
		t.Fatal(err)
	}
	last := len(rows)
	if got := rows[last-1][0]; got != "Warning" {
		t.Fatalf("last row starts %q, want the warning", got)
	}
	names := map[string]string{}
	for _, dn := range b.DefinedNames() {
		if dn.Scope == SizingSheet {
			names[dn.Name] = dn.RefersTo
		}
	}
	if want := "'Sizing'!$A$1:$I$" + strconv.Itoa(last); names["_xlnm.Print_Area"] != want {
		t.Errorf("print area %q, want %q", names["_xlnm.Print_Area"], want)
	}
	if want := "'Sizing'!$1:$1"; names["_xlnm.Print_Titles"] != want {
		t.Errorf("print titles %q, want %q (the header row alone)", names["_xlnm.Print_Titles"], want)
	}
	if h, _ := b.RowHeightOf(SizingSheet, last); h < 30 {
		t.Errorf("the warning's row is %g points tall, want two lines or more", h)
	}
	if l, _ := b.LookOf(SizingSheet, "B"+strconv.Itoa(last)); !l.Wrap {
		t.Error("the warning does not wrap")
	}
}

// A stable run too short to be tested says so where its Stable cell is,
// for one run and for replications pooled.
func TestUntestedRunCells(t *testing.T) {
	for _, tc := range []struct {
		reps int
		want string
	}{
		{1, "too short to test for a steady state: 300 requests finished after the warm-up, 1,000 needed"},
		{3, "fewer than 1,000 requests finished after the warm-up in a replication (300 in its 3)"},
	} {
		run := study.Run{Scenario: "S", Load: "L1"}
		run.Result.Stable, run.Result.Untested, run.Result.Replications, run.Result.Completed = true, true, tc.reps, 300
		cells := runCells(&run)
		if cells[2] != "untested" || !strings.Contains(cells[3].(string), tc.want) {
			t.Errorf("%d replications: cells %q, want untested and %q", tc.reps, cells, tc.want)
		}
		if got := stableText(&run.Result); !strings.HasPrefix(got, "untested: ") {
			t.Errorf("Sizing's stable text %q", got)
		}
	}
}

// The Sizing chart's note names each gap, a scenario's loads together,
// while they are few; beyond, it counts them and points to the table,
// never naming some and dropping the rest.
func TestSizingGapsNameEveryGap(t *testing.T) {
	points := func(outcome func(i, j int) study.SizeOutcome, n, m int) []study.SizePoint {
		var out []study.SizePoint
		for i := range n {
			for j := range m {
				out = append(out, study.SizePoint{Scenario: fmt.Sprintf("S%d", i+1), Load: fmt.Sprintf("L%d", j+1), Outcome: outcome(i, j)})
			}
		}
		return out
	}
	for _, c := range []struct {
		name    string
		outcome func(i, j int) study.SizeOutcome
		n, m    int
		want    string
	}{
		{"every point sized", func(i, j int) study.SizeOutcome { return study.SizeFound }, 2, 3, ""},
		{"a scenario's loads together", func(i, j int) study.SizeOutcome {
			if j >= 1 {
				return study.SizeNone
			}
			return study.SizeFound
		}, 2, 3, "Gaps: none up to --max (S1, S2 at L2, L3)"},
		{"none and undecided", func(i, j int) study.SizeOutcome {
			switch {
			case i == 0 && j == 2:
				return study.SizeUndecided
			case i == 1 && j > 0:
				return study.SizeNone
			}
			return study.SizeFound
		}, 3, 3, "Gaps: none up to --max (S2 at L2, L3); undecided (S1 at L3)"},
		{"too many to name", func(i, j int) study.SizeOutcome {
			if j >= i {
				return study.SizeNone
			}
			return study.SizeFound
		}, 8, 10, "Gaps: none up to --max (52 points: the table's Outcome column names each)"},
	} {
		sz := &study.Sizing{Points: points(c.outcome, c.n, c.m)}
		if got := sizingGaps(sz); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
