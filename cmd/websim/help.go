package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/websim/websim/internal/suggest"
	"github.com/websim/websim/templates"
	"github.com/websim/websim/workbook"
)

// helpTopic is one topic of `websim help TOPIC`.
type helpTopic struct {
	name, summary string
	write         func(w io.Writer) error
}

// helpTopics lists the topics; adding a topic is adding one entry.
var helpTopics = []helpTopic{
	{"distributions", "the distributions a cell may hold, and their parameters", writeDistributionsHelp},
	{"expressions", "what an expression sees and may call, with examples", writeExpressionsHelp},
	{"sheets", "the input sheets, their columns and every built-in setting", writeSheetsHelp},
	{"json", "the fields of websim run --json, extras included", writeJSONHelp},
	{"exit-codes", "what websim's exit codes mean", writeExitCodesHelp},
}

func helpCommand() *cli.Command {
	return &cli.Command{
		Name:      "help",
		Usage:     "what may be typed where, and what comes out: websim help TOPIC",
		ArgsUsage: "TOPIC",
		Description: "Topics:\n" + func() string {
			var b strings.Builder
			for _, t := range helpTopics {
				fmt.Fprintf(&b, "   %-12s %s\n", t.name, t.summary)
			}
			return b.String()
		}() + "\nwebsim help COMMAND (or websim COMMAND --help) shows a command's flags.",
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cli.ShowAppHelp(c)
			}
			return runHelp(c, c.Args().First(), c.App.Writer)
		},
	}
}

// runHelp writes a topic, or a command's help when name is a command.
func runHelp(c *cli.Context, name string, w io.Writer) error {
	i := slices.IndexFunc(helpTopics, func(t helpTopic) bool { return strings.EqualFold(t.name, name) })
	if i >= 0 {
		return helpTopics[i].write(w)
	}
	if c.App.Command(name) != nil {
		if lineage := c.Lineage(); len(lineage) > 1 {
			return cli.ShowCommandHelp(lineage[1], name)
		}
	}
	names := make([]string, len(helpTopics))
	for i, t := range helpTopics {
		names[i] = t.name
	}
	return invalidInput(errors.New("no help topic " + fmt.Sprintf("%q", name) + suggest.DidYouMean(name, names) +
		"; expected one of " + strings.Join(names, ", ") + ", or a command"))
}

// writeSheetsHelp is the `sheets` topic: each input sheet with its columns
// (from workbook's specs, notes from the templates), then the table of
// built-in settings.
func writeSheetsHelp(w io.Writer) error {
	var b strings.Builder
	b.WriteString("The input sheets. Headers are matched ignoring case, spaces and underscores;\n" +
		"columns and sheets websim does not know are left alone (your notes).\n")
	for _, s := range workbook.Sheets() {
		need := "optional"
		if s.Required {
			need = "required"
		}
		fmt.Fprintf(&b, "\n%s!%s (%s): %s\n", s.File, s.Sheet, need, s.About)
		for _, c := range s.Columns {
			mark := " "
			if slices.Contains(s.Needed, c) {
				mark = "*"
			}
			fmt.Fprintf(&b, "  %s %s", mark, c)
			if note := templates.ColumnNote(s.Sheet, c); note != "" {
				fmt.Fprintf(&b, ": %s", note)
			}
			b.WriteString("\n")
		}
		if s.More != "" {
			fmt.Fprintf(&b, "    and %s\n", s.More)
		}
	}
	b.WriteString("\n(* the column must be present)\n\nBuilt-in settings (Settings sheet, and Experiments columns):\n")
	for _, s := range workbook.BuiltinSettings {
		kind := s.Kind.String()
		if len(s.Choices) > 0 {
			kind = strings.Join(s.Choices, " | ")
		}
		if s.Limits != "" {
			kind += "; " + s.Limits
		}
		fmt.Fprintf(&b, "  %-16s %s (%s; default %s)\n", s.Name, s.Help, kind, s.Default)
	}
	b.WriteString("  any other name    a parameter of your own, usable by name in every expression\n")
	b.WriteString("\nLimits (a model beyond one is refused when read, at the cell, with the limit):\n")
	for _, l := range workbook.Limits() {
		fmt.Fprintf(&b, "  %s: at most %d (%s)\n", l.What, l.Max, l.Why)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
