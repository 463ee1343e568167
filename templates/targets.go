package templates

// target is a row of the Targets sheet: an entity (blank for all
// requests), a measure and its limit.
type target struct {
	entity, measure string
	limit           any
}

// measures are the Measure column's values (study.Measures).
var measures = []string{"mean", "p50", "p90", "p95", "p99", "failed", "abandoned"}

var targetColumns = []column{
	{"Entity", "The entity type whose requests the target is about; blank: all requests.", 12},
	{"Measure", "mean, p50, p90, p95 or p99 of response time, or failed or abandoned: the share of requests.", 12},
	{"Limit", "The most the measure may be: a time in TimeUnit, or a share from 0 to 1 for failed and abandoned (0.01 or 1%). A target holds when the upper end of its 95% confidence interval is at most this.", 12},
}

// writeTargets lays out the Targets sheet, when the model has targets.
func (m *model) writeTargets(w *sheetWriter) {
	if len(m.targets) == 0 {
		return
	}
	w.sheet("Targets", targetColumns)
	for i, t := range m.targets {
		w.row("Targets", i+2, t.entity, t.measure, t.limit)
	}
	w.dropDown("Targets", 1, m.entityNames(), false, "an entity")
	w.dropDown("Targets", 2, measures, true, "a measure")
}
