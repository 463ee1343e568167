package stats

import "math"

// Histogram estimates quantiles of positive values within a fixed relative
// error, in constant memory: buckets are geometric with ratio 1+2ε, and a
// quantile is reported at its bucket's geometric midpoint, so it is within
// ε (0.25%) of a value that lies in the same bucket as the true quantile.
// Values at or below MinValue share one bucket (reported as 0); values above
// MaxValue are clamped.
type Histogram struct {
	counts []int64
	zero   int64
	n      int64
}

const (
	// relErr is the relative error of a reported quantile.
	relErr = 0.0025
	// MinValue and MaxValue bound the range resolved by the histogram.
	MinValue = 1e-9
	MaxValue = 1e12
)

var (
	logRatio = math.Log1p(2 * relErr)
	nBuckets = int(math.Ceil(math.Log(MaxValue/MinValue)/logRatio)) + 1
	logMin   = math.Log(MinValue)
)

// Add records one observation.
func (h *Histogram) Add(x float64) {
	h.n++
	if x <= MinValue || math.IsNaN(x) {
		h.zero++
		return
	}
	if h.counts == nil {
		h.counts = make([]int64, nBuckets)
	}
	i := int((math.Log(x) - logMin) / logRatio)
	if i >= nBuckets {
		i = nBuckets - 1
	}
	h.counts[i]++
}

// N is the number of observations.
func (h *Histogram) N() int64 { return h.n }

// Quantile returns the q-quantile (0 < q ≤ 1) of the observations: the
// smallest value with at least q·n observations at or below it, to within
// the histogram's relative error.
func (h *Histogram) Quantile(q float64) float64 {
	if h.n == 0 {
		return 0
	}
	rank := int64(math.Ceil(q * float64(h.n)))
	if rank < 1 {
		rank = 1
	}
	seen := h.zero
	if seen >= rank {
		return 0
	}
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			return math.Exp(logMin + (float64(i)+0.5)*logRatio)
		}
	}
	return MaxValue
}

// Merge adds the observations of o to h.
func (h *Histogram) Merge(o *Histogram) {
	h.n += o.n
	h.zero += o.zero
	if o.counts == nil {
		return
	}
	if h.counts == nil {
		h.counts = make([]int64, nBuckets)
	}
	for i, c := range o.counts {
		h.counts[i] += c
	}
}

// Reset forgets every observation, keeping the memory.
func (h *Histogram) Reset() {
	clear(h.counts)
	h.n, h.zero = 0, 0
}
