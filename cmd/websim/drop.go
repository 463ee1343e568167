package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/workbook"
)

// dropAction runs websim on a path given without a command, as happens
// when a model folder (or one of its workbooks, or a load-balancer file)
// is dragged onto the websim program: a folder or SvcData.xlsx/ProcData.xlsx
// runs the model, a .yaml file or another .xlsx runs the load balancer.
// Without arguments it shows the help.
func dropAction(c *cli.Context) error {
	if c.NArg() == 0 {
		return cli.ShowAppHelp(c)
	}
	if c.NArg() > 1 {
		return invalidInput(errors.New("one model folder (or parameters file) at a time; see websim --help"))
	}
	path := c.Args().First()
	info, err := os.Stat(path)
	if err != nil {
		return invalidInput(errors.New(path + ": no such command, folder or file; see websim --help"))
	}
	ext := strings.ToLower(filepath.Ext(path))
	base := strings.ToLower(filepath.Base(path))
	switch {
	case info.IsDir():
		if lb := lbFolderWorkbook(path); lb != "" {
			return runLB(c.Context, lbOptions{args: []string{lb}, replications: "1", overrides: map[string]string{}}, c.App.Writer, c.App.ErrWriter)
		}
	case base == "svcdata.xlsx" || base == "procdata.xlsx":
		path = filepath.Dir(path)
	case ext == ".yaml" || ext == ".yml" || ext == ".xlsx" && isLBWorkbook(path):
		return runLB(c.Context, lbOptions{args: []string{path}, replications: "1", overrides: map[string]string{}}, c.App.Writer, c.App.ErrWriter)
	default:
		return invalidInput(errors.New(path + ": expected a model folder, its SvcData.xlsx, or a load-balancer .yaml file or Parameters.xlsx (with a RequestTypes sheet)"))
	}
	return runModel(c.Context, runOptions{model: path}, c.App.Writer, c.App.ErrWriter)
}

// isLBWorkbook reports whether an .xlsx file is a load-balancer parameters
// workbook (it has a RequestTypes sheet), so that dropping another
// workbook (OutPut.xlsx, say) is not mistaken for one. It opens the file
// with the xlsx layer's limits, so a hostile file is refused quickly.
func isLBWorkbook(path string) bool {
	b, err := xlsx.Open(path)
	if err != nil {
		return false
	}
	defer b.Close()
	_, ok := b.FindSheet("RequestTypes")
	return ok
}

// lbFolderWorkbook returns the load-balancer workbook of a folder that
// holds one (Parameters.xlsx, as websim new --template loadbalancer
// writes) and no model workbooks, or "".
func lbFolderWorkbook(dir string) string {
	if _, err := xlsx.Find(dir, workbook.SvcDataFile); err == nil {
		return ""
	}
	path, err := xlsx.Find(dir, "Parameters.xlsx") // parameters.xlsx too
	if err != nil || !isLBWorkbook(path) {
		return ""
	}
	return path
}

// notALoadBalancer refuses a model command on a load-balancer folder, with
// the command that runs it; nil for any other folder.
func notALoadBalancer(dir string) error {
	if lbFolderWorkbook(dir) == "" {
		return nil
	}
	return invalidInput(fmt.Errorf("%s holds a load-balancer model (Parameters.xlsx), not SvcData.xlsx and ProcData.xlsx; run it with: websim lb %s", dir, dir))
}
