package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/numtext"
	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/study"
)

// Number formats of the result columns, defined once in the xlsx layer.
const (
	fText   = xlsx.Text
	fWords  = xlsx.Wrapped // a text that wraps within its column: a reason, a why
	fCount  = xlsx.Count
	fTime   = xlsx.Time
	fShare  = xlsx.Share    // a share, 0 and up: 21.7%, 0.003%
	fSigned = xlsx.Signed   // a relative difference: +13.2%, -21.7%
	fRatio  = xlsx.Decimal3 // a ratio about 1: 1.005
	fNumber = xlsx.Number
)

// column is one column of a results table.
type column struct {
	header string
	format xlsx.Style
}

// timeStyles are the number formats of a study's times: four significant
// digits of its typical time, the median of its runs' mean responses
// (325.4 ms, 1.234 s), rather than three decimals whatever the unit; and
// for half-widths, two significant digits of the typical half-width of the
// mean, never fewer decimals than the times (1,234 ± 0.43, not ± 0).
func timeStyles(runs []study.Run) (times, halfWidths xlsx.Style) {
	median := func(get func(*engine.Result) float64) float64 {
		var xs []float64
		for i := range runs {
			if r := &runs[i].Result; r.Completed > 0 {
				if x := get(r); x > 0 && !math.IsInf(x, 0) {
					xs = append(xs, x)
				}
			}
		}
		if len(xs) == 0 {
			return math.NaN()
		}
		slices.Sort(xs)
		return xs[len(xs)/2]
	}
	d := xlsx.TimeDigits(median(func(r *engine.Result) float64 { return r.Response.Mean }), 4)
	h := max(d, xlsx.TimeDigits(median(func(r *engine.Result) float64 { return r.Response.CIHalfWidth95 }), 2))
	return xlsx.TimeStyle(d), xlsx.TimeStyle(h)
}

// withTimeStyle gives the time columns of cols the styles of timeStyles:
// half-widths (a header with ± or "half-width") theirs.
func withTimeStyle(cols []column, runs []study.Run) []column {
	ts, hs := timeStyles(runs)
	for i := range cols {
		if cols[i].format != fTime {
			continue
		}
		cols[i].format = ts
		if strings.Contains(cols[i].header, "±") || strings.Contains(cols[i].header, "half-width") {
			cols[i].format = hs
		}
	}
	return cols
}

// table writes a header row (styled, frozen) and rows of values to a sheet,
// with number formats per column and widths fitted to the content. A nil or
// non-finite value leaves its cell blank.
func table(b *xlsx.Book, sheet string, cols []column, rows [][]any) error {
	return runTable(b, sheet, cols, rows, nil)
}

// runTable is table for rows of runs: unstable says which rows belong to
// a run that is not stable (grey and struck through), and the header row
// and the columns up to Stable stay in view (and are repeated on every
// printed page), so that a row's figures are never read without it.
func runTable(b *xlsx.Book, sheet string, cols []column, rows [][]any, unstable []bool) error {
	return writeRunTable(b, sheet, cols, tableOf(cols, rows), unstable)
}

// runTableFunc is runTable for n rows made one at a time by row, when the
// sheet is written: a table of a row per run is never held whole.
func runTableFunc(b *xlsx.Book, sheet string, cols []column, n int, row func(int) []any, unstable []bool) error {
	t := tableOf(cols, nil)
	t.NumRows, t.RowFunc = n, row
	if err := writeRunTable(b, sheet, cols, t, unstable); err != nil {
		return err
	}
	// The table prints, and no more: its last column's text (Targets:
	// why), which runs on to the right on screen, is cut at the table's
	// edge, where it printed as pages of fragments beside the key columns.
	return b.PrintArea(sheet, "A1", xlsx.CellName(len(cols)-1, n+1))
}

// writeRunTable writes t, whose columns are cols, as runTable does.
func writeRunTable(b *xlsx.Book, sheet string, cols []column, t xlsx.Table, unstable []bool) error {
	if unstable != nil {
		t.FrozenColumns = frozenColumns
		if i := slices.IndexFunc(cols, func(c column) bool { return c.header == "Stable" }); i >= 0 {
			t.FrozenColumns = i + 1
		}
		t.Muted = func(r int) bool { return unstable[r] }
	}
	return b.WriteTable(sheet, t)
}

// frozenTable is table with its first frozen columns in view as it
// scrolls and on every printed page (the Scenario and Load of a row).
func frozenTable(b *xlsx.Book, sheet string, cols []column, rows [][]any, frozen int) error {
	t := tableOf(cols, rows)
	t.FrozenColumns = frozen
	return b.WriteTable(sheet, t)
}

// tableOf is the table of cols and rows, its header two lines tall at
// least, each header with its note (headerNote).
func tableOf(cols []column, rows [][]any) xlsx.Table {
	t := xlsx.Table{Rows: rows, HeaderHeight: 30}
	for _, c := range cols {
		t.Columns = append(t.Columns, xlsx.Column{Header: c.header, Format: c.format, Comment: headerNote(c.header)})
	}
	return t
}

// headerNotes explain, in a header's note, why a column's cell may be
// blank; by the header's beginning.
var headerNotes = []struct{ prefix, note string }{
	{"Relative difference", "(simulated − measured) ÷ measured: +13.0% is a simulated figure 13% above the measured one, -21.7% one 21.7% below. For a share or a utilization too it is relative, not in percentage points (67.8% simulated against 60% measured is +13.0%)."},
	{"Mean ± 95%", "The 95% half-width of the mean. Blank when the run has none: too few observations for its batch means, a run worth fewer than 30 independent observations (a queue so near saturation that its response times stay correlated over much of the run: run longer), or a run that is not stable; with replications, Student t across their means."},
	{"P50 ± 95%", "Blank when the run has none: response times too spread for the run's own interval of the median (with replications: Student t across them), or a run that is not stable."},
	{"P90 ± 95%", "Blank when the run has none: fewer than 10,000 completed requests in one replication (1,000 beyond p90), response times too spread, or a run that is not stable; with replications, Student t across them."},
	{"P95 ± 95%", "Blank when the run has none: fewer than 20,000 completed requests in one replication (1,000 beyond p95), or a run that is not stable; with replications, Student t across them."},
	{"P99 ± 95%", "Blank when the run has none: fewer than 100,000 completed requests in one replication (1,000 beyond p99), or a run that is not stable; with replications, Student t across them."},
}

// headerNote is the note of a header, "" for most.
func headerNote(header string) string {
	for _, n := range headerNotes {
		if strings.HasPrefix(header, n.prefix) {
			return n.note
		}
	}
	return ""
}

// frozenColumns are the columns of a run's row that stay in view:
// Scenario, Load and Stable.
const frozenColumns = 3

// runColumns are the first columns of every row about a run.
var runColumns = []column{{"Scenario", fText}, {"Load", fText}, {"Stable", fText}, {"Unstable reason", fWords}}

// runCells are the values of runColumns for run: Stable is "yes", or "no"
// in the Warning style, and the reason of a run not stable is kept plain
// on its muted row, to be read first.
func runCells(run *study.Run) []any {
	if !run.Result.Stable {
		return []any{run.Scenario, run.Load, xlsx.Styled{Value: "no", Style: xlsx.Warning},
			xlsx.Styled{Value: run.Result.Unstable, Style: xlsx.Plain}}
	}
	if run.Result.Untested {
		return []any{run.Scenario, run.Load, "untested", UntestedReason(&run.Result)}
	}
	return []any{run.Scenario, run.Load, "yes", run.Result.Unstable}
}

// UntestedReason says why a stable run was not tested for a steady state
// (engine.Result.Untested): it was too short.
func UntestedReason(r *engine.Result) string {
	if r.Replications > 1 {
		return fmt.Sprintf("too short to test for a steady state: fewer than %s requests finished after the warm-up in a replication (%s in its %d); its figures are what they saw, settled or not",
			numtext.Group(engine.MinSteadyObservations), numtext.Group(finished(r)), r.Replications)
	}
	return fmt.Sprintf("too short to test for a steady state: %s requests finished after the warm-up, %s needed; its figures are what it saw, settled or not",
		numtext.Group(finished(r)), numtext.Group(engine.MinSteadyObservations))
}

// share is num/den, or nil when den is 0.
func share(num, den int64) any {
	if den == 0 {
		return nil
	}
	return float64(num) / float64(den)
}

// finished is the number of requests that finished after the warm-up.
func finished(r *engine.Result) int64 { return r.Completed + r.Failed + r.Abandoned }

// responseOrNil returns v when the run completed any request.
func responseOrNil(r *engine.Result, v float64) any {
	if r.Response.N == 0 {
		return nil
	}
	return v
}

// summaryColumn is one column of the Summary sheet: its header, number
// format and value for a run (nil leaves the cell blank).
type summaryColumn struct {
	header string
	format xlsx.Style
	value  func(run *study.Run) any
}

// summaryColumns are the Summary sheet's columns, in order; u is the time
// unit's suffix (" (ms)") and base the first scenario.
func summaryColumns(u, base string) []summaryColumn {
	res := func(f func(r *engine.Result) any) func(*study.Run) any {
		return func(run *study.Run) any { return f(&run.Result) }
	}
	count := func(f func(r *engine.Result) int64) func(*study.Run) any {
		return res(func(r *engine.Result) any { return float64(f(r)) })
	}
	response := func(f func(r *engine.Result) float64) func(*study.Run) any {
		return res(func(r *engine.Result) any { return responseOrNil(r, f(r)) })
	}
	cell := func(i int) func(*study.Run) any { return func(run *study.Run) any { return runCells(run)[i] } }
	return []summaryColumn{
		{runColumns[0].header, fText, cell(0)},
		{runColumns[1].header, fText, cell(1)},
		{runColumns[2].header, fText, cell(2)},
		{runColumns[3].header, fWords, cell(3)},
		{"Replications", fCount, func(run *study.Run) any { return float64(run.Replications) }},
		{"Observations", fCount, count(finished)},
		{"Arrivals", fCount, count(func(r *engine.Result) int64 { return r.Arrivals })},
		{"Completed", fCount, count(func(r *engine.Result) int64 { return r.Completed })},
		{"Failed", fCount, count(func(r *engine.Result) int64 { return r.Failed })},
		{"Abandoned", fCount, count(func(r *engine.Result) int64 { return r.Abandoned })},
		{"Retries", fCount, count(func(r *engine.Result) int64 { return r.Retries })},
		{"Timeouts", fCount, count(func(r *engine.Result) int64 { return r.Timeouts })},
		{"Mean" + u, fTime, response(func(r *engine.Result) float64 { return r.Response.Mean })},
		{"Mean ± 95%" + u, fTime, response(func(r *engine.Result) float64 { return r.Response.CIHalfWidth95 })},
		{"SD" + u, fTime, response(func(r *engine.Result) float64 { return r.Response.SD })},
		{"P50" + u, fTime, response(func(r *engine.Result) float64 { return r.Response.P50 })},
		{"P50 ± 95%" + u, fTime, response(func(r *engine.Result) float64 { return r.Response.P50CIHalfWidth95 })},
		{"P90" + u, fTime, response(func(r *engine.Result) float64 { return r.Response.P90 })},
		{"P90 ± 95%" + u, fTime, response(func(r *engine.Result) float64 { return r.Response.P90CIHalfWidth95 })},
		{"P95" + u, fTime, response(func(r *engine.Result) float64 { return r.Response.P95 })},
		{"P95 ± 95%" + u, fTime, response(func(r *engine.Result) float64 { return r.Response.P95CIHalfWidth95 })},
		{"P99" + u, fTime, response(func(r *engine.Result) float64 { return r.Response.P99 })},
		{"P99 ± 95%" + u, fTime, response(func(r *engine.Result) float64 { return r.Response.P99CIHalfWidth95 })},
		{"Diff from " + base + u, fTime, func(run *study.Run) any {
			if run.Diff == nil {
				return nil
			}
			return run.Diff.Mean
		}},
		{"Diff ± 95%" + u, fTime, func(run *study.Run) any {
			if run.Diff == nil {
				return nil
			}
			return run.Diff.HalfWidth95
		}},
		{"App utilization", fShare, res(func(r *engine.Result) any { return r.AppUtilization })},
		{"Failure share", fShare, res(func(r *engine.Result) any { return share(r.Failed, finished(r)) })},
		{"Instant-capture share", fShare, res(func(r *engine.Result) any { return share(r.InstantCaptures, r.Captures) })},
		{"Parallel share", fShare, res(func(r *engine.Result) any { return share(r.ParallelSteps, r.ParallelSteps+r.SequentialSteps) })},
		{"Attempt mean" + u, fTime, res(func(r *engine.Result) any {
			if r.AttemptResponse.N == 0 {
				return nil
			}
			return r.AttemptResponse.Mean
		})},
		{"Attempts per request", fRatio, res(func(r *engine.Result) any { return ratioOrNil(r.Attempts, finished(r)) })},
		{"Late copies", fCount, count(func(r *engine.Result) int64 { return r.LateCopies })},
		{"Wasted work" + u, fTime, res(func(r *engine.Result) any { return r.WastedWork })},
		{"Warm-up" + u, fTime, res(func(r *engine.Result) any { return r.WarmUp })},
		{"In system at end", fCount, count(func(r *engine.Result) int64 { return r.InSystem })},
		{"Events", fCount, count(func(r *engine.Result) int64 { return r.Events })},
		{"Wall seconds", xlsx.Decimal2, func(run *study.Run) any { return run.WallSeconds }},
		{"Precision cap hit", fText, func(run *study.Run) any { return yesNo(run.PrecisionCapHit) }},
	}
}

func writeSummary(b *xlsx.Book, sheet string, s *study.Study) error {
	base := "the first scenario"
	if len(s.Scenarios) > 0 {
		base = s.Scenarios[0]
	}
	spec := append(summaryColumns(unitSuffix(s.TimeUnit), base), targetColumns(s)...)
	cols := make([]column, len(spec))
	for i, c := range spec {
		cols[i] = column{c.header, c.format}
	}
	cols = withTimeStyle(cols, s.Runs)
	unstable := make([]bool, len(s.Runs))
	for i := range s.Runs {
		unstable[i] = !s.Runs[i].Result.Stable
	}
	row := func(i int) []any {
		row := make([]any, len(spec))
		for j, c := range spec {
			row[j] = c.value(&s.Runs[i])
		}
		return row
	}
	return runTableFunc(b, sheet, cols, len(s.Runs), row, unstable)
}

func writeServers(b *xlsx.Book, sheet string, s *study.Study) error {
	u := unitSuffix(s.TimeUnit)
	cols := append(withName(column{"Server", fText}),
		column{"Kind", fText},
		column{"Capacity", fCount}, column{"Utilization", fShare}, column{"Mean queue", xlsx.Decimal2},
		column{"Mean accept queue", xlsx.Decimal2},
		column{"Jobs", fCount}, column{"Timeouts", fCount}, column{"Orphan jobs", fCount}, column{"Orphan work" + u, fTime},
	)
	cols = withTimeStyle(cols, s.Runs)
	// Each run's external servers, then its application servers.
	items, unstable := runItems(s, func(r *engine.Result) int { return len(r.Servers) + len(r.AppServers) })
	row := func(k int) []any {
		run := &s.Runs[items[k].run]
		j := int(items[k].item)
		name, kind, sv := "", "external", (*engine.ServerResult)(nil)
		if j < len(run.Result.Servers) {
			sv = &run.Result.Servers[j]
			name = sv.Name
		} else {
			j -= len(run.Result.Servers)
			name, kind, sv = appName(j), "application", &run.Result.AppServers[j]
		}
		var accept any // blank where there is no accept queue (no MaxAdmitted, an external server)
		if sv.HasAcceptQueue {
			accept = sv.MeanAcceptQueue
		}
		return append(namedRunCells(run, name), kind, float64(sv.Capacity), sv.Utilization, sv.MeanQueue, accept,
			float64(sv.Jobs), float64(sv.Timeouts), float64(sv.OrphanJobs), sv.OrphanWork,
		)
	}
	return runTableFunc(b, sheet, cols, len(items), row, unstable)
}

func writeEntities(b *xlsx.Book, sheet string, s *study.Study) error {
	u := unitSuffix(s.TimeUnit)
	cols := append(withName(column{"Entity", fText}),
		column{"Arrivals", fCount}, column{"Completed", fCount},
		column{"Failed", fCount}, column{"Abandoned", fCount}, column{"Failure share", fShare},
		column{"Mean" + u, fTime}, column{"Mean ± 95%" + u, fTime}, column{"SD" + u, fTime}, column{"P50" + u, fTime}, column{"P50 ± 95%" + u, fTime},
		column{"P90" + u, fTime}, column{"P90 ± 95%" + u, fTime}, column{"P95" + u, fTime}, column{"P95 ± 95%" + u, fTime}, column{"P99" + u, fTime}, column{"P99 ± 95%" + u, fTime},
	)
	targetCols, targetCells := entityTargets(s)
	cols = withTimeStyle(append(cols, targetCols...), s.Runs)
	items, unstable := runItems(s, func(r *engine.Result) int { return len(r.Entities) })
	row := func(k int) []any {
		run := &s.Runs[items[k].run]
		e := &run.Result.Entities[items[k].item]
		resp := func(v float64) any {
			if e.Response.N == 0 {
				return nil
			}
			return v
		}
		row := append(namedRunCells(run, e.Name), float64(e.Arrivals), float64(e.Completed),
			float64(e.Failed), float64(e.Abandoned), share(e.Failed, e.Completed+e.Failed+e.Abandoned),
			resp(e.Response.Mean), resp(e.Response.CIHalfWidth95), resp(e.Response.SD), resp(e.Response.P50), resp(e.Response.P50CIHalfWidth95),
			resp(e.Response.P90), resp(e.Response.P90CIHalfWidth95), resp(e.Response.P95), resp(e.Response.P95CIHalfWidth95), resp(e.Response.P99), resp(e.Response.P99CIHalfWidth95))
		return append(row, targetCells(run, e.Name)...)
	}
	return runTableFunc(b, sheet, cols, len(items), row, unstable)
}

// runItem is a row of a sheet with rows per item of each run (its
// servers, its request types): the run's index and the item's.
type runItem struct{ run, item int32 }

// runItems lists the rows of such a sheet, run by run, count(run) items
// each, and whether each row's run is unstable.
func runItems(s *study.Study, count func(*engine.Result) int) ([]runItem, []bool) {
	var items []runItem
	var unstable []bool
	for i := range s.Runs {
		for j := range count(&s.Runs[i].Result) {
			items = append(items, runItem{int32(i), int32(j)})
			unstable = append(unstable, !s.Runs[i].Result.Stable)
		}
	}
	return items, unstable
}

// yesNo writes a flag as the sheets' other flags are: yes or no.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// withName is runColumns with the column that names a row's server or
// entity third, among the columns that stay in view and repeat on every
// printed page (frozenColumns): a continuation page says whose figures
// it shows.
func withName(name column) []column {
	return append([]column{runColumns[0], runColumns[1], name}, runColumns[2:]...)
}

// namedRunCells are the values of withName's columns for run and name.
func namedRunCells(run *study.Run, name string) []any {
	c := runCells(run)
	return append([]any{c[0], c[1], name}, c[2:]...)
}

// appName labels the i-th (0-based) application server.
func appName(i int) string { return "App" + strconv.Itoa(i+1) }

// unitSuffix is " (ms)" for the time unit ms.
func unitSuffix(unit string) string {
	if unit == "" {
		return ""
	}
	return " (" + unit + ")"
}

func writeRun(b *xlsx.Book, sheet string, s *study.Study) error {
	cols := []column{{"Section", fText}, {"Name", fText}, {"Value", fWords}}
	var rows [][]any
	add := func(section, name string, value any) { rows = append(rows, []any{section, name, value}) }
	add("Run", "websim version", s.Version)
	add("Run", "Model", s.Model)
	add("Run", "Time unit", s.TimeUnit)
	// Excel keeps 15 digits of a number: a seed is text, so that a run can
	// be reproduced from the sheet whatever its size.
	add("Run", "Seed", strconv.FormatUint(s.Seed, 10))
	if !s.Started.IsZero() {
		add("Run", "Started", s.Started.Format("2006-01-02 15:04:05 -07:00"))
	}
	add("Run", "Scenarios", joinComma(s.Scenarios))
	add("Run", "Loads", joinComma(s.Loads))
	for _, in := range s.Inputs {
		add("Input SHA-256", in.Name, in.SHA256)
	}
	for _, set := range s.Settings {
		add("Setting", set.Name, settingValue(set))
	}
	for _, sc := range s.Scenarios {
		for _, set := range s.ScenarioSettings[sc] {
			add("Scenario "+sc, set.Name, settingValue(set))
		}
	}
	for _, w := range s.Warnings {
		add("Warning", "", w)
	}
	return table(b, sheet, cols, rows)
}

// settingValue is a setting as a number when it is one that Excel holds
// exactly (15 significant digits), else as text: a long seed stays whole.
// A whole count or time of groupedSettings shows its thousands separated,
// as a number (100,000) and in the text of one set elsewhere than the
// model (20,000 (command line)), so that the two read alike.
func settingValue(set study.Setting) any {
	x, err := strconv.ParseFloat(set.Value, 64)
	// Held exactly: its 15 significant digits read back as the same
	// number (1000000 too, whose shortest form is 1e+06).
	held, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 15, 64), 64)
	exact := err == nil && !math.IsInf(x, 0) && !math.IsNaN(x) && held == x
	grouped := exact && groupedSettings[set.Name] && x == math.Trunc(x)
	switch {
	case set.Source != "" && grouped:
		set.Value = numtext.Group(int64(x))
		return set.Shown()
	case set.Source != "" || !exact:
		return set.Shown()
	case grouped:
		return xlsx.Styled{Value: x, Style: xlsx.Count} // 100,000 observations
	}
	return x
}

// groupedSettings are the settings whose whole values the Run sheet shows
// with thousands separated (a count or a time), not a seed or a label.
var groupedSettings = map[string]bool{"Observations": true, "WarmUp": true, "MaxAdmitted": true, "AppCapacity": true, "AppServers": true}

func joinComma(xs []string) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}

// ratioOrNil is a/b, or nil (a blank cell) when b is 0.
func ratioOrNil(a, b int64) any {
	if b == 0 {
		return nil
	}
	return float64(a) / float64(b)
}
