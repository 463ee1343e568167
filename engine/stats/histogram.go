package stats

import "math"

// Histogram estimates quantiles of non-negative values within a fixed
// relative error, in constant memory. Buckets are log-linear, read straight
// from the bits of a float64: each power of two is cut into 2^subBits equal
// buckets, so a bucket is at most 1/256 of its lower edge wide and its
// midpoint, which Quantile reports, is within 0.2% of any value in it.
// Values at or below MinValue share one bucket (reported as 0); values
// above MaxValue are clamped.
type Histogram struct {
	counts []int64
	zero   int64
	n      int64
}

const (
	subBits = 8
	// MinValue and MaxValue bound the range resolved by the histogram:
	// 2^-30 (about 1e-9) to 2^40 (about 1e12).
	minExp = -30
	maxExp = 40
)

var (
	// MinValue is the smallest value resolved; smaller ones count as 0.
	MinValue = math.Ldexp(1, minExp)
	// MaxValue is the largest value resolved; larger ones are clamped.
	MaxValue = math.Ldexp(1, maxExp)
	nBuckets = (maxExp - minExp) << subBits
)

// bucket returns the bucket of x, MinValue < x.
func bucket(x float64) int {
	if x >= MaxValue {
		return nBuckets - 1
	}
	b := math.Float64bits(x)
	exp := int(b>>52&0x7ff) - 1023
	mant := int(b >> (52 - subBits) & (1<<subBits - 1))
	return (exp-minExp)<<subBits | mant
}

// bucketMid returns the midpoint of bucket i.
func bucketMid(i int) float64 {
	exp := i>>subBits + minExp
	mant := i & (1<<subBits - 1)
	return math.Ldexp(1+(float64(mant)+0.5)/(1<<subBits), exp)
}

// Add records one observation.
func (h *Histogram) Add(x float64) {
	h.n++
	if !(x > MinValue) { // NaN too
		h.zero++
		return
	}
	if h.counts == nil {
		h.counts = make([]int64, nBuckets)
	}
	h.counts[bucket(x)]++
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
			return bucketMid(i)
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
