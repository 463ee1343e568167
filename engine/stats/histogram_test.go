package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// denseHistogram is the former Histogram, every bucket stored: the
// reference the compact one must match bit for bit.
type denseHistogram struct {
	counts  [1 << 15]int64
	zero, n int64
}

func (d *denseHistogram) add(x float64) {
	d.n++
	if !(x > MinValue) {
		d.zero++
		return
	}
	d.counts[bucket(x)]++
}

func (d *denseHistogram) quantile(q float64) float64 {
	if d.n == 0 {
		return 0
	}
	rank := max(int64(math.Ceil(q*float64(d.n))), 1)
	seen := d.zero
	if seen >= rank {
		return 0
	}
	for i, c := range d.counts[:nBuckets] {
		seen += c
		if seen >= rank {
			return bucketMid(i)
		}
	}
	return MaxValue
}

func TestHistogramMatchesDenseBitForBit(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	draws := []func() float64{
		r.ExpFloat64,
		func() float64 { return math.Exp(4 * r.NormFloat64()) }, // many powers of two
		func() float64 { return float64(r.IntN(5)) },            // zeros and a few values
		func() float64 { return 1e13 * r.Float64() },            // clamped at MaxValue
		func() float64 { return 1e-10 * r.Float64() },           // below MinValue
	}
	qs := []float64{1e-9, 0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 1}
	var all Histogram
	var allDense denseHistogram
	for k, draw := range draws {
		var h Histogram
		var d denseHistogram
		for range 20_000 {
			x := draw()
			h.Add(x)
			d.add(x)
			allDense.add(x)
		}
		all.Merge(&h)
		for _, q := range qs {
			if got, want := h.Quantile(q), d.quantile(q); got != want {
				t.Errorf("draw %d: Quantile(%v) = %v, dense %v", k, q, got, want)
			}
		}
	}
	for _, q := range qs {
		if got, want := all.Quantile(q), allDense.quantile(q); got != want {
			t.Errorf("merged: Quantile(%v) = %v, dense %v", q, got, want)
		}
	}
	if all.N() != allDense.n {
		t.Errorf("merged N = %d, want %d", all.N(), allDense.n)
	}
	var empty Histogram
	empty.Merge(&Histogram{})
	if empty.Quantile(0.5) != 0 || empty.N() != 0 {
		t.Errorf("empty histogram: %v, %d", empty.Quantile(0.5), empty.N())
	}
}

func TestHistogramIsCompact(t *testing.T) {
	// An M/M/1 run at ρ 0.8 of 100,000 sojourn times must take well under
	// the 143 KB of the dense histogram.
	var h Histogram
	mm1Sojourns(1, 0.8, 1, 100_000, h.Add)
	if b := h.footprint(); b > 40_000 {
		t.Errorf("histogram of 100,000 sojourns takes %d bytes, want under 40,000", b)
	}
	var hit Histogram
	hit.Add(1)
	if a := testing.AllocsPerRun(1000, func() { hit.Add(1.001) }); a != 0 {
		t.Errorf("Add in an occupied chunk allocates %v times", a)
	}
}

func BenchmarkHistogramAdd(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, 1<<16)
	for i := range xs {
		xs[i] = 5 * r.ExpFloat64()
	}
	var h Histogram
	b.ResetTimer()
	for i := range b.N {
		h.Add(xs[i&(1<<16-1)])
	}
}

// BenchmarkDenseHistogramAdd is the former dense histogram's Add, for
// comparison with BenchmarkHistogramAdd.
func BenchmarkDenseHistogramAdd(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, 1<<16)
	for i := range xs {
		xs[i] = 5 * r.ExpFloat64()
	}
	d := new(denseHistogram)
	b.ResetTimer()
	for i := range b.N {
		d.add(xs[i&(1<<16-1)])
	}
}

// BenchmarkHistogramRun fills one histogram per op with the 100,000
// sojourn times of an M/M/1 run at ρ 0.8 and reports its footprint.
func BenchmarkHistogramRun(b *testing.B) {
	var xs []float64
	mm1Sojourns(1, 0.8, 1, 100_000, func(x float64) { xs = append(xs, x) })
	b.ResetTimer()
	var h Histogram
	for range b.N {
		h = Histogram{}
		for _, x := range xs {
			h.Add(x)
		}
	}
	b.ReportMetric(float64(h.footprint()), "bytes/histogram")
}

func TestHistogramCountsPastTwoTo32(t *testing.T) {
	// Counts that pass 2^32-1, by Merge and then by Add, stay exact.
	var h Histogram
	h.Add(1)
	h.counts[int(h.slot[bucket(1)>>chunkBits]-1)*chunkSize+bucket(1)&(chunkSize-1)] = math.MaxUint32 - 1
	h.n = math.MaxUint32 - 1
	h.Add(1)  // count 2^32-1
	h.Add(10) // and one value above
	var m Histogram
	m.Merge(&h)
	m.Merge(&h) // 2^33-2: the low parts overflow
	m.Add(1)
	m.Add(1) // 2^33: the low part wraps
	var z Histogram
	z.Merge(&m) // carries merge too
	got := map[int]int64{}
	z.each(func(i int, c int64) bool { got[i] = c; return true })
	if len(got) != 2 || got[bucket(1)] != 1<<33 || got[bucket(10)] != 2 {
		t.Errorf("counts %v, want %d at bucket %d and 2 at %d", got, int64(1)<<33, bucket(1), bucket(10))
	}
	if q := z.Quantile(1); q != bucketMid(bucket(10)) {
		t.Errorf("largest = %v, want %v", q, bucketMid(bucket(10)))
	}
}

// Quantiles gives, in one pass, what Quantile gives one q at a time: on an
// empty histogram, on one of zeros only, on spread values with zeros
// among them, for the percentiles a summary holds and for q at the ends.
func TestQuantilesIsQuantileForEach(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	spread := &Histogram{}
	for i := range 5000 {
		if i%10 == 0 {
			spread.Add(0)
			continue
		}
		spread.Add(rng.ExpFloat64() * 100)
	}
	zeros := &Histogram{}
	for range 7 {
		zeros.Add(0)
	}
	few := &Histogram{}
	few.Add(3)
	few.Add(1e9)
	for name, h := range map[string]*Histogram{"empty": {}, "zeros": zeros, "few": few, "spread": spread} {
		for _, qs := range [][]float64{
			{0.5, 0.9, 0.95, 0.99},
			{1e-9, 0.05, 0.1, 0.5, 0.999, 1},
			{0.2, 0.2, 0.7},
		} {
			out := make([]float64, len(qs))
			h.Quantiles(qs, out)
			for k, q := range qs {
				if want := h.Quantile(q); out[k] != want {
					t.Errorf("%s: Quantiles(%v)[%d] = %g, Quantile(%g) = %g", name, qs, k, out[k], q, want)
				}
			}
		}
	}
}
