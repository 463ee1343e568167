package workbook

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/numtext"
	"github.com/websim/websim/internal/suggest"
	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/rules"
	"github.com/websim/websim/study"
)

// The input workbooks of a model folder.
const (
	SvcDataFile  = "SvcData.xlsx"
	ProcDataFile = "ProcData.xlsx"
)

// resultSheets are the sheets websim itself adds to SvcData.xlsx with
// --write-back; reading leaves them alone without a warning.
var resultSheets = map[string]bool{"summary": true, "servers": true, "entities": true, "charts": true, "timeline": true, "run": true, "sizing": true, "validation": true}

// notesSheets are names of sheets that hold a user's notes (matched
// ignoring case, spaces and underscores): left alone without a warning,
// which is kept for sheets that might be a misnamed entity or service.
var notesSheets = map[string]bool{"notes": true, "note": true, "readme": true, "about": true, "help": true,
	"changes": true, "changelog": true, "history": true, "comments": true, "description": true,
	"instructions": true, "info": true, "legend": true, "todo": true}

// leftAloneQuietly says whether a sheet that websim does not read needs no
// warning: a result sheet of websim's ("Summary", "Summary (websim)") or a
// sheet of notes.
func leftAloneQuietly(sheet string) bool {
	return resultSheets[strings.ToLower(xlsx.BaseName(sheet))] || notesSheets[xlsx.NormKey(sheet)]
}

// reader gathers the problems and the pieces of the model while reading.
type reader struct {
	dir string
	// hintedSheets are the sheets a missing entity's problem already
	// offered to be renamed (entitySheetHint).
	hintedSheets map[string]bool
	// runsCell is the cell named when the study has too many runs.
	runsCell string
	problems Problems
	svc      *book
	proc     *book
	// used marks the sheets read, by book name and sheet.
	used map[string]bool

	model      *engine.Model
	base       state
	settings   []study.Setting
	paramNames []string
	userParams []string

	// Cells kept for checks made once everything is read.
	arrivals   *table
	entityRows []entityRow
	stageRefs  []stageRef
	nests      []nestRef
	// stepRefs locates each service's steps (by service index) for the
	// routing check: the table and each step's OnSuccess cell.
	stepRefs map[int]stepRefs
	// retryExprs are RetryProbability cells holding an expression,
	// compiled once the attributes are known.
	retryExprs []retryExpr
	ratCache   map[string]engine.Number
	loadsCache map[string][]int
	// blankArrivals are blank load cells; unknownServers the servers steps
	// name when there is no ServerInfo sheet.
	blankArrivals  []blankArrival
	unknownServers []string
}

// serviceRef is a cell naming a service, checked once ProcData is read.
type serviceRef struct {
	t    *table
	c    cell
	name string
}

// Read reads dir/SvcData.xlsx and dir/ProcData.xlsx, checks everything, and
// returns the plan. When anything is wrong it returns a nil plan and
// Problems listing every problem found (warnings included), each located
// as File!Sheet!Cell. Warnings alone do not fail Read; they are in
// Plan.Warnings. Read never writes.
func Read(dir string) (*study.Plan, error) {
	r := &reader{dir: dir, used: map[string]bool{}, model: &engine.Model{}}
	plan := r.read()
	r.sortProblems()
	if len(r.problems.Errors()) > 0 {
		return nil, r.problems
	}
	for _, w := range r.problems {
		plan.Warnings = append(plan.Warnings, w.Error())
	}
	return plan, nil
}

func (r *reader) read() *study.Plan {
	info, err := os.Stat(r.dir)
	if err != nil || !info.IsDir() {
		r.errorCause(xlsx.ErrNotFound, r.dir, "", "", "no such model folder; expected a folder holding %s and %s", SvcDataFile, ProcDataFile)
		return nil
	}
	r.svc = r.openBook(r.dir, SvcDataFile)
	r.proc = r.openBook(r.dir, ProcDataFile)
	if r.svc == nil || r.proc == nil || len(r.problems.Errors()) > 0 {
		// A missing, damaged or newer workbook: anything else would mislead.
		return nil
	}
	defer r.svc.x.Close()
	defer r.proc.x.Close()
	m := r.model
	m.Name = filepath.Base(filepath.Clean(r.dir))
	if abs, err := filepath.Abs(r.dir); err == nil {
		m.Name = filepath.Base(abs)
	}

	r.readSettings()
	m.TimeUnit = r.base.timeUnit
	r.readServers()
	r.readArrivals()
	attrs := r.readAttributeNames()
	r.readEntities()
	sheets := r.loadServices()
	r.readAttributes(attrs)
	r.compileRetryExprs()
	r.readServices(sheets)
	r.checkServerColumns(sheets)
	r.checkNesting()
	r.checkNestedWork()
	r.checkEndless()
	scenarios := r.readExperiments()
	targets := r.readTargets()
	measured := r.readMeasured()
	r.checkMissingSheets()
	r.checkBlankArrivals(scenarios)
	r.checkBudget(scenarios)
	r.warnUnusedSheets()

	plan := &study.Plan{Model: m.Name, TimeUnit: m.TimeUnit, Settings: r.settings, RunsCell: r.runsCell,
		Inputs: []study.Input{{Name: SvcDataFile, SHA256: r.svc.sha256}, {Name: ProcDataFile, SHA256: r.proc.sha256}}, Targets: targets, Measured: measured}
	for _, sc := range scenarios {
		plan.Scenarios = append(plan.Scenarios, r.scenario(sc))
	}
	r.checkScenarioExpressions(plan.Scenarios)
	r.checkAttributesDrawn(plan.Scenarios)
	return plan
}

// names are what expressions may refer to.
func (r *reader) names() rules.Names {
	servers := make([]string, len(r.model.Servers))
	for i, s := range r.model.Servers {
		servers[i] = s.Name
	}
	return rules.Names{Attrs: r.model.Attributes, Params: r.paramNames, Servers: servers}
}

// table finds a sheet (ignoring case), marks it used and reads it. A
// missing sheet is a problem when required, else nil without a word.
func (r *reader) table(b *book, sheet string, spec sheetSpec, required bool) *table {
	name, ok := b.hasSheet(sheet)
	if !ok {
		if required {
			r.errorCause(xlsx.ErrNotFound, b.name, sheet, "", "missing sheet; expected a sheet %q%s", sheet, spec.expected)
		}
		return nil
	}
	r.used[b.name+"!"+name] = true
	return r.readTable(b, name, spec)
}

// warnUnusedSheets warns about SvcData sheets websim did not read.
func (r *reader) warnUnusedSheets() {
	if r.arrivals == nil {
		return // the entity sheets cannot be told from others
	}
	for _, s := range r.svc.sheets {
		if r.used[r.svc.name+"!"+s] || leftAloneQuietly(s) || r.renamedRequired(s) {
			continue
		}
		if want, columns := r.misnamedOptionalSheet(s); want != "" {
			if columns {
				// A typo in an optional sheet's name would run another
				// study without a word: one scenario instead of the
				// Experiments, no verdicts instead of the Targets.
				r.errorf(r.svc.name, s, "", "sheet %q not read: did you mean %q? it has that sheet's columns: rename it %s for websim to read it, or give it a name further from that to keep it as notes", s, want, want)
			} else {
				r.warnf(r.svc.name, s, "", "sheet left alone: it is not a websim sheet nor named as an entity of Arrivals (if it is meant as the %s sheet, rename it %s and give it its columns)", want, want)
			}
			continue
		}
		r.warnf(r.svc.name, s, "", "sheet left alone: it is not a websim sheet nor named as an entity of Arrivals")
	}
}

// renamedRequired says whether sheet s is the one a missing Settings or
// ServerInfo sheet's problem asks to rename (checkMissingSheets): it gets
// no warning that would say otherwise.
func (r *reader) renamedRequired(s string) bool {
	for _, c := range []struct {
		name string
		spec sheetSpec
		need bool
	}{{"Settings", settingsSpec, true}, {"ServerInfo", serverSpec, len(r.unknownServers) > 0}} {
		if _, present := r.svc.hasSheet(c.name); !present && c.need && r.renamedSheet(c.spec) == s {
			return true
		}
	}
	return false
}

// optionalSheets are the sheets of SvcData that a model may leave out, and
// whose absence no other check reports, so that a misspelt one is not
// missed by name (a missing Settings or ServerInfo has its own message).
var optionalSheets = []struct {
	name string
	spec sheetSpec
}{{"Attributes", attributesSpec}, {"Experiments", experimentsSpec}, {TargetsSheet, targetsSpec}, {MeasuredSheet, measuredSpec}}

// misnamedOptionalSheet returns the optional sheet that sheet s is a
// likely misspelling of (its name within two edits of it, or equal but for
// spaces and underscores), when the workbook has no sheet of that name,
// and whether s has that sheet's columns; "" when it is none.
func (r *reader) misnamedOptionalSheet(s string) (name string, columns bool) {
	squeeze := strings.NewReplacer(" ", "", "_", "")
	for _, o := range optionalSheets {
		if _, present := r.svc.hasSheet(o.name); present {
			continue
		}
		if strings.EqualFold(squeeze.Replace(s), o.name) || suggest.Distance(s, o.name) <= 2 {
			return o.name, r.hasColumnsOf(s, o.spec)
		}
	}
	return "", false
}

func (r *reader) errorf(file, sheet, ref, format string, args ...any) {
	r.add(false, file, sheet, ref, fmt.Sprintf(format, args...))
}

func (r *reader) warnf(file, sheet, ref, format string, args ...any) {
	r.add(true, file, sheet, ref, fmt.Sprintf(format, args...))
}

func (r *reader) add(warning bool, file, sheet, ref, msg string) {
	r.problems = append(r.problems, Problem{File: file, Sheet: sheet, Cell: ref, Msg: shortQuotes(msg), Warning: warning})
}

// errorCause reports an error that keeps its typed cause (a *rules.Error,
// a *dist.SyntaxError, an xlsx sentinel) for errors.Is and errors.As.
func (r *reader) errorCause(cause error, file, sheet, ref, format string, args ...any) {
	r.problems = append(r.problems, Problem{File: file, Sheet: sheet, Cell: ref, Msg: shortQuotes(fmt.Sprintf(format, args...)), Err: cause})
}

// quotes counts the double quotes of s that no backslash escapes.
func quotes(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			n++
		}
	}
	return n
}

// maxQuoted bounds a cell's text quoted in a problem: a problem is one
// line, which a 20,000-character cell would make unreadable.
const maxQuoted = 120

// shortQuotes cuts each quoted text of msg (its quotes paired from the
// left, an escaped \" inside one kept) past maxQuoted characters to its
// start and end, with the number of characters left out; the words
// between quotes are never cut.
func shortQuotes(msg string) string {
	if quotes(msg)%2 != 0 {
		// A quote left open (an expression's unclosed string) would pair
		// the quotes wrongly: the message is cut as a whole instead.
		if r := []rune(msg); len(r) > 4*maxQuoted {
			return string(r[:3*maxQuoted]) + fmt.Sprintf(" … (%s characters) … ", numtext.Group(int64(len(r)-3*maxQuoted-maxQuoted/2))) + string(r[len(r)-maxQuoted/2:])
		}
		return msg
	}
	var b strings.Builder
	rest := msg
	for {
		open := strings.IndexByte(rest, '"')
		if open < 0 {
			b.WriteString(rest)
			return b.String()
		}
		end := -1
		for i := open + 1; i < len(rest); i++ {
			if rest[i] == '\\' {
				i++
				continue
			}
			if rest[i] == '"' {
				end = i
				break
			}
		}
		if end < 0 {
			b.WriteString(rest)
			return b.String()
		}
		b.WriteString(rest[:open+1])
		in := []rune(rest[open+1 : end])
		if len(in) > maxQuoted {
			head := strings.TrimRight(string(in[:80]), `\`) // not half an escape
			fmt.Fprintf(&b, "%s … (%s characters) … %s", head, numtext.Group(int64(len(in)-100)), string(in[len(in)-20:]))
		} else {
			b.WriteString(string(in))
		}
		b.WriteByte('"')
		rest = rest[end+1:]
	}
}

// rowName reads the name cell (column col) of a row that defines a thing
// (a server, an entity, a scenario): a blank name and a name seen before
// (ignoring case; seen maps it to its cell) are problems, and ok is false
// for a row to skip.
func (r *reader) rowName(t *table, rw row, col, what, unnamed string, seen map[string]string) (name string, nc cell, ok bool) {
	nc = t.get(rw, col)
	name = cleanText(nc.text)
	if nc.bad {
		return "", nc, false
	}
	if name == "" {
		r.errorf(t.file, t.sheet, nc.ref, "%s; expected a name in column %s", unnamed, colLetter(t, col))
		return "", nc, false
	}
	if prev, dup := seen[strings.ToLower(name)]; dup {
		r.errorf(t.file, t.sheet, nc.ref, "%s %q repeats %s; expected each %s once", what, name, prev, what)
		return "", nc, false
	}
	seen[strings.ToLower(name)] = nc.ref
	return name, nc, true
}
