package report

import (
	"archive/zip"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/websim/websim/internal/xlsx"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/study"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// testStudy is a small study built by hand: two scenarios over three loads,
// one run unstable and one with no completed request.
func testStudy() *study.Study {
	s := &study.Study{
		Model: "asum", TimeUnit: "ms", Version: "0.1.0-test", Seed: 7,
		Started:   time.Date(2026, 5, 4, 13, 14, 15, 0, time.UTC),
		Scenarios: []string{"M10", "P10"},
		Loads:     []string{"L1", "L2", "L3"},
		Settings: []study.Setting{
			{Name: "TimeUnit", Value: "ms"}, {Name: "Seed", Value: "7"},
			{Name: "AppServers", Value: "10"}, {Name: "SwitchUtil", Value: "0.7"},
		},
		ScenarioSettings: map[string][]study.Setting{
			"M10": {{Name: "SwitchUtil", Value: "0.7"}},
			"P10": {{Name: "SwitchUtil", Value: "2"}, {Name: "SelectionRule", Value: "LBS"}},
		},
		Inputs: []study.Input{
			{Name: "SvcData.xlsx", SHA256: strings.Repeat("ab", 32)},
			{Name: "ProcData.xlsx", SHA256: strings.Repeat("01", 32)},
		},
		Warnings: []string{"SvcData.xlsx!Notes: a sheet websim ignores"},
		// P10 alone is in "Parallel only"; both in "Figure 7".
		Charts:       map[string][]string{"M10": {"Figure 7"}, "P10": {"Figure 7", "Parallel only"}},
		ArrivalRates: []float64{0.025, 1.0 / 30, 0.05},
	}
	for si, sc := range s.Scenarios {
		for li, load := range s.Loads {
			k := float64(si*10 + li + 1)
			r := engine.Result{
				Load: load, Arrivals: 1000 + int64(k), Completed: 990, Failed: 8, Abandoned: 2,
				Retries: 3, Timeouts: 4, Attempts: 1003, InSystem: 5,
				Response: engine.Summary{N: 990, Mean: 100 + k, SD: 50 + k, Min: 1, Max: 900,
					P50: 90 + k, P90: 180 + k, P95: 220 + k, P99: 400 + k, CIHalfWidth95: 1.5,
					P50CIHalfWidth95: 1 + k/10, P90CIHalfWidth95: 3 + k/10, P95CIHalfWidth95: 4 + k/10, P99CIHalfWidth95: 9 + k/10},
				AttemptResponse: engine.Summary{N: 995, Mean: 95 + k},
				AppUtilization:  0.1 * k / 2, AppQueue: 0.25,
				InstantCaptures: 10, Captures: 40, ParallelSteps: 30, SequentialSteps: 10,
				LateCopies: 2, WastedWork: 12.5,
				Servers: []engine.ServerResult{
					{Name: "DSS", Capacity: 12, Utilization: 0.6, MeanQueue: 0.5, Jobs: 2000, Timeouts: 1, OrphanJobs: 1, OrphanWork: 30},
					{Name: "GWay", Capacity: 90, Utilization: 0.55, MeanQueue: 0, Jobs: 4000},
				},
				AppServers: []engine.ServerResult{
					{Name: "App1", Capacity: 20, Utilization: 0.4, MeanQueue: 0.1, Jobs: 500, HasAcceptQueue: true, MeanAcceptQueue: 2.5},
					{Name: "App2", Capacity: 20, Utilization: 0.42, MeanQueue: 0.2, Jobs: 490},
				},
				Stable: true, WarmUp: 20000, SimTime: 60000, Events: 123456,
			}
			if sc == "P10" && load == "L3" {
				r.Stable = false
				r.Unstable = "App1: deadlocked at 41234.5 ms: every unit held by requests waiting for one more"
			}
			if sc == "P10" && load == "L2" {
				r.Completed, r.Failed = 0, 998
				r.Response = engine.Summary{}
				r.AttemptResponse = engine.Summary{}
			}
			r.Entities = []engine.EntityResult{
				{Name: "ASUM", Arrivals: 700, Completed: 693, Failed: 5, Abandoned: 2, Response: engine.Summary{N: 693, Mean: 90 + k, SD: 40, P50: 80, P90: 170, P95: 210 + k, P99: 390, CIHalfWidth95: 1.25, P50CIHalfWidth95: 0.75, P90CIHalfWidth95: 2.5, P95CIHalfWidth95: 3.5, P99CIHalfWidth95: 8}},
				{Name: "Login", Arrivals: 300, Completed: 0, Failed: 3, Abandoned: 0},
			}
			for i := range 3 {
				x := float64(i)
				r.Timeline = append(r.Timeline, engine.TimelineInterval{Start: 20000 * x, End: 20000 * (x + 1),
					Completed: 300 + int64(k), ResponseSum: (300 + k) * (100 + k + x), InSystem: 4 + x*k, AppUtilization: 0.4 + x/10})
			}
			run := study.Run{Scenario: sc, Load: load, Replications: 1, Result: r, WallSeconds: 0.25}
			if si > 0 {
				run.Diff = &study.Diff{Mean: 10 + k, HalfWidth95: 2}
			}
			s.Runs = append(s.Runs, run)
		}
	}
	return s
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (go test ./report -update rewrites it)\n--- got\n%s", name, got)
	}
}

// dumpSheets is a text dump of the named sheets: every cell as raw text,
// row by row.
func dumpSheets(t *testing.T, path string, sheets ...string) string {
	t.Helper()
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	for _, sh := range sheets {
		fmt.Fprintf(&b, "== %s\n", sh)
		rows, err := f.Rows(sh)
		if err != nil {
			t.Fatal(err)
		}
		for i, row := range rows {
			fmt.Fprintf(&b, "%d: %s\n", i+1, strings.Join(row, " | "))
		}
	}
	return b.String()
}

var (
	reChart      = regexp.MustCompile(`^xl/charts/chart\d+\.xml$`)
	reTitle      = regexp.MustCompile(`<(?:c:)?title>.*?</(?:c:)?title>`)
	rePara       = regexp.MustCompile(`<a:p>.*?</a:p>`)
	reText       = regexp.MustCompile(`<a:t>([^<]*)</a:t>`)
	reFormat     = regexp.MustCompile(`<(?:c:)?f>([^<]*)</(?:c:)?f>`)
	reBlanks     = regexp.MustCompile(`<(?:c:)?dispBlanksAs val="([^"]*)"`)
	reSer        = regexp.MustCompile(`<(?:c:)?ser>.*?</(?:c:)?ser>`)
	reKind       = regexp.MustCompile(`<(?:c:)?(lineChart|scatterChart|barChart)>`)
	reNumFmt     = regexp.MustCompile(`<(?:c:)?numFmt formatCode="([^"]*)"`)
	reAxText     = regexp.MustCompile(`<(?:c:)?(?:catAx|valAx)>.*?</(?:c:)?(?:catAx|valAx)>`)
	reAxColor    = regexp.MustCompile(`<(?:c:)?txPr>.*?<a:defRPr[^>]*><a:solidFill><a:srgbClr val="([0-9A-F]{6})"`)
	reLine       = regexp.MustCompile(`^.*?<(?:c:)?spPr><a:ln[^>]*><a:solidFill><a:srgbClr val="([0-9A-F]{6})"`)
	reSymbol     = regexp.MustCompile(`<(?:c:)?symbol val="([^"]*)"`)
	reMarkerSize = regexp.MustCompile(`<(?:c:)?marker>.*?<(?:c:)?size val="(\d+)"`)
)

// dumpCharts lists the charts in the file: kind, titles (a chart's title
// paragraphs joined by " / "), how blanks show, the axes' number formats
// and label colours, and each series' name, category and value
// references, line colour and marker shape.
// reAxisEnd finds an axis's minimum or maximum in a chart's XML.
var reAxisEnd = regexp.MustCompile(`<(?:c:)?(min|max) val="([^"]*)"`)

func dumpCharts(t *testing.T, path string) string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var names []string
	files := map[string]*zip.File{}
	for _, zf := range zr.File {
		if reChart.MatchString(zf.Name) {
			names = append(names, zf.Name)
			files[zf.Name] = zf
		}
	}
	slices.SortFunc(names, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	var b strings.Builder
	fmt.Fprintf(&b, "== charts: %d\n", len(names))
	for _, n := range names {
		rc, err := files[n].Open()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(rc)
		rc.Close()
		x := html.UnescapeString(string(data))
		var titles []string
		for _, tm := range reTitle.FindAllString(x, -1) {
			var paras []string
			for _, p := range rePara.FindAllString(tm, -1) {
				var parts []string
				for _, m := range reText.FindAllStringSubmatch(p, -1) {
					parts = append(parts, m[1])
				}
				if len(parts) > 0 {
					paras = append(paras, strings.Join(parts, ""))
				}
			}
			titles = append(titles, strings.Join(paras, " / "))
		}
		blanks, kind := "", ""
		if m := reBlanks.FindStringSubmatch(x); m != nil {
			blanks = m[1]
		}
		if m := reKind.FindStringSubmatch(x); m != nil {
			kind = m[1]
		}
		var formats, colors []string
		for _, m := range reNumFmt.FindAllStringSubmatch(x, -1) {
			formats = append(formats, m[1])
		}
		for _, ax := range reAxText.FindAllString(x, -1) {
			c := "theme"
			if m := reAxColor.FindStringSubmatch(ax); m != nil {
				c = m[1]
			}
			colors = append(colors, c)
		}
		var scale []string // the y axis's ends, where set
		for _, m := range reAxisEnd.FindAllStringSubmatch(x, -1) {
			scale = append(scale, m[1]+"="+m[2])
		}
		fmt.Fprintf(&b, "chart %s titles=%q blanks=%s axes=%q axis-text=%v scale=%v\n", kind, titles, blanks, formats, colors, scale)
		for _, ser := range reSer.FindAllString(x, -1) {
			var refs []string
			for _, m := range reFormat.FindAllStringSubmatch(ser, -1) {
				refs = append(refs, m[1])
			}
			line, symbol := "theme", ""
			if m := reLine.FindStringSubmatch(ser); m != nil {
				line = m[1]
			}
			if m := reSymbol.FindStringSubmatch(ser); m != nil {
				symbol = m[1]
			}
			if m := reMarkerSize.FindStringSubmatch(ser); m != nil && m[1] != "6" {
				symbol += " size " + m[1] // not the charts' usual 6 points
			}
			fmt.Fprintf(&b, "  series %s ; %s %s\n", strings.Join(refs, " ; "), line, symbol)
		}
	}
	return b.String()
}

func TestWriteGolden(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "OutPut.xlsx")
	if err := Write(path, testStudy()); err != nil {
		t.Fatal(err)
	}
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.Sheets(), []string{"Summary", "Servers", "Entities", "Charts", "Timeline", "Run"}; !slices.Equal(got, want) {
		t.Errorf("sheets = %q, want %q", got, want)
	}
	marked, _ := ResultSheets(f)
	if !slices.Equal(marked, f.Sheets()) {
		t.Errorf("ResultSheets = %q, want every sheet", marked)
	}
	// The columns up to Stable: Scenario, Load, Stable; in Servers and
	// Entities the server or entity stands before Stable.
	for sh, want := range map[string]int{"Summary": 3, "Servers": 4, "Entities": 4, "Timeline": 3} {
		rows, _ := f.FrozenRows(sh)
		cols, _ := f.FrozenColumns(sh)
		if rows != 1 || cols != want {
			t.Errorf("%s: %d rows and %d columns frozen, want the header and the %d up to Stable", sh, rows, cols, want)
		}
		if v, _ := f.Value(sh, xlsx.CellName(want-1, 1)); v != "Stable" {
			t.Errorf("%s: the last frozen column is %q, want Stable", sh, v)
		}
	}
	if look, _ := f.LookOf("Summary", "A1"); !look.Bold {
		t.Errorf("Summary header not bold")
	}
	if typ, _ := f.TypeOf("Summary", "M2"); typ != xlsx.NumberCell && typ != xlsx.Unset {
		t.Errorf("Summary!K2 (mean) type = %v, want a number", typ)
	}
	looks := dumpLooks(t, f, "Summary", "Servers", "Entities", "Timeline")
	f.Close()
	sheets := []string{"Summary", "Servers", "Entities", "Charts", "Timeline", "Run"}
	got := dumpSheets(t, path, sheets...) + looks + dumpCharts(t, path)
	golden(t, "output.txt", got)

	// Figure 7 (both scenarios) and Parallel only (P10): mean, p95, sd,
	// utilization, failure share and abandoned share each, and the mean
	// of each of the two entities; on Timeline the baseline's two and the
	// unstable runs' one.
	if n := strings.Count(got, "chart lineChart"); n != 16 {
		t.Errorf("%d line charts, want 16", n)
	}
	if n := strings.Count(got, "chart scatterChart"); n != 3 {
		t.Errorf("%d timeline charts, want 3", n)
	}
}

// dumpLooks shows, per sheet, the frozen panes and a letter per cell of
// each row: h header, w warning, m muted (grey, struck through), - plain.
func dumpLooks(t *testing.T, f *xlsx.Book, sheets ...string) string {
	t.Helper()
	var b strings.Builder
	for _, sh := range sheets {
		rows, _ := f.FrozenRows(sh)
		cols, _ := f.FrozenColumns(sh)
		fmt.Fprintf(&b, "== looks of %s: frozen %d rows, %d columns\n", sh, rows, cols)
		all, err := f.Rows(sh)
		if err != nil {
			t.Fatal(err)
		}
		for r, row := range all {
			var codes []byte
			for c := range row {
				l, err := f.LookOf(sh, xlsx.CellName(c, r+1))
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case l.Fill == "DDEBF7":
					codes = append(codes, 'h')
				case l.Fill == "FFC7CE" && l.Bold:
					codes = append(codes, 'w')
				case l.Strike && l.FontColor == "8C8C8C":
					codes = append(codes, 'm')
				default:
					codes = append(codes, '-')
				}
			}
			fmt.Fprintf(&b, "%d: %s\n", r+1, codes)
		}
	}
	return b.String()
}

func TestWriteReplacesOnlyWhenComplete(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "OutPut.xlsx")
	if err := Write(path, testStudy()); err != nil {
		t.Fatal(err)
	}
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
		w.Write(buf.Bytes()[:buf.Len()/2]) // half the file, then the failure
		return errors.New("disk full")
	}
	s := testStudy()
	s.Seed = 99
	err = Write(path, s)
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("Write with a failing writer: err = %v, want disk full", err)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Error("the previous OutPut.xlsx changed after a failed write")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left behind: %v", entries)
	}
}

func TestWriteReadOnlyFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores folder permissions")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "OutPut.xlsx")
	if err := Write(path, testStudy()); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	if err := Write(path, testStudy()); err == nil {
		t.Fatal("Write into a read-only folder succeeded")
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Error("the previous OutPut.xlsx changed")
	}
}

func TestWriteLockedByExcel(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "OutPut.xlsx")
	if err := Write(path, testStudy()); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	if err := os.WriteFile(filepath.Join(dir, "~$OutPut.xlsx"), []byte("owner"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"OutPut (2).xlsx", "OutPut (3).xlsx"} {
		err := Write(path, testStudy())
		var locked *LockedError
		if !errors.As(err, &locked) {
			t.Fatalf("write %d: err = %v, want a *LockedError", i+1, err)
		}
		if locked.Path != path || locked.SavedAs != filepath.Join(dir, want) {
			t.Errorf("write %d: %+v, want SavedAs %s", i+1, locked, want)
		}
		msg := err.Error()
		if !strings.Contains(msg, "open in Excel") || !strings.Contains(msg, want) ||
			!strings.Contains(msg, "Try: close OutPut.xlsx and run again") {
			t.Errorf("message %q", msg)
		}
		if dumpSheets(t, locked.SavedAs, "Summary") != dumpSheets(t, path, "Summary") {
			t.Errorf("%s does not hold the results", want)
		}
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Error("the locked OutPut.xlsx changed")
	}
}

func TestNonFiniteValuesLeaveBlanks(t *testing.T) {
	s := testStudy()
	s.Runs[0].Result.AppUtilization = math.NaN()
	s.Runs[0].Result.Response.Mean = math.Inf(1)
	f := written(t, s)
	for _, cell := range []string{"M2", "X2"} {
		if v, _ := f.Value("Summary", cell); v != "" {
			t.Errorf("Summary!%s = %q, want blank", cell, v)
		}
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, s); err != nil {
		t.Fatal(err)
	}
}

func TestRunSheetKeepsLongSeedsWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "OutPut.xlsx")
	s := testStudy()
	s.Seed = 1<<60 + 7
	for i := range s.Settings {
		if s.Settings[i].Name == "Seed" {
			s.Settings[i].Value = "1152921504606846983"
		}
	}
	if err := Write(path, s); err != nil {
		t.Fatal(err)
	}
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, _ := f.Rows("Run")
	seen := 0
	for _, r := range rows {
		if len(r) == 3 && r[1] == "Seed" {
			seen++
			if r[2] != "1152921504606846983" {
				t.Errorf("seed written as %q", r[2])
			}
		}
	}
	if seen != 2 {
		t.Errorf("%d seed rows, want 2", seen)
	}
}

// With replications a run's timeline is its first replication's, and the
// Timeline sheet says so where the run is named (and so in the charts'
// legends).
func TestTimelineNamesItsReplication(t *testing.T) {
	s := testStudy()
	s.Runs[0].Replications = 3
	f := written(t, s)
	if v, _ := f.Value("Timeline", "K2"); v != "M10 L1 (replication 1 of 3)" {
		t.Errorf("Timeline!K2 = %q, want the run named with its replication", v)
	}
	if v, _ := f.Value("Timeline", "K5"); v != "M10 L2" {
		t.Errorf("Timeline!K5 = %q, want a run of one replication named alone", v)
	}
	// Summary repeats its header and run columns on every printed page;
	// Timeline prints its charts alone, without titles of the table.
	titles := map[string]string{}
	for _, dn := range f.DefinedNames() {
		if dn.Name == "_xlnm.Print_Titles" {
			titles[dn.Scope] = dn.RefersTo
		}
	}
	if titles["Summary"] != "'Summary'!$A:$C,'Summary'!$1:$1" || titles["Timeline"] != "" {
		t.Errorf("print titles %v, want Summary's columns A:C and row 1, and none on Timeline", titles)
	}
}

// A percentile's ± column says, in its header's note, why a cell may be
// blank.
func TestIntervalHeadersSayWhyBlank(t *testing.T) {
	f := written(t, testStudy())
	notes, _ := f.Comments("Summary")
	found := false
	for _, n := range notes {
		if strings.HasPrefix(n.Text, "P99 ± 95% (ms): Blank when the run has none: fewer than 100,000 completed requests") {
			found = true
		}
	}
	if !found {
		t.Errorf("no note on Summary's P99 ± 95%% header: %+v", notes)
	}
}

// written writes s as OutPut.xlsx in a temporary folder and opens it; the
// book is closed when the test ends.
func written(t *testing.T, s *study.Study) *xlsx.Book {
	t.Helper()
	path := filepath.Join(t.TempDir(), "OutPut.xlsx")
	if err := Write(path, s); err != nil {
		t.Fatal(err)
	}
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// An unstable run of the baseline is drawn in the unstable runs' chart
// only: among the stable loads its growing queue would squeeze their lines
// flat. The baseline's charts name it in their note.
func TestTimelineBaselineLeavesUnstableRunsOut(t *testing.T) {
	s := testStudy()
	s.Runs[1].Result.Stable = false // M10 L2
	s.Runs[1].Result.Unstable = "the number in the system keeps growing"
	path := filepath.Join(t.TempDir(), "OutPut.xlsx")
	if err := Write(path, s); err != nil {
		t.Fatal(err)
	}
	charts := dumpCharts(t, path)
	for _, block := range strings.Split(charts, "chart ")[1:] {
		title := block[:strings.Index(block, "\n")]
		switch {
		case strings.Contains(title, "(the baseline)"):
			if strings.Contains(block, "'Timeline'!$K$5 ;") {
				t.Errorf("the baseline chart draws the unstable M10 L2:\n%s", block)
			}
			if n := strings.Count(block, "  series"); n != 2 {
				t.Errorf("the baseline chart has %d series, want 2 (L1, L3):\n%s", n, block)
			}
			if !strings.Contains(title, "Not stable at L2: drawn in the unstable runs' chart") {
				t.Errorf("the baseline chart's note does not name L2: %s", title)
			}
		case strings.Contains(title, "unstable runs"):
			if !strings.Contains(block, "'Timeline'!$K$5 ;") {
				t.Errorf("the unstable runs' chart lacks M10 L2:\n%s", block)
			}
		}
	}
}

// With more unstable runs than the unstable runs' chart draws, the
// baseline's note says which are in no chart, rather than send the reader
// to a chart they are not in.
func TestTimelineNoteNamesUnstableRunsInNoChart(t *testing.T) {
	s := testStudy()
	s.Scenarios, s.Loads, s.ArrivalRates = []string{"M10"}, nil, nil
	proto := s.Runs[0]
	s.Runs = nil
	for i := range 12 {
		run := proto
		run.Load = fmt.Sprintf("L%d", i+1)
		s.Loads = append(s.Loads, run.Load)
		if i >= 2 { // L3 to L12: ten unstable runs
			run.Result.Stable, run.Result.Unstable = false, "the number in the system keeps growing"
		}
		s.Runs = append(s.Runs, run)
	}
	path := filepath.Join(t.TempDir(), "OutPut.xlsx")
	if err := Write(path, s); err != nil {
		t.Fatal(err)
	}
	charts := dumpCharts(t, path)
	want := "Not stable at L3, L4, L5, L6, L7, L8, L9, L10: drawn in the unstable runs' chart; Not stable at L11, L12: in no chart"
	if !strings.Contains(charts, want) {
		t.Errorf("the baseline's note lacks %q:\n%s", want, charts)
	}
}
