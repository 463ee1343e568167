package main

import "github.com/urfave/cli/v2"

// TODO: being built.
func lbCommand() *cli.Command {
	return &cli.Command{Name: "lb", Usage: "run the load-balancer simulation", ArgsUsage: "PARAMS.yaml",
		Action: func(*cli.Context) error { return errNotYet }}
}
