package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/websim/websim/internal/suggest"
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
	{"json", "every field of --json: run, merge, size, fit and lb", writeJSONHelp},
	{"exit-codes", "what websim's exit codes mean", writeExitCodesHelp},
}

// topicList names the help topics: "distributions, ..., json or exit-codes".
func topicList() string {
	names := make([]string, len(helpTopics))
	for i, t := range helpTopics {
		names[i] = t.name
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func helpCommand() *cli.Command {
	return &cli.Command{
		Name:      "help",
		Usage:     "what may be typed where, and what comes out: websim help TOPIC (" + topicList() + ")",
		ArgsUsage: "TOPIC",
		Description: "Topics:\n" + func() string {
			var b strings.Builder
			for _, t := range helpTopics {
				fmt.Fprintf(&b, "   %-14s %s\n", t.name, t.summary)
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
