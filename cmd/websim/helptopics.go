package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/websim/websim/engine/dist"
	"github.com/websim/websim/rules"
	"github.com/websim/websim/templates"
	"github.com/websim/websim/workbook"
)

// distributionNotes say what each distribution is, by its name in
// dist.Forms; a form without a note is printed with its parameters alone.
var distributionNotes = map[string]string{
	"Exp":        "exponential with that mean (Poisson arrivals: the time between them)",
	"Uniform":    "any value from min to max, evenly",
	"UniformInt": "a whole number from min to max, each as likely",
	"Normal":     "normal; values <= 0 are drawn again",
	"LogNormal":  "log-normal with that mean and standard deviation (of the values, not of their logs)",
	"Triangular": "from min to max, most likely at mode",
	"Erlang":     "the sum of k exponentials, of that mean in all",
	"Gamma":      "gamma with that shape and scale (mean shape × scale)",
	"Weibull":    "Weibull with that shape and scale",
	"Const":      "always x; a plain number (12.5) is the same",
	"EXPO":       "Arena's Exp",
	"UNIF":       "Arena's Uniform",
	"NORM":       "Arena's Normal",
	"TRIA":       "Arena's Triangular",
	"LOGN":       "Arena's log-normal: its LogMean and LogStd are, as in Arena, the mean and standard deviation of the values themselves, not of their logarithm",
	"ERLA":       "Arena's Erlang: the mean of one phase, then k",
	"GAMM":       "Arena's Gamma: scale (beta), then shape (alpha)",
	"WEIB":       "Arena's Weibull: scale (beta), then shape (alpha)",
}

// writeDistributionsHelp is the `distributions` topic, from dist.Forms.
func writeDistributionsHelp(w io.Writer) error {
	var b strings.Builder
	b.WriteString("Distributions: what a cell of Arrivals (inter-arrival times), ProcTime,\n" +
		"Patience, RetryDelay, BackgroundInterArrival, BackgroundServiceTime or\n" +
		"Attributes may hold. Names ignore case; times are in the model's TimeUnit.\n\n")
	arena := false
	for _, f := range dist.Forms() {
		if f.Arena && !arena {
			b.WriteString("\nArena's spellings, accepted too:\n")
			arena = true
		}
		form := f.Name + "(" + strings.Join(f.Params, ", ") + ")"
		fmt.Fprintf(&b, "  %-28s %s\n", form, distributionNotes[f.Name])
	}
	b.WriteString("\nNone in a load column of Arrivals: the entity does not arrive at that load.\n" +
		"Examples: Exp(20)   Uniform(5, 15)   UniformInt(1, 6)   LogNormal(23.1, 8.4)   35\n" +
		"websim fit DATA ranks distributions for measured times and prints the best as a cell.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSheetsHelp is the `sheets` topic: each input sheet with its columns
// (from workbook's specs, notes from the templates), then the table of
// built-in settings and the limits.
func writeSheetsHelp(w io.Writer) error {
	var b strings.Builder
	b.WriteString("The input sheets. Headers are matched ignoring case, spaces and underscores;\n" +
		"columns and sheets websim does not know are left alone (your notes).\n")
	for _, s := range workbook.Sheets() {
		need := "optional"
		if s.Required {
			need = "required"
		}
		fmt.Fprintf(&b, "\n%s!%s (%s): %s\n", s.File, s.Sheet, need, s.About)
		for _, c := range append(slices.Clip(s.Columns), s.Kept...) {
			mark := " "
			if slices.Contains(s.Needed, c) {
				mark = "*"
			}
			fmt.Fprintf(&b, "  %s %s", mark, c)
			if note := templates.ColumnNote(s.Sheet, c); note != "" {
				fmt.Fprintf(&b, ": %s", note)
			}
			b.WriteString("\n")
		}
		if s.More != "" {
			fmt.Fprintf(&b, "    and %s\n", s.More)
		}
	}
	b.WriteString("\n(* the column must be present)\n\nBuilt-in settings (Settings sheet, and Experiments columns):\n")
	for _, s := range workbook.BuiltinSettings {
		kind := s.Kind.String()
		if len(s.Choices) > 0 {
			kind = strings.Join(s.Choices, " | ")
		}
		if s.Limits != "" {
			kind += "; " + s.Limits
		}
		fmt.Fprintf(&b, "  %-16s %s (%s; default %s)\n", s.Name, s.Help, kind, s.Default)
	}
	b.WriteString("  any other name    a parameter of your own, usable by name in every expression\n")
	b.WriteString("\nLimits (a model beyond one is refused when read, at the cell, with the limit):\n")
	for _, l := range workbook.Limits() {
		fmt.Fprintf(&b, "  %s: at most %s (%s)\n", l.What, l.Largest(), l.Why)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeExpressionsHelp is the `expressions` topic.
func writeExpressionsHelp(w io.Writer) error {
	text := `Expressions: what SuccessRate, Condition, Count, Mode, RAT, RetryProbability
and Attributes cells may compute (github.com/expr-lang/expr syntax), compiled
once when the model is read.

Names every expression sees:
` + "  " + strings.Join(rules.BuiltinNames(), ", ") + `
  AppUtil   busy fraction of the request's application server, 0..1
  Now       the simulated time
  Load      the load's label ("L5")
  Attempt   the attempt's number, from 1
  Copy      the run's number, 1 to Count, in a service that a Nested step
            runs (a Parallel copy, or a run in sequence; each listed
            service numbers its own runs, and so does a service nested
            inside); 0 in an entity's own service
  Elapsed   RetryProbability only: the failed attempt's time
  TimedOut  RetryProbability only: true when a TimeLimit failed it
  and every attribute of the request and every Settings name (parameters too)

Functions:
  util(server), queue(server), busy(server)   a server's utilization, queue, busy units
                                              (server: a ServerInfo name, or "App")
  exp, log, sqrt, pow, abs, min, max, round, ceil, floor
  AND, OR, NOT, IF (Excel's, accepted too)
  (exp(x) is e to the x; Exp(20), spelt as the distribution, is refused:
  an expression draws nothing, an attribute does)

Operators: + - * / % ** == != < <= > >= and or not, cond ? a : b, "text".
Excel's forms mean the same: = and <> compare, AND(a, b), OR(a, b), NOT(a),
IF(cond, a, b). Text is in double quotes.

Examples:
  Mode         AppUtil < SwitchUtil ? "parallel" : "sequential"
  SuccessRate  Cards > 3 ? 0.99 : 0.999
  Condition    Attempt == 1
  RAT          RATParameter * AppUtil
  RetryProbability  TimedOut ? 0.5 : 0.9
`
	_, err := io.WriteString(w, text)
	return err
}

// writeJSONHelp is the `json` topic: what websim run, merge, size, fit
// and lb print with --json.
func writeJSONHelp(w io.Writer) error {
	text := `websim run --json prints one JSON document on stdout (websim merge --json the
same). Times are in the model's TimeUnit; shares are 0..1; a figure that has
no value (no completed request) is null.

  model, timeUnit, version, seed, started, scenarios, loads, inputs (SHA-256
  of each workbook), warnings
  runs: one per scenario × load, replications pooled:
    scenario, load, replications, observations (requests finished after the
    warm-up), arrivals (after the warm-up: with one, arrivals and
    inSystem need not add up to the finished), completed, failed,
    abandoned, retries, timeouts, attempts
    responseTime: mean, sd, p50, p90, p95, p99, ciHalfWidth95 (95% half-width
      of the mean; null for a run of 300 observations or more worth fewer
      than 30 independent ones, a queue at the edge of saturation),
      p50CiHalfWidth95, p90CiHalfWidth95, p95CiHalfWidth95 and
      p99CiHalfWidth95 (of p50 to p99; null with one run of too few
      requests beyond it: p99 needs 100,000 completed, p95 20,000, p90
      10,000), n, min, max
    attemptResponseTime: the same from the start of the attempt that
      completed each request (its n is the completed requests; attempts
      that failed or were abandoned are not in it)
    appUtilization, appQueue (mean requests waiting for a unit); these
      and the servers' utilization and mean queues are null for a run
      stopped before its warm-up ended
    servers: {NAME: utilization, meanQueue, timeouts, capacity, jobs,
      orphanJobs, orphanWork}; appServers: the same for App1..AppN, and
      with MaxAdmitted meanAcceptQueue (mean requests waiting to be
      admitted, in front of the server's units)
    entities: {NAME: arrivals, completed, failed, abandoned, responseTime}
    targets: [{entity, measure, limit, value, ciHalfWidth95, verdict, why}]
      (verdict holds, fails or undecided; why, for a verdict that does
      not hold, says why in words: where the interval lies, no interval,
      or the run is not stable, which has no interval)
    measured: [{entity, measure, measured, simulated, ciHalfWidth95,
      differencePercent, inside, note, cell}]: the Measured sheet's rows of
      this load beside the simulated figures (the Validation sheet);
      ciHalfWidth95 and inside are null where the run has no interval
    stable (false: no steady state), unstable (why, which server, when),
      untested (true: stable, but under 1,000 observations, too short to
      be tested for a steady state; absent otherwise)
    diffFromBase: {mean, ciHalfWidth95 (also as halfWidth95)} of mean response against the first
      scenario at the same load (paired); absent for the first scenario
    failureShare, instantCaptureShare, parallelShare, attemptsPerRequest
    inSystem (requests still in the system at the end), lateCopies,
    countOverLimit (Nested steps failed after the warm-up: their Count
      passed 10,000; a warning names the cells),
    wastedWork, warmUp, simTime (simulated time at the end), events,
    wallSeconds, precisionCapHit
    timeline: [{start, end, completed, meanResponse, inSystem,
      appUtilization}], at most 50 intervals of simulated time, warm-up
      included (the Timeline sheet), of replication timelineReplication
      (from 1: the first, or when the run is not stable, the first
      replication that was not)

websim size --json prints {setting, points, model, timeUnit, version, seed,
targets: [{entity, measure, limit}] (the Targets sheet), warnings}; each of
points is {scenario, load, size (the smallest value at which every target
holds; null when none up to --max does), runs, outcome (found, none,
undecided: undecided at --max, not monotone), text (the answer in words,
which says when the value below the size was undecided and may do), probes,
simulations, min, max}, and runs are the runs at the answer and just below it, as in run
--json with settingValue and verdict (of all targets at that value).

websim fit --json prints {observations (the values fitted), fits:
[{distribution (the cell to paste), aic (null for Const), ks
(Kolmogorov-Smirnov distance), pValue (parametric bootstrap; null when not
computed), mean and sd (of the cell as the model draws it), meanShift (its
mean against the data's, a share: 0.209 is 20.9% above), meanOff (true when
the data's mean lies outside what as many values drawn from the cell would
average, 95%, and more than 1% from it)}] best first, mean and sd (of the
data), keepsMean (when the best fit's mean is off: a cell set to the data's
mean and sd, as an element of fits; else null), source
(the file as named, with its sheet for a workbook), column (its header, or
its number or letter when it has none), bootstrap: {replicates (refits behind
each p-value), seed, tested (the values the p-values are computed on: all,
or a random subsample)}, skipped: [{family, reason}] (distributions left out
of the ranking, and why; [] when none is)}.

websim lb --json prints the figures of all requests: requests, failed (found
no unit of their type on their server), waited (found every unit of their
type busy), waitedPercent (100 × waited / requests, failed included: a
percentage, not a share), totalWait (seconds waited, summed), meanWait (over
the served requests), waitShareOfService (totalWait over their service time,
a ratio), p95Wait (95th percentile of the served requests' waits), share (of
all requests: 1 here), arrivalRate (requests a second, over the time of the
last arrival); then
  perServer: requests sent to each server, in server order
  byType: {TYPE: the same figures for the type (share: its part of all
    requests), capacity (its units on each server), requestsPerServer,
    waitedPercentPerServer}
  servers, requestsPerSec, method, seed, replications (as run, flags
    included), simulatedTime (seconds to the last arrival)
  ciHalfWidth95, with --replications 2 or more, at the top and in each
    byType entry: the 95% half-widths of the same figures (Student t);
    the figures are then means over the replications
  overloaded: the request types whose offered work is at least their
    units, [{type, server (null: all servers), load (offered work / units),
    units, message}], [] when none is
Times are in seconds.
`
	_, err := io.WriteString(w, text)
	return err
}

// writeExitCodesHelp is the `exit-codes` topic.
func writeExitCodesHelp(w io.Writer) error {
	text := `Exit codes, for scripts:
  0  done (websim diff: the two models are the same)
  1  anything else: a run failed, a file could not be written (a
     read-only folder or workbook, a full disk, OutPut.xlsx open in Excel:
     saved beside it), another websim is writing the same file
     (websim diff: the models differ)
  2  the input is invalid: every problem is printed, one a line, as
     File!Sheet!Cell: what is wrong, and what was expected; nothing is
     written. A command line that cannot be right is invalid input too: an
     unknown flag, one that takes a value given twice, a switch set both
     on and off (--json=false --json), a bad value, an --out or --partial
     whose folder does not exist or that names a folder
An unstable run is not an error: the study goes on, and the run is marked
(stable false in JSON, greyed in the sheets).
`
	_, err := io.WriteString(w, text)
	return err
}
