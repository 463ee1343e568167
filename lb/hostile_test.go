package lb

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// manyTypes is a YAML file with n request types of equal proportion.
func manyTypes(n int) string {
	var b strings.Builder
	b.WriteString("number_of_servers: 6\nnumber_of_requests_per_sec: 30\nnumber_of_requests: 5000\nmethod: roundrobin\ntypes_of_requests:\n")
	for i := range n {
		fmt.Fprintf(&b, "  t%d:\n    output_capacity: 6\n    proportion: %v\n    avg_service_time_secs: 1\n    deviation_service_time_secs: 0.1\n", i, 1/float64(n))
	}
	return b.String()
}

// TestHostileParameters: the load-balancer inputs of issue 11 that crashed
// or printed a JSON error are refused, each at its key.
func TestHostileParameters(t *testing.T) {
	edit := func(old, new string) string { return strings.Replace(goodYAML, old, new, 1) }
	for _, tc := range []struct {
		name, text string
		overrides  []string
		want       string
	}{
		{"100,000 request types", manyTypes(100_000), nil, "p.yaml:5: 100000 request types, more than the limit of 1000"},
		{"servers × types", manyTypes(1000), []string{KeyServers, "5000"}, "--number_of_servers: number_of_servers 5000 servers × 1000 request types is 5000000, more than the limit of 1000000"},
		{"a rate of 1e-320", goodYAML, []string{KeyRate, "1e-320"}, "--number_of_requests_per_sec: number_of_requests_per_sec 1e-320 requests per second is too small"},
		{"a service time of 1e300", edit("avg_service_time_secs: 4.5", "avg_service_time_secs: 1e300"), nil, "p.yaml:9: dma avg_service_time_secs 1e+300 seconds is too long"},
		{"a decimal comma", edit("avg_service_time_secs: 1.15", "avg_service_time_secs: 1,15"), nil, `"1,15" is not a number: write it with a point for decimals (1.15)`},
		{"capacities over all types", edit("output_capacity: 60", "output_capacity: 9999990"), nil, "the output capacities add up to 10000010 units, more than the limit of 10000000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			got := problemsOf(t, tc.text, tc.overrides...)
			if !strings.Contains(got, tc.want) {
				t.Errorf("problems:\n%s\nwant a line with %q", got, tc.want)
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}
