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
// A request picks an application server (LeastBusy, RandomServer or
// Cyclic), waits in that server's first-come-first-served queue for one
// AppRes unit and keeps it until it leaves. Its services run as a stack of
// (service, step) frames: a Local step delays it on the unit it holds; a
// Call takes one more unit (resource locking) and sends a job to an
// external server, which fails the step for the caller when the server's
// TimeLimit passes while the server still does the work (orphaned work); a
// Nested step runs another service Count times, in sequence, or in
// parallel: the parent takes one more unit and waits at a gate while the
// copies run, the first failure releases it, and copies still running are
// discarded when they return (late copies).
//
// Taking a unit costs the resource acquisition time (RAT) unless a unit
// released less than TActive ago is free. Users may abandon a slow answer
// (Patience) and retry a failure (RetryProbability, RetryDelay,
// MaxRetries).
//
// # The event loop
//
// The calendar is a binary heap of 24-byte events ordered by time, then
// priority, then sequence number, so that ties are first in, first out and
// a run is deterministic. A token (a request's line of work, or one
// Parallel copy) runs until it must wait; tokens woken at the same instant
// go through a ready queue rather than the calendar. Requests, tokens,
// jobs and gates live in slices and are recycled through free lists, so a
// long run allocates nothing per event; events carry generation counters so
// that a recycled slot never acts on a stale event.
//
// # Figures
//
// Statistics are running figures (Welford means, a log-linear histogram
// for percentiles, batch means for the confidence interval, time averages
// of busy units and queues), so memory stays flat however long the run. A
// run that shows no steady state (a deadlocked application server, or
// requests or jobs piling up) stops early with Result.Stable false and the
// reason; a model that fails at run time (an expression out of range, a
// routing loop that takes no time) returns a *RunError naming the cell.
//
// Random numbers come from one PCG stream per purpose (each entity's
// arrivals, each server's service times, background load, routing draws,
// ...) seeded by (seed, load, replication) and never by scenario, so that
// scenarios compared at the same load see the same arrivals.
package engine
