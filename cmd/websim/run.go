package main

import "github.com/urfave/cli/v2"

// TODO: being built.
func runCommand() *cli.Command {
	return &cli.Command{Name: "run", Usage: "validate and simulate a model", ArgsUsage: "MODEL",
		Action: func(*cli.Context) error { return errNotYet }}
}
