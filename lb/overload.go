package lb

import (
	"fmt"
	"slices"
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
	// share × its mean service time / units; 1 or more is overload. The
	// mean is that of the times drawn (RequestType.MeanServiceTime).
	Load  float64
	Units int
	// Observed says Load rests on the requests the method sent the server
	// in the run (busyness, whose split depends on the queues), not on
	// the parameters alone.
	Observed bool
	// Reaching says Load counts only the requests sent to servers with a
	// unit of the type: the others fail, and never queue.
	Reaching bool
}

// String says the overload in words, for the console and the sheet.
func (o Overload) String() string {
	units := fmt.Sprintf("its %d units", o.Units)
	if o.Units == 1 {
		units = "its 1 unit"
	}
	where := units + " on all servers"
	if o.Server >= 0 {
		where = fmt.Sprintf("%s on server %d", units, o.Server)
	}
	how := "arrival rate × share × mean service time / units"
	switch {
	case o.Observed && o.Server < 0:
		how = "the requests of the type busyness sent a second to servers with a unit of it × mean service time / units"
	case o.Observed:
		how = "the requests of the type busyness sent it a second × mean service time / units: busyness counts busy units, not queued requests, so ties send the queue's growth to the lowest server"
	case o.Reaching:
		how = "arrival rate × share × mean service time / units, of the requests sent to servers with a unit of it"
	}
	if o.Reaching {
		how += "; those sent to servers without one fail"
	}
	return fmt.Sprintf("OVERLOADED: type %s offers %s times the work %s can serve (%s); its queue grows for as long as requests arrive, so its waits depend on the run's length",
		o.Type, strconv.FormatFloat(o.Load, 'f', 2, 64), where, how)
}

// Overloads lists the types whose offered work is at least their units:
// over all servers, or on one server: under round robin, which sends each
// server 1/n of the requests, from the parameters; under busyness, whose
// split depends on the run, from the requests it sent each server (the
// mean arrival rate over the replications). A type with no unit on a
// server fails there and is not overloaded.
func (r *Report) Overloads() []Overload {
	p := r.Params
	var out []Overload
	for j, t := range p.Types {
		mean := t.MeanServiceTime()
		work := p.RequestsPerSec * t.Proportion * mean
		observed := p.Method != RoundRobin
		// The work that reaches the type's units: requests sent to a
		// server without a unit of the type fail there (partial), as far
		// as the run says where they went.
		reaching := work
		partial := j < len(r.Capacity) && slices.Contains(r.Capacity[j], 0)
		if partial {
			reaching = 0
			for i, c := range r.Capacity[j] {
				switch {
				case c == 0:
				case !observed:
					reaching += work / float64(p.Servers)
				case j < len(r.Cells) && i < len(r.Cells[j]):
					reaching += r.Cells[j][i].Mean.ArrivalRate * mean
				default:
					reaching, partial = work, false // not known: all of it
				}
				if !partial {
					break
				}
			}
		}
		if load := reaching / float64(t.OutputCapacity); load >= 1 {
			out = append(out, Overload{Type: t.Name, Server: -1, Load: load, Units: t.OutputCapacity, Observed: observed && partial, Reaching: partial})
			continue
		}
		if j >= len(r.Capacity) {
			continue
		}
		worst, at := 0.0, -1
		for i, c := range r.Capacity[j] {
			if c == 0 {
				continue
			}
			sent := work / float64(p.Servers)
			if observed {
				if j >= len(r.Cells) || i >= len(r.Cells[j]) {
					continue
				}
				sent = r.Cells[j][i].Mean.ArrivalRate * mean
			}
			if load := sent / float64(c); load > worst {
				worst, at = load, i
			}
		}
		if worst >= 1 {
			out = append(out, Overload{Type: t.Name, Server: at, Load: worst, Units: r.Capacity[j][at], Observed: observed})
		}
	}
	return out
}
