package workbook

import (
	"math"
	"slices"
	"strings"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/numtext"
	"github.com/websim/websim/internal/suggest"
	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/rules"
)

var serviceSpec = sheetSpec{
	columns: []string{"Step", "ProcTime", "SuccessRate", "Server", "Service", "Count", "Mode", "Condition", "OnSuccess", "OnFailure"},
}

// svcSheet is a ProcData sheet and, when it is a service, its index.
type svcSheet struct {
	name     string
	t        *table
	problems Problems
	service  int
}

// nestRef is a nested step, for the recursion check.
type nestRef struct {
	from, step, to int
	t              *table
	ref            string
}

// loadServices reads every ProcData sheet and decides which are services:
// those with a Step column, and any other that something names as a
// service (which is then a problem). The rest are left alone with a
// warning. It then resolves the services the entities run.
func (r *reader) loadServices() []*svcSheet {
	var sheets []*svcSheet
	referenced := map[string]bool{}
	for _, s := range r.stageRefs {
		referenced[strings.ToLower(s.ref.name)] = true
	}
	for _, name := range r.proc.sheets {
		saved := r.problems
		r.problems = nil
		t := r.readTable(r.proc, name, serviceSpec)
		s := &svcSheet{name: name, t: t, problems: r.problems, service: -1}
		r.problems = saved
		sheets = append(sheets, s)
		if t != nil && t.has("Step") {
			for _, rw := range t.rows {
				if c := t.get(rw, "Service"); !c.blank() {
					for _, name := range serviceList(cleanText(c.text)) {
						referenced[strings.ToLower(name)] = true
					}
				}
			}
		}
	}
	for _, s := range sheets {
		isService := s.t != nil && s.t.has("Step")
		switch {
		case isService:
		case referenced[strings.ToLower(s.name)]:
			if s.t != nil {
				r.errorCause(xlsx.ErrNotFound, r.proc.name, s.name, "", "missing column %q; expected it in the header row (row %d) of this service", "Step", s.t.headerRow)
			}
		case leftAloneQuietly(s.name):
			continue
		default:
			r.warnf(r.proc.name, s.name, "", "sheet left alone: it has no Step column and no entity or step runs it as a service")
			continue
		}
		r.problems = append(r.problems, s.problems...)
		s.service = len(r.model.Services)
		r.model.Services = append(r.model.Services, engine.Service{Name: s.name})
	}
	for _, s := range r.stageRefs {
		if i, ok := r.serviceIndex(s.ref); ok {
			r.model.Entities[s.entity].Stages[s.stage].Service = i
		}
	}
	return sheets
}

func (r *reader) serviceNames() []string {
	out := make([]string, len(r.model.Services))
	for i, s := range r.model.Services {
		out[i] = s.Name
	}
	return out
}

// serviceIndex resolves a cell naming a service, reporting an unknown one.
func (r *reader) serviceIndex(s serviceRef) (int, bool) {
	if i := suggest.Index(r.model.Services, s.name, serviceName); i >= 0 {
		return i, true
	}
	r.errorf(s.t.file, s.t.sheet, s.c.ref, "unknown service %q%s; expected a sheet of ProcData.xlsx (%s)", s.name, suggest.DidYouMean(s.name, r.serviceNames()), strings.Join(r.serviceNames(), ", "))
	return -1, false
}

// serverIndex resolves a server name; ok is false for an unknown one.
func (r *reader) serverIndex(name string) (int, bool) {
	i := suggest.Index(r.model.Servers, name, func(s engine.Server) string { return s.Name })
	return i, i >= 0
}

func serviceName(s engine.Service) string { return s.Name }

// readServices reads the steps of every service.
func (r *reader) readServices(sheets []*svcSheet) {
	names := r.names()
	for _, s := range sheets {
		if s.service < 0 || s.t == nil || !s.t.has("Step") {
			continue
		}
		r.readSteps(s.t, &r.model.Services[s.service], s.service, names)
		r.checkSteps(s.t, &r.model.Services[s.service])
	}
}

func (r *reader) readSteps(t *table, svc *engine.Service, si int, names rules.Names) {
	type pending struct {
		rw   row
		name string
	}
	var rows []pending
	seen := map[string]string{}
	for _, rw := range t.rows {
		c := t.get(rw, "Step")
		name := cleanText(c.text)
		if !c.bad && name != "" {
			if isWord(name, "NEXT", "DONE", "FAIL") {
				r.errorf(t.file, t.sheet, c.ref, "%q is reserved for routing; expected another step name", name)
			} else if prev, dup := seen[strings.ToLower(name)]; dup {
				r.errorf(t.file, t.sheet, c.ref, "step %q repeats %s; expected each step name once in a service", name, prev)
			} else {
				seen[strings.ToLower(name)] = c.ref
			}
		}
		st := engine.Step{Name: name, Cell: loc(t, c.ref), Server: -1}
		r.readStep(t, rw, &st, si, names)
		svc.Steps = append(svc.Steps, st)
		rows = append(rows, pending{rw, name})
	}
	if len(rows) == 0 {
		r.errorf(t.file, t.sheet, "", "the service has no steps; expected at least one row under the header")
		return
	}
	stepNames := make([]string, len(rows))
	for i, p := range rows {
		stepNames[i] = p.name
	}
	target := func(c cell, def engine.StepTarget) engine.StepTarget {
		text := cleanText(c.text)
		switch {
		case c.bad || text == "":
			return def
		case isWord(text, "NEXT"):
			return def
		case isWord(text, "DONE"):
			return engine.Done
		case isWord(text, "FAIL"):
			return engine.Fail
		}
		if i := suggest.IndexOf(stepNames, text); i >= 0 {
			return engine.StepTarget(i)
		}
		r.errorf(t.file, t.sheet, c.ref, "unknown step %q%s; expected NEXT, DONE, FAIL or a step of this sheet", text,
			suggest.DidYouMean(text, append([]string{"NEXT", "DONE", "FAIL"}, nonEmpty(stepNames)...)))
		return def
	}
	refs := stepRefs{t: t}
	for i, p := range rows {
		next := engine.StepTarget(i + 1)
		if i+1 == len(rows) {
			next = engine.Done
		}
		onSuccess := t.get(p.rw, "OnSuccess")
		stepRef := t.get(p.rw, "Step").ref
		refs.step = append(refs.step, stepRef)
		for _, c := range []struct {
			col  string
			refs *[]string
		}{{"OnSuccess", &refs.onSuccess}, {"OnFailure", &refs.onFailure}} {
			ref := t.get(p.rw, c.col).ref
			if !t.has(c.col) {
				ref = stepRef
			}
			*c.refs = append(*c.refs, ref)
		}
		svc.Steps[i].OnSuccess = target(onSuccess, next)
		onFailure := t.get(p.rw, "OnFailure")
		if isWord(cleanText(onFailure.text), "NEXT") {
			svc.Steps[i].OnFailure = next
		} else {
			svc.Steps[i].OnFailure = target(onFailure, engine.Fail)
		}
	}
	if r.stepRefs == nil {
		r.stepRefs = map[int]stepRefs{}
	}
	r.stepRefs[si] = refs
	for _, i := range trapped(len(svc.Steps), func(i int) []int { return []int{int(svc.Steps[i].OnSuccess), int(svc.Steps[i].OnFailure)} }) {
		label := stepNames[i]
		if label == "" {
			label = "row " + strings.TrimLeft(t.get(rows[i].rw, "Step").ref, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
		}
		r.errorf(t.file, t.sheet, t.get(rows[i].rw, "Step").ref, "the service can never reach DONE or FAIL from step %q (OnSuccess and OnFailure lead round in a loop); expected a path to DONE or FAIL", label)
	}
}

func nonEmpty(names []string) []string {
	var out []string
	for _, n := range names {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// readStep reads one step's kind, times and expressions.
func (r *reader) readStep(t *table, rw row, st *engine.Step, si int, names rules.Names) {
	serverCell, serviceCell := t.get(rw, "Server"), t.get(rw, "Service")
	serverName, serviceName := cleanText(serverCell.text), cleanText(serviceCell.text)
	isApp := serverName == "" || strings.EqualFold(serverName, "App")
	switch {
	case serviceName != "" && !serviceCell.bad:
		st.Kind = engine.Nested
		for _, name := range serviceList(serviceName) {
			if name == "" {
				r.errorf(t.file, t.sheet, serviceCell.ref, "an empty name in the list %q; expected service names separated by commas (GetCards, GetAuth)", serviceName)
				continue
			}
			if i, ok := r.serviceIndex(serviceRef{t: t, c: serviceCell, name: name}); ok {
				st.Services = append(st.Services, i)
				r.nests = append(r.nests, nestRef{from: si, step: len(r.model.Services[si].Steps), to: i, t: t, ref: serviceCell.ref})
			}
		}
		if !isApp && !serverCell.bad {
			r.errorf(t.file, t.sheet, serverCell.ref, "a step cannot both call server %q and run service %q; expected Server or Service, not both (use two steps)", serverName, serviceName)
		}
	case !isApp && !serverCell.bad:
		st.Kind = engine.Call
		if i, ok := r.serverIndex(serverName); ok {
			st.Server = i
		} else if _, ok := r.svc.hasSheet("ServerInfo"); !ok {
			r.unknownServers = append(r.unknownServers, serverName) // one problem: the sheet is missing
		} else {
			known := append([]string{"App"}, names.Servers...)
			r.errorf(t.file, t.sheet, serverCell.ref, "unknown server %q%s; expected App or a server of SvcData.xlsx!ServerInfo (%s)", serverName, suggest.DidYouMean(serverName, known), strings.Join(names.Servers, ", "))
		}
	default:
		st.Kind = engine.Local
	}
	procTime := t.get(rw, "ProcTime")
	if st.Kind == engine.Nested && !procTime.blank() {
		r.warnf(t.file, t.sheet, procTime.ref, "ProcTime of a step that runs a service is left alone; expected it in the service's own steps")
	} else {
		st.ProcTime, _ = r.dist(t, procTime)
		if !procTime.blank() {
			st.ProcTimeCell = loc(t, procTime.ref)
		}
	}
	st.SuccessRate, _ = r.numberExpr(t, t.get(rw, "SuccessRate"), rules.Probability, names)
	count, mode := t.get(rw, "Count"), t.get(rw, "Mode")
	if st.Kind == engine.Nested {
		st.Count, _ = r.numberExpr(t, count, rules.Count, names)
		if !count.blank() {
			st.CountCell = loc(t, count.ref)
		}
		st.Mode = r.mode(t, mode, names)
	} else {
		for _, c := range []cell{count, mode} {
			if !c.blank() {
				r.warnf(t.file, t.sheet, c.ref, "%q is left alone: Count and Mode apply to a step that runs a service; expected a service in column %s", cleanText(c.text), colLetter(t, "Service"))
			}
		}
	}
	st.Condition = r.condition(t, t.get(rw, "Condition"), names)
}

// serviceList splits a Service cell into its names: one, or several
// separated by commas ("GetCards, GetAuth"), each trimmed; an empty part
// stays as "" for the caller to report.
func serviceList(text string) []string {
	parts := strings.Split(text, ",")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return parts
}

// mode reads a Mode cell: parallel, sequential, or an expression.
func (r *reader) mode(t *table, c cell, names rules.Names) engine.Mode {
	text := cleanText(c.text)
	switch {
	case c.bad || text == "":
		return nil
	case isWord(text, "parallel"):
		return engine.Parallel
	case isWord(text, "sequential"):
		return engine.Sequential
	}
	if identifier.MatchString(text) && suggest.Closest(text, []string{"parallel", "sequential"}) != "" && !contains(names.Params, text) && !contains(names.Attrs, text) {
		r.errorf(t.file, t.sheet, c.ref, "unknown mode %q%s; expected parallel, sequential or an expression that yields one of them", text, suggest.DidYouMean(text, []string{"parallel", "sequential"}))
		return nil
	}
	if e, ok := r.expr(t, c, rules.Mode, names); ok {
		return e
	}
	return nil
}

// condition reads a Condition cell; blank or true is nil (always run).
func (r *reader) condition(t *table, c cell, names rules.Names) engine.Bool {
	text := cleanText(c.text)
	switch {
	case c.bad || text == "" || isWord(text, "true") || text == "1":
		return nil
	case isWord(text, "false") || text == "0":
		return engine.ConstBool(false)
	}
	if e, ok := r.expr(t, c, rules.Bool, names); ok {
		if v, isConst := e.ConstBool(); isConst {
			if v {
				return nil // always run
			}
			return engine.ConstBool(false)
		}
		return e
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// routeFreeSheets are the sheets of SvcData whose problems leave the
// routes whole: what a step can give and where it goes are read from
// ProcData, ServerInfo (a TimeLimit can fail a call) and the entities'
// sheets, never from these.
var routeFreeSheets = []string{"Settings", "Arrivals", "Attributes", "Experiments", "Targets", "Measured"}

// routesWhole tells whether the routes of the model read without a
// problem, so that checkEndless can judge them: every problem so far is a
// warning or lies in a sheet of routeFreeSheets. A problem in TActive
// or an inter-arrival time then no longer hides an endless route until
// the next validate, as "every problem" promises.
func (r *reader) routesWhole() bool {
	for _, p := range r.problems {
		if p.Warning || p.File == SvcDataFile && slices.ContainsFunc(routeFreeSheets, func(s string) bool {
			return p.Sheet != "" && normKey(s) == normKey(p.Sheet)
		}) {
			continue
		}
		return false
	}
	return true
}

// stepRefs locates the steps of one service sheet.
type stepRefs struct {
	t *table
	// step, onSuccess and onFailure are each step's cells in those columns
	// (the Step cell where the column is missing).
	step, onSuccess, onFailure []string
}

// checkEndless reports, once the routes read without a problem, the steps
// and entity stages from which a request could never finish whatever is
// drawn (engine.Model.EndlessRoutes): a step that can only succeed and
// routes back to itself, say. Such a model would run, and every run would
// be unstable with its requests piling up, blamed on the load.
func (r *reader) checkEndless() {
	if !r.routesWhole() {
		return
	}
	m := r.model
	for _, e := range m.EndlessRoutes() {
		if e.Entity < 0 {
			refs, ok := r.stepRefs[e.Service]
			if !ok || e.Step >= len(refs.step) {
				continue
			}
			ref := refs.step[e.Step]
			switch e.Route {
			case "OnSuccess":
				ref = refs.onSuccess[e.Step]
			case "OnFailure":
				ref = refs.onFailure[e.Step]
			}
			r.errorf(refs.t.file, refs.t.sheet, ref, "a request that reaches step %q never finishes: %s; expected a route that can reach DONE or FAIL (for a retry loop, a SuccessRate below 1 with an OnFailure that leaves it)",
				m.Services[e.Service].Steps[e.Step].Name, e.Why)
			continue
		}
		for _, sr := range r.stageRefs {
			if sr.entity == e.Entity && sr.stage == e.Step {
				r.errorf(sr.ref.t.file, sr.ref.t.sheet, sr.ref.c.ref, "a request of %q that reaches this service never finishes: %s; expected a route that can reach END or EXIT",
					m.Entities[e.Entity].Name, e.Why)
			}
		}
	}
}

// checkNesting reports services that run themselves, directly or through
// others: a request would nest without end.
func (r *reader) checkNesting() {
	n := len(r.model.Services)
	out := make([][]nestRef, n)
	for _, e := range r.nests {
		out[e.from] = append(out[e.from], e)
	}
	const (
		white = iota
		grey
		black
	)
	color := make([]int, n)
	var stack []nestRef
	var visit func(int)
	visit = func(s int) {
		color[s] = grey
		for _, e := range out[s] {
			switch color[e.to] {
			case grey:
				path := []string{r.model.Services[e.to].Name}
				start := 0
				for i, f := range stack {
					if f.from == e.to {
						start = i
						break
					}
				}
				for _, f := range stack[start:] {
					path = append(path, r.model.Services[f.to].Name)
				}
				if e.from == e.to {
					path = []string{e.t.sheet}
				}
				path = append(path, r.model.Services[e.to].Name)
				r.errorf(e.t.file, e.t.sheet, e.ref, "service %q runs itself (%s), so a request would nest without end; expected no loop of nested services", r.model.Services[e.to].Name, strings.Join(path, " → "))
			case white:
				stack = append(stack, e)
				visit(e.to)
				stack = stack[:len(stack)-1]
			}
		}
		color[s] = black
	}
	for s := range n {
		if color[s] == white {
			visit(s)
		}
	}
}

// checkNestedWork reports a service whose nested steps, with their
// constant Counts multiplied down the services nested below them and
// summed over sibling steps, run more than MaxNestedRuns services for one
// run of it: each Count within MaxCount, 10,000 three deep is 10^12 runs,
// and ten steps nesting the next service seven deep 10^7, runs that would
// take days. It is reported at the step where the sum first passes the
// limit, from the inside out, naming the deepest chain. A Count that is
// an expression (an attribute, say) is counted as 1 here; past MaxCount it
// fails its request when run. Services that run themselves are reported
// by checkNesting, and left out here.
func (r *reader) checkNestedWork() {
	n := len(r.model.Services)
	out := make([][]nestRef, n)
	for _, e := range r.nests {
		out[e.from] = append(out[e.from], e)
	}
	count := func(e nestRef) float64 {
		steps := r.model.Services[e.from].Steps
		if e.step >= len(steps) {
			return 1
		}
		if c, ok := steps[e.step].Count.(engine.Const); ok && c >= 1 {
			return float64(c)
		}
		return 1
	}
	// runs[s] is how many runs of services one run of s makes below it,
	// and chain[s] its costliest chain of services.
	runs := make([]float64, n)
	chain := make([][]string, n)
	state := make([]int8, n) // 0 new, 1 on the path, 2 done
	var visit func(s int)
	visit = func(s int) {
		state[s] = 1
		costliest := 0.0
		for _, e := range out[s] {
			if state[e.to] == 1 {
				continue // a loop: checkNesting's
			}
			if state[e.to] == 0 {
				visit(e.to)
			}
			below := runs[e.to]
			these := count(e) * (1 + below)
			before := runs[s]
			runs[s] += these
			if runs[s] > MaxNestedRuns && before <= MaxNestedRuns && below <= MaxNestedRuns {
				path := append([]string{r.model.Services[e.from].Name, r.model.Services[e.to].Name}, chain[e.to]...)
				r.errorf(e.t.file, e.t.sheet, e.ref, "this step's Count and the nested steps of %q run about %s services below each run of %q (down %s), more than the limit of %s (a request would take hours); expected smaller Counts, or fewer nested steps or levels",
					r.model.Services[e.from].Name, numtext.Group(int64(math.Min(runs[s], 1e18))), r.model.Services[e.from].Name, strings.Join(path, " → "), numtext.Group(MaxNestedRuns))
			}
			if these > costliest {
				costliest = these
				chain[s] = append([]string{r.model.Services[e.to].Name}, chain[e.to]...)
			}
		}
		state[s] = 2
	}
	for s := range n {
		if state[s] == 0 {
			visit(s)
		}
	}
}
