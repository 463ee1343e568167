package engine

import "github.com/websim/websim/engine/stats"

// outcomeBatches keep batch means of the indicators "failed" and
// "abandoned" over finished requests, in finishing order, so that the
// shares of failed and abandoned requests of one run have a confidence
// interval as the mean response has. Both series are counted together
// (stats.Shares): a counter update per finished request.
type outcomeBatches struct {
	shares stats.Shares
}

// add records one finished request's outcome.
func (o *outcomeBatches) add(failed, abandoned bool) {
	o.shares.Add(failed, abandoned)
}

// halfWidths are the 95% half-widths of the failed and abandoned shares.
func (o *outcomeBatches) halfWidths() (failed, abandoned float64) {
	f, a := o.shares.Series(0), o.shares.Series(1)
	return f.HalfWidth(0.95), a.HalfWidth(0.95)
}

// fill sets the half-widths of r's failed and abandoned shares.
func (o *outcomeBatches) fill(r *Result) {
	r.FailedCI95, r.AbandonedCI95 = o.halfWidths()
}

// recordOutcome folds the outcome of a request of entity e that finished
// after the warm-up into the run's outcome batches and, with several
// entities, into the entity's own (with one, the entity's are the run's).
func (s *sim) recordOutcome(e int32, failed, abandoned bool) {
	s.outcomes.add(failed, abandoned)
	if len(s.ents) > 1 {
		s.ents[e].outcomes.add(failed, abandoned)
	}
}
