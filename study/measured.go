package study

import (
	"math"
	"strings"
)

// MeasureUtilization is the measure of a Measured row that is a server's
// busy fraction ("utilization:GWay"); the row's Server names the server.
const MeasureUtilization Measure = "utilization"

// AppServer names the application servers in a utilization measure
// ("utilization:App"): their time-average busy fraction, all units.
const AppServer = "App"

// Measured is one row of the optional Measured sheet: a figure measured on
// the real system at one load, to be set beside the simulated one.
type Measured struct {
	// Entity is the request type the figure is about, "" for all requests.
	Entity string
	// Load is the load level's label, as an Arrivals header.
	Load string
	// Measure is a Targets measure (mean, p50..p99 of response time, or
	// the failed or abandoned share) or MeasureUtilization.
	Measure Measure
	// Server names the server of a utilization: an external server, or
	// AppServer. "" for the other measures.
	Server string
	// Value is the measured figure: a time in TimeUnit, or a share 0..1.
	Value float64
	// Cell locates the row (SvcData.xlsx!Measured!A2), for messages.
	Cell string
	// OnlyEntity is set when Entity is the model's only entity type: its
	// figures are those of all requests.
	OnlyEntity bool
}

// What is the measure as the sheet writes it: "p95", "utilization:GWay".
func (m Measured) What() string {
	if m.Measure == MeasureUtilization {
		return string(m.Measure) + ":" + m.Server
	}
	return string(m.Measure)
}

// IsShare reports whether the figure is a share 0..1 (failed, abandoned, a
// utilization) rather than a time.
func (m Measured) IsShare() bool { return m.Measure.IsShare() || m.Measure == MeasureUtilization }

// Comparison is a Measured row set beside the simulated figure of a run.
type Comparison struct {
	Measured
	// Simulated is the run's figure; NaN when the run has none (no request
	// completed).
	Simulated float64
	// HalfWidth95 is the half-width of the simulated figure's 95%
	// confidence interval; NaN when none is known, and Why says why.
	HalfWidth95 float64
	Why         string
}

// DifferencePercent is how far the simulated figure is from the measured
// one, in percent of the measured: 100 × (simulated − measured) / measured.
// NaN when the measured figure is 0 or there is no simulated one.
func (c Comparison) DifferencePercent() float64 {
	if c.Value == 0 || math.IsNaN(c.Simulated) {
		return math.NaN()
	}
	return 100 * (c.Simulated - c.Value) / c.Value
}

// Inside reports whether the measured figure lies inside the simulated
// figure's 95% interval, Simulated ± HalfWidth95 (ends included); known is
// false when there is no interval.
func (c Comparison) Inside() (inside, known bool) {
	if math.IsNaN(c.HalfWidth95) || math.IsNaN(c.Simulated) {
		return false, false
	}
	return math.Abs(c.Value-c.Simulated) <= c.HalfWidth95, true
}

// Validate sets beside run's figures the rows of measured taken at its
// load, in their order.
//
// The intervals are those the run has, as Judge uses them (measureInterval
// on the figures of all requests or of the entity): the mean's batch
// means for one replication and Student t across replications, the
// percentiles' the engine's own (pooled over replications), shares from
// the batch means of the outcomes or across replications; for a
// utilization none (the engine keeps no interval for it). A run that is
// not stable has no steady state, so no interval: its figure is given, and
// Why says so.
func Validate(measured []Measured, run *Run) []Comparison {
	var out []Comparison
	for _, m := range measured {
		if m.Load != run.Load {
			continue
		}
		c := simulated(m, run)
		if r := &run.Result; !r.Stable {
			c.HalfWidth95, c.Why = math.NaN(), "the run is not stable: "+r.Unstable
		}
		if c.Value == 0 && !math.IsNaN(c.Simulated) {
			// No share of nothing: the difference stands as it is.
			c.Why = joinWhy("no relative difference from a measured 0", c.Why)
		}
		out = append(out, c)
	}
	return out
}

// joinWhy joins the reasons that are not empty with "; ".
func joinWhy(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

// simulated finds the figure of run that m measures, and its interval.
func simulated(m Measured, run *Run) Comparison {
	c := Comparison{Measured: m, Simulated: math.NaN(), HalfWidth95: math.NaN()}
	r := &run.Result
	switch {
	case m.Measure == MeasureUtilization:
		c.Why = "no interval is kept for a utilization"
		if strings.EqualFold(m.Server, AppServer) {
			c.Simulated = r.AppUtilization
			return c
		}
		for _, s := range r.Servers {
			if s.Name == m.Server {
				c.Simulated = s.Utilization
				return c
			}
		}
		c.Why = "the run has no server " + m.Server
		return c
	}
	// Everything else is judged as a target on the same figures would be:
	// all requests or the entity's, from the run or its replications.
	f, reps, ok, why := basisFor(Target{Entity: m.Entity, Measure: m.Measure, OnlyEntity: m.OnlyEntity}, run)
	if !ok {
		c.Why = why
		return c
	}
	value, hw, ok, why := measureInterval(&f, reps, m.Measure)
	c.Simulated = value
	if ok {
		c.HalfWidth95 = hw
	} else {
		c.Why = why
	}
	return c
}
