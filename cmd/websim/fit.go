package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/websim/websim/fit"
	"github.com/websim/websim/internal/xlsx"
)

func fitCommand() *cli.Command {
	return &cli.Command{
		Name:      "fit",
		Usage:     "fit distributions to measured times; rank them; print the best as a cell ready to paste",
		ArgsUsage: "DATA (a CSV file, or Book.xlsx!Sheet!Column)",
		Description: `Reads measured times (a column of a CSV file: its one numeric column, or
--column NAME, or --column 2 or --column B in a file without a header line;
or a workbook column as Book.xlsx!Sheet!Column, by header or letter), fits
every distribution a cell accepts that suits positive times by maximum
likelihood (Exp, Erlang, Gamma, LogNormal, Weibull, Normal as the model draws
it, Uniform, Triangular; Const when all values are one), and ranks them by
AIC, with each fit's Kolmogorov-Smirnov distance and a parametric-bootstrap
p-value (valid for estimated parameters). The best fit is printed as a cell
to paste into the model, with the data's mean and sd beside each fit's: when
the best fit's mean is off the data's (the load a model would carry), it
says by how much and offers a cell that keeps the data's mean and sd. --out writes the ranking, a histogram with the best
fits' densities, and a Q-Q plot to a new workbook.

A value that is not a number, or not above 0, is reported at its line (or
cell), all at once; nothing is written then.

EXIT STATUS:
   0  done
   1  a failure while writing (a read-only folder, a full disk: see the
      message)
   2  the data or the command line are invalid (an --out whose folder does
      not exist, say); every problem is printed, nothing was written`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "column", Usage: "the column to read: by its header (case, spaces and underscores do not count), or, in a file without a header line, by its number from 1 or its letter (--column 2, --column B)"},
			&cli.BoolFlag{Name: "json", Usage: "print the ranking as one JSON document"},
			&cli.StringFlag{Name: "out", Usage: "write the ranking and its charts to this new `FILE.xlsx`"},
			&cli.Uint64Flag{Name: "seed", Usage: "seed of the bootstrap p-values", Value: 1},
		},
		Action: func(c *cli.Context) error {
			opts := fitOptions{args: c.Args().Slice(), column: c.String("column"), json: c.Bool("json"),
				out: c.String("out"), seed: c.Uint64("seed")}
			ctx, stop := interruptible(c.Context)
			defer stop()
			return runFit(ctx, opts, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// fitOptions are the command line of websim fit.
type fitOptions struct {
	args   []string
	column string
	json   bool
	out    string
	seed   uint64
}

// runFit reads the data, fits, prints the ranking on stdout and writes
// --out. Invalid data are printed one problem a line, and nothing is
// written.
func runFit(ctx context.Context, opts fitOptions, stdout, stderr io.Writer) error {
	if len(opts.args) != 1 {
		return invalidInput(errors.New("expected one DATA: websim fit times.csv (or Book.xlsx!Sheet!Column)"))
	}
	spec := opts.args[0]
	var problems fit.Problems
	if opts.out != "" {
		switch {
		case !strings.EqualFold(filepath.Ext(opts.out), ".xlsx"):
			problems = append(problems, fit.Problem{Where: "--out", What: fmt.Sprintf("%q must end in .xlsx", opts.out)})
		case samePath(opts.out, workbookOf(spec)):
			problems = append(problems, fit.Problem{Where: "--out", What: "is the data workbook itself; expected a new workbook, such as Fit.xlsx"})
		case modelWorkbookName(opts.out) != "":
			problems = append(problems, fit.Problem{Where: "--out", What: modelWorkbookName(opts.out)})
		default:
			if err := xlsx.CheckWritable(opts.out, probeSize); errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrExist) {
				problems = append(problems, fit.Problem{Where: "--out", What: err.Error()})
			} else if err != nil {
				return err
			}
		}
	}
	data, err := fit.Read(spec, opts.column)
	if err != nil {
		if !errors.As(err, new(fit.Problems)) {
			return err
		}
		problems = append(problems, err.(fit.Problems)...)
	}
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(stderr, p)
		}
		return invalidInput(&silentError{problems})
	}

	res, err := fit.Distributions(data.Values, fit.Options{Seed: opts.seed})
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return errors.New("interrupted: nothing was written")
	}
	if opts.json {
		err = res.WriteJSON(stdout, data)
	} else {
		err = res.WriteText(stdout, data)
	}
	if err != nil {
		return err
	}
	if opts.out != "" {
		if err := fit.WriteWorkbook(opts.out, data, res); err != nil {
			if strings.Contains(err.Error(), opts.out) {
				return err // it names the file already
			}
			return fmt.Errorf("writing %s: %w", opts.out, err)
		}
		fmt.Fprintf(stderr, "wrote %s\n", opts.out)
	}
	return nil
}

// workbookOf is the workbook that DATA names ("" for a CSV file).
func workbookOf(spec string) string {
	if i := strings.Index(strings.ToLower(spec), ".xlsx"); i >= 0 {
		return spec[:i+len(".xlsx")]
	}
	return spec
}
