package lb

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"

	"github.com/websim/websim/engine/dist"
	"github.com/websim/websim/engine/stats"
)

// MaxReplications bounds --replications.
const MaxReplications = 100000

// Report is the result of a run: the figures of all requests, of each type,
// of each server and of each type on each server, over the replications.
type Report struct {
	Params       Params
	Replications int
	Capacity     [][]int      // [type][server]: the units dealt
	All          Estimate     // every request
	ByType       []Estimate   // in the order of Params.Types
	PerServer    []Estimate   // every request sent to the server
	Cells        [][]Estimate // [type][server]
	// SimulatedTime is the time of the last arrival, in seconds (the mean
	// over the replications), and SimulatedTimeHalfWidth its 95% half-width.
	SimulatedTime, SimulatedTimeHalfWidth float64
}

// replication is what one replication leaves: its tallies and figures.
type replication struct {
	all       Figures
	byType    []Figures
	perServer []Figures
	cells     [][]Figures // [type][server]
	duration  float64
}

// Run simulates p over replications independent replications (at least 1),
// in parallel; replication r uses the streams of (p.Seed, r), so the report
// is the same whatever the machine.
func Run(p Params, replications int) (*Report, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if replications < 1 || replications > MaxReplications {
		return nil, fmt.Errorf("replications must be 1 to %d, got %d", MaxReplications, replications)
	}
	services, err := serviceDists(p.Types)
	if err != nil {
		return nil, err
	}
	reps := make([]replication, replications)
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(replications, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for r := range next {
				reps[r] = summarise(runOnce(&p, services, r), &p)
			}
		})
	}
	for r := range replications {
		next <- r
	}
	close(next)
	wg.Wait()
	return report(p, reps), nil
}

// streams returns the random streams of a replication: arrivals, types and
// service times, each its own PCG.
func streams(seed uint64, rep int) (arrivals, types, services *rand.Rand) {
	stream := func(purpose uint64) *rand.Rand {
		return rand.New(rand.NewPCG(splitmix(seed), splitmix(uint64(rep)<<2|purpose)))
	}
	return stream(1), stream(2), stream(3)
}

// splitmix scrambles a seed (SplitMix64's finaliser), so that neighbouring
// seeds start far apart.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// runOnce simulates replication rep of p. Every request draws its
// inter-arrival time, type and service time, failed or not, so that two
// methods see the same requests.
func runOnce(p *Params, service []dist.Dist, rep int) *sim {
	s := newSim(p)
	arrivals, types, services := streams(p.Seed, rep)
	cum := make([]float64, len(p.Types))
	last, sum := 0, 0.0
	for k, t := range p.Types {
		sum += t.Proportion
		cum[k] = sum
		if t.Proportion > 0 {
			last = k
		}
	}
	t := 0.0
	for range p.Requests {
		t += arrivals.ExpFloat64() / p.RequestsPerSec
		k, u := last, types.Float64()
		for j, c := range cum {
			if u < c {
				k = j
				break
			}
		}
		s.arrive(t, k, service[k].Sample(services))
	}
	s.drain()
	return s
}

// serviceDists returns each type's service time (RequestType.serviceDist).
func serviceDists(types []RequestType) ([]dist.Dist, error) {
	out := make([]dist.Dist, len(types))
	for k, t := range types {
		d, err := t.serviceDist()
		if err != nil {
			return nil, fmt.Errorf("request type %q: %w", t.Name, err)
		}
		out[k] = d
	}
	return out, nil
}

// serviceDist is the type's service time: Normal(avg, deviation), values
// <= 0 drawn again (engine/dist's Normal, as in websim's models).
func (t RequestType) serviceDist() (dist.Dist, error) {
	return dist.Parse("Normal(" + strconv.FormatFloat(t.AvgServiceTimeSecs, 'g', -1, 64) + "," +
		strconv.FormatFloat(t.DeviationServiceTimeSecs, 'g', -1, 64) + ")")
}

// MeanServiceTime is the mean of the service times drawn: above
// AvgServiceTimeSecs when the deviation is large against it, since values
// <= 0 are drawn again (Normal(1,1) draws a mean of 1.29).
func (t RequestType) MeanServiceTime() float64 {
	d, err := t.serviceDist()
	if err != nil {
		return t.AvgServiceTimeSecs // refused by the parameters' checks
	}
	return d.Mean()
}

// summarise turns a finished replication into figures.
func summarise(s *sim, p *Params) replication {
	n, k := s.servers, s.types
	var all counts
	byType, perServer := make([]counts, k), make([]counts, n)
	for i := range n {
		for j := range k {
			c := s.tally[i*k+j]
			all.add(c)
			byType[j].add(c)
			perServer[i].add(c)
		}
	}
	total, dur := all.requests, s.now
	r := replication{all: all.figures(total, dur), duration: dur}
	var allHist stats.Histogram
	for j := range k {
		f := byType[j].figures(total, dur)
		f.P95Wait = s.hist[j].Quantile(0.95)
		allHist.Merge(&s.hist[j])
		r.byType = append(r.byType, f)
		cells := make([]Figures, n)
		for i := range n {
			cells[i] = s.tally[i*k+j].figures(total, dur)
		}
		r.cells = append(r.cells, cells)
	}
	r.all.P95Wait = allHist.Quantile(0.95)
	for i := range n {
		r.perServer = append(r.perServer, perServer[i].figures(total, dur))
	}
	return r
}

// report summarises the replications.
func report(p Params, reps []replication) *Report {
	rp := &Report{Params: p, Replications: len(reps)}
	pick := func(f func(replication) Figures) Estimate {
		fs := make([]Figures, len(reps))
		for r := range reps {
			fs[r] = f(reps[r])
		}
		return estimate(fs)
	}
	rp.All = pick(func(r replication) Figures { return r.all })
	durations := make([]float64, len(reps))
	for r := range reps {
		durations[r] = reps[r].duration
	}
	rp.SimulatedTime, rp.SimulatedTimeHalfWidth = meanHalfWidth(durations)
	for j, t := range p.Types {
		rp.Capacity = append(rp.Capacity, deal(t.OutputCapacity, p.Servers))
		rp.ByType = append(rp.ByType, pick(func(r replication) Figures { return r.byType[j] }))
		cells := make([]Estimate, p.Servers)
		for i := range cells {
			cells[i] = pick(func(r replication) Figures { return r.cells[j][i] })
		}
		rp.Cells = append(rp.Cells, cells)
	}
	for i := range p.Servers {
		rp.PerServer = append(rp.PerServer, pick(func(r replication) Figures { return r.perServer[i] }))
	}
	return rp
}
