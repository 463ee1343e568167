package report

import (
	"encoding/json"
	"io"
	"math"
	"time"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/study"
)

// Number is a float64 that encodes NaN and ±Inf as null (JSON has no such
// numbers); a run with no completed request has no mean response.
type Number float64

// MarshalJSON encodes n as a JSON number, or null when it is not finite.
func (n Number) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}

// JSONStudy is the document WriteJSON prints (contract section 5); the
// fields after the contract's own are extras.
type JSONStudy struct {
	Model    string    `json:"model"`
	TimeUnit string    `json:"timeUnit"`
	Runs     []JSONRun `json:"runs"`

	Version   string            `json:"version"`
	Seed      uint64            `json:"seed"`
	Started   *time.Time        `json:"started,omitempty"`
	Scenarios []string          `json:"scenarios"`
	Loads     []string          `json:"loads"`
	Inputs    map[string]string `json:"inputs,omitempty"`
	Warnings  []string          `json:"warnings"`
}

// JSONRun is one scenario at one load.
type JSONRun struct {
	Scenario       string                `json:"scenario"`
	Load           string                `json:"load"`
	Replications   int                   `json:"replications"`
	Observations   int64                 `json:"observations"`
	Arrivals       int64                 `json:"arrivals"`
	Completed      int64                 `json:"completed"`
	Failed         int64                 `json:"failed"`
	Abandoned      int64                 `json:"abandoned"`
	Retries        int64                 `json:"retries"`
	Timeouts       int64                 `json:"timeouts"`
	ResponseTime   JSONSummary           `json:"responseTime"`
	AppUtilization Number                `json:"appUtilization"`
	Servers        map[string]JSONServer `json:"servers"`
	Entities       map[string]JSONEntity `json:"entities"`
	Stable         bool                  `json:"stable"`
	Events         int64                 `json:"events"`
	WallSeconds    Number                `json:"wallSeconds"`

	Unstable string `json:"unstable,omitempty"`
	// Untested is true for a stable run too short to be tested for a
	// steady state (engine.Result.Untested).
	Untested            bool                  `json:"untested,omitempty"`
	AttemptResponseTime JSONSummary           `json:"attemptResponseTime"`
	DiffFromBase        *JSONDiff             `json:"diffFromBase,omitempty"`
	FailureShare        *Number               `json:"failureShare"`
	InstantCaptureShare *Number               `json:"instantCaptureShare"`
	ParallelShare       *Number               `json:"parallelShare"`
	AppQueue            Number                `json:"appQueue"`
	AppServers          map[string]JSONServer `json:"appServers"`
	Attempts            int64                 `json:"attempts"`
	AttemptsPerRequest  *Number               `json:"attemptsPerRequest"`
	InSystem            int64                 `json:"inSystem"`
	LateCopies          int64                 `json:"lateCopies"`
	CountOverLimit      int64                 `json:"countOverLimit"`
	WastedWork          Number                `json:"wastedWork"`
	WarmUp              Number                `json:"warmUp"`
	SimTime             Number                `json:"simTime"`
	PrecisionCapHit     bool                  `json:"precisionCapHit"`
	// Targets are the Targets sheet's rows judged at this run.
	Targets  []JSONTarget   `json:"targets"`
	Timeline []JSONInterval `json:"timeline"`
	// TimelineReplication is the replication (from 1) whose course
	// Timeline is: the first, or the first unstable one of a pool that
	// is not stable.
	TimelineReplication int `json:"timelineReplication"`
	// Measured are the Measured sheet's rows of this run's load, set
	// beside its figures.
	Measured []JSONMeasured `json:"measured"`
}

// JSONEntity is one entity's (request type's) figures in a run.
type JSONEntity struct {
	Arrivals     int64       `json:"arrivals"`
	Completed    int64       `json:"completed"`
	Failed       int64       `json:"failed"`
	Abandoned    int64       `json:"abandoned"`
	ResponseTime JSONSummary `json:"responseTime"`
}

// JSONInterval is one interval of a run's timeline (an extra).
type JSONInterval struct {
	Start          Number `json:"start"`
	End            Number `json:"end"`
	Completed      int64  `json:"completed"`
	MeanResponse   Number `json:"meanResponse"`
	InSystem       Number `json:"inSystem"`
	AppUtilization Number `json:"appUtilization"`
}

// JSONSummary describes a sample of times; n, min and max are extras.
type JSONSummary struct {
	Mean          Number `json:"mean"`
	SD            Number `json:"sd"`
	P50           Number `json:"p50"`
	P90           Number `json:"p90"`
	P95           Number `json:"p95"`
	P99           Number `json:"p99"`
	CIHalfWidth95 Number `json:"ciHalfWidth95"`
	// P50CIHalfWidth95 to P99CIHalfWidth95 are the 95% half-widths of
	// P50 to P99 (engine.Summary's).
	P50CIHalfWidth95 Number `json:"p50CiHalfWidth95"`
	P90CIHalfWidth95 Number `json:"p90CiHalfWidth95"`
	P95CIHalfWidth95 Number `json:"p95CiHalfWidth95"`
	P99CIHalfWidth95 Number `json:"p99CiHalfWidth95"`
	N                int64  `json:"n"`
	Min              Number `json:"min"`
	Max              Number `json:"max"`
}

// JSONServer is one server's figures; the contract names utilization,
// meanQueue and timeouts, the rest are extras.
type JSONServer struct {
	Utilization Number `json:"utilization"`
	MeanQueue   Number `json:"meanQueue"`
	// MeanAcceptQueue is, on an application server with MaxAdmitted, the
	// mean number of requests waiting to be admitted; absent elsewhere.
	MeanAcceptQueue *Number `json:"meanAcceptQueue,omitempty"`
	Timeouts        int64   `json:"timeouts"`
	Capacity        int     `json:"capacity"`
	Jobs            int64   `json:"jobs"`
	OrphanJobs      int64   `json:"orphanJobs"`
	OrphanWork      Number  `json:"orphanWork"`
}

// JSONDiff is the difference of mean response from the first scenario.
// Its half-width is given under both names: ciHalfWidth95, as every other
// interval of the document has it, and halfWidth95, as earlier versions
// wrote it.
type JSONDiff struct {
	Mean          Number `json:"mean"`
	CIHalfWidth95 Number `json:"ciHalfWidth95"`
	HalfWidth95   Number `json:"halfWidth95"`
}

// WriteJSON writes the study as one JSON document (contract section 5),
// indented, followed by a newline.
func WriteJSON(w io.Writer, s *study.Study) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(NewJSONStudy(s))
}

// NewJSONStudy converts a study to its JSON document.
func NewJSONStudy(s *study.Study) *JSONStudy {
	doc := &JSONStudy{
		Model: s.Model, TimeUnit: s.TimeUnit, Runs: []JSONRun{},
		Version: s.Version, Seed: s.Seed,
		Scenarios: nonNil(s.Scenarios), Loads: nonNil(s.Loads), Warnings: nonNil(s.Warnings),
	}
	if !s.Started.IsZero() {
		t := s.Started
		doc.Started = &t
	}
	if len(s.Inputs) > 0 {
		doc.Inputs = map[string]string{}
		for _, in := range s.Inputs {
			doc.Inputs[in.Name] = in.SHA256
		}
	}
	for i := range s.Runs {
		jr := jsonRun(&s.Runs[i])
		jr.Targets = jsonTargets(study.Judge(s.Targets, &s.Runs[i]))
		jr.Measured = jsonMeasured(study.Validate(s.Measured, &s.Runs[i]))
		doc.Runs = append(doc.Runs, jr)
	}
	return doc
}

func jsonRun(run *study.Run) JSONRun {
	r := &run.Result
	out := JSONRun{
		Scenario: run.Scenario, Load: run.Load, Replications: run.Replications,
		Observations: finished(r), Arrivals: r.Arrivals,
		Completed: r.Completed, Failed: r.Failed, Abandoned: r.Abandoned,
		Retries: r.Retries, Timeouts: r.Timeouts,
		ResponseTime:   jsonSummary(&r.Response),
		AppUtilization: Number(r.AppUtilization),
		Servers:        map[string]JSONServer{},
		Stable:         r.Stable, Events: r.Events, WallSeconds: Number(run.WallSeconds),

		Unstable:            r.Unstable,
		Untested:            r.Stable && r.Untested,
		AttemptResponseTime: jsonSummary(&r.AttemptResponse),
		FailureShare:        shareNumber(r.Failed, finished(r)),
		InstantCaptureShare: shareNumber(r.InstantCaptures, r.Captures),
		ParallelShare:       shareNumber(r.ParallelSteps, r.ParallelSteps+r.SequentialSteps),
		AppQueue:            Number(r.AppQueue),
		AppServers:          map[string]JSONServer{},
		Attempts:            r.Attempts, InSystem: r.InSystem, LateCopies: r.LateCopies, CountOverLimit: r.CountOverLimit,
		AttemptsPerRequest: ratioNumber(r.Attempts, finished(r)),
		WastedWork:         Number(r.WastedWork), WarmUp: Number(r.WarmUp), SimTime: Number(r.SimTime),
		PrecisionCapHit: run.PrecisionCapHit, Measured: []JSONMeasured{},
	}
	if run.Diff != nil {
		out.DiffFromBase = &JSONDiff{Number(run.Diff.Mean), Number(run.Diff.HalfWidth95), Number(run.Diff.HalfWidth95)}
	}
	for i := range r.Servers {
		out.Servers[r.Servers[i].Name] = jsonServer(&r.Servers[i])
	}
	for i := range r.AppServers {
		out.AppServers[appName(i)] = jsonServer(&r.AppServers[i])
	}
	out.Entities = map[string]JSONEntity{}
	for i := range r.Entities {
		e := &r.Entities[i]
		out.Entities[e.Name] = JSONEntity{Arrivals: e.Arrivals, Completed: e.Completed, Failed: e.Failed,
			Abandoned: e.Abandoned, ResponseTime: jsonSummary(&e.Response)}
	}
	out.Timeline, out.TimelineReplication = []JSONInterval{}, r.TimelineReplication+1
	for _, iv := range r.Timeline {
		out.Timeline = append(out.Timeline, JSONInterval{Number(iv.Start), Number(iv.End), iv.Completed,
			Number(iv.MeanResponse()), Number(iv.InSystem), Number(iv.AppUtilization)})
	}
	return out
}

func jsonSummary(s *engine.Summary) JSONSummary {
	if s.N == 0 {
		nan := Number(math.NaN())
		return JSONSummary{nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, 0, nan, nan}
	}
	return JSONSummary{
		Mean: Number(s.Mean), SD: Number(s.SD), P50: Number(s.P50), P90: Number(s.P90),
		P95: Number(s.P95), P99: Number(s.P99), CIHalfWidth95: Number(s.CIHalfWidth95),
		P50CIHalfWidth95: Number(s.P50CIHalfWidth95), P90CIHalfWidth95: Number(s.P90CIHalfWidth95),
		P95CIHalfWidth95: Number(s.P95CIHalfWidth95), P99CIHalfWidth95: Number(s.P99CIHalfWidth95),
		N: s.N, Min: Number(s.Min), Max: Number(s.Max),
	}
}

func jsonServer(s *engine.ServerResult) JSONServer {
	js := JSONServer{
		Utilization: Number(s.Utilization), MeanQueue: Number(s.MeanQueue), Timeouts: s.Timeouts,
		Capacity: s.Capacity, Jobs: s.Jobs, OrphanJobs: s.OrphanJobs, OrphanWork: Number(s.OrphanWork),
	}
	if s.HasAcceptQueue {
		q := Number(s.MeanAcceptQueue)
		js.MeanAcceptQueue = &q
	}
	return js
}

func shareNumber(num, den int64) *Number {
	if den == 0 {
		return nil
	}
	n := Number(float64(num) / float64(den))
	return &n
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// ratioNumber is a/b, or nil (null) when b is 0.
func ratioNumber(a, b int64) *Number {
	if b == 0 {
		return nil
	}
	n := Number(float64(a) / float64(b))
	return &n
}
