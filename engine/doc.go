// Package engine is websim's discrete-event simulation of web applications:
// requests arrive, enter an application server, call external servers and
// nested services, and finish completed, failed or abandoned.
//
// The engine takes a plain Model (no Excel, no expression language: those
// come in through the Dist, Number, Bool and Mode interfaces) and runs one
// load level of it with Run:
//
//	r, err := engine.Run(model, engine.RunConfig{Load: 0, Seed: 1, WarmUp: 1000, Observations: 100_000})
//
// # How a request moves
//
// A request picks an application server (LeastBusy: the fewest requests
// there, ties round robin; RandomServer; Cyclic), waits for admission when
// MaxAdmitted requests are already in, waits in that server's queue for one
// AppRes unit (FCFS, or InFlightFirst: units go to requests already in
// before new entries) and keeps it until it leaves. Its services run as a
// stack of (service, step) frames: a Local step delays it on the unit it
// holds; a Call takes one more unit (resource locking) and sends a job to
// an external server, which fails the step for the caller when the
// server's TimeLimit passes while the server still does the work (orphaned
// work); a Nested step runs one or more services, each Count times, in
// sequence, or in parallel: the parent takes one more unit and waits at a
// gate while the copies run (a copy's local work takes a unit of its own
// for its duration), the first failure releases it, and copies still
// running are discarded when they return (late copies), keeping their
// units until then.
//
// Taking a unit costs the resource acquisition time (RAT) unless a unit
// released less than TActive ago is free. Users may abandon a slow answer
// (Patience) and retry a failure (RetryProbability, RetryDelay,
// MaxRetries).
//
// # Token states
//
// A token is a request's main line of work, or one Parallel copy (token.go);
// its state is its cont field, plus the flags queued (in a unit queue),
// cancelled (its user gave up before it had a unit), localUnit (a copy
// holding the unit of its local work) and its gate's resolved (a late
// copy). Where it waits, and what moves it on:
//
//	state            waiting for                      next, on                               file
//	accept queue     admission (MaxAdmitted)          contEnter: a request leaves            app.go enter/leave
//	contEnter        its entry unit: queued, or RAT   contStep: unit usable (grant, evResume) app.go acquire/grant
//	contStep         nothing: runs its step           Local: contSuccessDraw after ProcTime   token.go execStep
//	                                                  Call: contSend once a unit is usable
//	                                                  Nested sequential: a frame pushed
//	                                                  Nested parallel: contFork, unit usable
//	contLocal        a copy's local unit              contSuccessDraw after ProcTime          token.go startWork
//	contSuccessDraw  its work's end (evResume)        contOutcome: SuccessRate drawn          token.go draw
//	contSend         the call's unit (queue, RAT)     contCallReturn: the job is sent         token.go send
//	contCallReturn   the answer (evJobDone)           contSuccessDraw; unit given back        server.go jobDone
//	                 or its TimeLimit (evTimeLimit)   contOutcome failed; unit given back     server.go timeout
//	contFork         the parent's unit                contGate: copies made, ready            token.go fork
//	contGate         its copies, at the gate          contSuccessDraw (all succeeded) or      token.go copyDone
//	                                                  contOutcome failed (first failure)
//	contOutcome      nothing: routes                  contStep (a step), or the service ends: token.go route
//	                                                  caller's frame, gate, next stage, END/EXIT
//	late copy        (its gate resolved)              runs to its end, then is discarded      token.go copyDone
//	cancelled        (in a queue, user gave up)       dropped when it reaches the head        app.go release
//	free             not working (slot idle)          newToken                                token.go
//
// A main token at END or EXIT gives back its entry unit and leaves; a
// failed attempt may come back as a retry (evRetry) with a new main token,
// in the same slot: request r's main token is always token r.
//
// # The event loop
//
// The calendar is a tournament tree (a winner tree) of events ordered by
// time, then priority, then sequence number, so that ties are first in,
// first out and a run is deterministic: each inner node holds the earliest
// event under it, and an event scheduled or removed replays its leaf's
// path to the root. A popped event keeps its leaf until the next schedule
// takes it in one replay, since most events schedule another; the keys
// are unique, so the order is that of any correct future-event list.
// Each entity's next arrival (up to 16 entities) waits in a slot beside
// the tree, compared with its root at each pop. A token (a request's line
// of work, or one Parallel copy) runs until it must wait; tokens woken at the same instant go through a ready queue
// rather than the calendar. Requests and tokens (sharing slots), jobs and
// gates live in slices and are recycled through free lists, so a
// long run allocates nothing per event; events carry generation counters so
// that a recycled slot never acts on a stale event.
//
// External servers keep no queue and put no background work on the
// calendar: they are FCFS and no job ever leaves their queue, so a job's
// start is known when it arrives (the earliest time a unit is free of the
// work already given, kept in a small tournament tree per server). Background jobs are
// drawn lazily up to the moment something asks the server, and only a
// call's answer is an event. Deadlocks are seen the moment they happen:
// each server counts the units held by blocked tokens (waiting in a unit
// queue, or Parallel parents whose copies still out are all blocked),
// updated a step per gate level on each change. A run can be extended
// (Start, Runner.Extend) from where it stopped, with the figures of one
// run of the final length.
//
// # Figures
//
// Statistics are running figures (batch means, whose shifted sums give
// the mean and standard deviation too and whose batches the confidence
// interval, a log-linear histogram for percentiles, counts of failed and
// abandoned requests in batches, time averages of busy units and queues),
// so memory stays flat however long the run. A
// run that shows no steady state (a deadlocked application server, or
// requests or jobs piling up) stops early with Result.Stable false and the
// reason; a model that fails at run time (an expression out of range, a
// routing loop that takes no time, a clock that cannot advance: ErrClock)
// returns a *RunError naming the cell. Result.Entities holds the same
// figures for each request type, and Result.Merge pools replications.
//
// Random numbers come from one PCG stream per purpose (each entity's
// arrivals, each server's service times, background load, routing draws,
// ...) seeded by (seed, load, replication) and never by scenario, so that
// scenarios compared at the same load see the same arrivals.
package engine
