package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// reorderArgs moves the flags of a command that stand after its positional
// arguments in front of them, so that `websim run samples/asum --seed 3`
// works as `websim run --seed 3 samples/asum` (urfave/cli stops reading flags
// at the first argument). A lone "--" ends flag handling.
func reorderArgs(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	cmd := findCommand(app, args[1])
	if cmd == nil {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, name := range f.Names() {
			takesValue[name] = !isBool
		}
	}
	var flags, positional []string
	rest := args[2:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			positional = append(positional, rest[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = append(positional, a)
			continue
		}
		name := strings.TrimLeft(a, "-")
		if name == "help" || name == "h" {
			// `websim cluster slurm --help`: the command's help, whatever
			// stands around it (urfave would look for a help topic "slurm"
			// and fail with exit 3).
			return []string{args[0], args[1], "--help"}
		}
		flags = append(flags, a)
		if strings.Contains(name, "=") {
			continue
		}
		if takesValue[name] && i+1 < len(rest) {
			i++
			flags = append(flags, rest[i])
		}
	}
	out := append([]string{}, args[:2]...)
	out = append(out, flags...)
	if len(positional) > 0 {
		out = append(out, "--")
		out = append(out, positional...)
	}
	return out
}

func findCommand(app *cli.App, name string) *cli.Command {
	for _, c := range app.Commands {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}
