package engine

import (
	"errors"
	"fmt"
)

// Limits on the sizes that a run's memory grows with. A model beyond them
// would exhaust memory (each unit, server slot and Parallel copy costs
// memory for the whole run), so Check refuses it, and the workbook reader
// refuses it at its cell with the limit.
const (
	// MaxAppUnits bounds AppServers × AppCapacity, the AppRes units of a
	// run.
	MaxAppUnits = 1_000_000
	// MaxServerCapacity bounds an external server's Capacity.
	MaxServerCapacity = 1_000_000
	// MaxCount bounds a Nested step's Count (each of its services is run
	// that many times; in parallel, as that many copies at once). A Count
	// expression that gives more fails the request at the step's cell.
	MaxCount = 10_000
)

// Check reports what would make a Model impossible to run: an index out of
// range, a capacity below 1, an entity without services or without one
// inter-arrival distribution per load, a service that nests itself. The
// workbook reader reports all of these with their cells; Check guards
// models built in code, so that Run fails with a message instead of a
// panic. It returns every problem found, joined.
func (m *Model) Check() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if m.App.Servers < 1 || m.App.Capacity < 1 {
		bad("the application needs at least 1 server of at least 1 unit, got %d of %d", m.App.Servers, m.App.Capacity)
	}
	if units := int64(m.App.Servers) * int64(m.App.Capacity); units > MaxAppUnits {
		bad("the application has %d servers of %d units, %d units in all, more than the limit of %d", m.App.Servers, m.App.Capacity, units, MaxAppUnits)
	}
	if m.App.MaxAdmitted < 0 {
		bad("MaxAdmitted %d, expected 0 (no limit) or more", m.App.MaxAdmitted)
	}
	if m.App.UnitQueue > InFlightFirst {
		bad("UnitQueue %d, expected FCFS or InFlightFirst", m.App.UnitQueue)
	}
	if len(m.Loads) == 0 {
		bad("the model has no load level")
	}
	for i, s := range m.Servers {
		if s.Capacity < 1 || s.Capacity > MaxServerCapacity {
			bad("server %s: capacity %d, expected 1 to %d", s.Name, s.Capacity, MaxServerCapacity)
		}
		if (s.BackgroundInterArrival == nil) != (s.BackgroundServiceTime == nil) {
			bad("server %s: background load needs both an inter-arrival and a service time", m.Servers[i].Name)
		}
	}
	for _, sv := range m.Services {
		for _, st := range sv.Steps {
			where := fmt.Sprintf("service %s, step %s", sv.Name, st.Name)
			switch st.Kind {
			case Call:
				if st.Server < 0 || st.Server >= len(m.Servers) {
					bad("%s: server %d out of range (the model has %d)", where, st.Server, len(m.Servers))
				}
			case Nested:
				if c, ok := st.Count.(Const); ok && (c < 0 || c > MaxCount) {
					bad("%s: Count %g, expected 0 to %d", where, float64(c), MaxCount)
				}
				if len(st.Services) == 0 {
					bad("%s: runs no service, expected at least one in Services", where)
				}
				for k := range nestedCount(&st) {
					if i := nestedService(&st, k); i < 0 || int(i) >= len(m.Services) {
						bad("%s: service %d out of range (the model has %d)", where, i, len(m.Services))
					}
				}
			}
			for _, target := range []StepTarget{st.OnSuccess, st.OnFailure} {
				if target < Fail || int(target) > len(sv.Steps) {
					bad("%s: routes to step %d, out of range", where, target)
				}
			}
		}
	}
	for _, e := range m.Entities {
		if len(e.InterArrival) != len(m.Loads) {
			bad("entity %s: %d inter-arrival distributions for %d loads", e.Name, len(e.InterArrival), len(m.Loads))
		}
		if len(e.Stages) == 0 {
			bad("entity %s has no services", e.Name)
		}
		for _, st := range e.Stages {
			if st.Service < 0 || st.Service >= len(m.Services) {
				bad("entity %s: service %d out of range", e.Name, st.Service)
			}
			for _, target := range []StageTarget{st.OnSuccess, st.OnFailure} {
				if target < Exit || int(target) > len(e.Stages) {
					bad("entity %s: routes to stage %d, out of range", e.Name, target)
				}
			}
		}
		for _, a := range e.Attributes {
			if a.Index < 0 || a.Index >= len(m.Attributes) {
				bad("entity %s: attribute %d out of range", e.Name, a.Index)
			}
			if (a.Dist == nil) == (a.Expr == nil) {
				bad("entity %s: attribute %d needs a distribution or an expression", e.Name, a.Index)
			}
		}
	}
	if len(errs) == 0 {
		if cycle := m.nestingCycle(); cycle != "" {
			bad("services nest themselves: %s", cycle)
		}
	}
	return errors.Join(errs...)
}

// nestingCycle returns a path of services that nest back into themselves
// ("A → B → A"), or "".
func (m *Model) nestingCycle() string {
	const (
		unseen = iota
		open
		closed
	)
	state := make([]int, len(m.Services))
	var path []int
	var visit func(i int) string
	visit = func(i int) string {
		state[i] = open
		path = append(path, i)
		for _, st := range m.Services[i].Steps {
			if st.Kind != Nested {
				continue
			}
			for k := range nestedCount(&st) {
				to := int(nestedService(&st, k))
				switch state[to] {
				case open:
					out := ""
					for k, p := range path {
						if p == to {
							for _, q := range path[k:] {
								out += m.Services[q].Name + " → "
							}
							return out + m.Services[to].Name
						}
					}
				case unseen:
					if c := visit(to); c != "" {
						return c
					}
				}
			}
		}
		path = path[:len(path)-1]
		state[i] = closed
		return ""
	}
	for i := range m.Services {
		if state[i] == unseen {
			if c := visit(i); c != "" {
				return c
			}
		}
	}
	return ""
}
