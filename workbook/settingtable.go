package workbook

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/numtext"
	"github.com/websim/websim/internal/suggest"
	"github.com/websim/websim/rules"
)

// SettingKind is what a built-in setting's value is.
type SettingKind int

// The kinds of setting values.
const (
	// TextSetting is free text (a label).
	TextSetting SettingKind = iota
	// WholeSetting is a whole number (or an expression of other settings
	// that gives one).
	WholeSetting
	// NumberSetting is a number (or an expression of other settings).
	NumberSetting
	// ChoiceSetting is one word of Choices.
	ChoiceSetting
	// ExpressionSetting is an expression evaluated while the model runs.
	ExpressionSetting
	// ListSetting is `all` or a comma list.
	ListSetting
)

func (k SettingKind) String() string {
	return [...]string{"text", "whole number", "number", "choice", "expression", "list"}[k]
}

// BuiltinSetting is one built-in setting of the Settings sheet: its
// documentation (Name, Kind, Default, Limits, Help) and how websim reads it.
// Every reader of settings (the Settings and Experiments sheets, the
// templates' Settings sheets and notes, `websim help sheets`, the README's
// table) comes from the one table BuiltinSettings.
type BuiltinSetting struct {
	Name string
	Kind SettingKind
	// Default is the value a blank or missing setting takes, as written
	// in a cell.
	Default string
	// Limits says which values are allowed, in words ("" for any).
	Limits string
	// Choices are the words a ChoiceSetting accepts (first the documented
	// ones; aliases in aliases).
	Choices []string
	// Help says what the setting does, in a user's words.
	Help string

	// read applies the cell's text (cleaned, not blank) to a state.
	read func(r *reader, s *state, c settingCell)
	// value is the setting's value in s, for the settings expressions can
	// read (numeric kinds); nil for the others.
	value func(s *state) float64
}

// Note is the setting's help followed by its default, as the templates'
// Note column gives it.
func (b BuiltinSetting) Note() string { return b.Help + " Default " + b.Default + "." }

// settingCell is a setting's value as written and where.
type settingCell struct {
	file, sheet, ref, name, text string
}

// BuiltinSettings is the table of built-in settings, in the order they
// are documented and listed. Adding a setting is adding one row.
var BuiltinSettings = []BuiltinSetting{
	{Name: "TimeUnit", Kind: TextSetting, Default: "s",
		Help: "The unit of every time in the model (a label only).",
		read: func(r *reader, s *state, c settingCell) { s.timeUnit = c.text }},
	{Name: "Seed", Kind: WholeSetting, Default: "1", Limits: "0 to 18446744073709551615",
		Help: "Random seed: the same seed gives the same results.",
		read: func(r *reader, s *state, c settingCell) {
			if u, err := strconv.ParseUint(c.text, 10, 64); err == nil {
				s.run.Seed = u
			} else if v, ok := r.numberSetting(s, c); ok {
				w, whole := rules.Whole(v)
				switch {
				case v < 0 || !whole:
					r.errorf(c.file, c.sheet, c.ref, "Seed %s is not a whole number from 0 to 18446744073709551615; expected one", formatNumber(v))
				case v >= 1<<64:
					r.errorf(c.file, c.sheet, c.ref, "Seed %s is above 18446744073709551615 as the cell holds it (a number cell keeps 15 significant digits, so the largest seeds read as 2^64 or more); expected a whole number from 0 to 18446744073709551615: type a seed this large as text (with a ' before it), or give it with --seed", formatNumber(v))
				default:
					s.run.Seed = uint64(w)
					if v > 1<<53 {
						// Excel keeps 15 digits of a number.
						r.warnf(c.file, c.sheet, c.ref, "Seed read as %d: Excel keeps 15 digits of a number, so the seed typed may have had other last digits; type it as text (with a ' before it) to keep every digit", s.run.Seed)
					}
				}
			}
		},
		value: func(s *state) float64 { return float64(s.run.Seed) }},
	{Name: "WarmUp", Kind: NumberSetting, Default: "0", Limits: ">= 0, or auto; at most the time of " + numtext.Group(int64(MaxWarmUpArrivals)) + " arrivals",
		Help: "Simulated time discarded before statistics start.",
		read: func(r *reader, s *state, c settingCell) {
			if strings.EqualFold(c.text, "auto") {
				s.run.WarmUp, s.run.AutoWarmUp = 0, true
			} else if v, ok := r.nonNegativeSetting(s, c); ok {
				s.run.WarmUp, s.run.AutoWarmUp = v, false
			}
		},
		value: func(s *state) float64 { return s.run.WarmUp }},
	{Name: "Observations", Kind: WholeSetting, Default: "100000", Limits: "1 to " + numtext.Group(int64(MaxObservations)),
		Help:  "Requests finished (completed, failed or abandoned) after the warm-up, per run.",
		read:  wholeIn(1, MaxObservations, func(s *state, v float64) { s.run.Observations = int64(v) }),
		value: func(s *state) float64 { return float64(s.run.Observations) }},
	{Name: "Replications", Kind: WholeSetting, Default: "1", Limits: "1 to " + numtext.Group(int64(MaxReplications)),
		Help:  "Independent runs per scenario and load.",
		read:  wholeIn(1, MaxReplications, func(s *state, v float64) { s.run.Replications = int(v) }),
		value: func(s *state) float64 { return float64(s.run.Replications) }},
	{Name: "Loads", Kind: ListSetting, Default: "all", Limits: "all, or headers of Arrivals",
		Help: "The Arrivals load columns to run: all, or a comma list of their headers (e.g. L1,L5).",
		read: func(r *reader, s *state, c settingCell) {
			s.loads, s.loadsLoc = c.text, [3]string{c.file, c.sheet, c.ref}
		}},
	{Name: "AppServers", Kind: WholeSetting, Default: "1", Limits: "1 to " + numtext.Group(int64(MaxAppServers)),
		Help:  "Number of application servers.",
		read:  wholeIn(1, MaxAppServers, func(s *state, v float64) { s.app.Servers = int(v) }),
		value: func(s *state) float64 { return float64(s.app.Servers) }},
	{Name: "AppCapacity", Kind: WholeSetting, Default: "20", Limits: "1 to " + numtext.Group(int64(MaxAppCapacity)),
		Help:  "AppRes units (processes) per application server.",
		read:  wholeIn(1, MaxAppCapacity, func(s *state, v float64) { s.app.Capacity = int(v) }),
		value: func(s *state) float64 { return float64(s.app.Capacity) }},
	{Name: "SelectionRule", Kind: ChoiceSetting, Default: "LBS", Choices: []string{"LBS", "Random", "Cyclic"},
		Help: "How a request picks its application server: LBS (least busy; Least busy is read so too), Random or Cyclic (Round robin is read so too).",
		read: choice(map[string]engine.SelectionRule{"lbs": engine.LeastBusy, "leastbusy": engine.LeastBusy,
			"random": engine.RandomServer, "cyclic": engine.Cyclic, "roundrobin": engine.Cyclic},
			[]string{"LBS", "Random", "Cyclic"}, "selection rule", func(s *state, v engine.SelectionRule) { s.app.Selection = v })},
	{Name: "RATParameter", Kind: NumberSetting, Default: "0", Limits: ">= 0",
		Help:  "A number used by RAT.",
		read:  nonNegative(func(s *state, v float64) { s.app.RATParameter = v }),
		value: func(s *state) float64 { return s.app.RATParameter }},
	{Name: "RAT", Kind: ExpressionSetting, Default: "RATParameter * AppUtil", Limits: "a time",
		Help: "Time to acquire an inactive AppRes unit (an expression; AppUtil is the server's busy fraction).",
		read: func(r *reader, s *state, c settingCell) {
			s.rat, s.ratLoc = c.text, [3]string{c.file, c.sheet, c.ref}
		}},
	{Name: "TActive", Kind: NumberSetting, Default: "0", Limits: ">= 0",
		Help:  "Time a released unit stays active, so that the next request captures it instantly, without RAT.",
		read:  nonNegative(func(s *state, v float64) { s.app.TActive = v }),
		value: func(s *state) float64 { return s.app.TActive }},
	{Name: "TargetPrecision", Kind: NumberSetting, Default: "none", Limits: "0 to below 1, or none (0 is none too)",
		Help: "Extend a run until the 95% half-width of the mean response is within this share of it (0.05 is 5%).",
		read: func(r *reader, s *state, c settingCell) {
			if strings.EqualFold(c.text, "none") {
				s.run.TargetPrecision = 0
			} else if v, ok := r.numberSetting(s, c); ok {
				if v < 0 || v >= 1 {
					r.errorf(c.file, c.sheet, c.ref, "TargetPrecision %s is outside 0..1; expected a share of the mean such as 0.05 (0 for none)", formatNumber(v))
				} else {
					s.run.TargetPrecision = v
				}
			}
		},
		value: func(s *state) float64 { return s.run.TargetPrecision }},
	{Name: "UnitQueue", Kind: ChoiceSetting, Default: "FCFS", Choices: []string{"FCFS", "InFlightFirst"},
		Help: "Order of each application server's queue for units: FCFS, one queue in arrival order; InFlightFirst, calls, Parallel parents and copies of requests already admitted go before new entries (FCFS within each), so that entries cannot starve them.",
		read: choice(map[string]engine.UnitQueue{"fcfs": engine.FCFS, "fifo": engine.FCFS, "inflightfirst": engine.InFlightFirst},
			[]string{"FCFS", "InFlightFirst"}, "unit queue", func(s *state, v engine.UnitQueue) { s.app.UnitQueue = v })},
	{Name: "MaxAdmitted", Kind: WholeSetting, Default: "none", Limits: ">= 1, or none",
		Help: "Requests admitted at once per application server; more wait for entry in an accept queue. With calls holding one extra unit, (AppCapacity-1)/2 or less can never deadlock.",
		read: func(r *reader, s *state, c settingCell) {
			if strings.EqualFold(c.text, "none") {
				s.app.MaxAdmitted = 0
			} else if v, ok := r.wholeSetting(s, c, 1); ok {
				s.app.MaxAdmitted = int(v)
			}
		},
		value: func(s *state) float64 { return float64(s.app.MaxAdmitted) }},
}

// whole reads a whole number of at least min.
func whole(min float64, set func(s *state, v float64)) func(r *reader, s *state, c settingCell) {
	return func(r *reader, s *state, c settingCell) {
		if v, ok := r.wholeSetting(s, c, min); ok {
			set(s, v)
		}
	}
}

// wholeIn reads a whole number from min to limit.
func wholeIn(min, limit float64, set func(s *state, v float64)) func(r *reader, s *state, c settingCell) {
	return func(r *reader, s *state, c settingCell) {
		if v, ok := r.wholeSettingIn(s, c, min, limit); ok {
			set(s, v)
		}
	}
}

// nonNegative reads a number of 0 or more.
func nonNegative(set func(s *state, v float64)) func(r *reader, s *state, c settingCell) {
	return func(r *reader, s *state, c settingCell) {
		if v, ok := r.nonNegativeSetting(s, c); ok {
			set(s, v)
		}
	}
}

// choice reads one of the words of byKey (compared ignoring case, spaces
// and underscores); documented are the words a message lists.
func choice[T any](byKey map[string]T, documented []string, what string, set func(s *state, v T)) func(r *reader, s *state, c settingCell) {
	return func(r *reader, s *state, c settingCell) {
		v, ok := byKey[normKey(c.text)]
		if !ok {
			r.errorf(c.file, c.sheet, c.ref, "unknown %s %q%s; expected %s", what, c.text, suggest.DidYouMean(c.text, documented), orList(documented))
			return
		}
		set(s, v)
	}
}

// orList is "A, B or C".
func orList(words []string) string { return listWith(words, " or ") }

// andList is "A, B and C".
func andList(words []string) string { return listWith(words, " and ") }

func listWith(words []string, last string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + last + words[len(words)-1]
}

// builtinSetting finds a built-in setting by its name as written (ignoring
// case, spaces and underscores).
func builtinSetting(name string) (*BuiltinSetting, bool) {
	key := normKey(name)
	for i := range BuiltinSettings {
		if normKey(BuiltinSettings[i].Name) == key {
			return &BuiltinSettings[i], true
		}
	}
	return nil, false
}

// builtinNames lists the built-in settings' names, in order.
func builtinNames() []string {
	names := make([]string, len(BuiltinSettings))
	for i, b := range BuiltinSettings {
		names[i] = b.Name
	}
	return names
}

// SettingsMarkdown is the README's table of built-in settings, made from
// BuiltinSettings (a test keeps the README equal to it).
func SettingsMarkdown() string {
	var b strings.Builder
	b.WriteString("| Name | kind | default | allowed | meaning |\n|---|---|---|---|---|\n")
	for _, s := range BuiltinSettings {
		kind := s.Kind.String()
		if len(s.Choices) > 0 {
			kind = "one of " + strings.Join(s.Choices, ", ")
		}
		fmt.Fprintf(&b, "| %s | %s | `%s` | %s | %s |\n", s.Name, kind, s.Default, s.Limits, strings.ReplaceAll(s.Help, "|", "\\|"))
	}
	b.WriteString("| any other name | number | | letters, digits and _ | a user parameter, usable by name in every expression |\n")
	return b.String()
}
