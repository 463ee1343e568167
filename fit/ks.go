package fit

import "math"

// ksDistance is the Kolmogorov-Smirnov distance sup |Fn(x) - F(x)|
// between the empirical distribution of sorted xs and m. Equal values are
// one step of the empirical distribution and one evaluation of F, so
// rounded measurements cost one CDF per distinct value.
func ksDistance(xs []float64, m model) float64 {
	n := float64(len(xs))
	d := 0.0
	for i := 0; i < len(xs); {
		j := i + 1
		for j < len(xs) && xs[j] == xs[i] {
			j++
		}
		f := m.cdf(xs[i])
		d = max(d, math.Abs(f-float64(i)/n), math.Abs(float64(j)/n-f))
		i = j
	}
	return d
}
