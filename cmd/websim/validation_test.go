package main

import (
	"strings"
	"testing"
)

// websim run prints the Measured rows beside the simulated figures after
// its table: inside the interval for Erlang C's mean of M/M/20 at ρ = 0.8
// (1.0640), outside it for a mean 20% off.
func TestRunPrintsMeasuredBesideSimulated(t *testing.T) {
	dir := copyModel(t, "mmc")
	addMeasured(t, dir, []any{nil, "rho0.8", "mean", 1.0640}, []any{nil, "rho0.8", "mean", 1.28}, []any{nil, "rho0.5", "utilization:App", "50%"})
	code, stdout, stderr := runCLI(t, "run", dir, "--loads", "rho0.5,rho0.8", "--observations", "50000")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "Measured against simulated (95% interval; sheet Validation):\n") {
		t.Fatalf("no comparison printed:\n%s", stdout)
	}
	ends := map[string]string{
		"Base rho0.8, mean response of all requests: measured 1.064, simulated ": "): inside",
		"Base rho0.8, mean response of all requests: measured 1.28, simulated ":  "): OUTSIDE",
		"Base rho0.5, utilization of App: measured 50%, simulated ":              "; no interval is kept for a utilization",
	}
	for start, end := range ends {
		found := false
		for _, line := range strings.Split(stdout, "\n") {
			if line = strings.TrimSpace(line); strings.HasPrefix(line, start) {
				found = true
				if !strings.HasSuffix(line, end) {
					t.Errorf("%q does not end with %q", line, end)
				}
			}
		}
		if !found {
			t.Errorf("no line %q...:\n%s", start, stdout)
		}
	}
}
