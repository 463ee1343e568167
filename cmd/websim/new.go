package main

import "github.com/urfave/cli/v2"

// TODO: being built.
func newCommand() *cli.Command {
	return &cli.Command{Name: "new", Usage: "create a model folder from a template", ArgsUsage: "DIR",
		Action: func(*cli.Context) error { return errNotYet }}
}

func templateVersions() string { return "1" }
