package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// version is websim's version; release builds may set it with
// -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print websim's version and the template versions it reads",
		Action: func(c *cli.Context) error {
			fmt.Fprintf(c.App.Writer, "websim %s\n", version)
			fmt.Fprintf(c.App.Writer, "reads workbook template versions: %s\n", templateVersions())
			return nil
		},
	}
}
