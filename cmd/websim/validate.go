package main

import "github.com/urfave/cli/v2"

// TODO: being built.
func validateCommand() *cli.Command {
	return &cli.Command{Name: "validate", Usage: "report every problem in a model", ArgsUsage: "MODEL",
		Action: func(*cli.Context) error { return errNotYet }}
}
