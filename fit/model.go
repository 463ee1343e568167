package fit

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// model is one fitted distribution: its family, its parameters in the
// order a cell writes them, and its density, distribution and quantile
// functions.
type model interface {
	family() string
	params() []float64
	pdf(x float64) float64
	cdf(x float64) float64
	quantile(p float64) float64
	// drawnMean and drawnSD are those of the values the model's sampler
	// draws (Normal's of the normal truncated at 0); +Inf when too large
	// for a number.
	drawnMean() float64
	drawnSD() float64
}

// expModel is Exp(mean).
type expModel struct{ mean float64 }

func (m expModel) family() string    { return "Exp" }
func (m expModel) params() []float64 { return []float64{m.mean} }
func (m expModel) pdf(x float64) float64 {
	if x < 0 {
		return 0
	}
	return math.Exp(-x/m.mean) / m.mean
}
func (m expModel) cdf(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return -math.Expm1(-x / m.mean)
}
func (m expModel) quantile(p float64) float64 { return -m.mean * math.Log1p(-p) }
func (m expModel) drawnMean() float64         { return m.mean }
func (m expModel) drawnSD() float64           { return m.mean }

// gammaModel is Gamma(shape,scale), and Erlang(k,mean) when erlang is set
// (shape k whole, scale mean/k).
type gammaModel struct {
	shape, scale float64
	erlang       bool
}

func (m gammaModel) dist() distuv.Gamma { return distuv.Gamma{Alpha: m.shape, Beta: 1 / m.scale} }
func (m gammaModel) family() string {
	if m.erlang {
		return "Erlang"
	}
	return "Gamma"
}
func (m gammaModel) params() []float64 {
	if m.erlang {
		return []float64{m.shape, m.shape * m.scale}
	}
	return []float64{m.shape, m.scale}
}
func (m gammaModel) pdf(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return m.dist().Prob(x)
}
func (m gammaModel) cdf(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return m.dist().CDF(x)
}
func (m gammaModel) quantile(p float64) float64 { return m.dist().Quantile(p) }
func (m gammaModel) drawnMean() float64         { return m.shape * m.scale }
func (m gammaModel) drawnSD() float64           { return math.Sqrt(m.shape) * m.scale }

// logNormalModel is LogNormal(mean,sd): mean and sd of the values, mu and
// sigma of their logarithm.
type logNormalModel struct{ mu, sigma float64 }

func (m logNormalModel) dist() distuv.LogNormal { return distuv.LogNormal{Mu: m.mu, Sigma: m.sigma} }
func (m logNormalModel) family() string         { return "LogNormal" }
func (m logNormalModel) params() []float64 {
	s2 := m.sigma * m.sigma
	mean := math.Exp(m.mu + s2/2)
	return []float64{mean, mean * math.Sqrt(math.Expm1(s2))}
}
func (m logNormalModel) pdf(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return m.dist().Prob(x)
}
func (m logNormalModel) cdf(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return m.dist().CDF(x)
}
func (m logNormalModel) quantile(p float64) float64 { return m.dist().Quantile(p) }
func (m logNormalModel) drawnMean() float64         { return m.params()[0] }
func (m logNormalModel) drawnSD() float64           { return m.params()[1] }

// weibullModel is Weibull(shape,scale).
type weibullModel struct{ shape, scale float64 }

func (m weibullModel) family() string    { return "Weibull" }
func (m weibullModel) params() []float64 { return []float64{m.shape, m.scale} }
func (m weibullModel) pdf(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return distuv.Weibull{K: m.shape, Lambda: m.scale}.Prob(x)
}
func (m weibullModel) cdf(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return -math.Expm1(-math.Pow(x/m.scale, m.shape))
}
func (m weibullModel) quantile(p float64) float64 {
	return m.scale * math.Pow(-math.Log1p(-p), 1/m.shape)
}

// drawnMean is scale·Γ(1+1/k) and drawnSD is the mean times
// √(Γ(1+2/k)/Γ(1+1/k)² - 1), by the log-gamma function, so that a small
// shape gives +Inf, not NaN.
func (m weibullModel) drawnMean() float64 {
	g1, _ := math.Lgamma(1 + 1/m.shape)
	return m.scale * math.Exp(g1)
}
func (m weibullModel) drawnSD() float64 {
	g1, _ := math.Lgamma(1 + 1/m.shape)
	g2, _ := math.Lgamma(1 + 2/m.shape)
	return m.drawnMean() * math.Sqrt(math.Expm1(g2-2*g1))
}

// normalModel is Normal(mean,sd) as the model draws it: values <= 0 are
// drawn again, so its density is the normal's truncated at 0.
type normalModel struct{ mean, sd float64 }

func (m normalModel) family() string    { return "Normal" }
func (m normalModel) params() []float64 { return []float64{m.mean, m.sd} }
func (m normalModel) pdf(x float64) float64 {
	if x <= 0 {
		return 0
	}
	z := (x - m.mean) / m.sd
	return math.Exp(-z*z/2-logPhi(m.mean/m.sd)) / (m.sd * math.Sqrt(2*math.Pi))
}
func (m normalModel) cdf(x float64) float64 {
	if x <= 0 {
		return 0
	}
	// (Φ(z) - Φ(-a)) / Φ(a) = (Q(-a) - Q(z)) / Q(-a), with Q the upper
	// tail, accurate far in either tail.
	a := m.mean / m.sd
	z := (x - m.mean) / m.sd
	return (upper(-a) - upper(z)) / upper(-a)
}
func (m normalModel) quantile(p float64) float64 {
	a := m.mean / m.sd
	lo := distuv.UnitNormal.CDF(-a)
	return m.mean + m.sd*distuv.UnitNormal.Quantile(lo+p*(1-lo))
}

// drawnMean and drawnSD are those of the normal truncated at 0: with
// a = mean/sd and λ = φ(a)/Φ(a), mean + sd·λ and sd·√(1 - aλ - λ²).
func (m normalModel) drawnMean() float64 { return m.mean + m.sd*m.lambda() }
func (m normalModel) drawnSD() float64 {
	a, l := m.mean/m.sd, m.lambda()
	return m.sd * math.Sqrt(max(0, 1-a*l-l*l))
}

// lambda is φ(a)/Φ(a), a = mean/sd, the inverse Mills ratio, accurate far
// below 0 through logPhi.
func (m normalModel) lambda() float64 {
	a := m.mean / m.sd
	return math.Exp(-a*a/2 - math.Log(2*math.Pi)/2 - logPhi(a))
}

// upper is the standard normal's upper tail 1-Φ(z).
func upper(z float64) float64 { return math.Erfc(z/math.Sqrt2) / 2 }

// logPhi is log Φ(a), accurate for a far below 0.
func logPhi(a float64) float64 {
	if a > -30 {
		return math.Log(math.Erfc(-a/math.Sqrt2) / 2)
	}
	// Mills' ratio: Φ(a) ≈ φ(a)/(-a) · (1 - 1/a² + 3/a⁴).
	a2 := a * a
	return -a2/2 - math.Log(-a) - math.Log(2*math.Pi)/2 + math.Log1p(-1/a2+3/(a2*a2))
}

// uniformModel is Uniform(min,max).
type uniformModel struct{ min, max float64 }

func (m uniformModel) family() string    { return "Uniform" }
func (m uniformModel) params() []float64 { return []float64{m.min, m.max} }
func (m uniformModel) pdf(x float64) float64 {
	if x < m.min || x > m.max {
		return 0
	}
	return 1 / (m.max - m.min)
}
func (m uniformModel) cdf(x float64) float64 {
	return math.Min(1, math.Max(0, (x-m.min)/(m.max-m.min)))
}
func (m uniformModel) quantile(p float64) float64 { return m.min + p*(m.max-m.min) }
func (m uniformModel) drawnMean() float64         { return m.min/2 + m.max/2 }
func (m uniformModel) drawnSD() float64           { return (m.max - m.min) / math.Sqrt(12) }

// triangularModel is Triangular(min,mode,max).
type triangularModel struct{ min, mode, max float64 }

func (m triangularModel) family() string    { return "Triangular" }
func (m triangularModel) params() []float64 { return []float64{m.min, m.mode, m.max} }
func (m triangularModel) pdf(x float64) float64 {
	w := m.max - m.min
	switch {
	case x < m.min || x > m.max:
		return 0
	case x < m.mode:
		return 2 * (x - m.min) / (w * (m.mode - m.min))
	case x > m.mode:
		return 2 * (m.max - x) / (w * (m.max - m.mode))
	}
	return 2 / w
}
func (m triangularModel) cdf(x float64) float64 {
	w := m.max - m.min
	switch {
	case x <= m.min:
		return 0
	case x >= m.max:
		return 1
	case x <= m.mode:
		return (x - m.min) * (x - m.min) / (w * (m.mode - m.min))
	}
	return 1 - (m.max-x)*(m.max-x)/(w*(m.max-m.mode))
}
func (m triangularModel) quantile(p float64) float64 {
	w := m.max - m.min
	if split := (m.mode - m.min) / w; p < split {
		return m.min + math.Sqrt(p*w*(m.mode-m.min))
	}
	return m.max - math.Sqrt((1-p)*w*(m.max-m.mode))
}
func (m triangularModel) drawnMean() float64 { return m.min/3 + m.mode/3 + m.max/3 }

// drawnSD is √((a²+b²+c²-ab-ac-bc)/18), a the min, b the mode, c the
// max, written with differences from the min: √((c'² - c'b' + b'²)/18).
func (m triangularModel) drawnSD() float64 {
	b, c := m.mode-m.min, m.max-m.min
	return math.Sqrt((c*c - c*b + b*b) / 18)
}

// constModel is Const(x): every value the same.
type constModel struct{ x float64 }

func (m constModel) family() string    { return "Const" }
func (m constModel) params() []float64 { return []float64{m.x} }
func (m constModel) pdf(float64) float64 {
	return math.NaN() // a point mass has no density
}
func (m constModel) cdf(x float64) float64 {
	if x < m.x {
		return 0
	}
	return 1
}
func (m constModel) quantile(float64) float64 { return m.x }
func (m constModel) drawnMean() float64       { return m.x }
func (m constModel) drawnSD() float64         { return 0 }
