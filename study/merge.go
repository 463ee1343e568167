package study

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/websim/websim/engine/stats"
)

// Causes of a part set that does not make one study, for errors.Is.
var (
	// ErrPartMissing: a shard of the study has no part among those given.
	ErrPartMissing = errors.New("missing part")
	// ErrPartDuplicate: two parts are the same shard.
	ErrPartDuplicate = errors.New("duplicate part")
	// ErrPartForeign: a part belongs to another study (another model,
	// seed, settings, number of shards, websim or file format).
	ErrPartForeign = errors.New("foreign part")
)

// PartError is one problem of a part set; File names the part, or is
// empty for a problem of the set as a whole (a missing shard).
type PartError struct {
	File string
	Err  error // ErrPartMissing, ErrPartDuplicate, ErrPartForeign or ErrPartDamaged
	Text string
}

func (e *PartError) Error() string {
	if e.File == "" {
		return e.Text
	}
	return e.File + ": " + e.Text
}

func (e *PartError) Unwrap() error { return e.Err }

// PartErrors are every problem of a part set, in the order of the files.
type PartErrors []*PartError

func (ps PartErrors) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap lets errors.Is find any of the causes.
func (ps PartErrors) Unwrap() []error {
	out := make([]error, len(ps))
	for i, p := range ps {
		out[i] = p
	}
	return out
}

// Merge reads the partial files of a study's shards and returns the study
// that Execute would have returned on one machine with the same model and
// seed: the runs are pooled and compared by the same code, from the same
// results. It refuses, with PartErrors naming each file and what is wrong,
// a set with a shard missing or twice, or with a part of another study.
//
// Memory stays bounded: a first pass reads each part's header and indexes
// its records; the second reads the replications of one scenario × load at
// a time and keeps only the pooled figures.
func Merge(files []string) (*Study, error) {
	if len(files) == 0 {
		return nil, PartErrors{{Err: ErrPartMissing, Text: "no partial file to merge"}}
	}
	var problems PartErrors
	var parts []*partIndex
	for _, f := range files {
		idx, err := scanPart(f)
		if err != nil {
			cause := ErrPartDamaged
			var fe *formatError
			if errors.As(err, &fe) {
				cause = ErrPartForeign
			} else if !errors.Is(err, ErrPartDamaged) {
				cause = err // cannot open
			}
			problems = append(problems, &PartError{File: f, Err: cause, Text: strings.TrimPrefix(err.Error(), ErrPartDamaged.Error()+": ")})
			if errors.Is(cause, ErrPartDamaged) {
				problems[len(problems)-1].Text = "damaged: " + problems[len(problems)-1].Text
			}
			continue
		}
		if err := idx.header.check(); err != nil {
			problems = append(problems, &PartError{File: f, Err: ErrPartDamaged, Text: "damaged: " + err.Error()})
			continue
		}
		parts = append(parts, idx)
	}
	if len(parts) == 0 {
		return nil, problems
	}
	ref := reference(parts)
	var ours []*partIndex
	for _, p := range parts {
		if what := ref.header.differs(p.header, ref.file); what != "" {
			problems = append(problems, &PartError{File: p.file, Err: ErrPartForeign, Text: what})
			continue
		}
		ours = append(ours, p)
	}
	h := ref.header
	n := h.Shard.N
	deal := Deal(taskCosts(h.Tasks), n)
	byShard := make([]*partIndex, n)
	for _, p := range ours {
		k := p.header.Shard.K
		if first := byShard[k]; first != nil && first.file == p.file {
			problems = append(problems, &PartError{File: p.file, Err: ErrPartDuplicate, Text: "given twice"})
			continue
		} else if first != nil {
			problems = append(problems, &PartError{File: p.file, Err: ErrPartDuplicate,
				Text: fmt.Sprintf("shard %s again (%s is shard %s)", p.header.Shard, first.file, first.header.Shard)})
			continue
		}
		byShard[k] = p
		if what := p.holdsItsShare(deal); what != "" {
			problems = append(problems, &PartError{File: p.file, Err: ErrPartDamaged, Text: what})
		}
	}
	var missing []string
	for k, p := range byShard {
		if p == nil {
			missing = append(missing, fmt.Sprintf("%d/%d", k, n))
		}
	}
	if len(missing) > 0 {
		word := "shard"
		if len(missing) > 1 {
			word = "shards"
		}
		problems = append(problems, &PartError{Err: ErrPartMissing,
			Text: fmt.Sprintf("%s %s missing: no part given holds %s (the study has %d shards)", word, strings.Join(missing, ", "), pronoun(len(missing)), n)})
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return mergeParts(byShard)
}

func pronoun(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// check refuses a header whose lists do not hang together.
func (h *PartialHeader) check() error {
	if h.Shard.N < 1 || h.Shard.K < 0 || h.Shard.K >= h.Shard.N {
		return fmt.Errorf("shard %s", h.Shard)
	}
	if len(h.Scenarios) == 0 {
		return errors.New("no scenario")
	}
	for i, t := range h.Tasks {
		if t.Run < 0 || t.Run >= len(h.Runs) {
			return fmt.Errorf("run %d belongs to no scenario × load", i)
		}
	}
	return nil
}

// signature is what every part of one study shares.
func (h *PartialHeader) signature() string {
	return fmt.Sprintf("%d|%s|%s|%v|%d|%s|%d|%d", h.Format, h.Version, h.Build, h.Inputs, h.Seed, h.SettingsHash, h.Shard.N, len(h.Tasks))
}

// reference is the part whose study most parts share (the first such):
// the others are measured against it.
func reference(parts []*partIndex) *partIndex {
	count := map[string]int{}
	for _, p := range parts {
		count[p.header.signature()]++
	}
	best := parts[0]
	for _, p := range parts {
		if count[p.header.signature()] > count[best.header.signature()] {
			best = p
		}
	}
	return best
}

// differs says, in words, how o is not a part of h's study (h read from
// file), or "" when it is.
func (h *PartialHeader) differs(o *PartialHeader, file string) string {
	short := func(s string) string { return s[:min(12, len(s))] }
	if o.Version != h.Version {
		return fmt.Sprintf("written by websim %s, where %s was written by websim %s", o.Version, file, h.Version)
	}
	if o.Build != h.Build {
		return fmt.Sprintf("written by another build of websim %s (program %s, where %s was written by %s): run every shard with the same websim program", o.Version, shortBuild(o.Build), file, shortBuild(h.Build))
	}
	for _, in := range h.Inputs {
		j := slices.IndexFunc(o.Inputs, func(x Input) bool { return x.Name == in.Name })
		if j < 0 {
			return fmt.Sprintf("another model: it has no %s, where %s has one", in.Name, file)
		}
		if o.Inputs[j].SHA256 != in.SHA256 {
			return fmt.Sprintf("another model: %s has SHA-256 %s…, where %s has %s…", in.Name, short(o.Inputs[j].SHA256), file, short(in.SHA256))
		}
	}
	if len(o.Inputs) != len(h.Inputs) {
		return fmt.Sprintf("another model: %d input workbooks, where %s has %d", len(o.Inputs), file, len(h.Inputs))
	}
	if len(h.Inputs) == 0 && o.Model != h.Model {
		// Nothing but its name tells a model without input hashes (a
		// plan built in a program, not read from workbooks).
		return fmt.Sprintf("another model: %s, where %s has %s", o.Model, file, h.Model)
	}
	// The same workbooks in a folder of another name (a shard run again
	// from a copy) are the same model: the merge takes the first part's
	// name.
	if o.Seed != h.Seed {
		return fmt.Sprintf("another seed: %d, where %s has %d", o.Seed, file, h.Seed)
	}
	if o.SettingsHash != h.SettingsHash {
		what := "settings"
		for _, s := range h.Settings {
			j := slices.IndexFunc(o.Settings, func(x Setting) bool { return x.Name == s.Name })
			if j < 0 || o.Settings[j].Value != s.Value {
				v := "none"
				if j >= 0 {
					v = o.Settings[j].Shown()
				}
				what = fmt.Sprintf("settings: %s is %s, where %s has %s", s.Name, v, file, s.Shown())
				break
			}
		}
		if what == "settings" {
			what = fmt.Sprintf("settings (settings hash %s…, where %s has %s…)", short(o.SettingsHash), file, short(h.SettingsHash))
		}
		return "other " + what
	}
	if o.Shard.N != h.Shard.N {
		return fmt.Sprintf("shard %s of a study cut into %d shards, where %s is shard %s of %d", o.Shard, o.Shard.N, file, h.Shard, h.Shard.N)
	}
	if !slices.Equal(o.Tasks, h.Tasks) || !slices.Equal(o.Runs, h.Runs) {
		return fmt.Sprintf("another list of runs than %s", file)
	}
	return ""
}

// holdsItsShare says how p's records are not the runs Deal gives its
// shard, or "".
func (p *partIndex) holdsItsShare(deal []int) string {
	k := p.header.Shard.K
	for _, i := range p.order {
		if deal[i] != k {
			return fmt.Sprintf("damaged: holds run %s, which shard %d/%d runs", p.header.taskName(i), deal[i], p.header.Shard.N)
		}
	}
	for i, s := range deal {
		if _, ok := p.records[i]; s == k && !ok {
			return fmt.Sprintf("damaged: lacks run %s of its shard %s", p.header.taskName(i), p.header.Shard)
		}
	}
	return ""
}

// mergeParts builds the study from a whole, consistent set of parts, one
// per shard.
func mergeParts(parts []*partIndex) (_ *Study, err error) {
	h := parts[0].header
	st := &Study{
		Model: h.Model, TimeUnit: h.TimeUnit, Version: h.Version, Seed: h.Seed, Started: h.Started,
		Scenarios: h.Scenarios, Loads: h.Loads, Charts: h.Charts, ArrivalRates: h.ArrivalRates, Settings: h.Settings, ScenarioSettings: h.ScenarioSettings,
		Inputs: h.Inputs, Warnings: h.Warnings, Targets: h.Targets, Measured: h.Measured,
	}
	if st.ScenarioSettings == nil {
		st.ScenarioSettings = map[string][]Setting{}
	}
	// The values are the same in every share (the settings hash says so);
	// where they came from may not be (one share run again by hand with
	// --seed 1 where the model says 1): a source every share does not
	// give is left out, so that the merge does not depend on which share
	// is first.
	st.Settings = slices.Clone(st.Settings)
	for i := range st.Settings {
		for _, p := range parts[1:] {
			j := slices.IndexFunc(p.header.Settings, func(x Setting) bool { return x.Name == st.Settings[i].Name })
			if j < 0 || p.header.Settings[j].Source != st.Settings[i].Source {
				st.Settings[i].Source = ""
			}
		}
	}
	for _, p := range parts {
		if p.header.Started.Before(st.Started) {
			st.Started = p.header.Started
		}
	}
	for _, r := range h.Runs {
		st.Runs = append(st.Runs, Run{Scenario: r.Scenario, Load: r.Load, Replications: r.Replications, TargetPrecision: r.TargetPrecision})
	}
	byRun := make([][]int, len(h.Runs))
	for i, t := range h.Tasks {
		byRun[t.Run] = append(byRun[t.Run], i)
	}
	owner := make([]*partIndex, len(h.Tasks))
	for _, p := range parts {
		for _, i := range p.order {
			owner[i] = p
		}
	}
	files := newFileCache(64)
	var scratch stats.Histogram
	var scratchPct stats.Percentiles
	var buf []byte // one record's bytes, reused
	defer files.closeAll()
	reps := func(run int) ([]outcome, error) {
		out := make([]outcome, 0, len(byRun[run]))
		// A run's histogram takes about 140 KiB in memory. The pooling
		// adds the replications' histograms, and adding counts is exact
		// in any order, so each replication's is added to the first one
		// as it is read, through one scratch histogram: a cell of
		// thousands of replications then holds two histograms, not
		// thousands.
		var hist *stats.Histogram
		var pct *stats.Percentiles // pooled the same way (Result.Merge's order)
		for _, i := range byRun[run] {
			p := owner[i]
			f, err := files.open(p.file)
			if err != nil {
				return nil, &PartError{File: p.file, Err: err, Text: err.Error()}
			}
			loc := p.records[i]
			rec, err := readRecord(f, i, loc[0], loc[1], &buf)
			if err == nil && rec.Hist != nil {
				if hist == nil {
					hist = new(stats.Histogram)
					err = hist.UnmarshalBinary(rec.Hist)
					rec.Result.ResponseHist = hist
				} else if err = scratch.UnmarshalBinary(rec.Hist); err == nil {
					hist.Merge(&scratch)
				}
			}
			if err == nil && rec.Pct != nil {
				if err = scratchPct.UnmarshalBinary(rec.Pct); err == nil {
					if pct == nil {
						pct = new(stats.Percentiles)
						rec.Result.ResponsePercentiles = pct
					}
					pct.Merge(&scratchPct)
				}
			}
			if err != nil {
				return nil, &PartError{File: p.file, Err: ErrPartDamaged, Text: fmt.Sprintf("damaged: run %s cannot be read (%v)", h.taskName(i), err)}
			}
			out = append(out, outcome{res: rec.Result, capHit: rec.CapHit, wall: rec.Wall, warmUp: rec.WarmUp, finished: true})
		}
		return out, nil
	}
	if err := assemble(st, reps); err != nil {
		return nil, err
	}
	return st, nil
}

// fileCache keeps up to max partial files open for reading.
type fileCache struct {
	max   int
	files map[string]*os.File
}

func newFileCache(max int) *fileCache { return &fileCache{max: max, files: map[string]*os.File{}} }

func (c *fileCache) open(path string) (*os.File, error) {
	if f, ok := c.files[path]; ok {
		return f, nil
	}
	if len(c.files) >= c.max {
		c.closeAll()
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	c.files[path] = f
	return f, nil
}

func (c *fileCache) closeAll() {
	for p, f := range c.files {
		f.Close()
		delete(c.files, p)
	}
}

// shortBuild is a build identity as a message shows it: whole, as websim
// version prints it (the ids are short).
func shortBuild(b string) string {
	if b == "" {
		return "unknown"
	}
	return b
}
