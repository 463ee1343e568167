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

// MeasuredChoices are the Measure column's values of the Measured sheet:
// the Targets measures, then utilization:App and utilization:SERVER for
// each server.
func MeasuredChoices(servers []string) []string {
	out := append([]string{}, measures...)
	for _, s := range append([]string{"App"}, servers...) {
		out = append(out, "utilization:"+s)
	}
	return out
}

// writeMeasured lays out the Measured sheet, when the model has one: its
// header with the columns' notes and drop-down lists, and no rows (what
// the real system did is the user's to type).
func (m *model) writeMeasured(w *sheetWriter) {
	if !m.measured {
		return
	}
	w.sheet("Measured", measuredColumns)
	var servers []string
	for _, s := range m.servers {
		servers = append(servers, s.name)
	}
	w.dropDown("Measured", 1, m.entityNames(), false, "an entity")
	w.dropDown("Measured", 2, m.loads, false, "a load")
	w.dropDown("Measured", 3, MeasuredChoices(servers), false, "a measure")
}
