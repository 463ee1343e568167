package engine

import "github.com/websim/websim/engine/stats"

// outcomeBatches keep batch means of the indicators "failed" and
// "abandoned" over finished requests, in finishing order, so that the
// shares of failed and abandoned requests of one run have a confidence
// interval as the mean response has.
type outcomeBatches struct {
	failed, abandoned stats.BatchMeans
}

// add records one finished request's outcome.
func (o *outcomeBatches) add(failed, abandoned bool) {
	o.failed.Add(indicator(failed))
	o.abandoned.Add(indicator(abandoned))
}

// fill sets the half-widths of r's failed and abandoned shares.
func (o *outcomeBatches) fill(r *Result) {
	r.FailedCI95 = o.failed.HalfWidth(0.95)
	r.AbandonedCI95 = o.abandoned.HalfWidth(0.95)
}

func indicator(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
