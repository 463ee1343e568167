package workbook

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/numtext"
	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/study"
)

// Limits on every size that a study's memory or time grows with. A model
// beyond one of them is refused when it is read, at the cell that sets the
// size, with the limit and a hint; the same limits stand in the Limits
// column of BuiltinSettings, in the README and in `websim help sheets`.
const (
	// MaxAppServers bounds AppServers.
	MaxAppServers = 10_000
	// MaxAppCapacity bounds AppCapacity.
	MaxAppCapacity = 100_000
	// MaxAppUnits bounds AppServers × AppCapacity in each scenario (the
	// engine holds up to 50 requests a unit before it calls a run
	// unstable; models built in code may go to engine.MaxAppUnits).
	MaxAppUnits = 100_000
	// MaxServerCapacity bounds a ServerInfo Capacity.
	MaxServerCapacity = engine.MaxServerCapacity
	// MaxCount bounds a Count (a constant is refused when read; an
	// expression that gives more fails its request at run time).
	MaxCount = engine.MaxCount
	// MaxNestedRuns bounds the runs of services below one run of a
	// service: over its nested steps, each one's constant Count times
	// (1 + the runs below the service it nests), summed (checkNestedWork).
	MaxNestedRuns = 1_000_000
	// MaxObservations bounds Observations (and --observations).
	MaxObservations = 100_000_000
	// MaxReplications bounds Replications.
	MaxReplications = 10_000
	// MaxRuns bounds the runs of a study: scenarios × loads ×
	// replications (each run's results are kept until the workbook is
	// written).
	MaxRuns = study.MaxRuns
	// MaxWarmUpArrivals bounds the arrivals a WarmUp lets in (WarmUp times
	// the load's total arrival rate): a warm-up is simulated in full.
	MaxWarmUpArrivals = 100_000_000
	// MaxBackgroundJobs bounds the background jobs the servers' background
	// load brings during a run (the run's expected length, WarmUp plus
	// Observations over the arrival rate, times the background rates): a
	// run whose requests arrive far more slowly than the background load
	// would simulate the background without end.
	MaxBackgroundJobs = 100_000_000
	// maxClock is the largest simulated time a run may expect to reach:
	// far below the largest float64, so that sums of times stay finite.
	maxClock = 1e290
)

// limitHints say what to do instead of a size over its limit.
var limitHints = map[string]string{
	"AppServers":   "model a few servers and scale the arrival rates, or run fewer scenarios",
	"AppCapacity":  "a server rarely runs more than a few thousand processes",
	"Observations": "100000 (the default) gives a mean within a few percent; use TargetPrecision to stop when precise enough",
	"Replications": "use fewer replications with more Observations each, or TargetPrecision",
}

// limitMessage is the message for a value above its limit.
func limitMessage(name string, v, limit float64) string {
	msg := fmt.Sprintf("%s %s exceeds the limit of %d; expected a whole number up to %d", name, formatNumber(v), int64(limit), int64(limit))
	if h := limitHints[name]; h != "" {
		msg += " (" + h + ")"
	}
	return msg
}

// settingCells records where a state's settings were last written.
type settingCells map[string][3]string

// cellOf is where state s took the setting name from: its own cell, or
// else the Settings sheet (the setting's default, when it is not written).
func (r *reader) cellOf(s *state, name string) (file, sheet, ref string) {
	if c, ok := s.cells[name]; ok {
		return c[0], c[1], c[2]
	}
	return SvcDataFile, "Settings", ""
}

// checkBudget checks the sizes that memory and time grow with, once every
// scenario is read: the units of each scenario, the cell that sets the
// study's number of runs (checked by study.Plan.CheckRuns), the
// warm-up against each load's arrival rate, and the simulated time a run
// needs against what the clock can hold.
func (r *reader) checkBudget(scenarios []scenarioRow) {
	if len(r.problems.Errors()) > 0 {
		return // sizes read from wrong cells would mislead
	}
	reported := map[string]bool{}
	once := func(file, sheet, ref, format string, args ...any) {
		key := file + "!" + sheet + "!" + ref + "!" + format
		if !reported[key] {
			reported[key] = true
			r.errorf(file, sheet, ref, format, args...)
		}
	}
	for _, sc := range scenarios {
		s := &sc.st
		if units := int64(s.app.Servers) * int64(s.app.Capacity); units > MaxAppUnits {
			// The cell of the scenario's own row if it has one, else the
			// larger of the two against its limit.
			name := "AppServers"
			if float64(s.app.Capacity)/MaxAppCapacity > float64(s.app.Servers)/MaxAppServers {
				name = "AppCapacity"
			}
			for _, n := range []string{"AppServers", "AppCapacity"} {
				if c, ok := s.cells[n]; ok && c[1] != "Settings" {
					name = n
					break
				}
			}
			file, sheet, ref := r.cellOf(s, name)
			once(file, sheet, ref, "scenario %s has %d application servers of %d units, %d units in all, more than the limit of %d; expected fewer servers or units (AppServers × AppCapacity at most %d)",
				sc.name, s.app.Servers, s.app.Capacity, units, MaxAppUnits, MaxAppUnits)
		}
		loads := r.loads(s)
		r.checkArrivalBudget(sc, loads, once)
	}
	// The study's number of runs is checked once the command line has had
	// its say (--loads, --scenarios: study.Plan.CheckRuns); here, only the
	// cell to name is found.
	file, sheet, ref := r.cellOf(&r.base, "Replications")
	if _, ok := r.base.cells["Replications"]; !ok {
		file, sheet, ref = r.cellOf(&r.base, "Loads")
	}
	r.runsCell = file + "!" + sheet + "!" + ref
}

// checkArrivalBudget checks, at each load a scenario runs, that its warm-up
// lets in at most MaxWarmUpArrivals requests and that its run fits in the
// clock.
func (r *reader) checkArrivalBudget(sc scenarioRow, loads []int, once func(file, sheet, ref, format string, args ...any)) {
	s := &sc.st
	for _, l := range loads {
		rate := r.model.ArrivalRate(l)
		label := r.model.Loads[l]
		if rate == 0 && len(r.model.Entities) > 0 {
			// No request would ever arrive: the run could not finish one.
			file, sheet, ref := splitCell(r.model.Entities[0].InterArrivalCells[l])
			if allNone := r.loadHasNoBlank(l); allNone {
				once(file, sheet, ref, "no entity arrives at load %s (every one is %s there), which runs, so a run there could never finish a request; expected an inter-arrival time for at least one entity, or leave %s out of Loads",
					label, noArrivals, label)
			}
			continue
		}
		if math.IsInf(rate, 0) {
			r.checkResolution(l, s.run.WarmUp, once)
			continue
		}
		if !s.run.AutoWarmUp && s.run.WarmUp*rate > MaxWarmUpArrivals {
			file, sheet, ref := r.cellOf(s, "WarmUp")
			many := "about " + formatNumber(math.Round(s.run.WarmUp*rate))
			if math.IsInf(s.run.WarmUp*rate, 0) || s.run.WarmUp*rate > 1e15 {
				many = "more than 10^15"
			}
			once(file, sheet, ref, "WarmUp %s lets %s requests arrive at load %s before statistics start, more than the limit of %d; expected a warm-up of at most %s (or auto)",
				formatNumber(s.run.WarmUp), many, label, MaxWarmUpArrivals, formatNumber(roundDown(MaxWarmUpArrivals/rate)))
			continue // the arrivals are not to blame for the length, the warm-up is
		}
		background, most, mostRate := 0.0, -1, 0.0
		for i, sv := range r.model.Servers {
			if sv.BackgroundInterArrival != nil && sv.BackgroundInterArrival.Mean() > 0 {
				background += 1 / sv.BackgroundInterArrival.Mean()
				if 1/sv.BackgroundInterArrival.Mean() > mostRate {
					most, mostRate = i, 1/sv.BackgroundInterArrival.Mean()
				}
			}
		}
		if length := s.run.WarmUp + float64(s.run.Observations)/rate; background*length > MaxBackgroundJobs {
			file, sheet, ref := SvcDataFile, "Arrivals", ""
			for _, e := range r.model.Entities {
				if l < len(e.InterArrivalCells) && e.InterArrival[l] != nil {
					file, sheet, ref = splitCell(e.InterArrivalCells[l])
					break
				}
			}
			sv := r.model.Servers[most]
			once(file, sheet, ref, "at load %s requests arrive %s a time unit, so %d observations take about %s time units, in which the servers' background load (most of it %s of %s, %s) brings about %s jobs, more than the limit of %d; expected faster arrivals, fewer Observations or less background load",
				label, formatNumber(rate), s.run.Observations, formatNumber(length), sv.BackgroundInterArrival.String(), sv.Name, sv.Cell, formatNumber(math.Round(background*length)), MaxBackgroundJobs)
		}
		r.checkResolution(l, s.run.WarmUp+float64(s.run.Observations)/rate, once)
		// The run lasts about (WarmUp + Observations) arrivals' time: past
		// maxClock, adding a time no longer moves the clock.
		for i, e := range r.model.Entities {
			d := e.InterArrival[l]
			if d == nil || l >= len(e.InterArrivalCells) {
				continue
			}
			if m := d.Mean(); m*float64(s.run.Observations)+s.run.WarmUp > maxClock {
				file, sheet, ref := splitCell(e.InterArrivalCells[l])
				once(file, sheet, ref, "inter-arrival time %s of %s: %d observations would take the simulated clock past %g, where it can no longer advance; expected a mean inter-arrival time below %s",
					d.String(), r.model.Entities[i].Name, s.run.Observations, maxClock, formatNumber(roundDown(maxClock/float64(max(s.run.Observations, 1)))))
			}
		}
	}
}

// Bounds on the times of a model against the clock. The clock is a
// float64: at time L it moves in steps of about L·2^-52, so a duration of
// a few such steps is added with an error of tens of percent, and the
// figures built of it are wrong however plausible they look.
const (
	// minTime is the smallest mean of a time websim takes: below about
	// 5.6e-309, a rate (its inverse) passes the largest float64.
	minTime = 1e-307
	// minClockSteps is the fewest clock steps, at the expected end of a
	// run, that the mean of every time of the model must span (an error
	// of at most 5% on one duration, far less on their means).
	minClockSteps = 10
)

// timeCell is a time of the model that the clock must resolve, and where it
// was written.
type timeCell struct {
	what string // `ProcTime Exp(1e-10)`
	mean float64
	loc  string
	// fixed says the time is a plain number (a TimeLimit), not a
	// distribution with a mean.
	fixed bool
}

// subject is the time as a message names it: `ProcTime Exp(1e-10) has a
// mean of 1e-10`, or `TimeLimit 1e-300` for a plain number.
func (tc timeCell) subject() string {
	if tc.fixed {
		return tc.what
	}
	return tc.what + " has a mean of " + formatNumber(tc.mean)
}

// modelTimes lists the times of the model whose means the clock must tell
// apart at load l: the inter-arrival times there, the steps' ProcTime, the
// users' Patience and RetryDelay, the servers' TimeLimit and background
// load.
func modelTimes(m *engine.Model, l int) []timeCell {
	var out []timeCell
	add := func(what string, d engine.Dist, loc string) {
		if d != nil {
			out = append(out, timeCell{what: what + " " + d.String(), mean: d.Mean(), loc: loc})
		}
	}
	for _, e := range m.Entities {
		if l < len(e.InterArrival) && l < len(e.InterArrivalCells) {
			add("inter-arrival time", e.InterArrival[l], e.InterArrivalCells[l])
		}
		add("Patience", e.Patience, cmp.Or(e.PatienceCell, e.Cell))
		add("RetryDelay", e.RetryDelay, cmp.Or(e.RetryDelayCell, e.Cell))
	}
	for _, svc := range m.Services {
		for _, st := range svc.Steps {
			loc := st.ProcTimeCell
			if loc == "" {
				loc = st.Cell
			}
			add("ProcTime", st.ProcTime, loc)
		}
	}
	for _, sv := range m.Servers {
		add("BackgroundInterArrival", sv.BackgroundInterArrival, cmp.Or(sv.BackgroundInterArrivalCell, sv.Cell))
		add("BackgroundServiceTime", sv.BackgroundServiceTime, cmp.Or(sv.BackgroundServiceTimeCell, sv.Cell))
		if sv.TimeLimit > 0 && !math.IsInf(sv.TimeLimit, 1) {
			out = append(out, timeCell{what: "TimeLimit " + formatNumber(sv.TimeLimit), mean: sv.TimeLimit, loc: cmp.Or(sv.TimeLimitCell, sv.Cell), fixed: true})
		}
	}
	return out
}

// checkResolution refuses a time of the model too small to be a time
// (below minTime), or too small for the clock to add it faithfully by the
// expected end of a run at load l (span time units).
func (r *reader) checkResolution(l int, span float64, once func(file, sheet, ref, format string, args ...any)) {
	for _, p := range resolutionProblems(r.model, l, span) {
		file, sheet, ref := splitCell(p.loc)
		once(file, sheet, ref, "%s", p.msg)
	}
}

// resolutionProblem is what resolutionProblems finds: where, and what.
type resolutionProblem struct{ loc, msg string }

// resolutionProblems are the times of m at load l too small to be a time,
// or for the clock to add faithfully by span, a run's expected length, and
// those too large for the clock to reach (a mean past maxClock).
func resolutionProblems(m *engine.Model, l int, span float64) []resolutionProblem {
	step := 0.0
	if span > 0 && !math.IsInf(span, 0) {
		step = math.Nextafter(span, math.Inf(1)) - span
	}
	var out []resolutionProblem
	for _, tc := range modelTimes(m, l) {
		mean := tc.mean
		if !(mean > 0) || math.IsInf(mean, 0) {
			continue
		}
		switch {
		case mean > maxClock:
			out = append(out, resolutionProblem{tc.loc, fmt.Sprintf("%s, past the largest time a run can reach (%g): its draws would take the simulated clock past the largest number; expected a time far below it, or another time unit", tc.subject(), maxClock)})
		case mean < minTime:
			out = append(out, resolutionProblem{tc.loc, fmt.Sprintf("%s, too small to be simulated; expected %s of at least %g (or 0), or another time unit", tc.subject(), map[bool]string{false: "a mean", true: "a time"}[tc.fixed], minTime)})
		case mean < minClockSteps*step:
			out = append(out, resolutionProblem{tc.loc, fmt.Sprintf("%s, which the simulated clock cannot add faithfully at load %s: a run there lasts about %.4g time units, where the clock moves in steps of %.4g, so such times would be off by up to %.0f%% and every figure built of them wrong; expected times of the model within a factor of about 10^14 of the run's length (larger short times, or 0; a shorter run; or another time unit)",
				tc.subject(), m.Loads[l], span, step, math.Min(100, 50*step/mean))})
		}
	}
	return out
}

// CheckRunLength checks the runs of p against the clock again once the
// command line has changed their Observations (flag names it): the
// longer run a larger --observations makes may take times of the model
// below the clock's step, or the clock past maxClock, which Read checked
// at the model's own Observations. Each problem names the flag and the
// cell of the time it concerns.
func CheckRunLength(p *study.Plan, flag string) error {
	var msgs []string
	seen := map[string]bool{}
	for _, sc := range p.Scenarios {
		m := sc.Model
		for _, l := range sc.Run.Loads {
			rate := m.ArrivalRate(l)
			if !(rate > 0) || math.IsInf(rate, 0) {
				continue
			}
			span := sc.Run.WarmUp + float64(sc.Run.Observations)/rate
			var found []string
			if span > maxClock {
				found = append(found, fmt.Sprintf("a run at load %s would last about %s time units, past %g, where the simulated clock can no longer advance; expected fewer observations", m.Loads[l], formatNumber(span), maxClock))
			}
			for _, pr := range resolutionProblems(m, l, span) {
				found = append(found, pr.loc+": "+pr.msg)
			}
			for _, f := range found {
				msg := fmt.Sprintf("%s %d makes the runs longer: %s", flag, sc.Run.Observations, f)
				if !seen[msg] {
					seen[msg] = true
					msgs = append(msgs, msg)
				}
			}
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return errors.New(strings.Join(msgs, "\n"))
}

// roundDown rounds v down to two significant digits, for a limit in a hint.
func roundDown(v float64) float64 {
	if v <= 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	p := math.Pow(10, math.Floor(math.Log10(v))-1)
	return math.Floor(v/p) * p
}

// splitCell splits "File!Sheet!A1" into its parts (the sheet may hold !).
func splitCell(loc string) (file, sheet, ref string) {
	i, j := strings.Index(loc, "!"), strings.LastIndex(loc, "!")
	if i < 0 || i == j {
		return loc, "", ""
	}
	return loc[:i], loc[i+1 : j], loc[j+1:]
}

// Limit is one documented bound on a model's size.
type Limit struct {
	// What is the size bounded, Max its largest value, Why what grows
	// with it. MaxText, when set, is a largest value that is no whole
	// number to group (the clock's 1e290).
	What    string
	Max     int
	MaxText string
	Why     string
}

// Largest is l's largest value as the README and the help show it.
func (l Limit) Largest() string {
	if l.MaxText != "" {
		return l.MaxText
	}
	return numtext.Group(int64(l.Max))
}

// Limits lists the bounds a model is checked against when it is read (the
// README and `websim help sheets` show this list).
func Limits() []Limit {
	return []Limit{
		{What: "AppServers", Max: MaxAppServers, Why: "memory per server"},
		{What: "AppCapacity", Max: MaxAppCapacity, Why: "memory per unit"},
		{What: "AppServers × AppCapacity, in each scenario", Max: MaxAppUnits, Why: "memory: up to 50 requests a unit are held before a run is called unstable"},
		{What: "Capacity of a ServerInfo server", Max: MaxServerCapacity, Why: "memory per unit"},
		{What: "Count of a nested step (a constant; beyond it an expression fails its step, with a warning)", Max: MaxCount, Why: "memory: each run of a service, in parallel all at once"},
		{What: "runs of services below one run of a service (its nested steps: each Count × the runs below it, summed over the steps)", Max: MaxNestedRuns, Why: "time: each run of a service is simulated"},
		{What: "Observations (and --observations)", Max: MaxObservations, Why: "time"},
		{What: "Replications", Max: MaxReplications, Why: "memory: each run's results are kept until the workbook is written"},
		{What: "runs of a study: scenarios × loads × replications, as it will run (after --loads, --scenarios)", Max: MaxRuns, Why: "memory, as Replications"},
		{What: "requests arriving during WarmUp (WarmUp × the load's arrival rate)", Max: MaxWarmUpArrivals, Why: "time: a warm-up is simulated in full"},
		{What: "background jobs during a run (its expected length × the background rates)", Max: MaxBackgroundJobs, Why: "time: slow arrivals make a long run of background load"},
		{What: "a chain of formulas websim computes itself (no value saved by Excel)", Max: xlsx.MaxFormulaDepth, Why: "the formula engine's stack"},
		{What: "an inter-arrival time's mean × Observations", MaxText: "1e290", Why: "the clock: past it, adding a time no longer moves it"},
		{What: "a run's expected length ÷ the mean of any time of the model (ProcTime, inter-arrival, background load, Patience, RetryDelay, TimeLimit)", MaxText: "about 4.5e14", Why: "the clock moves in steps of about 2^-52 of the time it shows: shorter times would be rounded away"},
		{What: "1 ÷ the mean of any time of the model", MaxText: "1e307", Why: "its rate must be a number"},
	}
}

// LimitsMarkdown is the README's table of limits, made from Limits (a
// test keeps the README equal to it).
func LimitsMarkdown() string {
	var b strings.Builder
	b.WriteString("| size | at most | what grows with it |\n|---|---|---|\n")
	for _, l := range Limits() {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", l.What, l.Largest(), l.Why)
	}
	return b.String()
}
