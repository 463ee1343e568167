package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/websim/websim/modeltext"
)

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "write a model as one text file (YAML)",
		ArgsUsage: "MODEL",
		Description: `Writes MODEL (a folder holding SvcData.xlsx and ProcData.xlsx, or a single
workbook .xlsx) as one YAML document: a key per workbook, a key per sheet, each
sheet a list whose first item is the header row and the others its rows, each
a map from header to cell. A formula is {formula: =..., value: SAVED}. The text
goes to stdout, or to --out FILE. websim import turns it back into workbooks.

As a git textconv driver, it shows workbooks as text in git diff:
   git config diff.websim.textconv "websim export"
   echo '*.xlsx binary diff=websim' >> .gitattributes
(binary keeps git from converting line endings in or merging workbooks;
diff=websim then shows them as text.)

EXIT STATUS:
   0  written
   2  MODEL cannot be read (every problem is printed)`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "write the text to `FILE` instead of stdout"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return invalidInput(errors.New("export needs one MODEL (a folder or a workbook), e.g. websim export samples/asum --out asum.yaml"))
			}
			return runExport(c.Args().First(), c.String("out"), c.App.Writer, c.App.ErrWriter)
		},
	}
}

// runExport writes the model at path as text to out, or stdout.
func runExport(path, out string, stdout, stderr io.Writer) error {
	if out != "" {
		if strings.EqualFold(filepath.Ext(out), ".xlsx") {
			return invalidInput(fmt.Errorf("--out %s: the export is text (YAML), not a workbook; expected a name such as model.yaml", out))
		}
		if err := checkWritable(out); err != nil {
			return err
		}
	}
	m, err := modeltext.Load(path)
	if err != nil {
		return textProblems(err, stderr)
	}
	text, err := m.Text()
	if err != nil {
		return err
	}
	if out == "" {
		_, err := stdout.Write(text)
		return err
	}
	return writeFileAtomic(out, text)
}

// textProblems prints a model's problems, one a line, and returns the
// silent invalid-input error; other errors pass through.
func textProblems(err error, stderr io.Writer) error {
	return modelProblems("", err, stderr)
}

// modelProblems is textProblems for a command that reads two models
// (diff): each line not already located in the model's path starts with
// it, as "old: SvcData.xlsx: the file is damaged ...".
func modelProblems(path string, err error, stderr io.Writer) error {
	var ps modeltext.Problems
	var p *modeltext.Problem
	switch {
	case errors.As(err, &ps):
	case errors.As(err, &p):
		ps = modeltext.Problems{p}
	default:
		return err
	}
	for _, p := range ps {
		line := p.Error()
		if path != "" && !strings.HasPrefix(line, path) {
			line = path + ": " + line
		}
		fmt.Fprintln(stderr, line)
	}
	return &silentError{invalidInput(err)}
}

// writeFileAtomic writes data to a temporary file beside path and renames
// it over path, so that no half-written file is left there.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
