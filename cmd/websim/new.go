package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/websim/websim/internal/suggest"
	"github.com/websim/websim/templates"
	"github.com/websim/websim/workbook"
)

func newCommand() *cli.Command {
	return &cli.Command{
		Name:      "new",
		Usage:     "create a model folder from a template",
		ArgsUsage: "DIR",
		Description: `Creates the folder DIR (it must not exist, or be empty) holding a model made
from a template: SvcData.xlsx and ProcData.xlsx (loadbalancer: Parameters.xlsx)
and the double-click scripts run.bat (Windows), run.command (macOS) and run.sh
(Linux), which run websim on the folder. Templates: ` + strings.Join(templates.Names(), ", ") + `.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "template", Aliases: []string{"t"}, Value: "blank",
				Usage: "the template: " + strings.Join(templates.Names(), ", ")},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return invalidInput(errors.New("new needs one folder to create, e.g. websim new mymodel --template asum"))
			}
			return runNew(c.Args().First(), c.String("template"), c.App.Writer)
		},
	}
}

// runNew creates dir from the template name and says what to do next.
func runNew(dir, name string, stdout io.Writer) error {
	if !isTemplate(name) {
		return invalidInput(fmt.Errorf("unknown template %q%s; the templates are %s",
			name, suggest.DidYouMean(name, templates.Names()), strings.Join(templates.Names(), ", ")))
	}
	name = strings.ToLower(name)
	if err := checkFolderToMake(dir); err != nil {
		return err
	}
	if err := templates.Create(dir, name); err != nil {
		if errors.Is(err, templates.ErrNotEmpty) {
			return invalidInput(err)
		}
		return err
	}
	files, _ := templates.Files(name)
	fmt.Fprintf(stdout, "Created %s from the template %s (version %d): %s\n",
		dir, name, templates.Version, strings.Join(files, ", "))
	if name == "loadbalancer" {
		fmt.Fprintf(stdout, "Next: edit Parameters.xlsx in Excel, then double-click a run script, or: websim lb %s\n",
			filepath.Join(dir, "Parameters.xlsx"))
		return nil
	}
	fmt.Fprintf(stdout, "Next: edit SvcData.xlsx and ProcData.xlsx in Excel, then double-click a run script, or: websim run %s\n", dir)
	return nil
}

// isTemplate accepts a template name in any case.
func isTemplate(name string) bool {
	for _, n := range templates.Names() {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// templateVersions lists the workbook template versions this websim reads.
func templateVersions() string {
	var vs []string
	for _, v := range workbook.SupportedTemplateVersions() {
		vs = append(vs, strconv.Itoa(v))
	}
	return strings.Join(vs, ", ")
}

// checkFolderToMake refuses, as invalid input (exit 2), a folder that new
// or import could not make: no name, a file of that name, or a path
// through a file.
func checkFolderToMake(dir string) error {
	if strings.TrimSpace(dir) == "" {
		return invalidInput(errors.New("the folder name is empty; expected the name of a folder to create, e.g. mymodel"))
	}
	for p := filepath.Clean(dir); ; p = filepath.Dir(p) {
		if fi, err := os.Stat(p); err == nil {
			if !fi.IsDir() {
				if p == filepath.Clean(dir) {
					return invalidInput(fmt.Errorf("%s is a file, not a folder; expected a folder to create (or an empty one)", dir))
				}
				return invalidInput(fmt.Errorf("%s cannot be made: %s is a file, not a folder", dir, p))
			}
			return nil
		}
		if parent := filepath.Dir(p); parent == p {
			return nil
		}
	}
}
