package fit

import "math"

// Histogram is the data's histogram on equal bins, for the chart under the
// fitted densities.
type Histogram struct {
	Lo, Width float64 // the first bin starts at Lo; every bin is Width wide
	Counts    []int
	Above     int // values beyond the last bin (the longest 0.5% of the tail)
	N         int // every value
}

// Density is the height of bin i as a density: its share of the values
// over its width, the scale of the fitted densities.
func (h Histogram) Density(i int) float64 {
	return float64(h.Counts[i]) / (float64(h.N) * h.Width)
}

// Middle is the middle of bin i.
func (h Histogram) Middle(i int) float64 { return h.Lo + (float64(i)+0.5)*h.Width }

// NewHistogram bins sorted values from the smallest (or 0, when the
// smallest is near it) up to the 99.5th percentile, so that a long tail
// does not squash the body; the width is Freedman and Diaconis' 2·IQR/∛n,
// kept to 10 to 50 bins.
func NewHistogram(sorted []float64) Histogram {
	n := len(sorted)
	lo, hi := sorted[0], sorted[n-1]
	if n >= 200 {
		hi = sorted[int(math.Ceil(0.995*float64(n)))-1]
	}
	if lo < 0.25*(hi-lo) {
		lo = 0
	}
	iqr := sorted[3*n/4] - sorted[n/4]
	bins := 20
	if width := 2 * iqr / math.Cbrt(float64(n)); width > 0 && hi > lo {
		bins = int(math.Ceil((hi - lo) / width))
	}
	bins = min(max(bins, 10), 50)
	h := Histogram{Lo: lo, Width: (hi - lo) / float64(bins), Counts: make([]int, bins), N: n}
	if !(h.Width > 0) {
		h.Width = math.Max(math.Abs(lo), 1) / float64(bins)
	}
	for _, x := range sorted {
		i := int((x - lo) / h.Width)
		switch {
		case x > hi:
			h.Above++
		case i >= bins:
			h.Counts[bins-1]++ // hi itself
		default:
			h.Counts[max(i, 0)]++
		}
	}
	return h
}

// QQPoint is one point of a Q-Q plot: the fit's quantile and the data's
// at the same probability.
type QQPoint struct{ Fitted, Measured float64 }

// QQPoints are points points of the Q-Q plot of sorted values against f, at
// probabilities (i-0.5)/points.
func QQPoints(sorted []float64, f *Fitted, points int) []QQPoint {
	points = min(points, len(sorted))
	out := make([]QQPoint, points)
	for i := range out {
		p := (float64(i) + 0.5) / float64(points)
		j := min(int(p*float64(len(sorted))), len(sorted)-1)
		out[i] = QQPoint{Fitted: f.Quantile(p), Measured: sorted[j]}
	}
	return out
}
