package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/websim/websim/study"
)

func TestDecimals(t *testing.T) {
	for _, tt := range []struct {
		x    float64
		want string
	}{
		{325.44, "325.4"}, {1.23456, "1.235"}, {0.0123456, "0.01235"}, {12345.6, "12346"}, {1000, "1000"}, {999.96, "1000.0"}, {0, "0.000"},
	} {
		if got := formatDecimals(tt.x); got != tt.want {
			t.Errorf("%v shows as %q, want %q", tt.x, got, tt.want)
		}
	}
}

func formatDecimals(x float64) string { return fmt.Sprintf("%.*f", decimals(x), x) }

func TestVerdicts(t *testing.T) {
	v := func(vs ...study.Verdict) []study.TargetResult {
		var rs []study.TargetResult
		for _, x := range vs {
			rs = append(rs, study.TargetResult{Verdict: x})
		}
		return rs
	}
	for _, tt := range []struct {
		rs   []study.TargetResult
		want string
	}{
		{v(study.Holds), "holds"},
		{v(study.Undecided), "undecided"},
		{v(study.Holds, study.Holds), "all hold"},
		{v(study.Holds, study.Fails, study.Undecided), "1 of 3 fail, 1 of 3 undecided"},
		{v(study.Fails, study.Fails), "2 of 2 fail"},
	} {
		if got := verdicts(tt.rs); got != tt.want {
			t.Errorf("verdicts %v = %q, want %q", tt.rs, got, tt.want)
		}
	}
}

// The console's table has the targets' verdicts when the model has a
// Targets sheet, and says what they are.
func TestRunPrintsTargets(t *testing.T) {
	dir := copyModel(t, "asum")
	code, stdout, stderr := runCLI(t, "run", dir, "--observations", "2000", "--scenarios", "P10", "--loads", "L1,L3")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	lines := strings.Split(stdout, "\n")
	if f := strings.Fields(lines[0]); f[len(f)-1] != "targets" || f[len(f)-2] != "stable" {
		t.Errorf("header %q, want a targets column", lines[0])
	}
	if !strings.Contains(stdout, "targets (times in ms), each judged by its 95% interval") || !strings.Contains(stdout, "p95 response of all requests ≤ 1000") {
		t.Errorf("the targets are not told:\n%s", stdout)
	}
}

// A figure so large that its digits would fill the console line is
// printed with an exponent, and so is one so small that six decimals would
// show it as 0 or in one digit; others keep their decimals.
func TestFixedKeepsHugeFiguresShort(t *testing.T) {
	for _, c := range []struct {
		d    int
		x    float64
		want string
	}{
		{1, 1030.04, "1030.0"},
		{3, 0.5, "0.500"},
		{0, 1e14, "100000000000000"},
		{1, 1e300, "1e+300"},
		{2, -2.5e17, "-2.5e+17"},
		{6, 5.28e-06, "5.28e-06"},
		{6, 1.75e-07, "1.75e-07"},
		{6, 1.5e-05, "0.000015"},
		{3, 0, "0.000"},
	} {
		if got := fixed(c.d, c.x); got != c.want {
			t.Errorf("fixed(%d, %g) = %q, want %q", c.d, c.x, got, c.want)
		}
	}
}
