package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/websim/websim/lb"
)

// lbOverrides are the flags that override a key of the parameters file,
// spelt as in the original tool (--number_of_servers=4).
var lbOverrides = []struct{ key, usage string }{
	{lb.KeyServers, "number of servers (overrides the file)"},
	{lb.KeyRequests, "number of requests per replication (overrides the file)"},
	{lb.KeyRate, "requests per second; fractions are used as given (overrides the file)"},
	{lb.KeyMethod, "roundrobin or busyness (overrides the file)"},
}

func lbCommand() *cli.Command {
	flags := []cli.Flag{}
	for _, o := range lbOverrides {
		flags = append(flags, &cli.StringFlag{Name: o.key, Usage: o.usage})
	}
	flags = append(flags,
		&cli.StringFlag{Name: "seed", Usage: "random seed (overrides the file's seed)", DefaultText: "the file's, or 1"},
		&cli.StringFlag{Name: "replications", Usage: "independent replications; figures get 95% confidence intervals", Value: "1"},
		&cli.BoolFlag{Name: "json", Usage: "print the figures as one JSON document"},
		&cli.StringFlag{Name: "out", Usage: "write the parameters and result sheets to this new `FILE.xlsx`"},
	)
	return &cli.Command{
		Name:      "lb",
		Usage:     "run the load-balancer simulation (the original tool's YAML and flags, or its workbook twin)",
		ArgsUsage: "PARAMS.yaml|Parameters.xlsx|FOLDER",
		Description: `Simulates requests spread over servers by a load balancer and prints, per
type of request, how many waited and for how long. A workbook (.xlsx) gets the
result sheets LBSummary, LBPerServer and LBChart added to it (earlier ones
replaced, unless you changed them); --out writes them to a new workbook
instead (a workbook already there is replaced only when websim wrote every
sheet of it, unchanged since). A FOLDER made by websim new --template
loadbalancer stands for its Parameters.xlsx.`,
		Flags: flags,
		Action: func(c *cli.Context) error {
			opts := lbOptions{args: c.Args().Slice(), json: c.Bool("json"), out: c.String("out"),
				replications: c.String("replications"), overrides: map[string]string{}}
			for _, o := range lbOverrides {
				if c.IsSet(o.key) {
					opts.overrides[o.key] = c.String(o.key)
				}
			}
			if c.IsSet("seed") {
				opts.overrides[lb.KeySeed] = c.String("seed")
			}
			// Ctrl-C is caught, so that it cannot cut a save short; the
			// run checks it before writing anything.
			ctx, stop := interruptible(c.Context)
			defer stop()
			return runLB(ctx, opts, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// lbOptions are the command line of websim lb.
type lbOptions struct {
	args         []string
	overrides    map[string]string // key → flag text
	replications string
	json         bool
	out          string
}

// runLB reads the parameters, simulates, prints the figures on stdout and
// writes the result sheets (into the workbook read, or to --out). Invalid
// input is printed one problem a line and nothing is written.
// lbParametersFile is the parameters workbook of a load-balancer folder.
const lbParametersFile = "Parameters.xlsx"

func runLB(ctx context.Context, opts lbOptions, stdout, stderr io.Writer) error {
	if len(opts.args) != 1 {
		return invalidInput(errors.New("expected one parameters file: websim lb PARAMS.yaml (or Parameters.xlsx)"))
	}
	path := opts.args[0]
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		// A folder made by `websim new --template loadbalancer`: its
		// Parameters.xlsx, as the folder's run scripts do.
		workbook := filepath.Join(path, lbParametersFile)
		if _, err := os.Stat(workbook); err != nil {
			return invalidInput(fmt.Errorf("%s is a folder without %s; expected a parameters file (PARAMS.yaml or Parameters.xlsx), or a folder made by websim new --template loadbalancer", path, lbParametersFile))
		}
		path = workbook
	}
	src, err := lb.Load(path)
	if err != nil {
		return lbProblems(err, stderr)
	}
	if src.Workbook != nil {
		defer src.Workbook.Close()
	}
	for _, key := range []string{lb.KeyServers, lb.KeyRequests, lb.KeyRate, lb.KeyMethod, lb.KeySeed} {
		if text, ok := opts.overrides[key]; ok {
			src.Override(key, text)
		}
	}
	var extra lb.Problems
	reps, err := strconv.Atoi(strings.TrimSpace(opts.replications))
	if err != nil || reps < 1 || reps > lb.MaxReplications {
		extra = append(extra, lb.Problem{File: "--replications",
			Msg: fmt.Sprintf("%q is not a number of replications; expected a whole number from 1 to %d", opts.replications, lb.MaxReplications)})
	}
	if opts.out != "" {
		switch {
		case !lb.IsWorkbook(opts.out):
			extra = append(extra, lb.Problem{File: "--out", Msg: fmt.Sprintf("%q must end in .xlsx", opts.out)})
		case samePath(opts.out, path):
			extra = append(extra, lb.Problem{File: "--out",
				Msg: "is the parameters workbook itself; leave --out out to add the result sheets to it"})
		case modelWorkbookName(opts.out) != "":
			extra = append(extra, lb.Problem{File: "--out", Msg: modelWorkbookName(opts.out)})
		}
	}
	if err := src.Check(); err != nil {
		var ps lb.Problems
		if !errors.As(err, &ps) {
			return err
		}
		extra = append(ps, extra...)
	}
	if len(extra) > 0 {
		return lbProblems(extra, stderr)
	}
	if opts.out != "" {
		// Before the simulation: a missing folder is invalid input.
		if err := checkWritable(opts.out); err != nil {
			return err
		}
		// A workbook there is replaced only when it is a results workbook
		// of websim's own, unchanged since (as run's OutPut.xlsx).
		if err := checkOwnResults(opts.out); err != nil {
			return err
		}
	}
	if opts.out == "" && src.Workbook != nil {
		// The result sheets go into the parameters workbook itself.
		if err := checkWriteBack(path, lb.ResultSheets()...); err != nil {
			return err
		}
	}

	report, err := lb.Run(src.Params, reps)
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return errors.New("interrupted: nothing was written")
	}
	if opts.json {
		for _, o := range report.Overloads() {
			fmt.Fprintln(stderr, o)
		}
		err = report.WriteJSON(stdout)
	} else {
		err = report.WriteText(stdout)
	}
	if err != nil {
		return err
	}

	switch {
	case opts.out != "":
		f, err := lb.NewResultsWorkbook(report)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := f.Save(opts.out); err != nil {
			return fmt.Errorf("writing %s: %w", opts.out, err)
		}
		fmt.Fprintf(stderr, "wrote %s\n", opts.out)
	case src.Workbook != nil:
		names, err := lb.WriteResults(src.Workbook, report)
		if err != nil {
			return err
		}
		if err := src.Workbook.Save(path); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		fmt.Fprintf(stderr, "wrote the sheets %s into %s\n", names, path)
	}
	return nil
}

// lbProblems prints invalid input one problem a line and returns the error
// that makes main exit with code 2 without printing it again.
func lbProblems(err error, stderr io.Writer) error {
	var ps lb.Problems
	if !errors.As(err, &ps) {
		return err
	}
	for _, p := range ps {
		fmt.Fprintln(stderr, p.Detailed())
	}
	return invalidInput(&silentError{err})
}
