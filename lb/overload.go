package lb

import (
	"fmt"
	"strconv"
)

// Overload is a request type whose offered work is more than its units can
// serve: requests arrive faster than they leave, and its queue (and every
// wait) grows for as long as requests arrive.
type Overload struct {
	Type string
	// Server is the server overloaded, or -1 when the type's units over
	// all servers are.
	Server int
	// Load is the offered work over the units: arrival rate × the type's
	// share × its mean service time / units; 1 or more is overload.
	Load  float64
	Units int
}

// String says the overload in words, for the console and the sheet.
func (o Overload) String() string {
	where := fmt.Sprintf("its %d units on all servers", o.Units)
	if o.Server >= 0 {
		where = fmt.Sprintf("its %d units on server %d", o.Units, o.Server)
	}
	return fmt.Sprintf("OVERLOADED: type %s offers %s times the work %s can serve (arrival rate × share × mean service time / units); its queue grows for as long as requests arrive, so its waits depend on the run's length",
		o.Type, strconv.FormatFloat(o.Load, 'f', 2, 64), where)
}

// Overloads lists the types whose offered work is at least their units:
// over all servers, or (round robin, which sends each server 1/n of the
// requests) on one server. A type with no unit on a server fails there and
// is not overloaded.
func (r *Report) Overloads() []Overload {
	p := r.Params
	var out []Overload
	for j, t := range p.Types {
		work := p.RequestsPerSec * t.Proportion * t.AvgServiceTimeSecs
		if load := work / float64(t.OutputCapacity); load >= 1 {
			out = append(out, Overload{Type: t.Name, Server: -1, Load: load, Units: t.OutputCapacity})
			continue
		}
		if p.Method != RoundRobin || j >= len(r.Capacity) {
			continue
		}
		worst, at := 0.0, -1
		for i, c := range r.Capacity[j] {
			if c == 0 {
				continue
			}
			if load := work / float64(p.Servers) / float64(c); load > worst {
				worst, at = load, i
			}
		}
		if worst >= 1 {
			out = append(out, Overload{Type: t.Name, Server: at, Load: worst, Units: r.Capacity[j][at]})
		}
	}
	return out
}
