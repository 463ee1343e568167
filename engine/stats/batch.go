package stats

import "math"

// BatchMeans estimates a confidence interval for the mean of a correlated
// series (response times in completion order) from one long run. It keeps
// at most MaxBatches batch sums: when they are full, neighbours merge and
// the batch size doubles, so memory is constant and between MaxBatches/2 and
// MaxBatches complete batches are always available.
type BatchMeans struct {
	sums      [MaxBatches]float64
	full      int     // complete batches
	size      int64   // observations per batch
	partial   float64 // sum of the batch being filled
	inPartial int64
}

// MaxBatches bounds the number of batches kept.
const MaxBatches = 64

// Add records the next observation of the series.
func (b *BatchMeans) Add(x float64) {
	if b.size == 0 {
		b.size = 1
	}
	b.partial += x
	b.inPartial++
	if b.inPartial < b.size {
		return
	}
	b.sums[b.full] = b.partial
	b.full++
	b.partial, b.inPartial = 0, 0
	if b.full == MaxBatches {
		for i := 0; i < MaxBatches/2; i++ {
			b.sums[i] = b.sums[2*i] + b.sums[2*i+1]
		}
		b.full = MaxBatches / 2
		b.size *= 2
	}
}

// Batches returns the number of complete batches and their size.
func (b *BatchMeans) Batches() (n int, size int64) { return b.full, b.size }

// HalfWidth returns the 95% confidence half-width of the mean from the
// complete batches, or NaN with fewer than 2.
func (b *BatchMeans) HalfWidth(level float64) float64 {
	if b.full < 2 {
		return math.NaN()
	}
	var t Tally
	for _, s := range b.sums[:b.full] {
		t.Add(s / float64(b.size))
	}
	return StudentT(level, b.full-1) * t.SD() / math.Sqrt(float64(b.full))
}

// Means returns the means of the complete batches.
func (b *BatchMeans) Means() []float64 {
	out := make([]float64, b.full)
	for i, s := range b.sums[:b.full] {
		out[i] = s / float64(b.size)
	}
	return out
}
