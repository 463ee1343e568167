package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/websim/websim/internal/numtext"
	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/report"
	"github.com/websim/websim/study"
	"github.com/websim/websim/workbook"
)

// runOptions are the flags of `websim run`.
type runOptions struct {
	model        string
	out          string
	json         bool
	seed         uint64
	seedSet      bool
	observations int64
	loads        []string
	scenarios    []string
	jobs         int
	writeBack    bool
	quiet        bool
	trace        string
	// shard, partial and shards run one share of the study (--shard K/N or
	// auto) and write it to a partial file for `websim merge`.
	shard   string
	partial string
	shards  int
}

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "validate a model, simulate every scenario × load, write the results workbook",
		ArgsUsage: "MODEL",
		Description: `MODEL is a folder holding SvcData.xlsx and ProcData.xlsx. The results go
to MODEL/OutPut.xlsx (or --out FILE): sheets Summary, Servers, Entities,
Charts, Timeline and Run (websim size adds Sizing), and Validation when
SvcData.xlsx has a Measured sheet (its figures beside the simulated ones;
they are printed too). Every row of the Targets sheet is judged in each run
(Summary, the table, --json). The input workbooks are never changed unless
--write-back is given. A results workbook is replaced only when websim wrote
every sheet of it and you changed none of their cells; otherwise the run stops
before simulating (exit 2) and names the sheets. With --write-back, a result
sheet you changed is not replaced either: rename it to keep it.

With --shard K/N --partial FILE it runs only the K-th (from 0) of N shares of
the study's runs and writes them to FILE; "websim merge" of the N files gives
the results of the whole study. --shard auto takes K and N from a Slurm job
array or, with --shards N, a Kubernetes Indexed Job.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "write the results workbook to `FILE` (default MODEL/OutPut.xlsx)"},
			&cli.BoolFlag{Name: "json", Usage: "print the results as one JSON document on stdout"},
			&cli.Uint64Flag{Name: "seed", Usage: "random seed (overrides the Seed setting)", DefaultText: "the Seed setting"},
			&cli.Int64Flag{Name: "observations", Usage: "requests finished after the warm-up, per run (overrides the setting)", DefaultText: "the Observations setting"},
			&cli.StringFlag{Name: "loads", Usage: "comma list of load labels to run (default: the Loads setting)"},
			&cli.StringFlag{Name: "scenarios", Usage: "comma list of Experiments scenarios to run (default: all)"},
			&cli.IntFlag{Name: "jobs", Usage: "runs at once (0: one per core); results do not depend on it", DefaultText: "one per core"},
			&cli.BoolFlag{Name: "write-back", Usage: "also add the result sheets to SvcData.xlsx, keeping everything in it"},
			&cli.BoolFlag{Name: "quiet", Usage: "no progress bar and no summary table"},
			&cli.StringFlag{Name: "shard", Usage: "run only share `K/N` of the study's runs (K from 0), or auto: K and N from a Slurm job array or a Kubernetes Indexed Job; needs --partial"},
			&cli.StringFlag{Name: "partial", Usage: "with --shard, write the share's results to `FILE` for websim merge"},
			&cli.IntFlag{Name: "shards", Usage: "with --shard auto, the number of shards (required on Kubernetes, checked on Slurm)"},
			&cli.StringFlag{Name: "trace", Usage: "write what each request does, step by step, to `FILE` (one scenario and one load; at most 200,000 lines; try --observations 200)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return invalidInput(errors.New("websim run needs one MODEL folder; for example: websim run samples/asum"))
			}
			if err := checkObservations(c); err != nil {
				return err
			}
			if err := checkJobs(c); err != nil {
				return err
			}
			if err := checkLists(c); err != nil {
				return err
			}
			o := runOptions{
				model: modelFolder(c.Args().First()), out: c.String("out"), json: c.Bool("json"),
				seed: c.Uint64("seed"), seedSet: c.IsSet("seed"),
				observations: c.Int64("observations"), jobs: c.Int("jobs"),
				loads: splitList(c.String("loads")), scenarios: splitList(c.String("scenarios")),
				writeBack: c.Bool("write-back"), quiet: c.Bool("quiet"), trace: c.String("trace"),
				shard: c.String("shard"), partial: c.String("partial"), shards: c.Int("shards"),
			}
			ctx, stop := interruptible(c.Context)
			defer stop()
			return runModel(ctx, o, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// checkLists refuses a --loads or --scenarios given with nothing in it
// (--loads ""), which would otherwise run every load without a word.
func checkLists(c *cli.Context) error {
	for _, f := range []struct{ name, what string }{
		{"loads", "load columns of the Arrivals sheet (or all)"},
		{"scenarios", "scenarios of the Experiments sheet"},
	} {
		if c.IsSet(f.name) && len(splitList(c.String(f.name))) == 0 {
			return invalidInput(fmt.Errorf("--%s %q: expected a comma list of the %s", f.name, c.String(f.name), f.what))
		}
	}
	return nil
}

// checkJobs refuses a negative --jobs; 0 (the default) is one per core.
func checkJobs(c *cli.Context) error {
	if v := c.Int("jobs"); v < 0 {
		return invalidInput(fmt.Errorf("--jobs %d: expected a whole number of at least 1, or 0 for one per core", v))
	}
	return nil
}

// checkObservations refuses an --observations below 1 or above the limit
// of the Observations setting.
func checkObservations(c *cli.Context) error {
	if !c.IsSet("observations") {
		return nil
	}
	switch v := c.Int64("observations"); {
	case v < 1:
		return invalidInput(fmt.Errorf("--observations %d: expected a whole number of at least 1", v))
	case v > workbook.MaxObservations:
		return invalidInput(fmt.Errorf("--observations %d exceeds the limit of %d; expected a whole number from 1 to %d (use TargetPrecision to stop when precise enough)", v, workbook.MaxObservations, workbook.MaxObservations))
	}
	return nil
}

// modelFolder accepts a model's SvcData.xlsx or ProcData.xlsx for its
// folder, as an analyst may point at the workbook rather than the folder.
func modelFolder(path string) string {
	switch strings.ToLower(filepath.Base(path)) {
	case "svcdata.xlsx", "procdata.xlsx":
		return filepath.Dir(path)
	}
	return path
}

// checkOut refuses an --out that is not an .xlsx file or that is one of the
// model's input workbooks (which --out would replace).
func checkOut(out, model string) error {
	if !strings.EqualFold(filepath.Ext(out), ".xlsx") {
		return fmt.Errorf("--out %s: expected a file name ending in .xlsx", out)
	}
	if in := modelInput(out, model); in != "" {
		return fmt.Errorf("--out %s is the model's own %s, which it would replace; write the results elsewhere, or use --write-back to add them to SvcData.xlsx", out, in)
	}
	return modelWorkbookOut(out)
}

// modelInput is the name of the model's input workbook that path is
// (SvcData.xlsx or ProcData.xlsx, also through a link), "" when none.
func modelInput(path, model string) string {
	for _, in := range []string{workbook.SvcDataFile, workbook.ProcDataFile} {
		if samePath(path, filepath.Join(model, in)) {
			return in
		}
	}
	return ""
}

// modelWorkbookOut refuses an output named as a model's workbook
// (SvcData.xlsx or ProcData.xlsx, in any case): writing it would replace
// a model's, or make a folder that looks like a model and is not one.
func modelWorkbookOut(out string) error {
	if what := modelWorkbookName(out); what != "" {
		return fmt.Errorf("--out %s", what)
	}
	return nil
}

// modelWorkbookName says why out may not be written, "" when it may: the
// path and the workbook name it takes.
func modelWorkbookName(out string) string {
	for _, in := range []string{workbook.SvcDataFile, workbook.ProcDataFile} {
		if strings.EqualFold(filepath.Base(out), in) {
			return fmt.Sprintf("%s: %s is the name of a model's workbook, which results must not take (they would replace a model's, or pass for one); expected another file name", out, in)
		}
	}
	return ""
}

// samePath reports whether a and b name the same file: the same file on
// disk when both exist (which ignores case where the file system does, as
// on Windows and macOS), else the same absolute path.
func samePath(a, b string) bool {
	if ia, err := os.Stat(a); err == nil {
		if ib, err := os.Stat(b); err == nil {
			return os.SameFile(ia, ib)
		}
	}
	aa, errA := filepath.Abs(a)
	bb, errB := filepath.Abs(b)
	return errA == nil && errB == nil && aa == bb
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// runModel is `websim run`: read and check the model, simulate, write.
func runModel(ctx context.Context, o runOptions, stdout, stderr io.Writer) error {
	plan, err := readPlan(o.model, stderr)
	if err != nil {
		return err
	}
	if err := applyRunOptions(plan, o); err != nil {
		return invalidInput(err)
	}
	if o.shard != "" || o.partial != "" || o.shards != 0 {
		return runShard(ctx, plan, o, stdout, stderr)
	}
	out := o.out
	if out == "" {
		out = filepath.Join(o.model, "OutPut.xlsx")
	} else if err := checkOut(out, o.model); err != nil {
		return invalidInput(err)
	}
	if o.trace != "" {
		if err := checkSideOutput("--trace", o.trace, o.model); err != nil {
			return err
		}
	}
	if err := checkOwnResults(out); err != nil {
		return err
	}
	outputs, err := resultPaths(out, o.model, o.writeBack, report.ReplacedSheets()...)
	if err != nil {
		return err
	}
	release, err := prepareOutputs(outputs...)
	if err != nil {
		return err
	}
	defer release()
	opts := study.Options{Jobs: o.jobs, Version: version}
	if o.trace != "" {
		f, err := openTrace(o.trace, plan)
		if err != nil {
			return err
		}
		defer f.Close()
		opts.Trace, opts.TraceLimit = f, maxTraceLines
	}
	bar := newProgressBar(stderr, !o.quiet && !o.json, "simulating")
	opts.Progress = bar.update
	st, err := study.Execute(ctx, plan, opts)
	bar.finish()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return errors.New("interrupted: nothing was written")
		}
		return err
	}
	outSaved := false  // at out itself, whatever befalls the write-back
	wroteBack := false // into SvcData.xlsx, whatever befell out
	err = writeOutputs(ctx, func() error {
		// The write-back is tried even when out could not be replaced (open
		// in Excel: the results went to "OutPut (2).xlsx"): SvcData.xlsx is
		// another file, and the user asked for both.
		var outErr error
		if err := report.Write(out, st); err != nil {
			outErr = fmt.Errorf("writing the results: %w", err)
		} else {
			outSaved = true
		}
		if o.writeBack && ctx.Err() == nil { // not begun after an interrupt
			if err := report.WriteBack(outputs[1], st); err != nil {
				savedAt := out
				if outErr != nil {
					savedAt = "" // not at out: outErr says where, if anywhere
				}
				return errors.Join(outErr, writeBackFailed("the results", savedAt, err))
			}
			wroteBack = true
		}
		return outErr
	}, outputs...)
	if !resultsStand(ctx, err) {
		return err
	}
	printRunWarnings(stderr, st.Warnings)
	if o.json {
		return errors.Join(report.WriteJSON(stdout, st), err)
	}
	if !o.quiet {
		printSummary(stdout, st)
		if outSaved {
			fmt.Fprintf(stdout, "Results: %s%s\n", out, unstableNote(st))
		}
		if wroteBack {
			fmt.Fprintf(stdout, "Also added to: %s\n", outputs[1])
		}
	}
	return err
}

// printRunWarnings prints the warnings that the runs themselves gave
// (TargetPrecision not reached) where the model's go, even with --quiet or
// --json; the model's were printed as it was read.
func printRunWarnings(w io.Writer, warnings []string) {
	for _, warning := range warnings {
		if study.RunWarning(warning) {
			fmt.Fprintln(w, "warning:", warning)
		}
	}
}

// maxTraceLines bounds a --trace file.
const maxTraceLines = 200_000

// openTrace creates the --trace file once the plan is known to have one
// scenario and one load, so that the trace follows a single run.
func openTrace(path string, p *study.Plan) (*os.File, error) {
	if len(p.Scenarios) != 1 || len(p.Scenarios[0].Run.Loads) != 1 {
		n := 0
		for _, sc := range p.Scenarios {
			n += len(sc.Run.Loads)
		}
		return nil, invalidInput(fmt.Errorf("--trace follows one run, and this selection has %d (scenario × load); choose one with --scenarios and --loads", n))
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--trace: %w", err)
	}
	return f, nil
}

// readPlan reads and checks a model folder, printing every problem; a
// model with errors is an invalid input (exit code 2).
func readPlan(dir string, stderr io.Writer) (*study.Plan, error) {
	if err := notALoadBalancer(dir); err != nil {
		return nil, err
	}
	plan, err := workbook.Read(dir)
	var problems workbook.Problems
	if errors.As(err, &problems) {
		printProblems(stderr, problems)
		if len(problems.Errors()) > 0 {
			return nil, &silentError{invalidInput(fmt.Errorf("%s: %d problems", dir, len(problems.Errors())))}
		}
	} else if err != nil {
		return nil, invalidInput(err)
	}
	if plan == nil {
		return nil, invalidInput(fmt.Errorf("%s: the model could not be read", dir))
	}
	for _, w := range plan.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	return plan, nil
}

// printProblems prints problems one per line, errors first; an expression
// error is followed by the expression with a caret under the column.
func printProblems(w io.Writer, ps workbook.Problems) {
	for _, p := range ps.Errors() {
		fmt.Fprintln(w, p.Detailed())
	}
	for _, p := range ps.Warnings() {
		fmt.Fprintln(w, "warning:", p.Detailed())
	}
}

// decimals is the number of decimals that shows x to 4 significant
// digits in fixed point (none from 1,000 up): 325.4, 1.234, 12345; the
// sheets' rule (xlsx.TimeDigits).
func decimals(x float64) int { return xlsx.TimeDigits(math.Abs(x), 4) }

// fixed is x with d decimals, or with an exponent when x is so large that
// its digits would fill the line (four significant digits), when d is
// xlsx.ExpDecimals (the sheets' exponent style), or when x is so small
// that d decimals would leave fewer than two of its own (three
// significant digits then: 5.28e-06, not 0.000005, and a half-width of
// 1.75e-07, not 0.000000).
func fixed(d int, x float64) string {
	if text, ok := numtext.Huge(x); ok {
		return text
	}
	if x != 0 && (d >= xlsx.ExpDecimals || math.Abs(x) < math.Pow10(1-d)) {
		return strconv.FormatFloat(x, 'e', 2, 64)
	}
	return fmt.Sprintf("%.*f", d, x)
}

// verdicts sums up the targets judged at one run: the verdict of a single
// target, else "all hold" or how many fail and are undecided.
func verdicts(rs []study.TargetResult) string {
	if len(rs) == 1 {
		return string(rs[0].Verdict)
	}
	fails, undecided := 0, 0
	for _, r := range rs {
		switch r.Verdict {
		case study.Fails:
			fails++
		case study.Undecided:
			undecided++
		}
	}
	var parts []string
	if fails > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d fail", fails, len(rs)))
	}
	if undecided > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d undecided", undecided, len(rs)))
	}
	if len(parts) == 0 {
		return "all hold"
	}
	return strings.Join(parts, ", ")
}

// unstableNote tells, after the results' path, how many runs are not
// stable: " (2 of 6 runs not stable: marked in every sheet)".
func unstableNote(st *study.Study) string {
	n := 0
	for _, r := range st.Runs {
		if !r.Result.Stable {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d of %d runs not stable: marked in every sheet, gaps in the charts)", n, len(st.Runs))
}

// applyRunOptions applies the command-line overrides to every scenario
// (study.Plan.Apply); an unknown scenario or load names its flag.
func applyRunOptions(p *study.Plan, o runOptions) error {
	err := p.Apply(study.Edit{Scenarios: o.scenarios, Loads: o.loads, Seed: o.seed, SeedSet: o.seedSet,
		Observations: o.observations, Source: "command line"})
	var edit *study.EditError
	if errors.As(err, &edit) {
		return fmt.Errorf("--%s: %s", edit.Field, edit.Msg)
	}
	if err == nil && o.observations > 0 {
		// Longer runs than the model's may outgrow the clock.
		err = workbook.CheckRunLength(p, "--observations")
	}
	return err
}

// printSummary prints a table of the main figures per scenario and load
// (an unstable run shows dashes where it has no steady-state figure; one
// that ended before its warm-up, dashes for its utilization too), with the
// targets' verdicts when the model has a Targets sheet, then the Measured
// rows beside the simulated figures, when there are any.
func printSummary(w io.Writer, st *study.Study) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	header := fmt.Sprintf("scenario\tload\tcompleted\tfailed\tmean (%s)\t±95%%\tp95\tapp util\tstable\t", st.TimeUnit)
	if len(st.Targets) > 0 {
		header += "targets\t"
	}
	fmt.Fprintln(tw, header)
	for i := range st.Runs {
		r := &st.Runs[i]
		res := &r.Result
		mean, hw, p95, util, stable := "-", "-", "-", "-", "NO"
		switch {
		case res.Stable && res.Untested:
			stable = "untested" // too short: the warning below says so
		case res.Stable:
			stable = "yes"
		}
		if res.Stable && res.Completed > 0 { // no completed request: no response figure
			d := decimals(res.Response.Mean)
			mean, p95 = fixed(d, res.Response.Mean), fixed(decimals(res.Response.P95), res.Response.P95)
			if h := res.Response.CIHalfWidth95; !math.IsNaN(h) {
				// At the mean's decimals, or two digits of its own where
				// it is smaller (12346 ± 0.43, not ± 0).
				if h > 0 {
					d = max(d, xlsx.TimeDigits(h, 2))
				}
				hw = fixed(d, h)
			}
		}
		if !math.IsNaN(res.AppUtilization) { // NaN: stopped before the warm-up ended
			util = fmt.Sprintf("%.1f%%", 100*res.AppUtilization)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t", r.Scenario, r.Load, res.Completed, res.Failed,
			mean, hw, p95, util, stable)
		if len(st.Targets) > 0 {
			fmt.Fprintf(tw, "%s\t", verdicts(study.Judge(st.Targets, r)))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	if len(st.Targets) > 0 {
		names := make([]string, len(st.Targets))
		for i, t := range st.Targets {
			names[i] = t.String()
		}
		fmt.Fprintf(w, "targets (times in %s), each judged by its 95%% interval (the Summary sheet says why where one is not met): %s\n", st.TimeUnit, strings.Join(names, "; "))
	}
	for _, r := range st.Runs {
		if !r.Result.Stable {
			fmt.Fprintf(w, "unstable: %s at %s: %s\n", r.Scenario, r.Load, r.Result.Unstable)
		}
	}
	if lines := report.ValidationLines(st); len(lines) > 0 {
		fmt.Fprintf(w, "Measured against simulated (95%% interval; sheet %s):\n  %s\n", report.ValidationSheet, strings.Join(lines, "\n  "))
	}
}
