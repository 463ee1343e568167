package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/websim/websim/workbook"
)

func TestHelpSheets(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"websim", "help", "sheets"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	got := out.String()
	for _, s := range workbook.BuiltinSettings {
		if !strings.Contains(got, "\n  "+s.Name+" ") || !strings.Contains(got, s.Help) {
			t.Errorf("help sheets lacks the setting %s", s.Name)
		}
	}
	for _, s := range workbook.Sheets() {
		if !strings.Contains(got, s.File+"!"+s.Sheet+" (") {
			t.Errorf("help sheets lacks the sheet %s!%s", s.File, s.Sheet)
		}
		for _, c := range s.Columns {
			if !strings.Contains(got, " "+c+":") {
				t.Errorf("help sheets lacks %s!%s column %s", s.File, s.Sheet, c)
			}
		}
	}
	// Required columns are starred.
	if !strings.Contains(got, "  * Server: ") || !strings.Contains(got, "    TimeLimit: ") {
		t.Errorf("required and optional columns not told apart:\n%s", got)
	}
}

func TestHelpTopics(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"websim", "help", "SHEETS"}, 0, "Built-in settings"},
		{[]string{"websim", "help", "run"}, 0, "websim run - validate a model"},
		{[]string{"websim", "help"}, 0, "COMMANDS:"},
		{[]string{"websim", "--help"}, 0, "EXIT STATUS:"},
		{[]string{"websim", "help", "sheet"}, 2, `no help topic "sheet"; did you mean "sheets"?`},
	} {
		var out, errb bytes.Buffer
		code := run(tt.args, &out, &errb)
		if code != tt.code || !strings.Contains(out.String()+errb.String(), tt.out) {
			t.Errorf("%v: exit %d, output %q; want exit %d and %q", tt.args[1:], code, out.String()+errb.String(), tt.code, tt.out)
		}
	}
}

// A complaint of urfave/cli about the command line is invalid input (exit
// 2), decided by the error's type, not by its text.
func TestUsageErrorsAreInvalidInput(t *testing.T) {
	for _, args := range [][]string{
		{"websim", "run", "--bogus", "x"},
		{"websim", "run", "x", "--jobs", "abc"},
		{"websim", "--bogus"},
		{"websim", "lb", "--json=maybe", "x.yaml"},
	} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != exitInvalid || !strings.Contains(out.String(), "Incorrect Usage: ") {
			t.Errorf("%v: exit %d, stdout %q, want exit 2 and the usage", args[1:], code, out.String())
		}
	}
}
