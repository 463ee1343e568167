package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/websim/websim/modeltext"
)

func importCommand() *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     "write a model's workbooks from its text (YAML)",
		ArgsUsage: "FILE DIR",
		Description: `Reads FILE, a model's text as websim export writes it, and writes its
workbooks (SvcData.xlsx and ProcData.xlsx) into the folder DIR, created if need
be, laid out as the templates are: a frozen header row with a comment on each
column, widths, drop-down lists. A workbook already in DIR is refused unless
--force is given. Problems in FILE are printed all at once, each located by
line and column; then nothing is written.

EXIT STATUS:
   0  written
   2  FILE has problems, or a workbook is in the way (nothing was written)`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "force", Aliases: []string{"f"}, Usage: "overwrite workbooks already in DIR"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return invalidInput(errors.New("import needs a text FILE and a folder DIR, e.g. websim import asum.yaml mymodel"))
			}
			return runImport(c.Args().Get(0), c.Args().Get(1), c.Bool("force"), c.App.Writer, c.App.ErrWriter)
		},
	}
}

// runImport writes the workbooks of the text file into dir.
func runImport(file, dir string, force bool, stdout, stderr io.Writer) error {
	m, err := modeltext.Load(file)
	if err != nil {
		return textProblems(err, stderr)
	}
	if err := checkFolderToMake(dir); err != nil {
		return err
	}
	if err := modeltext.Write(m, dir, force); err != nil {
		if errors.Is(err, modeltext.ErrExists) {
			return invalidInput(err)
		}
		return err
	}
	var names []string
	for _, b := range m.Books {
		names = append(names, filepath.Join(dir, b.Name))
	}
	fmt.Fprintf(stdout, "Wrote %s from %s\n", joinAnd(names), file)
	return nil
}

// joinAnd joins words as "a, b and c".
func joinAnd(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	out := words[0]
	for _, w := range words[1 : len(words)-1] {
		out += ", " + w
	}
	return out + " and " + words[len(words)-1]
}
