package main

import (
	"bytes"
	"io"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/websim/websim/engine/dist"
	"github.com/websim/websim/report"
	"github.com/websim/websim/rules"
	"github.com/websim/websim/study"
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
// 2), decided by the error's type, not by its text: one line on stderr
// that names the flag and where the help is, nothing on stdout (where a
// script reads the JSON).
func TestUsageErrorsAreInvalidInput(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"websim", "run", "--bogus", "x"}, "Error: unknown flag --bogus; see websim run --help"},
		{[]string{"websim", "run", "x", "--jobs", "abc"}, `Error: --jobs "abc": not a valid value`},
		{[]string{"websim", "run", "x", "--seed", "-1"}, `Error: --seed "-1": not a valid value`},
		{[]string{"websim", "--bogus"}, "Error: unknown flag --bogus; see websim --help"},
		{[]string{"websim", "lb", "--json=maybe", "x.yaml"}, `Error: --json "maybe": not a valid value`},
	} {
		var out, errb bytes.Buffer
		if code := run(tt.args, &out, &errb); code != exitInvalid || out.Len() != 0 || !strings.Contains(errb.String(), tt.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tt.args[1:], code, out.String(), errb.String(), tt.want)
		}
	}
}

// helpText runs websim help topic.
func helpText(t *testing.T, topic string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run([]string{"websim", "help", topic}, &out, &errb); code != 0 {
		t.Fatalf("help %s: exit %d: %s", topic, code, errb.String())
	}
	return out.String()
}

func TestHelpDistributionsListsEveryForm(t *testing.T) {
	got := helpText(t, "distributions")
	for _, f := range dist.Forms() {
		form := f.Name + "(" + strings.Join(f.Params, ", ") + ")"
		if !strings.Contains(got, form) || distributionNotes[f.Name] == "" {
			t.Errorf("help distributions lacks %s, or its note", form)
		}
	}
}

func TestHelpExpressionsNamesEveryBuiltin(t *testing.T) {
	got := helpText(t, "expressions")
	for _, n := range rules.BuiltinNames() {
		if !strings.Contains(got, "\n  "+n+" ") {
			t.Errorf("help expressions does not explain %s", n)
		}
	}
}

// TestHelpJSONNamesEveryField: every field websim run --json prints is
// named in the json topic (an added field must be documented there).
func TestHelpJSONNamesEveryField(t *testing.T) {
	got := helpText(t, "json")
	var walk func(typ reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || typ.PkgPath() != reflect.TypeOf(report.JSONStudy{}).PkgPath() {
			return
		}
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			if !regexp.MustCompile(`\b` + name + `\b`).MatchString(got) {
				t.Errorf("help json does not name %s.%s (%q)", typ.Name(), f.Name, name)
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(report.JSONStudy{}))
}

// TestHelpJSONNamesSizeFieldsAndTargets: the size paragraph of help json
// names every field of websim size --json, and the targets line every
// field of a judged target (a name found elsewhere in the text, such as
// "why" in the unstable reason, does not count).
func TestHelpJSONNamesSizeFieldsAndTargets(t *testing.T) {
	got := helpText(t, "json")
	_, size, ok := strings.Cut(got, "websim size --json")
	size, _, _ = strings.Cut(size, "websim fit --json")
	if !ok {
		t.Fatal("help json has no paragraph on websim size --json")
	}
	targets := ""
	for _, line := range strings.Split(got, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "targets:") && targets == "" {
			targets = line // the runs' (the size paragraph's comes later)
		}
	}
	for _, c := range []struct {
		where, text string
		typ         reflect.Type
	}{
		{"the size paragraph", size, reflect.TypeOf(report.JSONSizing{})},
		{"the size paragraph", size, reflect.TypeOf(report.JSONSizePoint{})},
		{"the size paragraph", size, reflect.TypeOf(report.JSONTargetDef{})},
		{"the targets line", targets, reflect.TypeOf(report.JSONTarget{})},
	} {
		for i := range c.typ.NumField() {
			f := c.typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			if !regexp.MustCompile(`\b` + name + `\b`).MatchString(c.text) {
				t.Errorf("%s of help json does not name %s.%s (%q)", c.where, c.typ.Name(), f.Name, name)
			}
		}
	}
	for _, name := range []string{"settingValue", "verdict"} {
		if !strings.Contains(size, name) {
			t.Errorf("the size paragraph of help json does not name %s", name)
		}
	}
}

func TestProgressTextHasOneTimeLeft(t *testing.T) {
	got := progressText(study.Progress{RunsDone: 3, Runs: 100, Fraction: 0.05, Elapsed: 7 * time.Second, Left: 133 * time.Second})
	if want := "runs 3/100 done, elapsed 7s, about 2m13s left"; got != want {
		t.Errorf("progress %q, want %q", got, want)
	}
	if n := strings.Count(got, "left"); n != 1 {
		t.Errorf("%d time-left figures in %q", n, got)
	}
}

// Every command's --help, wherever it stands, prints that command's help
// and exits 0 (`cluster slurm --help` once looked for a help topic "slurm"
// and exited 3).
func TestEveryCommandHelp(t *testing.T) {
	app := newApp(io.Discard, io.Discard)
	for _, cmd := range app.Commands {
		for _, args := range [][]string{
			{cmd.Name, "--help"},
			{cmd.Name, "-h"},
			{cmd.Name, "slurm", "--help"},
			{cmd.Name, "k8s", "samples/asum", "--help"},
		} {
			var out, errb bytes.Buffer
			code := run(append([]string{"websim"}, args...), &out, &errb)
			if code != 0 || !strings.Contains(out.String(), "websim "+cmd.Name) {
				t.Errorf("websim %s: exit %d, stdout %q, stderr %q; want 0 and the help of %s", strings.Join(args, " "), code, out.String(), errb.String(), cmd.Name)
			}
		}
	}
}

// No error gives an exit code other than 0, 1 and 2.
func TestExitCodesAreZeroOneTwo(t *testing.T) {
	for _, code := range []int{1, 2, 3, 4, 127} {
		want := code
		if code > 2 {
			want = exitFailure
		}
		if got := exitCode(cli.Exit("x", code), io.Discard); got != want {
			t.Errorf("exit %d became %d, want %d", code, got, want)
		}
	}
}

// A flag that takes one value, given twice, is refused, and so is a switch
// set both on and off: urfave/cli would keep the last without a word. A
// switch given twice alike, and flags that repeat, are fine.
func TestRepeatedFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"websim", "run", "x", "--loads", "L1", "--loads", "L5"}, "Error: --loads is given twice (L1, then L5)"},
		{[]string{"websim", "run", "--seed=1", "x", "--seed", "2"}, "Error: --seed is given twice (1, then 2)"},
		{[]string{"websim", "size", "x", "--vary", "AppServers", "--vary=AppCapacity"}, "Error: --vary is given twice (AppServers, then AppCapacity)"},
		// Read by the flag library in another base, 0x10 as 16, 010 as 8.
		{[]string{"websim", "run", "x", "--observations", "0x10"}, "Error: --observations 0x10: not a whole number in decimal digits"},
		{[]string{"websim", "run", "x", "--seed=010"}, "Error: --seed 010: not a whole number in decimal digits"},
		{[]string{"websim", "size", "x", "--max", "1_000"}, "Error: --max 1_000: not a whole number in decimal digits"},
		// A switch set both on and off: urfave/cli would keep the last.
		{[]string{"websim", "run", "x", "--json=false", "--json"}, "Error: --json is set both off and on"},
		{[]string{"websim", "run", "x", "--quiet", "--quiet=0"}, "Error: --quiet is set both on and off"},
	} {
		var out, errb bytes.Buffer
		if code := run(tt.args, &out, &errb); code != exitInvalid || !strings.Contains(errb.String(), tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tt.args[1:], code, errb.String(), tt.want)
		}
	}
	if err := repeatedFlag(newApp(nil, nil), []string{"websim", "cluster", "slurm", "m", "--slurm-option", "--partition=a", "--slurm-option", "--time=1", "--quiet"}); err != nil {
		t.Errorf("a flag that repeats: %v", err)
	}
	if err := repeatedFlag(newApp(nil, nil), []string{"websim", "run", "m", "--quiet", "--quiet"}); err != nil {
		t.Errorf("a switch twice: %v", err)
	}
}

// No command's help gives a default of 0 for a flag whose absence means
// "the model's setting": Seed 0 is a seed, and the help said --seed
// defaulted to it where leaving the flag out keeps the Seed setting.
func TestHelpGivesNoZeroDefaultForModelSettings(t *testing.T) {
	for _, cmd := range []string{"run", "size", "cluster"} {
		_, stdout, _ := runCLI(t, cmd, "--help")
		for _, line := range strings.Split(stdout, "\n") {
			for _, flag := range []string{"--seed", "--observations"} {
				if strings.Contains(line, flag+" ") && strings.Contains(line, "(default: 0)") {
					t.Errorf("websim %s --help: %s", cmd, strings.TrimSpace(line))
				}
			}
		}
	}
}
