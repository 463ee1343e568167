package report

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/study"
)

// reCondition is a number format section's condition: [>=0.001].
var reCondition = regexp.MustCompile(`^\[(<=|>=|<>|<|>|=)(-?[0-9.]+)\]`)

// sectionFor is the section of a number format code that shows x, as
// Excel and LibreOffice choose it, and whether they put a minus sign
// before it themselves: only a format of one section does; in another, a
// negative number shows as its section writes it (a section without "-"
// drops the sign).
func sectionFor(code string, x float64) (section string, autoMinus bool) {
	secs := strings.Split(code, ";")
	conditional := false
	for _, s := range secs {
		conditional = conditional || reCondition.MatchString(s)
	}
	if conditional {
		for _, s := range secs[:min(len(secs), 2)] {
			m := reCondition.FindStringSubmatch(s)
			if m == nil {
				continue
			}
			v, _ := strconv.ParseFloat(m[2], 64)
			if map[string]bool{"<": x < v, "<=": x <= v, ">": x > v, ">=": x >= v, "=": x == v, "<>": x != v}[m[1]] {
				return s, false
			}
		}
		return secs[len(secs)-1], false
	}
	switch {
	case len(secs) == 1:
		return secs[0], x < 0
	case x > 0 || x == 0 && len(secs) == 2:
		return secs[0], false
	case x < 0:
		return secs[1], false
	}
	return secs[2], false
}

// shownSign is the sign a number format shows before x: "-", "+" or "".
func shownSign(code string, x float64) string {
	sec, auto := sectionFor(code, x)
	if auto {
		return "-"
	}
	sec = regexp.MustCompile(`\[[^\]]*\]|"[^"]*"`).ReplaceAllString(sec, "")
	for _, sign := range []string{"-", "+"} {
		if strings.Contains(sec, sign) {
			return sign
		}
	}
	return ""
}

func TestSectionFor(t *testing.T) {
	for _, c := range []struct {
		code string
		x    float64
		want string
	}{
		{"[>=0.001]0.0%;[>0]0.000%;0.0%", -0.217, ""}, // the defect: a share's format drops the minus
		{"[>=0.001]0.0%;[>0]0.000%;0.0%", 0.217, ""},
		{"+0.0%;-0.0%;0.0%", -0.217, "-"},
		{"+0.0%;-0.0%;0.0%", 0.217, "+"},
		{"+0.0%;-0.0%;0.0%", 0, ""},
		{"#,##0.000", -1.5, "-"},
		{"0.0%;(0.0%)", -1.5, ""},
	} {
		if got := shownSign(c.code, c.x); got != c.want {
			t.Errorf("%q shows %v with sign %q, want %q", c.code, c.x, got, c.want)
		}
	}
}

// A relative difference shows its sign: a simulated figure below the
// measured one reads -6.4%, never 6.4%; one above, +6.8%.
func TestValidationDifferenceShowsItsSign(t *testing.T) {
	for _, c := range []struct {
		name     string
		measured float64 // M10 at L3 simulates a mean of 103
		want     string
	}{
		{"below the measured figure", 110, "-"},
		{"above it", 96.5, "+"},
		{"equal", 103, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := testStudy()
			s.Measured = []study.Measured{{Load: "L3", Measure: study.MeasureMean, Value: c.measured}}
			f := written(t, s)
			rows, _ := f.Rows(ValidationSheet)
			col := slices.Index(rows[0], "Relative difference (÷ measured)")
			for i, r := range rows {
				if len(r) <= col || r[0] != "M10" || r[1] != "L3" {
					continue
				}
				x, err := strconv.ParseFloat(r[col], 64)
				if err != nil {
					t.Fatalf("the difference %q is not a number", r[col])
				}
				look, _ := f.LookOf(ValidationSheet, xlsx.CellName(col, i+1))
				if got := shownSign(look.NumFormat, x); got != c.want {
					t.Errorf("difference %v in %q shows sign %q, want %q", x, look.NumFormat, got, c.want)
				}
				return
			}
			t.Fatalf("no row for M10 at L3:\n%q", rows)
		})
	}
}

const summary = "Summary"

// Each Summary column that holds a ratio or a share has its fixed format:
// attempts per request in three decimals (1.005, 1.050, 1.000), not
// General's 1.0049, 1.05735 and 1.
func TestSummaryColumnFormats(t *testing.T) {
	f := written(t, testStudy())
	rows, _ := f.Rows(summary)
	for _, c := range []struct{ header, want string }{
		{"Attempts per request", "#,##0.000"},
		{"Failure share", xlsx.Share.NumFormat()},
		{"App utilization", xlsx.Share.NumFormat()},
		{"Wall seconds", "#,##0.00"},
	} {
		col := slices.Index(rows[0], c.header)
		if col < 0 {
			t.Fatalf("no column %q in %q", c.header, rows[0])
		}
		for r := 2; r <= len(rows); r++ {
			if v, _ := f.Value(summary, xlsx.CellName(col, r)); v == "" {
				continue
			}
			if look, _ := f.LookOf(summary, xlsx.CellName(col, r)); look.NumFormat != c.want {
				t.Errorf("%s, row %d: format %q, want %q", c.header, r, look.NumFormat, c.want)
			}
		}
	}
}

// A setting's value reads alike as a number and in the text of one set on
// the command line: thousands separated for counts and times.
func TestSettingValue(t *testing.T) {
	for _, c := range []struct {
		set  study.Setting
		want any
	}{
		{study.Setting{Name: "Observations", Value: "20000"}, xlsx.Styled{Value: 20000.0, Style: xlsx.Count}},
		{study.Setting{Name: "Observations", Value: "3000", Source: "command line"}, "3,000 (command line)"},
		{study.Setting{Name: "Observations", Value: "1000000"}, xlsx.Styled{Value: 1e6, Style: xlsx.Count}}, // not the text 1000000
		{study.Setting{Name: "Seed", Value: "12345678901234567"}, "12345678901234567"},                      // 17 digits: Excel would round it
		{study.Setting{Name: "WarmUp", Value: "1500000", Source: "command line"}, "1,500,000 (command line)"},
		{study.Setting{Name: "WarmUp", Value: "1500.5", Source: "command line"}, "1500.5 (command line)"},
		{study.Setting{Name: "Seed", Value: "12345", Source: "command line"}, "12345 (command line)"},
		{study.Setting{Name: "Seed", Value: "12345"}, 12345.0},
		{study.Setting{Name: "Seed", Value: "18446744073709551615"}, "18446744073709551615"},
		{study.Setting{Name: "SelectionRule", Value: "LBS", Source: "command line"}, "LBS (command line)"},
	} {
		if got := settingValue(c.set); got != c.want {
			t.Errorf("settingValue(%+v) = %#v, want %#v", c.set, got, c.want)
		}
	}
}

// dumpFormats lists, per column of a sheet's table, its header and the
// number formats of its cells below (General as "-"): the styles a
// reader sees, which the raw values of dumpSheets do not show.
func dumpFormats(t *testing.T, f *xlsx.Book, sheet string) string {
	t.Helper()
	rows, err := f.Rows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "== formats of %s\n", sheet)
	if len(rows) == 0 {
		return b.String()
	}
	for col, header := range rows[0] {
		var seen []string
		for r := 2; r <= len(rows) && len(rows[r-1]) > 0 && rows[r-1][0] != ""; r++ {
			if col >= len(rows[r-1]) || rows[r-1][col] == "" {
				continue
			}
			look, _ := f.LookOf(sheet, xlsx.CellName(col, r))
			code := look.NumFormat
			if code == "" {
				code = "-"
			}
			if !slices.Contains(seen, code) {
				seen = append(seen, code)
			}
		}
		fmt.Fprintf(&b, "%s: %s\n", header, strings.Join(seen, " "))
	}
	return b.String()
}

// The formats of the Summary and Validation tables, as a reader sees
// them.
func TestFormatsGolden(t *testing.T) {
	s := testStudy()
	s.Measured = []study.Measured{
		{Load: "L3", Measure: study.MeasureMean, Value: 110},
		{Load: "L1", Measure: study.MeasureMean, Value: 95},
		{Load: "L2", Measure: study.MeasureFailed, Value: 0.01},
	}
	f := written(t, s)
	golden(t, "formats.txt", dumpFormats(t, f, summary)+dumpFormats(t, f, ValidationSheet))
}
