package study

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/numtext"
	"github.com/websim/websim/internal/suggest"
)

// SizeSetting is a whole-number capacity setting that Size varies:
// AppServers, AppCapacity, or the Capacity of one external server.
type SizeSetting struct {
	// Name is the setting as the user writes it: "AppServers",
	// "AppCapacity" or "Capacity:GWay".
	Name string
	kind sizeKind
	// server is the index of the external server for Capacity:SERVER.
	server int
}

type sizeKind uint8

const (
	sizeAppServers sizeKind = iota
	sizeAppCapacity
	sizeServerCapacity
)

// ErrNotCapacity is the cause of a --vary that names no whole-number
// capacity setting.
var ErrNotCapacity = errors.New("not a whole-number capacity setting")

// ParseSizeSetting reads a --vary value against model m: AppServers,
// AppCapacity (ignoring case, spaces and underscores) or Capacity:SERVER for
// a server of m (matched exactly, then ignoring case).
func ParseSizeSetting(text string, m *engine.Model) (SizeSetting, error) {
	servers := make([]string, len(m.Servers))
	for i, s := range m.Servers {
		servers[i] = s.Name
	}
	expected := "expected AppServers, AppCapacity or Capacity:SERVER"
	if len(servers) > 0 {
		expected += " for a server of SvcData.xlsx!ServerInfo (" + strings.Join(servers, ", ") + ")"
	}
	key := strings.ToLower(strings.NewReplacer(" ", "", "_", "").Replace(strings.TrimSpace(text)))
	switch key {
	case "appservers":
		return SizeSetting{Name: "AppServers", kind: sizeAppServers}, nil
	case "appcapacity":
		return SizeSetting{Name: "AppCapacity", kind: sizeAppCapacity}, nil
	}
	if head, name, ok := strings.Cut(strings.TrimSpace(text), ":"); ok && strings.EqualFold(strings.TrimSpace(head), "capacity") {
		name = strings.TrimSpace(name)
		i := suggest.IndexOf(servers, name)
		if i < 0 {
			if len(servers) == 0 {
				return SizeSetting{}, fmt.Errorf("--vary %s: unknown server %q: the model has no external server; expected AppServers or AppCapacity", text, name)
			}
			return SizeSetting{}, fmt.Errorf("--vary %s: unknown server %q%s; %s", text, name, suggest.DidYouMean(name, servers), expected)
		}
		return SizeSetting{Name: "Capacity:" + servers[i], kind: sizeServerCapacity, server: i}, nil
	}
	hint := suggest.DidYouMean(text, []string{"AppServers", "AppCapacity"})
	return SizeSetting{}, fmt.Errorf("--vary %s: %w%s; %s", text, ErrNotCapacity, hint, expected)
}

// Value returns the setting's value in m.
func (s SizeSetting) Value(m *engine.Model) int {
	switch s.kind {
	case sizeAppServers:
		return m.App.Servers
	case sizeAppCapacity:
		return m.App.Capacity
	}
	return m.Servers[s.server].Capacity
}

// Apply returns a copy of m with the setting at v; m is not changed, and
// the copy shares everything else. Expressions that read AppServers or
// AppCapacity by name see v.
func (s SizeSetting) Apply(m *engine.Model, v int) *engine.Model {
	c := *m
	param := ""
	switch s.kind {
	case sizeAppServers:
		c.App.Servers, param = v, "AppServers"
	case sizeAppCapacity:
		c.App.Capacity, param = v, "AppCapacity"
	default:
		c.Servers = slices.Clone(m.Servers)
		c.Servers[s.server].Capacity = v
	}
	if i := slices.IndexFunc(m.Params, func(p engine.Param) bool { return p.Name == param }); i >= 0 {
		c.Params = slices.Clone(m.Params)
		c.Params[i].Value = float64(v)
	}
	return &c
}

// lowerBound is the smallest value at which the resource varied has more
// units than the busy units measured in r (a run at value at): below it,
// the same work would keep every unit busy, utilization 1 or more.
func (s SizeSetting) lowerBound(m *engine.Model, at int, r *engine.Result) int {
	var busy, perValue float64
	switch s.kind {
	case sizeAppServers:
		busy, perValue = r.AppUtilization*float64(at*m.App.Capacity), float64(m.App.Capacity)
	case sizeAppCapacity:
		busy, perValue = r.AppUtilization*float64(at*m.App.Servers), float64(m.App.Servers)
	default:
		if s.server >= len(r.Servers) {
			return 1
		}
		busy, perValue = r.Servers[s.server].Utilization*float64(at), 1
	}
	if math.IsNaN(busy) || busy <= 0 {
		return 1
	}
	return int(math.Floor(busy/perValue)) + 1
}

// SizeOptions steer Size.
type SizeOptions struct {
	// Setting is what to vary.
	Setting SizeSetting
	// Min and Max bound the search; 0 means the defaults: Min 1 (the
	// search starts from the utilization bound), Max DefaultSizeMax of the
	// scenario's own value.
	Min, Max int
	// MaxAppUnits, when above 0, bounds AppServers × AppCapacity in every
	// probe (the workbook's limit): the default Max of AppServers or
	// AppCapacity stops there, and Size refuses an explicit Max past it
	// (ErrPastUnitLimit).
	MaxAppUnits int
	// Jobs is the number of simulations at once; 0 means one per core.
	// Results do not depend on it.
	Jobs int
	// Version is websim's version, recorded in the Sizing.
	Version string
	// Progress, when set, is called as points finish, from one goroutine
	// at a time.
	Progress func(done, total int)
	// Now gives the start time recorded; nil means time.Now.
	Now func() time.Time

	// ownMax is the largest value the scenarios give the setting, which
	// the default Max is a multiple of (set by Size).
	ownMax int
}

// DefaultSizeMax is the default --max as a multiple of the largest value
// the scenarios give the setting (at least MinDefaultSizeMax): one range
// for every scenario, since each probe sets the value itself, so that
// scenarios that differ only there are searched alike.
const (
	DefaultSizeMax    = 4
	MinDefaultSizeMax = 8
)

// ExtensionCap bounds how far an undecided probe is extended: up to this
// many times the Observations setting, doubling.
const ExtensionCap = 8

// SizeOutcome says what the search found at a point.
type SizeOutcome string

// The outcomes of a point.
const (
	// SizeFound: Size is the smallest value at which every target holds,
	// and at Size-1 some target fails or stays undecided (or Size-1 is
	// below Min).
	SizeFound SizeOutcome = "found"
	// SizeNone: the targets fail even at Max.
	SizeNone SizeOutcome = "none"
	// SizeUndecided: no value up to Max holds, and at Max a target stayed
	// undecided at the extension cap.
	SizeUndecided SizeOutcome = "undecided"
	// SizeNotMonotone: a larger value failed where a smaller held.
	SizeNotMonotone SizeOutcome = "not monotone"
)

// Sizing is the outcome of `websim size`.
type Sizing struct {
	Model, TimeUnit, Version string
	Seed                     uint64
	Started                  time.Time
	// Setting is the setting varied, as "AppServers" or "Capacity:GWay".
	Setting string
	Targets []Target
	// Scenarios and Loads are the labels searched, in order.
	Scenarios, Loads []string
	// ArrivalRates has, per Loads, the requests that arrive per time unit
	// (as Study's); NaN when a mean is not known.
	ArrivalRates []float64
	// Points has one entry per scenario × load, scenario-major.
	Points []SizePoint
	// Settings, Inputs and Warnings are as in Study.
	Settings []Setting
	Inputs   []Input
	Warnings []string
}

// SizePoint is the answer at one scenario and load.
type SizePoint struct {
	Scenario, Load string
	// Min and Max are the range searched.
	Min, Max int
	Outcome  SizeOutcome
	// Size is the answer when Outcome is SizeFound or SizeNotMonotone (the
	// smallest value found to hold), else 0.
	Size int
	// Text says the answer in words.
	Text string
	// Probes counts the values simulated; Runs the simulations, extensions
	// of undecided probes included.
	Probes, Runs int
	// At is the probe at the answer (Size, or Max without one), and Below
	// the one at the next smaller value, when probed.
	At, Below *Probe
	// Tried are all probes, by value.
	Tried []Probe
}

// Probe is one value of the setting simulated at a point.
type Probe struct {
	Value int
	// Verdict is the targets' overall verdict (Overall of Targets).
	Verdict Verdict
	Targets []TargetResult
	// Observations is the run length used (after any extension), and
	// Replications the replications; Extended is set when either is more
	// than the scenario's own, to decide the verdict.
	Observations int64
	Replications int
	Extended     bool
	Run          *Run
}

// lengthNote says, for a probe run longer than its scenario, how long:
// "; at 200,000 observations, run longer to decide" ("" when not).
func (pr Probe) lengthNote() string {
	if !pr.Extended {
		return ""
	}
	reps := ""
	if pr.Replications > 1 {
		reps = fmt.Sprintf(" × %d replications", pr.Replications)
	}
	return fmt.Sprintf("; decided by a run longer than the model's, %s observations%s", numtext.Group(int64(pr.Observations)), reps)
}

// Size finds, for each scenario × load of p, the smallest value of
// opts.Setting in [Min, Max] at which every target of p holds. It assumes
// that more capacity never hurts and checks it: the search probes the top
// of the range, then the utilization bound that the probe there implies,
// then bisects; every probe of a point uses the same seed (common random
// numbers); an undecided probe is run again with twice the observations,
// up to ExtensionCap times the setting. Points are searched in parallel.
func Size(ctx context.Context, p *Plan, opts SizeOptions) (*Sizing, error) {
	if len(p.Targets) == 0 {
		return nil, ErrNoTargets
	}
	if len(p.Scenarios) == 0 {
		return nil, fmt.Errorf("the plan has no scenario to run")
	}
	if opts.Min > 0 && opts.Max > 0 && opts.Min > opts.Max {
		return nil, fmt.Errorf("--min %d is above --max %d; expected --min <= --max", opts.Min, opts.Max)
	}
	for _, sc := range p.Scenarios {
		b := opts.Setting.unitBound(sc.Model, opts.MaxAppUnits)
		for _, f := range []struct {
			flag  string
			value int
		}{{"--min", opts.Min}, {"--max", opts.Max}} {
			if b > 0 && f.value > b {
				return nil, fmt.Errorf("%s %d takes scenario %s to %d application units: %w of %d; expected %s %d at most",
					f.flag, f.value, sc.Name, f.value*opts.Setting.otherApp(sc.Model), ErrPastUnitLimit, opts.MaxAppUnits, f.flag, b)
			}
		}
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	sz := &Sizing{
		Model: p.Model, TimeUnit: p.TimeUnit, Version: opts.Version, Started: now(),
		Seed: p.Scenarios[0].Run.Seed, Setting: opts.Setting.Name, Targets: p.Targets,
		Settings: p.Settings, Inputs: p.Inputs, Warnings: p.Warnings,
	}
	for _, sc := range p.Scenarios {
		opts.ownMax = max(opts.ownMax, opts.Setting.Value(sc.Model))
	}
	if w := varyOverridesExperiments(p, opts.Setting); w != "" {
		sz.Warnings = append(slices.Clone(sz.Warnings), w)
	}
	type job struct{ scenario, load int }
	var jobs []job
	loadSeen := map[string]bool{}
	for si, sc := range p.Scenarios {
		sz.Scenarios = append(sz.Scenarios, sc.Name)
		for _, li := range sc.Run.Loads {
			label := sc.Model.Loads[li]
			if !loadSeen[label] {
				loadSeen[label] = true
				sz.Loads = append(sz.Loads, label)
				sz.ArrivalRates = append(sz.ArrivalRates, arrivalRate(sc.Model, li))
			}
			jobs = append(jobs, job{si, li})
			sz.Points = append(sz.Points, SizePoint{Scenario: sc.Name, Load: label})
		}
	}
	n := opts.Jobs
	if n <= 0 {
		n = runtime.NumCPU()
	}
	workers := max(1, min(n, len(jobs)))
	inner := max(1, n/workers)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := jobs[i]
				pt, err := sizePoint(ctx, p, &p.Scenarios[j.scenario], j.load, opts, inner)
				if err != nil {
					errs[i] = err
					cancel()
					continue
				}
				sz.Points[i] = pt
				if opts.Progress != nil {
					mu.Lock()
					done++
					opts.Progress(done, len(jobs))
					mu.Unlock()
				}
			}
		}()
	}
feed:
	for i := range jobs {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	warnPrecision(sz)
	var probes []labelledResult
	for _, pt := range sz.Points {
		for _, pr := range []*Probe{pt.At, pt.Below} {
			if pr != nil && pr.Run != nil {
				probes = append(probes, labelledResult{fmt.Sprintf("%s at %s, %s %d", pt.Scenario, pt.Load, sz.Setting, pr.Value), &pr.Run.Result})
			}
		}
	}
	if w := countLimitWarnings(probes); len(w) > 0 {
		sz.Warnings = append(slices.Clone(sz.Warnings), w...)
	}
	return sz, nil
}

// varyOverridesExperiments is the warning, "" when none is due, for a
// varied setting that scenarios of the Experiments sheet set: size sets
// it at every probe, so what the scenarios set there is lost, and
// scenarios that differ only there get the same answers.
func varyOverridesExperiments(p *Plan, s SizeSetting) string {
	var set []string
	for _, sc := range p.Scenarios {
		for _, o := range sc.Overrides {
			if strings.EqualFold(o.Name, s.Name) {
				set = append(set, fmt.Sprintf("%s (%s)", sc.Name, o.Value))
			}
		}
	}
	if len(set) == 0 {
		return ""
	}
	return fmt.Sprintf("--vary %s %s %s sets in %s: each probe takes the value size tries, so those scenarios are sized as if they left it alone, and scenarios that differ only there get the same answers",
		s.Name, varyOverrideWarning, s.Name, strings.Join(set, ", "))
}

// varyOverrideWarning is in the warning of varyOverridesExperiments.
const varyOverrideWarning = "sets what the Experiments column"

// warnPrecision adds to sz's warnings the answers whose probe at the size
// or below it was a run that TargetPrecision could not bring to its
// precision within its cap, as a study's are (finish).
func warnPrecision(sz *Sizing) {
	var missed, across []string
	for _, pt := range sz.Points {
		for _, pr := range []*Probe{pt.At, pt.Below} {
			switch {
			case pr == nil || pr.Run == nil:
			case pr.Run.PrecisionCapHit:
				missed = append(missed, fmt.Sprintf("%s at %s (%s %d)", pt.Scenario, pt.Load, sz.Setting, pr.Value))
			case pr.Run.missedAcross():
				across = append(across, fmt.Sprintf("%s at %s (%s %d)", pt.Scenario, pt.Load, sz.Setting, pr.Value))
			}
		}
	}
	var untested []string
	for _, pt := range sz.Points {
		for _, pr := range []*Probe{pt.At, pt.Below} {
			if pr != nil && pr.Run != nil && pr.Run.Result.Stable && pr.Run.Result.Untested {
				untested = append(untested, fmt.Sprintf("%s at %s (%s %d)", pt.Scenario, pt.Load, sz.Setting, pr.Value))
			}
		}
	}
	if len(untested) > 0 {
		sz.Warnings = append(slices.Clone(sz.Warnings), untestedWarning(untested))
	}
	if len(missed) > 0 {
		sz.Warnings = append(slices.Clone(sz.Warnings), fmt.Sprintf("%s within %d times Observations in the probes the answers rest on, so their intervals are wider than asked: %s", PrecisionWarning, precisionCap, someOf(missed)))
	}
	if len(across) > 0 {
		sz.Warnings = append(slices.Clone(sz.Warnings), fmt.Sprintf("%s across the replications in the probes the answers rest on: each replication reached it on its own, but the interval across them is wider: %s", PrecisionWarning, someOf(across)))
	}
}

// ErrNoTargets is returned by Size for a model without targets.
var ErrNoTargets = errors.New("the model has no Targets sheet (or it has no rows); expected a sheet Targets in SvcData.xlsx with the columns Entity, Measure and Limit, for example: blank | p95 | 1000")

// sizeRange resolves a point's range from the options and the scenario.
func sizeRange(opts SizeOptions, own, bound int) (lo, hi int) {
	lo, hi = opts.Min, opts.Max
	if lo <= 0 {
		lo = 1
	}
	if hi <= 0 {
		hi = max(DefaultSizeMax*own, MinDefaultSizeMax, lo)
		if bound > 0 {
			hi = max(min(hi, bound), lo)
		}
	}
	return lo, hi
}

// busyAtAnswer is how busy the answer's units are, at least: the
// utilization its own run measured, or, when the value just below has no
// steady state (its queue grows), the share that one unit fewer is of the
// answer: the work saturates Size-1 units, so Size carry at least as
// much (with common random numbers a short run's lull shows at every
// value, and its own utilization can read low). from says which, for the
// answer's text, and bound whether it is the least from the value below.
func (pt *SizePoint) busyAtAnswer(s SizeSetting, m *engine.Model) (busy float64, from string, bound bool) {
	if pt.At.Run != nil {
		if u, known := s.utilization(m, &pt.At.Run.Result); known {
			busy, from = u, "its run keeps its units"
		}
	}
	if b := pt.Below; b != nil && b.Run != nil && !b.Run.Result.Stable && !b.Run.Result.Deadlocked && pt.Size > 1 {
		if least := float64(pt.Size-1) / float64(pt.Size); least > busy {
			busy, from, bound = least, fmt.Sprintf("%d units saturate (no steady state), so the work keeps %d at least", pt.Size-1, pt.Size), true
		}
	}
	return busy, from, bound
}

// nearlySaturated is the utilization of the varied resource, as the
// answer's run measured it, from which the answer is flagged as resting on
// a queue at the edge of saturation; nearlySaturatedBound the same for the
// least utilization a saturated value just below implies ((Size-1)/Size:
// 0.9 from 10 units).
const (
	nearlySaturated      = 0.95
	nearlySaturatedBound = 0.9
)

// utilization is the time-average busy share, at r, of the resource s
// varies: the application servers' units, or the external server's.
func (s SizeSetting) utilization(m *engine.Model, r *engine.Result) (float64, bool) {
	if s.kind != sizeServerCapacity {
		return r.AppUtilization, !math.IsNaN(r.AppUtilization)
	}
	if s.server < 0 || s.server >= len(m.Servers) {
		return 0, false
	}
	for _, sv := range r.Servers {
		if sv.Name == m.Servers[s.server].Name {
			return sv.Utilization, !math.IsNaN(sv.Utilization)
		}
	}
	return 0, false
}

// unitBound is the largest value of s in m that keeps AppServers ×
// AppCapacity within maxUnits; 0 when s is an external server's capacity
// or maxUnits is 0.
func (s SizeSetting) unitBound(m *engine.Model, maxUnits int) int {
	if other := s.otherApp(m); maxUnits > 0 && other > 0 {
		return maxUnits / other
	}
	return 0
}

// otherApp is, for AppServers, the scenario's AppCapacity and for
// AppCapacity its AppServers (what the setting multiplies into the
// application's units); 0 for an external server's capacity.
func (s SizeSetting) otherApp(m *engine.Model) int {
	switch s.kind {
	case sizeAppServers:
		return max(m.App.Capacity, 1)
	case sizeAppCapacity:
		return max(m.App.Servers, 1)
	}
	return 0
}

// ErrPastUnitLimit is the cause of Size's error when --max takes
// AppServers × AppCapacity past SizeOptions.MaxAppUnits in a scenario.
var ErrPastUnitLimit = errors.New("AppServers × AppCapacity past the limit")

// sizePoint searches one scenario at one load.
func sizePoint(ctx context.Context, p *Plan, sc *Scenario, load int, opts SizeOptions, jobs int) (SizePoint, error) {
	pt := SizePoint{Scenario: sc.Name, Load: sc.Model.Loads[load]}
	unitBound := opts.Setting.unitBound(sc.Model, opts.MaxAppUnits)
	pt.Min, pt.Max = sizeRange(opts, max(opts.Setting.Value(sc.Model), opts.ownMax), unitBound)
	// Once one probe's p50 or p90 needed replications, the point's later
	// probes start with them (the search probes one value at a time).
	spread := false
	eval := func(v int) (Probe, int, error) {
		return probe(ctx, p, sc, load, opts.Setting, v, jobs, &spread)
	}
	bound := func(pr Probe) int {
		return opts.Setting.lowerBound(sc.Model, pr.Value, &pr.Run.Result)
	}
	if err := search(&pt, bound, eval); err != nil {
		return pt, err
	}
	switch {
	case pt.Outcome == SizeNone && opts.Max <= 0 && (unitBound == 0 || pt.Max < unitBound):
		// The default range may stop short of the answer.
		try := DefaultSizeMax * pt.Max
		if unitBound > 0 {
			try = min(try, unitBound)
		}
		pt.Text += fmt.Sprintf("; the answer may lie above the default --max: try --max %d", try)
	case pt.Outcome == SizeFound && pt.At != nil:
		if busy, from, bound := pt.busyAtAnswer(opts.Setting, sc.Model); busy >= nearlySaturated || bound && busy >= nearlySaturatedBound {
			// A queue at the edge of saturation looks steady over a short
			// run as often as not: the answer may be a run that had no
			// steady state.
			pt.Text += fmt.Sprintf("; but %s %.1f%% busy, where a run of %s observations may not tell a steady state from a queue that keeps growing: check %d with more observations, or keep a margin",
				from, 100*min(busy, 1), numtext.Group(pt.At.Observations), pt.Size)
		}
	}
	return pt, nil
}

// probe simulates the point at value v, extending an undecided run by
// doubling its observations up to ExtensionCap times the setting. A run
// whose p50 or p90 has no interval of its own (very spread response times)
// is run again as PercentileReplications replications (and *spread set,
// so that the point's later probes start with them), and a run called
// unstable by the growth test alone once more at twice the length. It
// returns the probe and the number of simulations it took.
func probe(ctx context.Context, p *Plan, sc *Scenario, load int, set SizeSetting, v, jobs int, spread *bool) (Probe, int, error) {
	one := *sc
	one.Model = set.Apply(sc.Model, v)
	one.Run.Loads = []int{load}
	if *spread {
		one.Run.Replications = max(one.Run.Replications, PercentileReplications)
	}
	base := one.Run.Observations
	if base <= 0 {
		base = 100_000
	}
	runs := 0
	confirming := false // a growth verdict is being checked at twice the length
	for obs := base; ; obs *= 2 {
		one.Run.Observations = obs
		st, err := Execute(ctx, &Plan{Model: p.Model, TimeUnit: p.TimeUnit, Scenarios: []Scenario{one}, Targets: p.Targets}, Options{Jobs: jobs})
		if err != nil {
			return Probe{}, runs, err
		}
		runs++
		run := &st.Runs[0]
		res := Judge(p.Targets, run)
		pr := Probe{Value: v, Verdict: Overall(res), Targets: res, Observations: obs, Replications: one.Run.Replications,
			Extended: obs > base || one.Run.Replications > max(sc.Run.Replications, 1), Run: run}
		if pr.Verdict == Undecided && one.Run.Replications < PercentileReplications && lacksRunInterval(res) {
			// A percentile without an interval of the run's own (a median
			// or p90 of response times too spread for its window, or too
			// few requests beyond a tail percentile): replications give
			// one. Same length again.
			one.Run.Replications = PercentileReplications
			*spread = true
			obs /= 2
			continue
		}
		// A run called unstable by the growth test alone is a statistical
		// verdict, and short runs are where it errs: it is run once more at
		// twice the length, to be confirmed or overturned.
		growing := !run.Result.Stable && run.Result.Growing && !confirming
		confirming = confirming || growing
		if (pr.Verdict != Undecided && !growing) || obs*2 > ExtensionCap*base {
			return pr, runs, nil
		}
	}
}

// PercentileReplications is the number of replications a probe is run
// again as when a percentile target has no interval from the run itself
// (response times too spread for the engine's window, or too few requests
// beyond the percentile: see runPercentileHalfWidth); across replications
// each replication's percentile is an independent estimate.
const PercentileReplications = 5

// lacksRunInterval reports whether an undecided percentile target has a
// figure but no interval (not a run in which no request completed, which
// replications would not mend).
func lacksRunInterval(res []TargetResult) bool {
	for _, r := range res {
		if r.Verdict == Undecided && r.Measure.quantile() > 0 && !math.IsNaN(r.Value) && math.IsNaN(r.HalfWidth95) {
			return true
		}
	}
	return false
}

// search finds the answer at one point within [pt.Min, pt.Max]: it probes
// Max, then the bound that Max's run implies (and the value below it when
// it holds), then bisects between the largest value known not to hold and
// the smallest known to hold. An undecided probe counts as not holding for
// the bisection; if the value just below the answer is undecided, so is
// the answer. It then checks monotonicity over every probe.
func search(pt *SizePoint, bound func(Probe) int, eval func(v int) (Probe, int, error)) error {
	lo, hi := pt.Min, pt.Max
	tried := map[int]Probe{}
	get := func(v int) (Probe, error) {
		if pr, ok := tried[v]; ok {
			return pr, nil
		}
		pr, runs, err := eval(v)
		if err != nil {
			return pr, err
		}
		pt.Probes++
		pt.Runs += runs
		tried[v] = pr
		return pr, nil
	}
	finish := func() {
		for _, v := range sortedKeys(tried) {
			pt.Tried = append(pt.Tried, tried[v])
		}
		pt.describe(tried)
	}
	top, err := get(hi)
	if err != nil {
		return err
	}
	if top.Verdict != Holds {
		// Nothing holds at the top: under monotonicity nothing holds below
		// either. The bottom of the range checks that.
		if top.Verdict == Fails && lo < hi {
			if _, err := get(lo); err != nil {
				return err
			}
		}
		finish()
		return nil
	}
	holds, notHolds := hi, lo-1
	if b := min(max(bound(top), lo), hi); b < hi {
		pr, err := get(b)
		if err != nil {
			return err
		}
		if pr.Verdict == Holds {
			holds = b
			if b > lo {
				below, err := get(b - 1)
				if err != nil {
					return err
				}
				if below.Verdict == Holds {
					holds = b - 1
				} else {
					notHolds = b - 1
				}
			}
		} else {
			notHolds = b
		}
	}
	for holds-notHolds > 1 {
		mid := notHolds + (holds-notHolds)/2
		pr, err := get(mid)
		if err != nil {
			return err
		}
		if pr.Verdict == Holds {
			holds = mid
		} else {
			notHolds = mid
		}
	}
	finish()
	return nil
}

func sortedKeys(m map[int]Probe) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// describe sets the outcome, size and text from the probes.
func (pt *SizePoint) describe(tried map[int]Probe) {
	keys := sortedKeys(tried)
	smallest := 0 // the smallest value that holds
	for _, v := range keys {
		if tried[v].Verdict == Holds {
			smallest = v
			break
		}
	}
	// A value that fails above one that holds breaks monotonicity.
	for _, u := range keys {
		if tried[u].Verdict != Holds {
			continue
		}
		for _, v := range keys {
			if v > u && tried[v].Verdict == Fails {
				pt.Outcome, pt.Size = SizeNotMonotone, smallest
				pt.setAt(tried, smallest)
				pt.Text = fmt.Sprintf("not monotone: the targets hold at %d but fail at %d; more capacity should never hurt, so look at what grows with it (time-outs, orphaned work, locking)", u, v)
				return
			}
		}
	}
	if smallest == 0 {
		top := tried[pt.Max]
		if top.Verdict == Undecided {
			pt.Outcome = SizeUndecided
			pt.setAt(tried, pt.Max)
			pt.Text = fmt.Sprintf("undecided: at %d (the --max) %s", pt.Max, undecidedWhy(top))
			return
		}
		pt.Outcome = SizeNone
		pt.setAt(tried, pt.Max)
		pt.Text = fmt.Sprintf("none up to %d: %s", pt.Max, failingWhy(top))
		return
	}
	pt.setAt(tried, smallest)
	pt.Outcome, pt.Size = SizeFound, smallest
	switch below, ok := tried[smallest-1]; {
	case ok && below.Verdict == Undecided:
		// The answer holds with 95% confidence, the value below does not
		// (nor fails): the size is the smallest that holds, and the text
		// says the one below may do.
		more := "more observations or replications"
		if below.Extended {
			more = "more replications, or a run longer still,"
		}
		pt.Text = fmt.Sprintf("%d: every target holds; at %d %s, so %d may be enough: %s at %d would tell", smallest, smallest-1, undecidedWhy(below), smallest-1, more, smallest-1)
	case ok:
		pt.Text = fmt.Sprintf("%d: every target holds; at %d %s", smallest, smallest-1, failingWhy(below))
		if below.Run != nil && below.Run.Result.Deadlocked {
			pt.Text += fmt.Sprintf("; a deadlock is a matter of chance, so a longer run at %d may meet one too: check %d with more observations, or keep a margin", smallest, smallest)
		}
	default:
		pt.Text = fmt.Sprintf("%d: every target holds at the --min", smallest)
	}
}

func (pt *SizePoint) setAt(tried map[int]Probe, v int) {
	if pr, ok := tried[v]; ok {
		pt.At = &pr
	}
	if pr, ok := tried[v-1]; ok {
		pt.Below = &pr
	}
}

// failingWhy names the first failing target of a probe.
func failingWhy(pr Probe) string {
	for _, t := range pr.Targets {
		if t.Verdict == Fails {
			if t.Why != "" {
				return t.Target.String() + " fails (" + t.Why + pr.lengthNote() + ")"
			}
			return fmt.Sprintf("%s fails (%s%s)", t.Target.String(), interval(t), pr.lengthNote())
		}
	}
	return "a target fails"
}

// undecidedWhy names the first undecided target of a probe.
func undecidedWhy(pr Probe) string {
	for _, t := range pr.Targets {
		if t.Verdict == Undecided {
			why := t.Why
			switch {
			case why == "":
				why = interval(t) + fmt.Sprintf(" after %s observations", numtext.Group(int64(pr.Observations)))
				if pr.Extended {
					why += ", a run longer than the model's"
				}
			case pr.Extended:
				why += fmt.Sprintf("; still so after a run longer than the model's, %s observations", numtext.Group(int64(pr.Observations)))
			}
			return t.Target.String() + " is undecided (" + why + ")"
		}
	}
	return "a target is undecided"
}

func interval(t TargetResult) string {
	return fmt.Sprintf("%.4g ± %.2g", t.Value, t.HalfWidth95)
}
