package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

// The commands below are being built; each moves to its own file.

var errNotYet = errors.New("this command is not built yet")

func templateVersions() string { return "1" }

func runCommand() *cli.Command {
	return &cli.Command{Name: "run", Usage: "validate and simulate a model", ArgsUsage: "MODEL",
		Action: func(*cli.Context) error { return errNotYet }}
}

func validateCommand() *cli.Command {
	return &cli.Command{Name: "validate", Usage: "report every problem in a model", ArgsUsage: "MODEL",
		Action: func(*cli.Context) error { return errNotYet }}
}

func newCommand() *cli.Command {
	return &cli.Command{Name: "new", Usage: "create a model folder from a template", ArgsUsage: "DIR",
		Action: func(*cli.Context) error { return errNotYet }}
}

func lbCommand() *cli.Command {
	return &cli.Command{Name: "lb", Usage: "run the load-balancer simulation", ArgsUsage: "PARAMS.yaml",
		Action: func(*cli.Context) error { return errNotYet }}
}
