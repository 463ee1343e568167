package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/websim/websim/modeltext"
	"github.com/websim/websim/workbook"
)

func diffCommand() *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "say what differs between two models, in words",
		ArgsUsage: "MODEL_A MODEL_B",
		Description: `Compares two models, each a folder (SvcData.xlsx and ProcData.xlsx) or a text
file written by websim export, in any mix, and prints one line per difference:
   SvcData.xlsx!ServerInfo!B3 (GWay, Capacity): 90 -> 60
Sheets are matched by name, columns by header, rows by their name column
(Server, Entity, Step, Scenario, Name, Service, ...), so that an inserted or
moved row is one line. A cell is located in MODEL_B; what MODEL_B no longer
has (a removed row, column or sheet) is located where MODEL_A had it. Each
model is also checked as websim validate does; its problems go to stderr.

EXIT STATUS:
   0  the same model
   1  the models differ
   2  either model is invalid (the differences are still printed when both
      could be read)`,
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return invalidInput(errors.New("diff needs two models, e.g. websim diff old/ new.yaml"))
			}
			return runDiff(c.Args().Get(0), c.Args().Get(1), c.App.Writer, c.App.ErrWriter)
		},
	}
}

// runDiff prints the differences from model a to model b.
func runDiff(a, b string, stdout, stderr io.Writer) error {
	ma, errA := modeltext.Load(a)
	mb, errB := modeltext.Load(b)
	if errA != nil || errB != nil {
		for _, m := range []struct {
			path string
			err  error
		}{{a, errA}, {b, errB}} {
			if m.err != nil {
				if err := modelProblems(m.path, m.err, stderr); !isSilent(err) {
					return err
				}
			}
		}
		return &silentError{invalidInput(errors.New("a model cannot be read"))}
	}
	invalid := false
	for _, m := range []struct {
		path  string
		model *modeltext.Model
	}{{a, ma}, {b, mb}} {
		ok, err := checkModel(m.path, m.model, stderr)
		if err != nil {
			return err
		}
		invalid = invalid || !ok
	}
	diffs := modeltext.Diff(ma, mb)
	for _, d := range diffs {
		fmt.Fprintln(stdout, d)
	}
	switch {
	case invalid:
		return &silentError{invalidInput(errors.New("a model is invalid"))}
	case len(diffs) > 0:
		return &silentError{cli.Exit("the models differ", exitFailure)}
	}
	return nil
}

func isSilent(err error) bool {
	var s *silentError
	return errors.As(err, &s)
}

// checkModel reads the model as websim run would and prints its problems,
// each prefixed with the model's path. A model from a text file is
// written into a temporary folder to be read, and must hold both
// workbooks, as a folder must; a single workbook is not checked.
func checkModel(path string, m *modeltext.Model, stderr io.Writer) (bool, error) {
	dir := path
	if info, err := os.Stat(path); err != nil || !info.IsDir() {
		if strings.EqualFold(filepath.Ext(path), ".xlsx") {
			return true, nil
		}
		ok := true
		for _, want := range []string{workbook.SvcDataFile, workbook.ProcDataFile} {
			if !slices.ContainsFunc(m.Books, func(b *modeltext.Book) bool { return strings.EqualFold(b.Name, want) }) {
				fmt.Fprintf(stderr, "%s: no %s in it; expected both %s and %s, as websim export writes them\n", path, want, workbook.SvcDataFile, workbook.ProcDataFile)
				ok = false
			}
		}
		if !ok {
			return false, nil
		}
		tmp, err := os.MkdirTemp("", "websim-diff-")
		if err != nil {
			return false, err
		}
		defer os.RemoveAll(tmp)
		if err := modeltext.Write(m, tmp, false); err != nil {
			return false, err
		}
		dir = tmp
	}
	_, err := workbook.Read(dir)
	var problems workbook.Problems
	if err == nil {
		return true, nil
	}
	if !errors.As(err, &problems) {
		return false, err
	}
	for _, p := range problems.Errors() {
		fmt.Fprintf(stderr, "%s: %s\n", path, p.Error())
	}
	return false, nil
}
