package templates

// measuredColumns are the columns of the optional Measured sheet: figures
// measured on the real system, which a run sets beside the simulated ones
// (the Validation sheet of the results).
var measuredColumns = []column{
	{"Entity", "The entity type whose requests were measured; blank: all requests.", 12},
	{"Load", "The load level (an Arrivals header, e.g. L5) at which the figure was measured.", 10},
	{"Measure", "mean, p50, p90, p95 or p99 of response time, failed or abandoned (the share of requests), or utilization:SERVER (an external server's busy fraction, or utilization:App).", 18},
	{"Value", "The figure measured: a time in TimeUnit, or a share from 0 to 1 (0.62 or 62%) for failed, abandoned and a utilization.", 12},
}
