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
	// Services are referenced by index from Step.Service and Stage.Service.
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
	// LeastBusy picks the server with the fewest units not free (held or in
	// their acquisition time), the lowest number on ties (paper 5.2, LBS).
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
}

// Server is an external (back-end) server with its own background load.
type Server struct {
	Name string
	// Capacity is the number of jobs served at once (at least 1).
	Capacity int
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
	// Nested runs another service Count times, in parallel or in sequence.
	Nested
)

// Routing targets inside a service: a step index, or one of these.
const (
	// Done ends the service as a success.
	Done = -1
	// Fail ends the service as a failure.
	Fail = -2
)

// Routing targets in an entity's service sequence: a stage index, or these.
const (
	// End ends the request as completed.
	End = -1
	// Exit ends the request as failed.
	Exit = -2
)

// Step is one row of a service sheet.
type Step struct {
	Name string
	Kind StepKind
	// ProcTime is the processing time (Local) or the service time at the
	// external server (Call). Nil means zero.
	ProcTime Dist
	// SuccessRate is the probability that the step succeeds; nil means 1.
	SuccessRate Number
	// Server is the external server of a Call.
	Server int
	// Service is the nested service of a Nested step.
	Service int
	// Count is how many times a Nested step runs its service; nil means 1.
	Count Number
	// Mode says "parallel" or "sequential" for a Nested step; nil means
	// sequential.
	Mode Mode
	// Condition skips the step as a success when false; nil means true.
	Condition Bool
	// OnSuccess and OnFailure are step indexes of this service, Done or Fail.
	OnSuccess, OnFailure int
	// Cell locates the step's row for run-time error messages
	// ("ProcData.xlsx!GWaySvc!A3"); it may be empty.
	Cell string
}

// Stage is one row of an entity's service sequence.
type Stage struct {
	Service int
	// OnSuccess and OnFailure are stage indexes, End or Exit.
	OnSuccess, OnFailure int
}

// Entity is a request type: how requests arrive, what they carry, the
// services they go through, and how their users behave.
type Entity struct {
	Name string
	// InterArrival has one distribution per Model.Loads; nil means no
	// arrivals of this type at that load.
	InterArrival []Dist
	// Attributes are drawn once per request at arrival, in order.
	Attributes []Attribute
	// Stages is the service sequence; the first stage is the first service.
	Stages []Stage
	// Patience: a request unanswered this long after an attempt started is
	// abandoned by its user. Nil means users wait forever.
	Patience Dist
	// RetryProbability is the chance that a user retries after a failure.
	RetryProbability float64
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

// FixedMode is a Mode that never changes.
type FixedMode bool

// Parallel reports whether the mode is parallel.
func (m FixedMode) Parallel(*EvalContext) (bool, error) { return bool(m), nil }

// Possible modes as constants.
const (
	Sequential FixedMode = false
	Parallel   FixedMode = true
)
