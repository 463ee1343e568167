package main

import (
	"fmt"
	"regexp"
	"strconv"
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
	takesValue, _ := flagKinds(cmd)
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

// repeatedFlag finds a flag given twice to a command that takes it once
// (--loads L1 --loads L5): urfave/cli keeps the last without a word, which
// would run another study than the one typed. Flags that may repeat
// (--slurm-option) are left alone. A flag given an empty value (--out "",
// --loads=) is refused too: urfave/cli would take it for the default.
func repeatedFlag(app *cli.App, args []string) error {
	if len(args) < 2 {
		return nil
	}
	cmd := findCommand(app, args[1])
	if cmd == nil {
		return nil
	}
	takesValue, canonical := flagKinds(cmd)
	whole := wholeNumberFlags(cmd)
	seen := map[string]string{}
	rest := args[2:]
	for _, a := range rest {
		if a == "--" {
			break
		}
		if a == "--help" || a == "-h" || a == "-help" {
			return nil // the help, whatever stands around it (reorderArgs)
		}
	}
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !hasValue && takesValue[name] && i+1 < len(rest) {
			i++
			value, hasValue = rest[i], true
		}
		if takesValue[name] {
			if !hasValue {
				return fmt.Errorf("--%s needs a value after it; expected --%s VALUE or --%s=VALUE", name, name, name)
			}
			if strings.TrimSpace(value) == "" {
				return fmt.Errorf("--%s %q: empty; expected a value (a comma list where it takes several), or leave the flag out for its default", name, value)
			}
			if whole[name] && !decimalInteger.MatchString(value) && readsAsNumber(value) {
				// The flag library reads 0x10 as 16 and 010 as 8.
				return fmt.Errorf("--%s %s: not a whole number in decimal digits; expected one such as 5000", name, value)
			}
		}
		c, known := canonical[name]
		if !known {
			continue // urfave's own complaint, or a flag that may repeat
		}
		if !takesValue[name] {
			// A switch: given twice it is the same switch, unless it is
			// set both on and off (--json=false --json), where
			// urfave/cli would keep the last without a word.
			on, err := strconv.ParseBool(value)
			if !hasValue {
				on, err = true, nil
			}
			if err != nil {
				continue // urfave's own complaint
			}
			value = strconv.FormatBool(on)
			if first, twice := seen[c]; twice && first != value {
				return fmt.Errorf("--%s is set both %s and %s; expected it once", c, onOff(first), onOff(value))
			}
			seen[c] = value
			continue
		}
		if first, twice := seen[c]; twice {
			return fmt.Errorf("--%s is given twice (%s, then %s); expected it once (a comma list where it takes several)", c, first, value)
		}
		seen[c] = value
	}
	return nil
}

// onOff says a switch's value, "true" or "false", as on or off.
func onOff(value string) string {
	if value == "true" {
		return "on"
	}
	return "off"
}

// decimalInteger is a whole number as an analyst types it: decimal digits,
// a sign at most, no leading zero to make it octal.
var decimalInteger = regexp.MustCompile(`^[+-]?(0|[1-9][0-9]*)$`)

// readsAsNumber reports whether the flag library would take value for a
// whole number (0x10, 010, 1_000: other bases and underscores); a value it
// refuses keeps its own message.
func readsAsNumber(value string) bool {
	_, errInt := strconv.ParseInt(value, 0, 64)
	_, errUint := strconv.ParseUint(value, 0, 64)
	return errInt == nil || errUint == nil
}

// wholeNumberFlags are the names of cmd's flags that take a whole number.
func wholeNumberFlags(cmd *cli.Command) map[string]bool {
	whole := map[string]bool{}
	for _, f := range cmd.Flags {
		switch f.(type) {
		case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag:
			for _, name := range f.Names() {
				whole[name] = true
			}
		}
	}
	return whole
}

// flagKinds tells, by each name of cmd's flags, whether it takes a value,
// and for those that take one value once (switches included), their first
// name (--slurm-option may repeat).
func flagKinds(cmd *cli.Command) (takesValue map[string]bool, once map[string]string) {
	takesValue, once = map[string]bool{}, map[string]string{}
	for _, f := range cmd.Flags {
		_, many := f.(*cli.StringSliceFlag)
		_, isBool := f.(*cli.BoolFlag)
		for _, name := range f.Names() {
			takesValue[name] = !isBool
			if !many {
				once[name] = f.Names()[0]
			}
		}
	}
	return takesValue, once
}
