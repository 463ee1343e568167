package workbook

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/suggest"
	"github.com/websim/websim/rules"
	"github.com/websim/websim/study"
)

// state is what the settings say, for the base or one scenario.
type state struct {
	timeUnit string
	run      study.RunSettings
	app      engine.AppConfig
	// loads is the Loads setting as written ("all" or a list), and where.
	loads    string
	loadsLoc [3]string
	// rat is the RAT expression as written ("" for the default), and where.
	rat    string
	ratLoc [3]string
	// params are the values of Model.Params.
	params []float64
	// cells are where the settings were written, by documented name.
	cells settingCells
}

func defaultState() state {
	return state{
		timeUnit: "s",
		run:      study.RunSettings{Seed: 1, Observations: 100000, Replications: 1},
		app:      engine.AppConfig{Servers: 1, Capacity: 20, Selection: engine.LeastBusy},
		loads:    "all",
	}
}

// settingsSpec is the Settings sheet.
var settingsSpec = sheetSpec{columns: []string{"Name", "Value"}, required: []string{"Name", "Value"}}

// readSettings reads the Settings sheet into the base state, the parameter
// names (sheet order, then the numeric built-ins it leaves out) and the
// settings as text.
func (r *reader) readSettings() {
	r.base = defaultState()
	seen := map[string]string{}
	var values []float64
	var userRefs [][3]string // user parameters, their sheet and cell
	if t := r.table(r.svc, "Settings", settingsSpec, false); t != nil && t.has("Name") {
		for _, rw := range t.rows {
			nameCell, valCell := t.get(rw, "Name"), t.get(rw, "Value")
			name := cleanText(nameCell.text)
			if nameCell.bad {
				continue
			}
			if name == "" {
				r.errorf(t.file, t.sheet, nameCell.ref, "a value without a setting name; expected a name in column %s", colLetter(t, "Name"))
				continue
			}
			if b, ok := builtinSetting(name); ok {
				name = b.Name
			}
			if prev, dup := seen[normKey(name)]; dup {
				r.errorf(t.file, t.sheet, nameCell.ref, "setting %q repeats %s; expected each setting once", name, prev)
				continue
			}
			seen[normKey(name)] = nameCell.ref
			text := cleanText(valCell.text)
			r.settings = append(r.settings, study.Setting{Name: name, Value: text})
			b, builtin := builtinSetting(name)
			if !builtin {
				if !identifier.MatchString(name) {
					r.errorf(t.file, t.sheet, nameCell.ref, "%q is not a setting%s; expected a built-in setting or a parameter name of letters, digits and _, not starting with a digit, that expressions can use (e.g. %s)", name, suggest.DidYouMean(name, builtinNames()), parameterExample(name))
					continue
				}
				if w := reservedName(name); w != "" {
					r.errorf(t.file, t.sheet, nameCell.ref, "parameter name %q is the built-in name %s, which expressions read instead; expected another name (e.g. My%s)", name, w, name)
					continue
				}
				r.paramNames = append(r.paramNames, name)
				values = append(values, 0)
				r.userParams = append(r.userParams, name)
				userRefs = append(userRefs, [3]string{name, t.sheet, nameCell.ref})
			} else if b.value != nil {
				r.paramNames = append(r.paramNames, name)
				values = append(values, 0)
			}
			if valCell.bad {
				continue
			}
			if text == "" {
				if !builtin && t.has("Value") {
					r.errorf(t.file, t.sheet, valCell.ref, "parameter %q has no value; expected a number", name)
				}
				continue
			}
			r.base.params = values
			r.apply(&r.base, t.file, t.sheet, valCell.ref, name, text)
			values = r.base.params
		}
	}
	// A user parameter near a built-in setting's name is a parameter all
	// the same (any other name is one), with a warning; it is a problem
	// only when it is one letter away and the built-in is not set
	// (AppCapcity): as written, the built-in would silently keep its
	// default.
	for _, u := range userRefs {
		near := suggest.Closest(u[0], builtinNames())
		if near == "" {
			continue
		}
		if _, set := seen[normKey(near)]; !set && oneLetterAway(u[0], near) {
			r.errorf(r.svc.name, u[1], u[2], "%q is not a setting; did you mean %q? As written, %s keeps its default (%s) and %q is a parameter no built-in reads; expected %q, or another name for a parameter of your own",
				u[0], near, near, defaultText(near), u[0], near)
			continue
		}
		r.warnf(r.svc.name, u[1], u[2], "%q is a parameter of your own, not the built-in setting %q; expected nothing if that is what you meant, else %q", u[0], near, near)
	}
	for _, b := range BuiltinSettings {
		if _, ok := seen[normKey(b.Name)]; ok {
			continue
		}
		r.settings = append(r.settings, study.Setting{Name: b.Name, Value: b.Default})
		if b.value != nil {
			r.paramNames = append(r.paramNames, b.Name)
			values = append(values, 0)
		}
	}
	r.base.params = values
	// Numeric built-ins left blank or out still need their values.
	for i, name := range r.paramNames {
		if b, ok := builtinSetting(name); ok && b.value != nil {
			r.base.params[i] = b.value(&r.base)
		}
	}
}

// oneLetterAway tells whether name is a one-letter misspelling of the
// built-in setting near (ignoring case, spaces and underscores): one
// letter inserted, deleted or changed, in a name of more than three
// letters (a letter added to RAT makes the word Rate, not a typo).
func oneLetterAway(name, near string) bool {
	n := normKey(near)
	return len(n) > 3 && suggest.Distance(normKey(name), n) == 1
}

// defaultText is the default of a built-in setting, as written.
func defaultText(name string) string {
	if b, ok := builtinSetting(name); ok {
		return b.Default
	}
	return ""
}

func colLetter(t *table, name string) string {
	if i, ok := t.col[name]; ok {
		s := cellName(i, 1)
		return strings.TrimRight(s, "0123456789")
	}
	return name
}

// apply sets one setting (a built-in by its documented name, or a user
// parameter) from its text in state s, reporting a bad value at the cell.
// Numeric settings also set their parameter.
func (r *reader) apply(s *state, file, sheet, ref, name, text string) {
	c := settingCell{file: file, sheet: sheet, ref: ref, name: name, text: text}
	if s.cells == nil {
		s.cells = settingCells{}
	}
	s.cells[name] = [3]string{file, sheet, ref}
	b, ok := builtinSetting(name)
	if !ok {
		// A parameter typed TRUE or FALSE (a logical cell) is 1 or 0, as
		// Excel counts it.
		switch strings.ToUpper(text) {
		case "TRUE":
			s.params[r.paramIndex(name)] = 1
			return
		case "FALSE":
			s.params[r.paramIndex(name)] = 0
			return
		}
		if v, ok := r.numberSetting(s, c); ok {
			s.params[r.paramIndex(name)] = v
		}
		return
	}
	b.read(r, s, c)
	if b.value == nil {
		return
	}
	if i := r.paramIndex(name); i >= 0 && i < len(s.params) {
		s.params[i] = b.value(s)
	}
}

// numberSetting reads a number, or an expression of the settings read so
// far.
func (r *reader) numberSetting(s *state, c settingCell) (float64, bool) {
	v, ok := parseNumber(c.text)
	if ok {
		return v, true
	}
	if looksLikeExpression(c.text) || r.paramIndex(strings.TrimSpace(c.text)) >= 0 {
		v, err := r.settingExpr(s, c.name, c.text)
		if err != nil {
			r.errorCause(err, c.file, c.sheet, c.ref, "%s", exprMessage(c.text, err))
			return 0, false
		}
		if rangeOrDate().MatchString(c.text) {
			r.warnf(c.file, c.sheet, c.ref, "%s is read as the expression %s, %s; if it is a range or a date, type the number %s needs", c.text, strings.TrimSpace(c.text), formatNumber(v), c.name)
		}
		return v, true
	}
	r.errorf(c.file, c.sheet, c.ref, "%s; expected a number for %s", numberHint(c.text), c.name)
	return 0, false
}

// rangeOrDate matches a text of whole numbers joined by "-" (10-20,
// 2024-01-05): an expression to websim, but more likely a range or a date
// typed into a cell formatted as text.
var rangeOrDate = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*[0-9]+(\s*-\s*[0-9]+){1,2}\s*$`)
})

// wholeSetting reads a whole number of at least min.
func (r *reader) wholeSetting(s *state, c settingCell, min float64) (float64, bool) {
	return r.wholeSettingIn(s, c, min, math.MaxInt32)
}

// wholeSettingIn reads a whole number from min to limit; above the limit
// it says so, with a hint.
func (r *reader) wholeSettingIn(s *state, c settingCell, min, limit float64) (float64, bool) {
	v, ok := r.numberSetting(s, c)
	if ok && v > limit {
		r.errorf(c.file, c.sheet, c.ref, "%s", limitMessage(c.name, v, limit))
		return 0, false
	}
	if ok && (!isWhole(v) || v < min) {
		r.errorf(c.file, c.sheet, c.ref, "%s %s is not a whole number >= %s; expected a whole number >= %s", c.name, formatNumber(v), formatNumber(min), formatNumber(min))
		return 0, false
	}
	return math.Round(v), ok
}

// nonNegativeSetting reads a number of 0 or more.
func (r *reader) nonNegativeSetting(s *state, c settingCell) (float64, bool) {
	v, ok := r.numberSetting(s, c)
	if ok && v < 0 {
		r.errorf(c.file, c.sheet, c.ref, "%s %s is negative; expected a number >= 0", c.name, formatNumber(v))
		return 0, false
	}
	return v, ok
}

// settingNamed returns the Settings name (a built-in or a user
// parameter) that name is, ignoring case, or "".
func (r *reader) settingNamed(name string) string {
	for _, n := range r.paramNames {
		if strings.EqualFold(n, name) {
			return n
		}
	}
	return ""
}

func (r *reader) paramIndex(name string) int {
	for i, n := range r.paramNames {
		if n == name {
			return i
		}
	}
	return -1
}

// settingName finds a setting by a header or name as written: a built-in,
// or a user parameter of the Settings sheet (ignoring case, spaces, _).
func (r *reader) settingName(s string) (string, bool) {
	key := normKey(s)
	if b, ok := builtinSetting(s); ok {
		return b.Name, true
	}
	for _, p := range r.userParams {
		if normKey(p) == key {
			return p, true
		}
	}
	return "", false
}

// allSettingNames lists the built-in and user setting names for hints.
func (r *reader) allSettingNames() []string {
	return append(builtinNames(), r.userParams...)
}

// resolveLoads turns a Loads setting into indexes of Model.Loads.
func (r *reader) resolveLoads(s *state) []int {
	all := make([]int, len(r.model.Loads))
	for i := range all {
		all[i] = i
	}
	text := cleanText(s.loads)
	if text == "" || strings.EqualFold(text, "all") || r.arrivals == nil {
		// Without Arrivals there are no loads to name (reported there).
		return all
	}
	var out []int
	file, sheet, ref := s.loadsLoc[0], s.loadsLoc[1], s.loadsLoc[2]
	for part := range strings.SplitSeq(text, ",") {
		label := cleanText(part)
		if label == "" {
			continue
		}
		i := r.loadIndex(label)
		if i < 0 {
			r.errorf(file, sheet, ref, "unknown load %q%s; expected all or load headers of Arrivals (%s), separated by commas",
				label, suggest.DidYouMean(label, r.model.Loads), strings.Join(r.model.Loads, ", "))
			continue
		}
		if slices.Contains(out, i) {
			r.errorf(file, sheet, ref, "load %q is named twice in %q; expected each load once", r.model.Loads[i], text)
			continue
		}
		out = append(out, i)
	}
	if len(out) == 0 {
		r.errorf(file, sheet, ref, "no loads in %q; expected all or load headers of Arrivals separated by commas", text)
	}
	slices.Sort(out) // in the order of the Arrivals columns (study.RunSettings.Loads)
	return out
}

func (r *reader) loadIndex(label string) int {
	for i, l := range r.model.Loads {
		if l == label {
			return i
		}
	}
	for i, l := range r.model.Loads {
		if strings.EqualFold(l, label) || normKey(l) == normKey(label) {
			return i
		}
	}
	if v, ok := parseNumber(label); ok {
		for i, l := range r.model.Loads {
			if w, ok := parseNumber(l); ok && math.Abs(v-w) < 1e-12 {
				return i
			}
		}
	}
	return -1
}

// looksLikeExpression tells a formula-like value (SwitchUtil * 2, 0.5 + 0.2,
// =BaseUtil) from a number typed wrongly ("lots", "2,5"): it uses an
// operator between operands, a parenthesis, or a leading "=".
func looksLikeExpression(text string) bool {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "=") {
		return true
	}
	for i, c := range t {
		switch {
		case c == '(':
			return true
		case strings.ContainsRune("*/+^%<>?", c) && i > 0:
			return true
		case c == '-' && i > 0 && !strings.ContainsRune("eE", rune(t[i-1])):
			return true
		}
	}
	return false
}

// settingExpr evaluates a Settings or Experiments value written as an
// expression of other settings (e.g. SwitchUtil = BaseUtil + 0.1) once, with
// the values s has so far; the setting itself is not among the names it
// may read. It sees no request and no server: AppUtil, Now and Attempt are
// 0.
func (r *reader) settingExpr(s *state, name, text string) (float64, error) {
	var names []string
	for _, n := range r.paramNames {
		if n == name {
			names = append(names, "\x00self") // hidden: a setting cannot read itself
			continue
		}
		names = append(names, n)
	}
	e, err := rules.Compile(text, rules.Number, rules.Names{Params: names})
	if err != nil {
		return 0, err
	}
	params := make([]float64, len(names))
	copy(params, s.params)
	return e.Number(&engine.EvalContext{Params: params, State: noServers{}})
}

// noServers answers util, queue and busy for expressions evaluated when the
// model is read, before any server runs.
type noServers struct{}

func (noServers) Util(int) float64  { return 0 }
func (noServers) Queue(int) float64 { return 0 }
func (noServers) Busy(int) float64  { return 0 }

// parameterExample is a parameter name like name that expressions can use
// (asIdentifier), or SwitchUtil where that would read as a built-in
// setting (Warm_Up is WarmUp, since _ is not read in setting names).
func parameterExample(name string) string {
	id := asIdentifier(name)
	if _, builtin := builtinSetting(id); builtin {
		return "SwitchUtil"
	}
	return id
}
