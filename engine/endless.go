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
// success; a call to a server with a TimeLimit may fail; a Nested step
// gives what its services can, and succeeds at once when its Count may be
// 0. Only places a request can reach from its service's first step (or the
// entity's first stage) count. m must pass the nesting check (no service
// nests itself).
func (m *Model) EndlessRoutes() []Endless {
	var out []Endless
	memo := make([]outcomes, len(m.Services))
	done := make([]bool, len(m.Services))
	var serviceOutcomes func(i int) outcomes
	serviceOutcomes = func(i int) outcomes {
		if done[i] {
			return memo[i]
		}
		done[i] = true // no cycle: nesting is checked before
		sv := &m.Services[i]
		n := len(sv.Steps)
		next := func(k int, o outcomes) (succ, fail int) {
			succ, fail = -1, -1
			st := &sv.Steps[k]
			if o&canSucceed != 0 {
				succ = int(st.OnSuccess)
			}
			if o&canFail != 0 {
				fail = int(st.OnFailure)
			}
			return succ, fail
		}
		own := make([]outcomes, n)
		for k := range sv.Steps {
			own[k] = m.stepOutcomes(&sv.Steps[k], serviceOutcomes)
		}
		// A target of a step index goes on; Fail fails the service; Done
		// or NEXT past the last row succeeds it.
		classify := func(t int) (step int, result outcomes) {
			switch {
			case t >= 0 && t < n:
				return t, 0
			case StepTarget(t) == Fail:
				return -1, canFail
			}
			return -1, canSucceed
		}
		edges := func(k int) (steps []int, results outcomes) {
			succ, fail := next(k, own[k])
			for _, c := range [2]struct {
				o outcomes
				t int
			}{{canSucceed, succ}, {canFail, fail}} {
				if own[k]&c.o == 0 {
					continue
				}
				if s, r := classify(c.t); s >= 0 {
					steps = append(steps, s)
				} else {
					results |= r
				}
			}
			return steps, results
		}
		if n == 0 {
			memo[i] = canSucceed
			return memo[i]
		}
		reach, result := reachFrom(n, edges)
		exits := exitsFrom(n, edges)
		for k := range n {
			if reach[k] && !exits[k] && !m.blamesNested(&sv.Steps[k], serviceOutcomes) {
				out = append(out, Endless{Entity: -1, Service: i, Step: k, Route: route(own[k]), Why: m.endlessWhy(sv, k, own[k])})
			}
		}
		memo[i] = result
		return result
	}
	for i := range m.Services {
		serviceOutcomes(i)
	}
	for e := range m.Entities {
		stages := m.Entities[e].Stages
		n := len(stages)
		edges := func(k int) (next []int, results outcomes) {
			o := serviceOutcomes(stages[k].Service)
			for _, c := range []struct {
				can outcomes
				to  StageTarget
			}{{canSucceed, stages[k].OnSuccess}, {canFail, stages[k].OnFailure}} {
				if o&c.can == 0 {
					continue
				}
				if t := int(c.to); t >= 0 && t < n {
					next = append(next, t)
				} else {
					results |= canSucceed // END, EXIT or past the last stage: the request finishes
				}
			}
			return next, results
		}
		if n == 0 {
			continue
		}
		reach, _ := reachFrom(n, edges)
		exits := exitsFrom(n, edges)
		for k := range n {
			if reach[k] && !exits[k] && serviceOutcomes(stages[k].Service) != 0 {
				out = append(out, Endless{Entity: e, Service: stages[k].Service, Step: k,
					Why: fmt.Sprintf("its service %s can only %s, and the entity's routing from here leads back to its stages, never to END or EXIT", m.Services[stages[k].Service].Name, words(serviceOutcomes(stages[k].Service)))})
			}
		}
	}
	return out
}

// stepOutcomes is what step st can give.
func (m *Model) stepOutcomes(st *Step, serviceOutcomes func(int) outcomes) outcomes {
	var o outcomes
	if st.Condition != nil {
		o |= canSucceed // skipped as a success
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
		if c, isConst := st.Count.(Const); st.Count != nil && (!isConst || c == 0) {
			inner |= canSucceed // Count 0 runs nothing and succeeds
		}
		if inner&canSucceed != 0 {
			o |= draw
		}
		o |= inner & canFail
	}
	return o
}

// blamesNested says whether step st can never end because a service it
// nests never does (that service's own step is the one to blame).
func (m *Model) blamesNested(st *Step, serviceOutcomes func(int) outcomes) bool {
	if st.Kind != Nested {
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
	if st.SuccessRate == nil {
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

// exitsFrom returns the places from which some result is reachable.
func exitsFrom(n int, edges func(k int) ([]int, outcomes)) []bool {
	exits := make([]bool, n)
	for changed := true; changed; {
		changed = false
		for k := range n {
			if exits[k] {
				continue
			}
			next, r := edges(k)
			ok := r != 0
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
