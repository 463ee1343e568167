package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/report"
	"github.com/websim/websim/study"
	"github.com/websim/websim/workbook"
)

// sizeOptions are the flags of `websim size`.
type sizeOptions struct {
	runOptions
	vary     string
	min, max int
}

func sizeCommand() *cli.Command {
	return &cli.Command{
		Name:      "size",
		Usage:     "the capacity answer: the smallest value of a setting at which every target holds, per scenario × load",
		ArgsUsage: "MODEL --vary SETTING",
		Description: `For each scenario × load, websim finds the smallest whole value of SETTING
(AppServers, AppCapacity, or Capacity:SERVER for an external server) in
[--min, --max] at which every row of the Targets sheet of SvcData.xlsx holds
with 95% confidence. It probes the top of the range, then the utilization
bound, then bisects; every probe of a point uses the same seed; an undecided
probe runs again with twice the observations, up to 8 times Observations; a
probe the growth test alone calls unstable runs once more at twice the
length; a p50 or p90 that has no interval of its own (very spread response
times) is taken over 5 replications.
The answer goes to the Sizing sheet of MODEL/OutPut.xlsx (or --out FILE),
added to the results already there; with --write-back, also to
MODEL/SvcData.xlsx, keeping everything in it.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "vary", Usage: "the setting to size: AppServers, AppCapacity or Capacity:SERVER"},
			&cli.IntFlag{Name: "min", Usage: "the smallest value to consider", DefaultText: "1"},
			&cli.IntFlag{Name: "max", Usage: "the largest value to consider", DefaultText: fmt.Sprintf("%d × the largest value the scenarios give the setting, at least %d", study.DefaultSizeMax, study.MinDefaultSizeMax)},
			&cli.StringFlag{Name: "out", Usage: "write the Sizing sheet into `FILE` (default MODEL/OutPut.xlsx)"},
			&cli.BoolFlag{Name: "json", Usage: "print the answer as one JSON document on stdout"},
			&cli.BoolFlag{Name: "write-back", Usage: "also add the Sizing sheet to SvcData.xlsx, keeping everything in it"},
			&cli.Uint64Flag{Name: "seed", Usage: "random seed (overrides the Seed setting)", DefaultText: "the Seed setting"},
			&cli.Int64Flag{Name: "observations", Usage: "requests finished after the warm-up, per probe (overrides the setting)", DefaultText: "the Observations setting"},
			&cli.StringFlag{Name: "loads", Usage: "comma list of load labels to size (default: the Loads setting)"},
			&cli.StringFlag{Name: "scenarios", Usage: "comma list of Experiments scenarios to size (default: all)"},
			&cli.IntFlag{Name: "jobs", Usage: "simulations at once (0: one per core); results do not depend on it", DefaultText: "one per core"},
			&cli.BoolFlag{Name: "quiet", Usage: "no progress and no table"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return invalidInput(errors.New("websim size needs one MODEL folder; for example: websim size samples/asum --vary AppServers"))
			}
			if err := checkJobs(c); err != nil {
				return err
			}
			if err := checkLists(c); err != nil {
				return err
			}
			if c.IsSet("observations") && c.Int64("observations") < 1 {
				return invalidInput(fmt.Errorf("--observations %d: expected a whole number of at least 1", c.Int64("observations")))
			}
			o := sizeOptions{
				runOptions: runOptions{
					model: modelFolder(c.Args().First()), out: c.String("out"), json: c.Bool("json"),
					seed: c.Uint64("seed"), seedSet: c.IsSet("seed"),
					observations: c.Int64("observations"), jobs: c.Int("jobs"),
					loads: splitList(c.String("loads")), scenarios: splitList(c.String("scenarios")),
					quiet: c.Bool("quiet"), writeBack: c.Bool("write-back"),
				},
				vary: c.String("vary"), min: c.Int("min"), max: c.Int("max"),
			}
			if err := checkSizeFlags(o, c.IsSet("min"), c.IsSet("max")); err != nil {
				return invalidInput(err)
			}
			ctx, stop := interruptible(c.Context)
			defer stop()
			return sizeModel(ctx, o, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// sizeLimit is the largest value a sized setting may take (the workbook's
// limits), 0 when unknown.
func sizeLimit(vary string) int {
	switch v := strings.ToLower(strings.ReplaceAll(vary, " ", "")); {
	case v == "appservers":
		return workbook.MaxAppServers
	case v == "appcapacity":
		return workbook.MaxAppCapacity
	case strings.HasPrefix(v, "capacity:"):
		return workbook.MaxServerCapacity
	}
	return 0
}

// checkSizeFlags checks what can be checked before the model is read.
func checkSizeFlags(o sizeOptions, minSet, maxSet bool) error {
	var errs []error
	if o.vary == "" {
		errs = append(errs, errors.New("--vary: missing; expected the setting to size: AppServers, AppCapacity or Capacity:SERVER"))
	}
	if minSet && o.min < 1 {
		errs = append(errs, fmt.Errorf("--min %d: expected a whole number of at least 1", o.min))
	}
	if maxSet && o.max < 1 {
		errs = append(errs, fmt.Errorf("--max %d: expected a whole number of at least 1", o.max))
	}
	if lim := sizeLimit(o.vary); lim > 0 && (maxSet && o.max > lim || minSet && o.min > lim) {
		errs = append(errs, fmt.Errorf("--min/--max beyond the limit of %d for %s; expected at most %d", lim, o.vary, lim))
	}
	if minSet && maxSet && o.min > o.max {
		errs = append(errs, fmt.Errorf("--min %d is above --max %d; expected --min <= --max", o.min, o.max))
	}
	return errors.Join(errs...)
}

// sizeModel is `websim size`: read and check the model and the flags,
// search, write the Sizing sheet, print the answer.
func sizeModel(ctx context.Context, o sizeOptions, stdout, stderr io.Writer) error {
	plan, err := readPlan(o.model, stderr)
	if err != nil {
		return err
	}
	if len(plan.Targets) == 0 {
		return invalidInput(fmt.Errorf("%s: %w", filepath.Join(o.model, workbook.SvcDataFile), study.ErrNoTargets))
	}
	if err := applyRunOptions(plan, o.runOptions); err != nil {
		return invalidInput(err)
	}
	setting, err := study.ParseSizeSetting(o.vary, plan.Scenarios[0].Model)
	if err != nil {
		return invalidInput(err)
	}
	out := o.out
	if out == "" {
		out = filepath.Join(o.model, "OutPut.xlsx")
	} else if err := checkOut(out, o.model); err != nil {
		return invalidInput(err)
	}
	if err := checkSizingOut(out); err != nil {
		return err
	}
	paths, err := resultPaths(out, o.model, o.writeBack, report.SizingSheet)
	if err != nil {
		return err
	}
	// As run: each workbook written can be, and no other websim writes it.
	release, err := prepareOutputs(paths...)
	if err != nil {
		return err
	}
	defer release()
	opts := study.SizeOptions{Setting: setting, Min: o.min, Max: o.max, MaxAppUnits: workbook.MaxAppUnits, Jobs: o.jobs, Version: version}
	if f, ok := stderr.(*os.File); ok && !o.quiet && !o.json && term.IsTerminal(int(f.Fd())) {
		opts.Progress = func(done, total int) {
			fmt.Fprintf(stderr, "\rsizing: %d of %d points done", done, total)
			if done == total {
				fmt.Fprintln(stderr)
			}
		}
	}
	sz, err := study.Size(ctx, plan, opts)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return errors.New("interrupted: nothing was written")
		}
		if errors.Is(err, study.ErrPastUnitLimit) {
			return invalidInput(err)
		}
		return err
	}
	outSaved := false // at out itself, whatever befalls the write-back
	err = writeOutputs(ctx, func() error {
		if err := report.WriteSizing(out, sz); err != nil {
			return fmt.Errorf("writing the Sizing sheet: %w", err)
		}
		outSaved = true
		if o.writeBack && ctx.Err() == nil { // not begun after an interrupt
			if err := report.WriteSizingBack(paths[1], sz); err != nil {
				return writeBackFailed("the Sizing sheet", out, err)
			}
		}
		return nil
	}, paths...)
	if !resultsStand(ctx, err) {
		return err
	}
	printRunWarnings(stderr, sz.Warnings)
	if o.json {
		return errors.Join(report.WriteSizingJSON(stdout, sz), err)
	}
	if !o.quiet {
		printSizing(stdout, sz)
		if outSaved {
			fmt.Fprintf(stdout, "Results: %s (sheet %s)\n", out, report.SizingSheet)
		}
		if err == nil && o.writeBack {
			fmt.Fprintf(stdout, "Also added to: %s\n", paths[1])
		}
	}
	return err
}

// printSizing prints the answer per scenario and load.
func printSizing(w io.Writer, sz *study.Sizing) {
	fmt.Fprintf(w, "Targets (95%% confidence):\n")
	for _, t := range sz.Targets {
		fmt.Fprintf(w, "  %s%s\n", t.String(), unitOf(t, sz.TimeUnit))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "scenario\tload\t%s\tprobes\tanswer\n", sz.Setting)
	for _, pt := range sz.Points {
		size := "-"
		if pt.Outcome == study.SizeFound || pt.Outcome == study.SizeNotMonotone {
			size = fmt.Sprint(pt.Size)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", pt.Scenario, pt.Load, size, pt.Probes, pt.Text)
	}
	tw.Flush()
}

func unitOf(t study.Target, unit string) string {
	if t.Measure.IsShare() {
		return ""
	}
	return " " + unit
}

// checkSizingOut opens the workbook out, when there is one, before the
// search: the Sizing sheet is added to it, so one that cannot be opened
// (damaged, or not a workbook) is invalid input, told at once rather than
// after a search that may take hours.
func checkSizingOut(out string) error {
	if _, err := os.Stat(out); err != nil {
		return nil // a new file, checked as run checks it
	}
	b, err := xlsx.Open(out)
	if err != nil {
		return invalidInput(fmt.Errorf("--out %s: the Sizing sheet is added to this workbook, which cannot be opened: %w; expected an Excel workbook, or the name of a new file", out, err))
	}
	if err := b.Close(); err != nil {
		return err
	}
	return checkEditedResults(out, true, report.SizingSheet)
}
