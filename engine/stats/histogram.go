package stats

import "math"

// Histogram estimates quantiles of non-negative values within a fixed
// relative error, in constant memory. Buckets are log-linear, read straight
// from the bits of a float64: each power of two is cut into 2^subBits equal
// buckets, so a bucket is at most 1/256 of its lower edge wide and its
// midpoint, which Quantile reports, is within 0.2% of any value in it.
// Values at or below MinValue share one bucket (reported as 0); values
// above MaxValue are clamped.
//
// Only the chunks of chunkSize neighbouring buckets that hold an
// observation are stored, so a run's histogram takes a few kilobytes to a
// few tens of kilobytes (a count takes 4 bytes), however many observations
// it has, rather than the 143 KB of all 17,920 buckets. The zero value is an empty histogram.
type Histogram struct {
	// slot[c] is 1 + the index in counts/chunkSize of chunk c's counts, or
	// 0 when no observation fell in chunk c; nil while empty.
	slot []uint16
	// counts holds the low 32 bits of each count; carry the rest, for the
	// rare bucket that passes 2^32-1 (nil until then), so that merged
	// counts stay exact.
	counts []uint32
	carry  map[int]int64
	zero   int64
	n      int64
}

// RelativeError is the largest relative error of a quantile read from a
// Histogram: a bucket's midpoint is within it of any value in the bucket.
// Intervals of percentiles include it, since more observations do not
// shrink it.
const RelativeError = 1.0 / 512

const (
	subBits = 8
	// MinValue and MaxValue bound the range resolved by the histogram:
	// 2^-30 (about 1e-9) to 2^40 (about 1e12).
	minExp = -30
	maxExp = 40
	// chunkBits sets the chunk of buckets stored together: 32 buckets, an
	// eighth of a power of two.
	chunkBits = 5
	chunkSize = 1 << chunkBits
)

var (
	// MinValue is the smallest value resolved; smaller ones count as 0.
	MinValue = math.Ldexp(1, minExp)
	// MaxValue is the largest value resolved; larger ones are clamped.
	MaxValue = math.Ldexp(1, maxExp)
	nBuckets = (maxExp - minExp) << subBits
	nChunks  = nBuckets >> chunkBits
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

// bucketLow returns the lower edge of bucket i.
func bucketLow(i int) float64 {
	exp := i>>subBits + minExp
	mant := i & (1<<subBits - 1)
	return math.Ldexp(1+float64(mant)/(1<<subBits), exp)
}

// chunk returns the counts of chunk c, allocating them when absent.
func (h *Histogram) chunk(c int) []uint32 {
	if h.slot == nil {
		h.slot = make([]uint16, nChunks)
	}
	s := int(h.slot[c])
	if s == 0 {
		if len(h.counts)+chunkSize > cap(h.counts) {
			// Grow by a quarter (at least 8 chunks): amortized O(1) per
			// chunk, with at most a fifth of the storage unused.
			grown := make([]uint32, len(h.counts), cap(h.counts)+max(8*chunkSize, cap(h.counts)/4/chunkSize*chunkSize))
			copy(grown, h.counts)
			h.counts = grown
		}
		h.counts = h.counts[:len(h.counts)+chunkSize]
		s = len(h.counts) / chunkSize
		h.slot[c] = uint16(s)
	}
	return h.counts[(s-1)*chunkSize : s*chunkSize]
}

// Add records one observation.
func (h *Histogram) Add(x float64) {
	h.n++
	if !(x > MinValue) { // NaN too
		h.zero++
		return
	}
	h.addAt(bucket(x))
}

// addAt counts one more observation in bucket i (not in n).
func (h *Histogram) addAt(i int) {
	if ch := i >> chunkBits; ch < len(h.slot) {
		if s := int(h.slot[ch]); s != 0 {
			c := &h.counts[(s-1)<<chunkBits|i&(chunkSize-1)]
			if *c++; *c == 0 { // wrapped
				h.addCarry(i, 1<<32)
			}
			return
		}
	}
	c := &h.chunk(i >> chunkBits)[i&(chunkSize-1)]
	*c++ // a new chunk: no wrap
}

// addCarry adds v (a multiple of 2^32) to the count of bucket i.
func (h *Histogram) addCarry(i int, v int64) {
	if h.carry == nil {
		h.carry = map[int]int64{}
	}
	h.carry[i] += v
}

// N is the number of observations.
func (h *Histogram) N() int64 { return h.n }

// each calls f with every bucket that holds observations, in increasing
// order, until f returns false.
func (h *Histogram) each(f func(i int, c int64) bool) {
	for ch, s := range h.slot {
		if s == 0 {
			continue
		}
		for j, c := range h.counts[int(s-1)*chunkSize : int(s)*chunkSize] {
			i := ch<<chunkBits | j
			n := int64(c)
			if h.carry != nil {
				n += h.carry[i]
			}
			if n != 0 && !f(i, n) {
				return
			}
		}
	}
}

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
	out := MaxValue
	h.each(func(i int, c int64) bool {
		seen += c
		if seen >= rank {
			out = bucketMid(i)
			return false
		}
		return true
	})
	return out
}

// Quantiles sets out[k] to the qs[k]-quantile, as Quantile gives it, for
// every k, in one pass over the histogram; qs must be in increasing
// order, and out as long.
func (h *Histogram) Quantiles(qs, out []float64) {
	rank := func(q float64) int64 {
		return max(int64(math.Ceil(q*float64(h.n))), 1)
	}
	k := 0
	for ; k < len(qs) && (h.n == 0 || h.zero >= rank(qs[k])); k++ {
		out[k] = 0
	}
	if k == len(qs) {
		return
	}
	seen := h.zero
	h.each(func(i int, c int64) bool {
		seen += c
		for ; k < len(qs) && seen >= rank(qs[k]); k++ {
			out[k] = bucketMid(i)
		}
		return k < len(qs)
	})
	for ; k < len(qs); k++ {
		out[k] = MaxValue
	}
}

// below returns the number of observations in buckets wholly below x
// (the zero bucket included when x > MinValue).
func (h *Histogram) below(x float64) int64 {
	if !(x > MinValue) {
		return 0
	}
	end := bucket(x)
	if x >= MaxValue {
		end = nBuckets
	}
	seen := h.zero
	h.each(func(i int, c int64) bool {
		if i >= end {
			return false
		}
		seen += c
		return true
	})
	return seen
}

// Merge adds the observations of o to h, exactly.
func (h *Histogram) Merge(o *Histogram) {
	h.n += o.n
	h.zero += o.zero
	for ch, s := range o.slot {
		if s == 0 {
			continue
		}
		dst := h.chunk(ch)
		for j, c := range o.counts[int(s-1)*chunkSize : int(s)*chunkSize] {
			sum := uint64(dst[j]) + uint64(c)
			dst[j] = uint32(sum)
			if sum>>32 != 0 {
				h.addCarry(ch<<chunkBits|j, 1<<32)
			}
		}
	}
	for i, v := range o.carry {
		h.addCarry(i, v)
	}
}

// footprint is the memory the histogram's counts take, in bytes.
func (h *Histogram) footprint() int {
	return 2*cap(h.slot) + 4*cap(h.counts) + 16*len(h.carry)
}
