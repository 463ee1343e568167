package engine

import (
	"math/rand/v2"
)

// Model is a complete web-application model as a plain Go value: what the
// workbooks describe, with every name resolved to an index and every
// distribution and expression already parsed. The engine never changes a
// Model, so one Model may serve many runs at once.
type Model struct {
	// Name labels the model in results (the folder name, say).
	Name string
	// TimeUnit labels every time in the model; it changes no figure.
	TimeUnit string
	// Loads are the labels of the load levels; Entity.InterArrival has one
	// distribution per label, in the same order.
	Loads []string
	// App describes the application servers.
	App AppConfig
	// Servers are the external servers, referenced by index from Step.Server.
	Servers []Server
	// Services are referenced by index from Step.Services and Stage.Service.
	Services []Service
	// Entities are the request types.
	Entities []Entity
	// Attributes names every attribute any entity has, in the order of
	// EvalContext.Attrs. Entity.Attributes refer to these by index.
	Attributes []string
	// Params are the Settings names and their values (user parameters
	// included), in the order of EvalContext.Params.
	Params []Param
}

// Param is a named number from the Settings sheet that expressions can read.
type Param struct {
	Name  string
	Value float64
}

// SelectionRule picks the application server an arriving request enters.
type SelectionRule uint8

const (
	// LeastBusy picks the server with the fewest requests there (paper 5.2,
	// LBS): units not free (held, or in their acquisition time) plus tokens
	// queued for a unit plus requests in its accept queue (MaxAdmitted). Ties
	// go round robin: to the first tied server after the one LBS chose
	// last. A pick costs O(log Servers).
	LeastBusy SelectionRule = iota
	// RandomServer picks a server uniformly at random.
	RandomServer
	// Cyclic deals arriving requests to the servers in turn.
	Cyclic
)

// String returns the rule's name as written in the Settings sheet.
func (r SelectionRule) String() string {
	switch r {
	case LeastBusy:
		return "LBS"
	case RandomServer:
		return "Random"
	case Cyclic:
		return "Cyclic"
	}
	return "unknown"
}

// AppConfig describes the application servers (paper 3.3 and 3.5).
type AppConfig struct {
	// Servers is the number of application servers (at least 1).
	Servers int
	// Capacity is the number of AppRes units of each server (at least 1).
	Capacity int
	// Selection is the rule that spreads arriving requests over the servers.
	Selection SelectionRule
	// RAT is the resource acquisition time paid when a unit is granted and
	// no active unit is free. Nil means RATParameter * AppUtil.
	RAT Number
	// RATParameter is the slope of the default RAT.
	RATParameter float64
	// TActive is how long a released unit stays active, to be captured
	// instantly (paper 3.5). Zero: every capture pays RAT.
	TActive float64
	// UnitQueue orders each server's queue for units: FCFS (the default)
	// or InFlightFirst.
	UnitQueue UnitQueue
	// MaxAdmitted bounds the requests admitted at once on each server
	// (from asking for their entry unit until they leave); more wait in
	// the server's accept queue, first come first served. 0: no limit.
	// With calls holding one extra unit, MaxAdmitted <= (Capacity-1)/2
	// can never deadlock.
	MaxAdmitted int
}

// UnitQueue is the order in which an application server grants units to
// the tokens waiting for one.
type UnitQueue uint8

const (
	// FCFS keeps one first-come-first-served queue for entries, calls,
	// Parallel parents and copies alike.
	FCFS UnitQueue = iota
	// InFlightFirst serves tokens of requests already admitted (calls,
	// Parallel parents, copies' local work) before new entries, FCFS
	// within each class: entries alone can then never take the last units
	// from requests that need one more to finish.
	InFlightFirst
)

// String returns the discipline's name as written in the Settings sheet.
func (q UnitQueue) String() string {
	switch q {
	case FCFS:
		return "FCFS"
	case InFlightFirst:
		return "InFlightFirst"
	}
	return "unknown"
}

// Server is an external (back-end) server with its own background load.
type Server struct {
	Name string
	// Capacity is the number of jobs served at once (at least 1).
	Capacity int
	// Cell locates the server's row for run-time errors about its
	// background load ("SvcData.xlsx!ServerInfo!A3"); it may be empty.
	// TimeLimitCell, BackgroundInterArrivalCell and
	// BackgroundServiceTimeCell locate those cells, for messages about
	// their values; Cell stands in where one is empty.
	Cell                                                                 string
	TimeLimitCell, BackgroundInterArrivalCell, BackgroundServiceTimeCell string
	// TimeLimit is how long a caller waits for an answer, counted from the
	// moment the call is sent; 0 means no limit. At the limit the call fails
	// for the caller while the server still does the work to its end.
	TimeLimit float64
	// BackgroundInterArrival and BackgroundServiceTime describe load from
	// other systems; both nil means none.
	BackgroundInterArrival Dist
	BackgroundServiceTime  Dist
}

// Service is a named list of steps (one ProcData sheet).
type Service struct {
	Name  string
	Steps []Step
}

// StepKind says what a step does.
type StepKind uint8

const (
	// Local processing on the application-server unit the request holds.
	Local StepKind = iota
	// Call sends a job to an external server while holding one more unit.
	Call
	// Nested runs other services, each Count times, in parallel or in
	// sequence.
	Nested
)

// StepTarget is where a step routes: a step index of its service, Done or
// Fail. A distinct type from StageTarget, so that End or Exit cannot be
// written where a step's target belongs, nor Done or Fail for a stage's.
type StepTarget int

// Routing targets inside a service, besides a step index.
const (
	// Done ends the service as a success.
	Done StepTarget = -1
	// Fail ends the service as a failure.
	Fail StepTarget = -2
)

// StageTarget is where an entity's service sequence goes next: a stage
// index, End or Exit.
type StageTarget int

// Routing targets in an entity's service sequence, besides a stage index.
const (
	// End ends the request as completed.
	End StageTarget = -1
	// Exit ends the request as failed.
	Exit StageTarget = -2
)

// Step is one row of a service sheet.
type Step struct {
	Name string
	Kind StepKind
	// ProcTime is the processing time (Local) or the service time at the
	// external server (Call). Nil means zero. Local processing in a
	// Parallel copy takes one more unit for its duration (a copy holds no
	// unit of its own), as a call does.
	ProcTime Dist
	// SuccessRate is the probability that the step succeeds; nil means 1.
	SuccessRate Number
	// Server is the external server of a Call.
	Server int
	// Services lists the nested services of a Nested step (the Service
	// cell "GetCards, GetAuth"), at least one. Each is run
	// Count times: in sequence, every run of the first, then of the second,
	// ...; in parallel, all copies are forked at once. Expressions of a
	// run see Copy, its number from 1 among the runs of its service.
	Services []int
	// Count is how many times a Nested step runs each of its services;
	// nil means 1.
	Count Number
	// Mode says "parallel" or "sequential" for a Nested step; nil means
	// sequential.
	Mode Mode
	// Condition skips the step as a success when false; nil means true.
	Condition Bool
	// OnSuccess and OnFailure are step indexes of this service, Done or Fail.
	OnSuccess, OnFailure StepTarget
	// Cell locates the step's row for run-time error messages
	// ("ProcData.xlsx!GWaySvc!A3"); it may be empty.
	Cell string
	// CountCell locates the Count cell, for messages about its values;
	// Cell stands in when it is empty. ProcTimeCell locates the ProcTime
	// cell likewise.
	CountCell, ProcTimeCell string
}

// Stage is one row of an entity's service sequence.
type Stage struct {
	Service int
	// OnSuccess and OnFailure are stage indexes, End or Exit.
	OnSuccess, OnFailure StageTarget
}

// Entity is a request type: how requests arrive, what they carry, the
// services they go through, and how their users behave.
type Entity struct {
	Name string
	// InterArrival has one distribution per Model.Loads; nil means no
	// arrivals of this type at that load.
	InterArrival []Dist
	// InterArrivalCells locate InterArrival's cells, in the same order
	// ("SvcData.xlsx!Arrivals!C2"), for run-time errors such as a clock
	// that stops advancing; it may be shorter or nil.
	InterArrivalCells []string
	// Cell locates the entity's Arrivals row, for errors about Patience,
	// RetryDelay and RetryProbabilityExpr; it may be empty. PatienceCell
	// and RetryDelayCell locate those cells, for messages about their
	// values; Cell stands in where one is empty.
	Cell                         string
	PatienceCell, RetryDelayCell string
	// Attributes are drawn once per request at arrival, in order.
	Attributes []Attribute
	// Stages is the service sequence; the first stage is the first service.
	Stages []Stage
	// Patience: a request unanswered this long after an attempt started is
	// abandoned by its user. Nil means users wait forever.
	Patience Dist
	// RetryProbability is the chance that a user retries after a failure.
	RetryProbability float64
	// RetryProbabilityExpr, when set, replaces RetryProbability: it is
	// evaluated after each failed attempt and sees Elapsed (the attempt's
	// time from its start to its failure) and TimedOut (a TimeLimit failed
	// it). It must give a probability from 0 to 1.
	RetryProbabilityExpr Number
	// RetryDelay is the time before a retry; nil means at once.
	RetryDelay Dist
	// MaxRetries caps the retries of one request.
	MaxRetries int
}

// Attribute gives a request attribute its value at arrival: either a draw
// from Dist or the value of Expr (which may read earlier attributes).
type Attribute struct {
	// Index is the attribute's place in Model.Attributes.
	Index int
	Dist  Dist
	Expr  Number
	Cell  string
}

// Dist is a probability distribution of non-negative times or counts.
// Implementations draw from the generator they are given and must not
// allocate in Sample.
type Dist interface {
	Sample(r *rand.Rand) float64
	Mean() float64
	// String prints the distribution in sheet syntax, e.g. "Exp(3)".
	String() string
}

// EvalContext is the live state an expression sees. The engine fills one
// per run and updates it before each evaluation; expressions must not keep
// it.
type EvalContext struct {
	// AppUtil is the busy fraction of the request's application server.
	AppUtil float64
	// Now is the simulated time.
	Now float64
	// Load is the label of the current load level.
	Load string
	// Attempt is the request's attempt number, from 1.
	Attempt int
	// Copy is the number, from 1, of the run of a nested service the
	// expression belongs to (a Parallel copy, or a repetition of a
	// sequential one) among the runs of that service; 0 outside.
	Copy int
	// Elapsed and TimedOut describe the failed attempt, for
	// RetryProbabilityExpr: its time from its start to its failure, and
	// whether a TimeLimit failed it. They are 0 and false elsewhere.
	Elapsed  float64
	TimedOut bool
	// Attrs are the request's attributes, indexed as Model.Attributes.
	Attrs []float64
	// Params are the Settings values, indexed as Model.Params.
	Params []float64
	// State answers util(server), queue(server) and busy(server).
	State ServerState
	// Machine is scratch space owned by the expression evaluator (a reused
	// virtual machine, say); one EvalContext is never shared between
	// goroutines, so neither is Machine. The engine never touches it.
	Machine any
}

// ServerState is the live state of servers, by index: external servers
// first (as Model.Servers), then the application servers as a whole at
// index len(Model.Servers) (the name "App").
type ServerState interface {
	// Util is the busy fraction of the server's capacity.
	Util(server int) float64
	// Queue is the number of jobs waiting for the server.
	Queue(server int) float64
	// Busy is the number of busy units.
	Busy(server int) float64
}

// Number is a compiled expression or constant that yields a number.
type Number interface {
	Number(c *EvalContext) (float64, error)
}

// Bool is a compiled expression that yields true or false.
type Bool interface {
	Bool(c *EvalContext) (bool, error)
}

// Mode is a compiled expression that yields Parallel or Sequential.
type Mode interface {
	Parallel(c *EvalContext) (bool, error)
}

// Const is a Number that is always the same value.
type Const float64

// Number returns c.
func (c Const) Number(*EvalContext) (float64, error) { return float64(c), nil }

// ConstBool is a Bool that never changes: a Condition of FALSE turns its
// step off (skipped as a success), which the routing check knows.
type ConstBool bool

// Bool returns b.
func (b ConstBool) Bool(*EvalContext) (bool, error) { return bool(b), nil }

// FixedMode is a Mode that never changes.
type FixedMode bool

// Parallel reports whether the mode is parallel.
func (m FixedMode) Parallel(*EvalContext) (bool, error) { return bool(m), nil }

// Possible modes as constants.
const (
	Sequential FixedMode = false
	Parallel   FixedMode = true
)

// ArrivalRate is the requests per time unit that arrive at load li: the
// sum over entities of 1 / the mean inter-arrival time there. An entity
// that does not arrive at li (no distribution), or whose mean is not a
// positive number, adds nothing.
func (m *Model) ArrivalRate(li int) float64 {
	rate := 0.0
	for _, e := range m.Entities {
		if li < len(e.InterArrival) && e.InterArrival[li] != nil {
			if mean := e.InterArrival[li].Mean(); mean > 0 {
				rate += 1 / mean
			}
		}
	}
	return rate
}
