package engine

import "fmt"

// outcomes says which outcomes a step, a service or a stage can have.
type outcomes uint8

const (
	canSucceed outcomes = 1 << iota
	canFail
)

// Endless is a place of the model from which a request can never finish:
// every outcome of it leads, by its routing, only to steps (or stages)
// that lead back, never to DONE or FAIL (END or EXIT), whatever is drawn.
// Such a request would hold its unit for ever, and requests would pile up
// behind it.
type Endless struct {
	// Entity is the entity, for a stage of its service sequence; -1 for
	// a step of a service.
	Entity int
	// Service and Step are the service and the step (Step is the stage
	// index when Entity is set).
	Service, Step int
	// Route is the routing column to blame: "OnSuccess" for a step that
	// can only succeed, "OnFailure" for one that can only fail, "" when
	// both routes lead back (or for a stage).
	Route string
	// Why says what the routing does, for a message.
	Why string
}

// EndlessRoutes returns the steps and stages of m from which no request
// can ever finish, judged from the routing and from what each step can
// give: a SuccessRate of 1 (or none) only success and 0 only failure, any
// other number or an expression both; a Condition may skip the step as a
// success, and a ConstBool(false) one always does (the step never runs);
// a call to a server with a TimeLimit may fail; a Nested step gives what
// its services can, succeeds at once when its Count may be 0, and only
// succeeds when its Count is 0. Only places a request can reach count: the stages reachable from an
// entity's first, the steps reachable from the first of a service such a
// stage runs, and so on into the services those steps nest. A place that
// cannot end only because a service it leads to never does is not
// reported; that service's step is. m must pass the nesting check (no
// service nests itself).
func (m *Model) EndlessRoutes() []Endless {
	outs := make([]outcomes, len(m.Services))
	known := make([]bool, len(m.Services))
	var serviceOutcomes func(i int) outcomes
	serviceOutcomes = func(i int) outcomes {
		if !known[i] {
			known[i] = true // no cycle: nesting is checked before
			_, outs[i] = m.serviceGraph(i, serviceOutcomes).reach()
		}
		return outs[i]
	}
	// The services a request can come to: those of the stages it can
	// reach, and those nested in the steps it can reach there.
	used := make([]bool, len(m.Services))
	var use func(i int)
	use = func(i int) {
		if used[i] {
			return
		}
		used[i] = true
		g := m.serviceGraph(i, serviceOutcomes)
		reach, _ := g.reach()
		for k, st := range m.Services[i].Steps {
			if !reach[k] || !runsNested(&st) {
				continue
			}
			for s := range nestedCount(&st) {
				use(int(nestedService(&st, s)))
			}
		}
	}
	stages := make([]placeGraph, len(m.Entities))
	for e := range m.Entities {
		stages[e] = m.stageGraph(e, serviceOutcomes)
		reach, _ := stages[e].reach()
		for k, st := range m.Entities[e].Stages {
			if reach[k] {
				use(st.Service)
			}
		}
	}
	var out []Endless
	for i := range m.Services {
		if !used[i] {
			continue
		}
		g := m.serviceGraph(i, serviceOutcomes)
		sv := &m.Services[i]
		for _, k := range g.trapped(func(k int) bool { return m.blamesNested(&sv.Steps[k], serviceOutcomes) }) {
			out = append(out, Endless{Entity: -1, Service: i, Step: k, Route: route(g.own[k]), Why: m.endlessWhy(sv, k, g.own[k])})
		}
	}
	for e := range m.Entities {
		ss := m.Entities[e].Stages
		for _, k := range stages[e].trapped(func(k int) bool { return serviceOutcomes(ss[k].Service) == 0 }) {
			o := serviceOutcomes(ss[k].Service)
			out = append(out, Endless{Entity: e, Service: ss[k].Service, Step: k,
				Why: fmt.Sprintf("its service %s can only %s, and the entity's routing from here leads back to its stages, never to END or EXIT", m.Services[ss[k].Service].Name, words(o))})
		}
	}
	return out
}

// turnedOff says whether step st never runs: its Condition is FALSE.
func turnedOff(st *Step) bool {
	off, isConst := st.Condition.(ConstBool)
	return isConst && !bool(off)
}

// runsNested says whether st is a Nested step that may run its services
// (not turned off, and a Count that may be above 0).
func runsNested(st *Step) bool {
	return st.Kind == Nested && mayRun(st.Count) && !turnedOff(st)
}

// mayRun says whether a Nested step of Count c may run its services: a
// constant above 0, or an expression.
func mayRun(c Number) bool {
	if k, isConst := c.(Const); c != nil && isConst {
		return k > 0
	}
	return true
}

// placeGraph is the routing between the places of a service (its steps)
// or an entity (its stages): what each can give, where each outcome
// leads, and which results (a service's success or failure; a request's
// end) it reaches.
type placeGraph struct {
	n     int
	own   []outcomes
	edges func(k int) ([]int, outcomes)
}

// reach returns the places reachable from the first, and the results
// reachable.
func (g placeGraph) reach() ([]bool, outcomes) {
	if g.n == 0 {
		return nil, canSucceed
	}
	return reachFrom(g.n, g.edges)
}

// trapped returns the places reachable from the first from which no
// result is reachable, leaving out those elsewhere's fault says are not
// theirs (a step whose nested service never ends): they, and the places
// that lead only to them, are blamed where the fault is.
func (g placeGraph) trapped(elsewhere func(k int) bool) []int {
	if g.n == 0 {
		return nil
	}
	reach, _ := g.reach()
	exits := exitsFrom(g.n, g.edges, elsewhere)
	var out []int
	for k := range g.n {
		if reach[k] && !exits[k] {
			out = append(out, k)
		}
	}
	return out
}

// serviceGraph is the routing between the steps of service i.
func (m *Model) serviceGraph(i int, serviceOutcomes func(int) outcomes) placeGraph {
	sv := &m.Services[i]
	n := len(sv.Steps)
	own := make([]outcomes, n)
	for k := range sv.Steps {
		own[k] = m.stepOutcomes(&sv.Steps[k], serviceOutcomes)
	}
	// A target of a step index goes on; Fail fails the service; Done or
	// NEXT past the last row succeeds it.
	edges := func(k int) (steps []int, results outcomes) {
		st := &sv.Steps[k]
		for _, c := range [2]struct {
			o outcomes
			t int
		}{{canSucceed, int(st.OnSuccess)}, {canFail, int(st.OnFailure)}} {
			switch {
			case own[k]&c.o == 0:
			case c.t >= 0 && c.t < n:
				steps = append(steps, c.t)
			case StepTarget(c.t) == Fail:
				results |= canFail
			default:
				results |= canSucceed
			}
		}
		return steps, results
	}
	return placeGraph{n: n, own: own, edges: edges}
}

// stageGraph is the routing between the stages of entity e.
func (m *Model) stageGraph(e int, serviceOutcomes func(int) outcomes) placeGraph {
	stages := m.Entities[e].Stages
	n := len(stages)
	own := make([]outcomes, n)
	for k := range stages {
		own[k] = serviceOutcomes(stages[k].Service)
	}
	edges := func(k int) (next []int, results outcomes) {
		for _, c := range [2]struct {
			can outcomes
			to  StageTarget
		}{{canSucceed, stages[k].OnSuccess}, {canFail, stages[k].OnFailure}} {
			switch t := int(c.to); {
			case own[k]&c.can == 0:
			case t >= 0 && t < n:
				next = append(next, t)
			default:
				results |= canSucceed // END, EXIT or past the last stage: the request finishes
			}
		}
		return next, results
	}
	return placeGraph{n: n, own: own, edges: edges}
}

// stepOutcomes is what step st can give.
func (m *Model) stepOutcomes(st *Step, serviceOutcomes func(int) outcomes) outcomes {
	var o outcomes
	switch {
	case turnedOff(st):
		return canSucceed // always skipped as a success
	case st.Condition != nil:
		o |= canSucceed // may be skipped as a success
	}
	draw := rateOutcomes(st.SuccessRate)
	switch st.Kind {
	case Local:
		o |= draw
	case Call:
		o |= draw
		if st.Server >= 0 && st.Server < len(m.Servers) && m.Servers[st.Server].TimeLimit > 0 {
			o |= canFail
		}
	case Nested:
		if !mayRun(st.Count) {
			return o | canSucceed // Count 0: runs nothing and succeeds, without a draw
		}
		// Every service must succeed for the step to; any one failing
		// fails it.
		inner := canSucceed
		for k := range nestedCount(st) {
			s := serviceOutcomes(int(nestedService(st, k)))
			if s&canSucceed == 0 {
				inner &^= canSucceed
			}
			inner |= s & canFail
		}
		if inner&canSucceed != 0 {
			o |= draw
		}
		o |= inner & canFail
		if c, isConst := st.Count.(Const); st.Count != nil && (!isConst || c == 0) {
			o |= canSucceed // Count 0 runs nothing and succeeds, without a draw
		}
	}
	return o
}

// blamesNested says whether step st can never end because a service it
// nests never does (that service's own step is the one to blame).
func (m *Model) blamesNested(st *Step, serviceOutcomes func(int) outcomes) bool {
	if !runsNested(st) {
		return false
	}
	for k := range nestedCount(st) {
		if serviceOutcomes(int(nestedService(st, k))) == 0 {
			return true
		}
	}
	return false
}

// rateOutcomes is what a SuccessRate can draw.
func rateOutcomes(r Number) outcomes {
	if r == nil {
		return canSucceed
	}
	if c, ok := r.(Const); ok {
		switch {
		case c >= 1:
			return canSucceed
		case c <= 0:
			return canFail
		}
	}
	return canSucceed | canFail
}

// route is the routing column a step of outcomes o follows alone.
func route(o outcomes) string {
	switch o {
	case canSucceed:
		return "OnSuccess"
	case canFail:
		return "OnFailure"
	}
	return ""
}

func words(o outcomes) string {
	switch o {
	case canSucceed:
		return "succeed"
	case canFail:
		return "fail"
	}
	return "succeed or fail"
}

// endlessWhy says why step k of sv never leads to DONE or FAIL.
func (m *Model) endlessWhy(sv *Service, k int, o outcomes) string {
	st := &sv.Steps[k]
	target := func(t StepTarget) string {
		if t >= 0 && int(t) < len(sv.Steps) {
			return sv.Steps[t].Name
		}
		return "DONE"
	}
	switch o {
	case canSucceed:
		return fmt.Sprintf("it can only succeed (%s), its OnSuccess leads to %s, and from there every route comes back without reaching DONE or FAIL", successWhy(st), target(st.OnSuccess))
	case canFail:
		return fmt.Sprintf("it can only fail (SuccessRate 0), its OnFailure leads to %s, and from there every route comes back without reaching DONE or FAIL", target(st.OnFailure))
	}
	return fmt.Sprintf("its OnSuccess (%s) and its OnFailure (%s) lead only to steps whose routes come back without reaching DONE or FAIL", target(st.OnSuccess), target(st.OnFailure))
}

// successWhy says why a step can only succeed.
func successWhy(st *Step) string {
	switch {
	case turnedOff(st):
		return "its Condition is FALSE, so it is always skipped as a success"
	case st.Kind == Nested && !mayRun(st.Count):
		return "its Count is 0, so it runs nothing and succeeds"
	case st.SuccessRate == nil:
		return "no SuccessRate"
	}
	return "SuccessRate 1"
}

// reachFrom returns the places reachable from place 0 along edges, and the
// results (success, failure) reachable.
func reachFrom(n int, edges func(k int) ([]int, outcomes)) (reach []bool, results outcomes) {
	reach = make([]bool, n)
	stack := []int{0}
	reach[0] = true
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		next, r := edges(k)
		results |= r
		for _, j := range next {
			if !reach[j] {
				reach[j] = true
				stack = append(stack, j)
			}
		}
	}
	return reach, results
}

// exitsFrom returns the places from which some result is reachable,
// counting those of elsewhere as results.
func exitsFrom(n int, edges func(k int) ([]int, outcomes), elsewhere func(k int) bool) []bool {
	exits := make([]bool, n)
	for changed := true; changed; {
		changed = false
		for k := range n {
			if exits[k] {
				continue
			}
			next, r := edges(k)
			ok := r != 0 || elsewhere(k)
			for _, j := range next {
				ok = ok || exits[j]
			}
			if ok {
				exits[k], changed = true, true
			}
		}
	}
	return exits
}
