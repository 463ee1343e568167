package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/websim/websim/study"
	"github.com/websim/websim/workbook"
)

func validateCommand() *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "report every problem in a model; change nothing",
		ArgsUsage: "MODEL",
		Description: `Reads MODEL/SvcData.xlsx and MODEL/ProcData.xlsx and prints every problem on
stderr, one per line as File!Sheet!Cell: what is wrong; expected ...
(an expression's problem is followed by the expression, indented, with a
caret under the column). Warnings (a sheet or column websim leaves alone) are prefixed "warning: ".
A summary line goes to stdout. Nothing is written.

EXIT STATUS:
   0  the model is valid (warnings allowed)
   2  the model has problems`,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return invalidInput(errors.New("validate needs one MODEL folder, e.g. websim validate samples/asum"))
			}
			return runValidate(c.Args().First(), c.App.Writer, c.App.ErrWriter)
		},
	}
}

// runValidate reads the model in dir and prints its problems on stderr and
// a summary on stdout. It returns a silent invalid-input error when the
// model has problems.
func runValidate(dir string, stdout, stderr io.Writer) error {
	if err := notALoadBalancer(dir); err != nil {
		return err
	}
	plan, err := workbook.Read(dir)
	if err != nil {
		var problems workbook.Problems
		if !errors.As(err, &problems) {
			return err
		}
		for _, p := range problems {
			prefix := ""
			if p.Warning {
				prefix = "warning: "
			}
			fmt.Fprintln(stderr, prefix+p.Detailed())
		}
		fmt.Fprintf(stdout, "%s: %s, %s\n", dir, countOf(len(problems.Errors()), "problem"), countOf(len(problems.Warnings()), "warning"))
		return &silentError{invalidInput(err)}
	}
	for _, w := range plan.Warnings {
		fmt.Fprintln(stderr, "warning: "+w)
	}
	if err := plan.CheckRuns(); err != nil {
		// As run would say it, without --loads or --scenarios to narrow it.
		fmt.Fprintln(stderr, err)
		fmt.Fprintf(stdout, "%s: %s, %s\n", dir, countOf(1, "problem"), countOf(len(plan.Warnings), "warning"))
		return &silentError{invalidInput(err)}
	}
	fmt.Fprintf(stdout, "%s: valid (%s × %s)\n", dir, countOf(len(plan.Scenarios), "scenario"), countOf(loadsRun(plan), "load"))
	return nil
}

// loadsRun counts the distinct loads the scenarios run.
func loadsRun(plan *study.Plan) int {
	seen := map[int]bool{}
	for _, s := range plan.Scenarios {
		for _, l := range s.Run.Loads {
			seen[l] = true
		}
	}
	return len(seen)
}

func countOf(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
