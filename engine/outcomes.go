package engine

import (
	"math"

	"github.com/websim/websim/engine/stats"
)

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
	return shareHalfWidth(&f), shareHalfWidth(&a)
}

// MinEventBatches is the fewest batches (of those a batch-means interval
// rests on) that must see an outcome for the interval of its share to be
// given. Failures from time-outs, and users giving up, come in bursts,
// while a server's queue is long: a run that saw a few bursts has them in
// a few batches, and the spread of its batch means says little of how
// often bursts come. An M/M/1 whose calls fail after a TimeLimit (a true
// share of 0.001, 100,000 requests, 200 seeds) had its interval cover the
// truth in 69% of runs, and a Target of 0.0008 "hold" in 25%.
const MinEventBatches = 8

// shareHalfWidth is the 95% half-width of the share of an outcome, from the
// batch means of its indicators: NaN, no interval, when it was seen in
// fewer than MinEventBatches of the batches (and at least once: a share
// of none seen has its own bound where it is used).
func shareHalfWidth(b *stats.BatchMeans) float64 {
	if with, _ := b.BatchesWithEvents(); with > 0 && with < MinEventBatches {
		return math.NaN()
	}
	return b.HalfWidth(0.95)
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
