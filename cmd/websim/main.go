// Command websim simulates web applications described in Excel workbooks.
//
// Exit status: 0 when done; 2 when the input is invalid (nothing was
// written); 1 for anything else.
package main

import (
	"errors"
	"fmt"
	"github.com/websim/websim/internal/xlsx"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/urfave/cli/v2"
)

// Exit codes, documented in --help for scripts.
const (
	exitOK      = 0
	exitFailure = 1
	exitInvalid = 2
)

// invalidInputError marks an error caused by the user's input: exit code 2.
type invalidInputError struct{ err error }

func (e *invalidInputError) Error() string { return e.err.Error() }
func (e *invalidInputError) Unwrap() error { return e.err }

// invalidInput wraps err so that main exits with code 2.
func invalidInput(err error) error {
	if err == nil {
		return nil
	}
	return &invalidInputError{err}
}

func main() {
	adjustStartingHeap()
	xlsx.KeepLibraryTemp()
	code := run(os.Args, os.Stdout, os.Stderr)
	xlsx.RemoveLibraryTemp()
	os.Exit(code)
}

// run runs the command line args and returns the exit code; tests call it
// in-process.
func run(args []string, stdout, stderr io.Writer) int {
	app := newApp(stdout, stderr)
	if err := repeatedFlag(app, args); err != nil {
		return exitCode(invalidInput(err), stderr)
	}
	err := app.Run(reorderArgs(app, args))
	return exitCode(err, stderr)
}

// exitCode is the one place that maps errors to exit codes.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var silent *silentError
	var invalid *invalidInputError
	switch {
	case errors.As(err, &silent):
	case errors.As(err, &invalid) && startsWithLocation(err.Error()):
		// A problem of the model, printed as every other one is
		// (File!Sheet!Cell: ...), without a prefix.
		fmt.Fprintln(stderr, err)
	default:
		fmt.Fprintln(stderr, "Error:", err)
	}
	if errors.As(err, &invalid) {
		return exitInvalid
	}
	var exitCoder cli.ExitCoder
	if errors.As(err, &exitCoder) && exitCoder.ExitCode() == exitInvalid {
		return exitInvalid // never any code but 0, 1 and 2
	}
	return exitFailure
}

// startsWithLocation tells whether msg starts with a problem's location in a model
// workbook ("SvcData.xlsx!Settings!B6: ...").
func startsWithLocation(msg string) bool {
	loc, _, ok := strings.Cut(msg, ": ")
	return ok && !strings.ContainsAny(loc, " \n") && strings.Contains(loc, ".xlsx!")
}

// onUsageError handles urfave/cli's complaints about the command line
// itself (an unknown flag, a flag without its value, a value that does not
// parse): it shows the help, as urfave would, and marks the error as
// invalid input, so that exitCode decides by type (exit 2).
func onUsageError(c *cli.Context, err error, isSubcommand bool) error {
	help := "websim --help"
	if c.Command != nil && c.Command.Name != "" && c.Command.Name != c.App.Name {
		help = "websim " + c.Command.Name + " --help"
	}
	// The whole help text is not printed: on stdout it would mix with the
	// JSON a script reads, and the one line that matters scrolls away.
	return invalidInput(fmt.Errorf("%s; see %s", usageText(err), help))
}

var (
	badFlagValue = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-+([^:]+): (.*)$`)
	unknownFlag  = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)
)

// usageText says a flag error in the words of the rest of websim's
// messages: "--seed "abc": not a valid value (parse error)".
func usageText(err error) string {
	msg := err.Error()
	if m := badFlagValue.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("--%s %q: not a valid value (%s)", m[2], m[1], m[3])
	}
	if m := unknownFlag.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("unknown flag --%s", m[1])
	}
	return msg
}

// silentError carries an exit status for an error whose details were already
// printed (validation problems, one per line).
type silentError struct{ err error }

func (e *silentError) Error() string { return e.err.Error() }
func (e *silentError) Unwrap() error { return e.err }

func newApp(stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:      "websim",
		Usage:     "simulate web applications modelled in Excel workbooks",
		Version:   version,
		Writer:    stdout,
		ErrWriter: stderr,
		Commands: []*cli.Command{
			runCommand(),
			validateCommand(),
			newCommand(),
			lbCommand(),
			fitCommand(),
			versionCommand(),
			mergeCommand(),
			clusterCommand(),
			exportCommand(),
			importCommand(),
			diffCommand(),
			helpCommand(),
			sizeCommand(),
		},
		// Our own help command (help.go) takes urfave's place, and with it
		// the --help flag it would have added.
		Flags: []cli.Flag{cli.HelpFlag},
		CustomAppHelpTemplate: cli.AppHelpTemplate + `
EXIT STATUS:
   0  done
   1  a failure while running or writing (see the message)
   2  the input is invalid; every problem is printed, nothing was written
`,
		// A path without a command (a folder dragged onto the program) runs it.
		Action:    dropAction,
		ArgsUsage: "[MODEL]",
		// Only run() decides exit codes.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError:   onUsageError,
	}
	for _, c := range app.Commands {
		c.OnUsageError = onUsageError
		c.HideHelpCommand = true // websim help COMMAND is help.go's
	}
	return app
}
