package lb

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/websim/websim/internal/suggest"
)

// Method is the load balancer's way of choosing a server.
type Method string

const (
	// RoundRobin sends the k-th request (from 0) to server k mod n.
	RoundRobin Method = "roundrobin"
	// Busyness sends a request to the server with the fewest busy units of
	// all types at its arrival, the lowest-numbered one on ties.
	Busyness Method = "busyness"
)

var methods = []string{string(RoundRobin), string(Busyness)}

// The parameter keys, spelt as in the original tool's YAML.
const (
	KeyServers     = "number_of_servers"
	KeyRate        = "number_of_requests_per_sec"
	KeyRequests    = "number_of_requests"
	KeyMethod      = "method"
	KeySeed        = "seed"
	KeyTypes       = "types_of_requests"
	KeyCapacity    = "output_capacity"
	KeyProportion  = "proportion"
	KeyAvgService  = "avg_service_time_secs"
	KeyDevService  = "deviation_service_time_secs"
	defaultSeed    = 1
	proportionSlop = 1e-9
)

// sumKey names the check that the proportions add up to 1.
const sumKey = KeyTypes + ".proportions"

// settingKeys are the top-level keys other than types_of_requests, in the
// order they are written; seed is optional.
var settingKeys = []string{KeyServers, KeyRate, KeyRequests, KeyMethod, KeySeed}

// typeKeys are the keys of a request type, in the order they are written.
var typeKeys = []string{KeyCapacity, KeyProportion, KeyAvgService, KeyDevService}

// Params is one load-balancer scenario.
type Params struct {
	Servers        int     // number_of_servers, at least 1
	RequestsPerSec float64 // number_of_requests_per_sec, > 0; fractions are kept
	Requests       int     // number_of_requests per replication, at least 1
	Method         Method  // roundrobin or busyness
	Seed           uint64  // seed of the random streams; the files default it to 1
	Types          []RequestType
}

// RequestType is one type of request, in types_of_requests.
type RequestType struct {
	Name                     string
	OutputCapacity           int     // units over all servers, at least 1
	Proportion               float64 // share of the requests, 0..1; all add up to 1
	AvgServiceTimeSecs       float64 // mean of the Normal service time, > 0
	DeviationServiceTimeSecs float64 // its standard deviation, >= 0
}

// Sample returns the parameters of the original tool's tests/sample1.yaml,
// which samples/loadbalancer/sample1.yaml holds: deviations 2.5 (dma) and
// 0.15 (other).
func Sample() Params {
	return Params{
		Servers: 6, RequestsPerSec: 30, Requests: 50000, Method: RoundRobin, Seed: defaultSeed,
		Types: []RequestType{
			{Name: "dma", OutputCapacity: 20, Proportion: 0.05, AvgServiceTimeSecs: 4.5, DeviationServiceTimeSecs: 2.5},
			{Name: "other", OutputCapacity: 60, Proportion: 0.95, AvgServiceTimeSecs: 1.15, DeviationServiceTimeSecs: 0.15},
		},
	}
}

// ReadmeExample returns the example of the original tool's README, which
// samples/loadbalancer/readme-example.yaml holds: Sample with deviations
// 1.5 (dma) and 0.25 (other).
func ReadmeExample() Params {
	p := Sample()
	p.Types = slices.Clone(p.Types)
	p.Types[0].DeviationServiceTimeSecs, p.Types[1].DeviationServiceTimeSecs = 1.5, 0.25
	return p
}

// Validate reports every value out of range, each located by its key
// ("number_of_servers", "types_of_requests.dma.proportion").
func (p Params) Validate() error {
	var ps Problems
	for _, kp := range p.problems() {
		ps = append(ps, problemAt(kp.key, kp.what))
	}
	return orNil(ps)
}

// keyProblem is a problem located by its parameter key.
type keyProblem struct{ key, what string }

// Bounds that keep a run within memory: sizes past them are input mistakes
// (an extra digit), reported as such rather than crashing the run.
const (
	MaxServers  = 100_000
	MaxCapacity = 10_000_000 // per type, and over all types
	MaxRequests = 1_000_000_000
	// MaxTypes bounds types_of_requests, and MaxCells servers × types
	// (each server keeps units, a queue and counts per type).
	MaxTypes = 1_000
	MaxCells = 1_000_000
	// maxTime bounds the simulated time a run may reach (requests times
	// the mean time between them, or a service time), far below the
	// largest float64, so that every sum of times stays finite.
	maxTime = 1e290
)

// typeKey is the key of a request type's parameter, as Validate names it.
func typeKey(typ, key string) string { return KeyTypes + "." + typ + "." + key }

func (p Params) problems() []keyProblem {
	var out []keyProblem
	add := func(key, format string, args ...any) {
		out = append(out, keyProblem{key, fmt.Sprintf(format, args...)})
	}
	if p.Servers < 1 {
		add(KeyServers, "must be at least 1 server, got %d", p.Servers)
	} else if p.Servers > MaxServers {
		add(KeyServers, "must be at most %d servers, got %d", MaxServers, p.Servers)
	}
	if !(p.RequestsPerSec > 0) || math.IsInf(p.RequestsPerSec, 0) {
		add(KeyRate, "must be a rate above 0 requests per second, got %v", p.RequestsPerSec)
	} else if span := float64(max(p.Requests, 1)) / p.RequestsPerSec; !(span <= maxTime) {
		add(KeyRate, "%v requests per second is too small: %d requests would take the clock past %g seconds; expected at least %.3g", p.RequestsPerSec, max(p.Requests, 1), maxTime, float64(max(p.Requests, 1))/maxTime)
	}
	if p.Requests < 1 {
		add(KeyRequests, "must be at least 1 request, got %d", p.Requests)
	} else if p.Requests > MaxRequests {
		add(KeyRequests, "must be at most %d requests, got %d", MaxRequests, p.Requests)
	}
	if p.Method != RoundRobin && p.Method != Busyness {
		if hint := suggest.DidYouMean(string(p.Method), methods); hint != "" {
			add(KeyMethod, "%q is unknown%s", p.Method, hint)
		} else {
			add(KeyMethod, "%q is unknown; expected roundrobin or busyness", p.Method)
		}
	}
	if len(p.Types) == 0 {
		add(KeyTypes, "no request type; expected at least one, with %s", strings.Join(typeKeys, ", "))
	}
	if len(p.Types) > MaxTypes {
		add(KeyTypes, "%d request types, more than the limit of %d; expected a few types, each a class of requests", len(p.Types), MaxTypes)
		return out // each of so many would only repeat the point
	}
	if p.Servers >= 1 && p.Servers <= MaxServers && p.Servers*len(p.Types) > MaxCells {
		add(KeyServers, "%d servers × %d request types is %d, more than the limit of %d; expected fewer servers or types", p.Servers, len(p.Types), p.Servers*len(p.Types), MaxCells)
	}
	totalCapacity := 0
	sum, seen := 0.0, map[string]bool{}
	for _, t := range p.Types {
		if t.Name == "" {
			add(KeyTypes, "a request type has no name")
		}
		if seen[t.Name] {
			add(KeyTypes+"."+t.Name, "request type %q is defined twice", t.Name)
		}
		seen[t.Name] = true
		if t.OutputCapacity < 1 {
			add(typeKey(t.Name, KeyCapacity), "must be at least 1 unit, got %d", t.OutputCapacity)
		} else if t.OutputCapacity > MaxCapacity {
			add(typeKey(t.Name, KeyCapacity), "must be at most %d units, got %d", MaxCapacity, t.OutputCapacity)
		} else {
			totalCapacity += t.OutputCapacity
		}
		if !(t.Proportion >= 0 && t.Proportion <= 1) {
			add(typeKey(t.Name, KeyProportion), "must be between 0 and 1, got %v", t.Proportion)
		}
		if !(t.AvgServiceTimeSecs > 0) || math.IsInf(t.AvgServiceTimeSecs, 0) {
			add(typeKey(t.Name, KeyAvgService), "must be a time above 0 seconds, got %v", t.AvgServiceTimeSecs)
		} else if t.AvgServiceTimeSecs*float64(max(p.Requests, 1)) > maxTime {
			add(typeKey(t.Name, KeyAvgService), "%v seconds is too long: %d such services would take the clock past %g seconds", t.AvgServiceTimeSecs, max(p.Requests, 1), maxTime)
		}
		if !(t.DeviationServiceTimeSecs >= 0) || math.IsInf(t.DeviationServiceTimeSecs, 0) {
			add(typeKey(t.Name, KeyDevService), "must be 0 seconds or more, got %v", t.DeviationServiceTimeSecs)
		} else if t.DeviationServiceTimeSecs*float64(max(p.Requests, 1)) > maxTime {
			add(typeKey(t.Name, KeyDevService), "%v seconds is too wide: draws would take the clock past %g seconds", t.DeviationServiceTimeSecs, maxTime)
		}
		sum += t.Proportion
	}
	if totalCapacity > MaxCapacity {
		add(KeyTypes, "the output capacities add up to %d units, more than the limit of %d", totalCapacity, MaxCapacity)
	}
	if len(p.Types) > 0 && math.Abs(sum-1) > proportionSlop {
		add(sumKey, "the proportions add up to %v; they must add up to 1", strconv.FormatFloat(sum, 'g', 12, 64))
	}
	return out
}

// set parses text as the value of the top-level key (flags, YAML scalars
// and Settings cells all arrive as text). It checks the form (a whole
// number, a number) but not the range: that is Validate's.
func (p *Params) set(key, text string) string {
	text = strings.TrimSpace(text)
	switch key {
	case KeyServers:
		return parseWhole(text, &p.Servers)
	case KeyRequests:
		return parseWhole(text, &p.Requests)
	case KeyRate:
		return parseNumber(text, &p.RequestsPerSec)
	case KeyMethod:
		p.Method = Method(strings.ToLower(text))
		return ""
	case KeySeed:
		v, err := strconv.ParseUint(text, 10, 64)
		if err != nil {
			return fmt.Sprintf("%q is not a seed; expected a whole number from 0 to %d", text, uint64(math.MaxUint64))
		}
		p.Seed = v
		return ""
	}
	return fmt.Sprintf("unknown key %q", key)
}

// set parses text as the value of the request-type key.
func (t *RequestType) set(key, text string) string {
	text = strings.TrimSpace(text)
	switch key {
	case KeyCapacity:
		return parseWhole(text, &t.OutputCapacity)
	case KeyProportion:
		return parseNumber(text, &t.Proportion)
	case KeyAvgService:
		return parseNumber(text, &t.AvgServiceTimeSecs)
	case KeyDevService:
		return parseNumber(text, &t.DeviationServiceTimeSecs)
	}
	return fmt.Sprintf("unknown key %q", key)
}

// decimalComma is a number written with a decimal comma ("1,15").
var decimalComma = regexp.MustCompile(`^[+-]?[0-9]+,[0-9]+$`)

func parseNumber(text string, dst *float64) string {
	v, err := strconv.ParseFloat(text, 64)
	if err != nil && decimalComma.MatchString(text) {
		return fmt.Sprintf("%q is not a number: write it with a point for decimals (%s)", text, strings.Replace(text, ",", ".", 1))
	}
	if err != nil || math.IsNaN(v) {
		return fmt.Sprintf("%q is not a number", text)
	}
	*dst = v
	return ""
}

func parseWhole(text string, dst *int) string {
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || v != math.Trunc(v) || math.Abs(v) > 1<<53 {
		return fmt.Sprintf("%q is not a whole number", text)
	}
	*dst = int(v)
	return ""
}
