package report

import (
	"fmt"
	"html"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/study"
)

func TestAxisFormat(t *testing.T) {
	for _, c := range []struct {
		values  []float64
		percent bool
		want    string
	}{
		{[]float64{120, 480, 1340}, false, "#,##0"},
		{[]float64{101, 103}, false, "#,##0"},         // an axis from 0: labels 0, 20, 40 ...
		{[]float64{0.98, 1.01}, false, "#,##0.0"},     // 0.2, 0.4 ..., not 1.200
		{[]float64{2.9, 3.5}, false, "#,##0.0"},       // 0.5, 1.0 ...
		{[]float64{0.021, 0.026, 0.03}, true, "0.0%"}, // not 2%, 3%, 3%
		{[]float64{0.0021, 0.0026}, true, "0.00%"},
		{[]float64{0.1, 0.5, 0.95}, true, "0%"},
		{[]float64{5, 5}, false, "#,##0"},
		{[]float64{0.004, 0.004}, false, "#,##0.0000"},
		{nil, true, "0%"},
		{[]float64{5.28e-06, 1.54e-05}, false, "0.0E+00"}, // not 0.0000 on every line
		{[]float64{5.28e-06, 5.28e-06}, false, "0E+00"},   // 1E-06, 2E-06 ...
		{[]float64{0.0004, 0.0009}, false, "#,##0.0000"},
		{[]float64{0.000001, 0.000003}, true, "0.0000%"},
	} {
		if got := axisFormat(c.values, c.percent); got != c.want {
			t.Errorf("axisFormat(%v, %v) = %q, want %q", c.values, c.percent, got, c.want)
		}
	}
	// A utilization's axis ends at 100%: its labels need no decimals
	// however small the utilizations drawn.
	if got := axisFormat(axisSpan([]float64{0.0001, 0.00012}, 1), true); got != "0%" {
		t.Errorf("tiny utilizations on an axis to 100%%: %q, want 0%%", got)
	}
	if got := axisFormat(axisSpan([]float64{0.0001, 0.00012}, 0), true); got == "0%" {
		t.Errorf("tiny shares on an axis of their own: %q", got)
	}
}

func TestLoadLabel(t *testing.T) {
	for _, c := range []struct {
		rate float64
		unit string
		want string
	}{
		{0.05, "ms", "L5 (50/s)"},
		{1.0 / 12, "ms", "L5 (83.3/s)"},
		{12.5, "s", "L5 (12.5/s)"},
		{1234.4, "min", "L5 (1234/min)"},
		{0.5, "", "L5 (0.5/time unit)"},
		{math.NaN(), "ms", "L5"},
	} {
		if got := loadLabel("L5", c.rate, c.unit); got != c.want {
			t.Errorf("loadLabel(%v, %q) = %q, want %q", c.rate, c.unit, got, c.want)
		}
	}
}

func TestChartGroups(t *testing.T) {
	names := func(n int) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("S%d", i+1))
		}
		return out
	}
	type part struct {
		title string
		n     int
	}
	list := func(gs []chartGroup) []part {
		var out []part
		for _, g := range gs {
			out = append(out, part{g.title(), len(g.scenarios)})
		}
		return out
	}
	// Without a Chart column: one group, split evenly into charts of at
	// most 8 lines.
	s := &study.Study{Scenarios: names(10)}
	if got, want := list(groups(s)), []part{{"All scenarios (1 of 2)", 5}, {"All scenarios (2 of 2)", 5}}; !slices.Equal(got, want) {
		t.Errorf("10 scenarios, no groups: %v, want %v", got, want)
	}
	s = &study.Study{Scenarios: names(8)}
	if got, want := list(groups(s)), []part{{"All scenarios", 8}}; !slices.Equal(got, want) {
		t.Errorf("8 scenarios, no groups: %v, want %v", got, want)
	}
	// Groups in order of first appearance; a scenario in two groups is
	// drawn in both; one without a Chart cell goes to Other scenarios.
	s = &study.Study{Scenarios: []string{"P10", "S10", "M10", "M10-Cyclic", "Extra"},
		Charts: map[string][]string{"P10": {"Fig 7"}, "S10": {"Fig 7"}, "M10": {"Fig 7", "Fig 8"}, "M10-Cyclic": {"Fig 8"}}}
	if got, want := list(groups(s)), []part{{"Fig 7", 3}, {"Fig 8", 2}, {"Other scenarios", 1}}; !slices.Equal(got, want) {
		t.Errorf("groups: %v, want %v", got, want)
	}
}

// gridStudy is a study of n scenarios S1..Sn over m loads L1..Lm whose
// run of scenario i (from 0) at load j is unstable where unstable says.
func gridStudy(n, m int, unstable func(i, j int) bool) *study.Study {
	s := &study.Study{Model: "grid", TimeUnit: "ms", Version: "test", Seed: 1}
	for j := range m {
		s.Loads = append(s.Loads, fmt.Sprintf("L%d", j+1))
		s.ArrivalRates = append(s.ArrivalRates, float64(j+1)/100)
	}
	for i := range n {
		sc := fmt.Sprintf("S%d", i+1)
		s.Scenarios = append(s.Scenarios, sc)
		for j, load := range s.Loads {
			r := engine.Result{Load: load, Arrivals: 1000, Completed: 1000, Attempts: 1000,
				Response:       engine.Summary{N: 1000, Mean: 100 + float64(i+j), SD: 50, P95: 200 + float64(i+j)},
				AppUtilization: 0.5, Stable: true, SimTime: 1000}
			if unstable(i, j) {
				r.Stable, r.Unstable = false, "the requests in the system keep growing"
			}
			s.Runs = append(s.Runs, study.Run{Scenario: sc, Load: load, Replications: 1, Result: r})
		}
	}
	return s
}

var (
	reGapsNamed  = regexp.MustCompile(`Gaps: not stable, no steady state \(([^)]*)\)`)
	reGapsListed = regexp.MustCompile(`Gaps: (\d+) runs not stable, no steady state, each named in (A\d+):(A\d+) below`)
	reChartLine  = regexp.MustCompile(`^chart lineChart titles=\["(.*?)(?: / (.*?))?"`)
)

// namedGaps reads "S1, S2 at L7, L8; S3 at L8" as its scenario-load pairs.
func namedGaps(t *testing.T, text string) []string {
	t.Helper()
	var out []string
	for _, part := range strings.Split(text, "; ") {
		names, loads, ok := strings.Cut(part, " at ")
		if !ok {
			t.Fatalf("%q: no \" at \" in %q", text, part)
		}
		for _, sc := range strings.Split(names, ", ") {
			for _, load := range strings.Split(loads, ", ") {
				out = append(out, sc+"@"+load)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Every gap of a chart is named: in its note while they are few, else in
// cells below the charts that the note points to; the note stays short
// and never ends in "…".
func TestChartNotesNameEveryGap(t *testing.T) {
	for _, c := range []struct {
		name     string
		n, m     int
		unstable func(i, j int) bool
		listed   bool // the gaps are listed on the sheet
	}{
		{"one run", 3, 4, func(i, j int) bool { return i == 1 && j == 3 }, false},
		{"the same loads, named together", 6, 6, func(i, j int) bool { return j >= 4 }, false},
		{"many scenarios at two loads", 16, 3, func(i, j int) bool { return j >= 1 }, false},
		{"loads that differ, listed", 7, 12, func(i, j int) bool { return j >= 11-i || (i+j)%5 == 0 }, true},
		{"split groups, listed", 16, 12, func(i, j int) bool { return (i*7+j*3)%4 == 0 || j == i }, true},
		{"two entities, listed", 16, 12, func(i, j int) bool { return (i*7+j*3)%4 == 0 || j == i }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := gridStudy(c.n, c.m, c.unstable)
			if strings.HasPrefix(c.name, "two entities") {
				// Their charts name the gaps of unstable runs as the
				// group's other charts do.
				for i := range s.Runs {
					r := &s.Runs[i].Result
					r.Entities = []engine.EntityResult{{Name: "A", Response: r.Response}, {Name: "B", Response: r.Response}}
				}
			}
			s.Measured = []study.Measured{{Load: "L1", Measure: study.MeasureMean, Value: 100}}
			path := filepath.Join(t.TempDir(), "OutPut.xlsx")
			if err := Write(path, s); err != nil {
				t.Fatal(err)
			}
			f, err := xlsx.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			unstableIn := func(scenarios []string) []string {
				var out []string
				for i, sc := range s.Scenarios {
					for j, load := range s.Loads {
						if slices.Contains(scenarios, sc) && c.unstable(i, j) {
							out = append(out, sc+"@"+load)
						}
					}
				}
				slices.Sort(out)
				return out
			}
			charts := 0
			for _, line := range strings.Split(dumpCharts(t, path), "\n") {
				m := reChartLine.FindStringSubmatch(line)
				if m == nil || strings.Contains(m[1], "over each run") {
					continue
				}
				title, note := m[1], m[2]
				// The group: Validation draws the first 7 scenarios, Charts
				// a group or its part.
				sheet, scenarios := "Validation", s.Scenarios[:min(len(s.Scenarios), xlsx.MaxSeries-1)]
				if !strings.Contains(title, "measured and simulated") {
					sheet = "Charts"
					for _, g := range groups(s) {
						if g.parts == 1 || strings.HasPrefix(title, g.title()+":") {
							scenarios = g.scenarios
						}
					}
				}
				want := unstableIn(scenarios)
				if len(want) == 0 {
					continue
				}
				charts++
				if strings.Contains(note, "…") || len(note) > 200 {
					t.Errorf("%s: note of %d characters: %q", title, len(note), note)
				}
				var got []string
				if l := reGapsListed.FindStringSubmatch(note); l != nil {
					if !c.listed {
						t.Errorf("%s: %d gaps listed on the sheet, want them in the note: %q", title, len(want), note)
					}
					if n, _ := strconv.Atoi(l[1]); n != len(want) {
						t.Errorf("%s: the note counts %d gaps, want %d", title, n, len(want))
					}
					var from, to int
					fmt.Sscanf(l[2], "A%d", &from)
					fmt.Sscanf(l[3], "A%d", &to)
					for r := from; r <= to; r++ {
						v, _ := f.Value(sheet, fmt.Sprintf("A%d", r))
						got = append(got, namedGaps(t, v)...)
					}
					slices.Sort(got)
				} else if g := reGapsNamed.FindStringSubmatch(note); g != nil {
					if c.listed {
						t.Errorf("%s: the note names %d gaps itself: %q", title, len(want), note)
					}
					got = namedGaps(t, g[1])
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s (%s): gaps named %q, want %q (note %q)", title, sheet, got, want, note)
				}
			}
			if charts == 0 {
				t.Fatal("no chart with gaps")
			}
		})
	}
}

// oneEntityStudy is testStudy as a model of one entity whose users never
// give up: its Charts sheet is what websim wrote before it drew entities
// and abandonment, and stays so.
func oneEntityStudy() *study.Study {
	s := testStudy()
	for i := range s.Runs {
		r := &s.Runs[i].Result
		r.Failed += r.Abandoned
		r.Abandoned = 0
		r.Entities = []engine.EntityResult{{Name: "ASUM", Arrivals: r.Arrivals, Completed: r.Completed, Failed: r.Failed, Response: r.Response}}
	}
	return s
}

func TestChartsOneEntityGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "OutPut.xlsx")
	if err := Write(path, oneEntityStudy()); err != nil {
		t.Fatal(err)
	}
	golden(t, "charts_one_entity.txt", dumpSheets(t, path, "Charts")+dumpCharts(t, path))
}

// drawnChart is a chart as dumpCharts shows it: its title, the note
// under it, its axis titles, and per series its name, category and value
// references.
type drawnChart struct {
	title, note, xTitle, yTitle string
	series                      [][]string
}

var (
	reQuoted = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)
	reTitles = regexp.MustCompile(`^chart \w+ titles=\[(.*?)\] blanks=`)
)

// drawnCharts reads dumpCharts of the file at path.
func drawnCharts(t *testing.T, path string) []drawnChart {
	t.Helper()
	var out []drawnChart
	for _, line := range strings.Split(dumpCharts(t, path), "\n") {
		if m := reTitles.FindStringSubmatch(line); m != nil {
			var titles []string
			for _, q := range reQuoted.FindAllString(m[1], -1) {
				s, err := strconv.Unquote(q)
				if err != nil {
					t.Fatal(err)
				}
				titles = append(titles, s)
			}
			c := drawnChart{}
			c.title, c.note, _ = strings.Cut(titles[0], " / ")
			if len(titles) == 3 {
				c.xTitle, c.yTitle = titles[1], titles[2]
			}
			out = append(out, c)
			continue
		}
		if refs, ok := strings.CutPrefix(line, "  series "); ok {
			parts := strings.Split(refs, " ; ")
			out[len(out)-1].series = append(out[len(out)-1].series, parts[:3])
		}
	}
	return out
}

// reAnchor finds a chart's top-left cell (0-based) and its description in
// a drawing.
var reAnchor = regexp.MustCompile(`<xdr:from><xdr:col>(\d+)</xdr:col><xdr:colOff>\d+</xdr:colOff><xdr:row>(\d+)</xdr:row>.*?descr="([^"]*)"`)

// chartPlaces gives, per chart title on the Charts sheet (the first
// sheet with charts), the 1-based column and row of its top-left cell.
func chartPlaces(t *testing.T, path string) map[string][2]int {
	t.Helper()
	out := map[string][2]int{}
	for _, m := range reAnchor.FindAllStringSubmatch(zipPart(t, path, "xl/drawings/drawing1.xml"), -1) {
		col, _ := strconv.Atoi(m[1])
		row, _ := strconv.Atoi(m[2])
		title, _ := strings.CutSuffix(html.UnescapeString(m[3]), " against load, one line per scenario")
		out[title] = [2]int{col + 1, row + 1}
	}
	return out
}

// rangeValues are the cells of a one-column range "'Charts'!$U$3:$U$5".
func rangeValues(t *testing.T, f *xlsx.Book, ref string) []string {
	t.Helper()
	sheet, cells, _ := strings.Cut(ref, "!")
	sheet = strings.Trim(sheet, "'")
	from, to, _ := strings.Cut(strings.ReplaceAll(cells, "$", ""), ":")
	c1, r1, err := xlsx.CellCoordinates(from)
	if err != nil {
		t.Fatal(err)
	}
	_, r2, err := xlsx.CellCoordinates(to)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for r := r1; r <= r2; r++ {
		v, _ := f.Value(sheet, xlsx.CellName(c1-1, r))
		out = append(out, v)
	}
	return out
}

// mixStudy is a study of three entities over loads Low, Mid and High in
// chart groups A (S1, S2) and B (S2): Admin does not arrive at High, no
// Buy request completed in S2's run at Mid, S1's run at High is not
// stable, and some users gave up (Patience).
func mixStudy(entities ...string) *study.Study {
	if len(entities) == 0 {
		entities = []string{"Browse", "Buy", "Admin"}
	}
	s := &study.Study{Model: "mix", TimeUnit: "ms", Version: "test", Seed: 1,
		Scenarios: []string{"S1", "S2"}, Loads: []string{"Low", "Mid", "High"},
		ArrivalRates: []float64{0.01, 0.02, 0.03},
		Charts:       map[string][]string{"S1": {"A"}, "S2": {"A", "B"}}}
	for i, sc := range s.Scenarios {
		for j, load := range s.Loads {
			r := engine.Result{Load: load, Arrivals: 1000, Completed: 960, Failed: 10, Abandoned: 30, Attempts: 1000,
				Response:       engine.Summary{N: 960, Mean: 60 + float64(10*i+j), SD: 30, P95: 150},
				AppUtilization: 0.3 * float64(j+1), Stable: true, SimTime: 1000}
			r.Abandoned += int64(10 * j)
			for k, name := range entities {
				e := engine.EntityResult{Name: name, Arrivals: 300, Completed: 300,
					Response: engine.Summary{N: 300, Mean: float64(100*(k+1) + 10*i + j)}}
				switch {
				case name == "Admin" && load == "High":
					e = engine.EntityResult{Name: name, Absent: true}
				case name == "Buy" && sc == "S2" && load == "Mid":
					e.Completed, e.Failed, e.Response = 0, 300, engine.Summary{}
				}
				r.Entities = append(r.Entities, e)
			}
			if sc == "S1" && load == "High" {
				r.Stable, r.Unstable = false, "the requests in the system keep growing"
			}
			s.Runs = append(s.Runs, study.Run{Scenario: sc, Load: load, Replications: 1, Result: r})
		}
	}
	return s
}

// A model of several entities gets, per chart group, a chart of each
// entity's mean response against load, a line per scenario of the group,
// drawn from cells that hold the entity's means and are blank where the
// run is not stable, the entity does not arrive or none of its requests
// completed, each said in the chart's note; under a heading that starts
// a printed page.
func TestEntityCharts(t *testing.T) {
	s := mixStudy()
	path := filepath.Join(t.TempDir(), "OutPut.xlsx")
	if err := Write(path, s); err != nil {
		t.Fatal(err)
	}
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	charts := drawnCharts(t, path)
	places := chartPlaces(t, path)
	byTitle := map[string]drawnChart{}
	for _, c := range charts {
		byTitle[c.title] = c
	}
	runOf := func(sc, load string) *engine.Result {
		for i := range s.Runs {
			if s.Runs[i].Scenario == sc && s.Runs[i].Load == load {
				return &s.Runs[i].Result
			}
		}
		t.Fatalf("no run %s %s", sc, load)
		return nil
	}
	for _, g := range []struct {
		name      string
		scenarios []string
		notes     map[string][]string // per entity, what its note must say
	}{
		{"A", []string{"S1", "S2"}, map[string][]string{
			"Browse": {"Gaps: not stable, no steady state (S1 at High)"},
			"Buy":    {"Gaps: not stable, no steady state (S1 at High)", "no Buy request completed (S2 at Mid)"},
			"Admin":  {"Gaps: not stable, no steady state (S1 at High)", "Admin does not arrive at High"},
		}},
		{"B", []string{"S2"}, map[string][]string{
			"Browse": {""},
			"Buy":    {"Gaps: no Buy request completed (S2 at Mid)"},
			"Admin":  {"Gaps: Admin does not arrive at High"},
		}},
	} {
		heading := 0
		for _, e := range []string{"Browse", "Buy", "Admin"} {
			title := g.name + ": mean response time of " + e + " requests"
			c, ok := byTitle[title]
			if !ok {
				t.Errorf("no chart %q", title)
				continue
			}
			if c.yTitle != "Mean (ms)" || c.xTitle != "Load (arrival rate, per s)" {
				t.Errorf("%s: axes %q, %q, want those of the mean of all requests", title, c.xTitle, c.yTitle)
			}
			for _, want := range g.notes[e] {
				if want == "" && c.note != "" || !strings.Contains(c.note, want) {
					t.Errorf("%s: note %q, want it to say %q", title, c.note, want)
				}
			}
			if len(c.series) != len(g.scenarios) {
				t.Errorf("%s: %d lines, want one per scenario of the group (%d)", title, len(c.series), len(g.scenarios))
				continue
			}
			for k, sc := range g.scenarios {
				if name, _ := f.Value("Charts", strings.ReplaceAll(strings.Split(c.series[k][0], "!")[1], "$", "")); name != sc {
					t.Errorf("%s: line %d is %q, want %s", title, k+1, name, sc)
				}
				got := rangeValues(t, f, c.series[k][2])
				for j, load := range s.Loads {
					r := runOf(sc, load)
					want := ""
					if ent := entityOf(r, e); r.Stable && !ent.Absent && ent.Response.N > 0 {
						want = strconv.FormatFloat(ent.Response.Mean, 'f', -1, 64)
					}
					if got[j] != want {
						t.Errorf("%s: %s at %s drawn as %q, want %q", title, sc, load, got[j], want)
					}
				}
			}
			// The entity charts stand from a row of their own, under the
			// heading, below the charts of all requests.
			p := places[title]
			mean := places[g.name+": mean response time"]
			if p[1] <= mean[1]+chartRows {
				t.Errorf("%s at row %d, want it below the charts of all requests (from row %d)", title, p[1], mean[1])
			}
			if heading == 0 || p[1]-1 < heading {
				heading = p[1] - 1
			}
		}
		v, _ := f.Value("Charts", fmt.Sprintf("A%d", heading))
		if want := g.name + ": mean response time of each entity (request type)"; !strings.HasPrefix(v, want) {
			t.Errorf("group %s: A%d = %q, want a heading %q", g.name, heading, v, want)
		}
		if strings.Contains(v, "first") {
			t.Errorf("group %s: heading %q says charts are left out; all three are drawn", g.name, v)
		}
		if !pageBreakBefore(t, path, heading) {
			t.Errorf("group %s: no printed page starts at the entity heading (row %d)", g.name, heading)
		}
	}
	n := 0
	for _, c := range charts {
		if strings.HasPrefix(c.title, "A: ") || strings.HasPrefix(c.title, "B: ") {
			n++
		}
	}
	if n != 2*(6+3) {
		t.Errorf("%d charts on the Charts sheet, want 18: per group 6 of all requests and 3 of entities", n)
	}
}

// pageBreakBefore is true when the Charts sheet (sheet4) starts a printed
// page at row.
func pageBreakBefore(t *testing.T, path string, row int) bool {
	t.Helper()
	return strings.Contains(zipPart(t, path, "xl/worksheets/sheet4.xml"), fmt.Sprintf(`<brk id="%d"`, row-1))
}

// Of many entities a group draws the first maxEntityCharts, in model
// order, and its heading says that the Entities sheet has them all.
func TestEntityChartsCapped(t *testing.T) {
	var names []string
	for i := range maxEntityCharts + 3 {
		names = append(names, fmt.Sprintf("E%d", i+1))
	}
	path := filepath.Join(t.TempDir(), "OutPut.xlsx")
	if err := Write(path, mixStudy(names...)); err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{"A", "B"} {
		var drawn []string
		for _, c := range drawnCharts(t, path) {
			if e, ok := strings.CutPrefix(c.title, g+": mean response time of "); ok {
				drawn = append(drawn, strings.TrimSuffix(e, " requests"))
			}
		}
		if !slices.Equal(drawn, names[:maxEntityCharts]) {
			t.Errorf("group %s draws %q, want the first %d: %q", g, drawn, maxEntityCharts, names[:maxEntityCharts])
		}
	}
	rows := dumpSheets(t, path, "Charts")
	want := fmt.Sprintf("the first %d of the %d entities, the Entities sheet has them all", maxEntityCharts, len(names))
	if n := strings.Count(rows, want); n != 2 {
		t.Errorf("%d headings say %q, want one per group (2)", n, want)
	}
}

// When a run abandoned requests, each group draws the share abandoned
// (of requests finished) beside the share failed, in its style; a study
// where no user gave up draws none, and one of a single entity no entity
// charts.
func TestAbandonedShareChart(t *testing.T) {
	s := mixStudy()
	path := filepath.Join(t.TempDir(), "OutPut.xlsx")
	if err := Write(path, s); err != nil {
		t.Fatal(err)
	}
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	places := chartPlaces(t, path)
	found := 0
	for _, c := range drawnCharts(t, path) {
		g, ok := strings.CutSuffix(c.title, ": share of abandoned requests")
		if !ok {
			continue
		}
		found++
		if c.yTitle != "Abandoned share" || len(c.series) != len(groupScenarios(s, g)) {
			t.Errorf("%s: y axis %q and %d lines", c.title, c.yTitle, len(c.series))
		}
		failed, at := places[g+": share of failed requests"], places[c.title]
		if at[1] != failed[1] || at[0] != failed[0]+chartCols {
			t.Errorf("%s at column %d row %d; the failed share at column %d row %d: want it beside, to the right", c.title, at[0], at[1], failed[0], failed[1])
		}
		for k, sc := range groupScenarios(s, g) {
			got := rangeValues(t, f, c.series[k][2])
			for j, load := range s.Loads {
				want := math.NaN() // blank
				for _, run := range s.Runs {
					if r := run.Result; run.Scenario == sc && run.Load == load && r.Stable {
						want = float64(r.Abandoned) / float64(r.Completed+r.Failed+r.Abandoned)
					}
				}
				x, err := strconv.ParseFloat(got[j], 64)
				if got[j] == "" {
					x, err = math.NaN(), nil
				}
				if err != nil || !(math.Abs(x-want) < 1e-12 || math.IsNaN(x) && math.IsNaN(want)) {
					t.Errorf("%s: %s at %s drawn as %q, want %v", c.title, sc, load, got[j], want)
				}
			}
		}
	}
	if found != 2 {
		t.Errorf("%d abandoned-share charts, want one per group (2)", found)
	}

	// No user gave up: no abandoned share, no data for it. One entity: no
	// entity charts.
	for _, c := range []struct {
		name      string
		study     *study.Study
		abandoned bool
		entities  bool
	}{
		{"none abandoned", func() *study.Study {
			s := mixStudy()
			for i := range s.Runs {
				s.Runs[i].Result.Failed += s.Runs[i].Result.Abandoned
				s.Runs[i].Result.Abandoned = 0
			}
			return s
		}(), false, true},
		{"one entity", mixStudy("Browse"), true, false},
	} {
		path := filepath.Join(t.TempDir(), "OutPut.xlsx")
		if err := Write(path, c.study); err != nil {
			t.Fatal(err)
		}
		got := dumpSheets(t, path, "Charts") + dumpCharts(t, path)
		if has := strings.Contains(got, "abandoned requests"); has != c.abandoned {
			t.Errorf("%s: abandoned share drawn %v, want %v", c.name, has, c.abandoned)
		}
		if has := strings.Contains(got, "Mean response time of ") || strings.Contains(got, "each entity"); has != c.entities {
			t.Errorf("%s: entity charts %v, want %v", c.name, has, c.entities)
		}
	}
}

// groupScenarios are the scenarios of the chart group named g.
func groupScenarios(s *study.Study, g string) []string {
	for _, cg := range groups(s) {
		if cg.title() == g {
			return cg.scenarios
		}
	}
	return nil
}
