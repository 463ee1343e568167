// Package dist parses the distribution strings users type in workbook cells
// and samples them without allocation.
//
// A cell holds a plain number such as 12.5, which is a constant, or a name
// followed by numbers in parentheses. Names ignore case; spaces may stand
// around the name, the parentheses, the commas and the numbers. Numbers may
// carry a sign, a decimal point and an exponent (2.5e-3); the decimal
// separator is always a point, and arguments are separated by commas.
//
// Every value is a time or a count, so no distribution may produce a
// negative value: minimums and constants must be 0 or more, means and
// scales above 0.
//
//	Cell                       Draws                                      Mean
//	12.5 or Const(12.5)        always 12.5                                12.5
//	Exp(mean)                  exponential                                mean
//	Uniform(min,max)           real numbers in [min,max)                  (min+max)/2
//	UniformInt(min,max)        whole numbers min..max, both included      (min+max)/2
//	Normal(mean,sd)            normal; values <= 0 are drawn again        above mean, see below
//	LogNormal(mean,sd)         lognormal with this mean and sd            mean
//	Triangular(min,mode,max)   triangular                                 (min+mode+max)/3
//	Erlang(k,mean)             sum of k exponentials; k whole, >= 1       mean
//	Gamma(shape,scale)         gamma                                      shape*scale
//	Weibull(shape,scale)       Weibull                                    scale*Γ(1+1/shape)
//
// The mean and sd of LogNormal are those of the values drawn, not of the
// underlying normal. Because Normal draws again when it gets a value of 0 or
// less, its Mean is the mean of the normal truncated at 0:
// mean + sd*φ(mean/sd)/Φ(mean/sd). Normal(10,2) has mean 10.000003;
// Normal(1,3) has mean 2.795.
//
// # Arena's names
//
// Arena's names are accepted too, with Arena's order and meaning of the
// parameters, so a cell copied from an Arena model means what it meant
// there. String prints the websim form, which parses to the same
// distribution:
//
//	Arena cell            Arena's parameters             Same as            Mean
//	EXPO(3)               mean                           Exp(3)             3
//	UNIF(1, 5)            min, max                       Uniform(1,5)       3
//	NORM(10, 2)           mean, sd                       Normal(10,2)       10.000003
//	TRIA(1, 2, 6)         min, mode, max                 Triangular(1,2,6)  3
//	LOGN(4, 2)            mean, sd of the lognormal      LogNormal(4,2)     4
//	ERLA(2, 3)            mean of each phase, k          Erlang(3,6)        6
//	GAMM(2, 3)            beta = scale, alpha = shape    Gamma(3,2)         6
//	WEIB(2, 3)            beta = scale, alpha = shape    Weibull(3,2)       1.786
//
// Note the three that differ: ERLA gives the mean of one phase where Erlang
// gives the total mean, and GAMM and WEIB give the scale before the shape.
//
// # Errors
//
// Parse reports a problem as a *SyntaxError holding the input, the byte
// offset of the problem and a message saying what was expected, e.g.
//
//	distribution "Uniform(5,2)" at column 11: min 5 is above max 2
//
// Callers add the cell's location in front.
package dist

import (
	"math"
	"math/rand/v2"
)

// Dist is a probability distribution of non-negative times or counts. It
// has the same methods as engine.Dist, so every Dist satisfies it.
type Dist interface {
	// Sample draws one value from r. It does not allocate.
	Sample(r *rand.Rand) float64
	// Mean is the true mean of what Sample returns, including the effect
	// of values drawn again.
	Mean() float64
	// String prints the distribution in sheet syntax, e.g. "Exp(3)"; the
	// result parses to the same distribution.
	String() string
}

// IsConst reports whether d is a constant, written as a plain number or
// Const(x), and its value, so that callers can skip sampling it. A range of
// one point, such as Uniform(2,2), is not reported as constant.
func IsConst(d Dist) (float64, bool) {
	if c, ok := d.(constant); ok {
		return float64(c), true
	}
	return 0, false
}

// constant is Const(x) or a plain number.
type constant float64

func (c constant) Sample(*rand.Rand) float64 { return float64(c) }
func (c constant) Mean() float64             { return float64(c) }
func (c constant) String() string            { return formatNumber(float64(c)) }

// exponential is Exp(mean).
type exponential struct{ mean float64 }

func (d *exponential) Sample(r *rand.Rand) float64 { return d.mean * r.ExpFloat64() }
func (d *exponential) Mean() float64               { return d.mean }
func (d *exponential) String() string              { return format("Exp", d.mean) }

// uniform is Uniform(min,max).
type uniform struct{ min, max float64 }

func (d *uniform) Sample(r *rand.Rand) float64 { return d.min + (d.max-d.min)*r.Float64() }
func (d *uniform) Mean() float64               { return d.min/2 + d.max/2 }
func (d *uniform) String() string              { return format("Uniform", d.min, d.max) }

// uniformInt is UniformInt(min,max): whole numbers min..max inclusive. min
// and max are whole, 0 <= min <= max <= maxWhole.
type uniformInt struct {
	min, max float64
	lo, n    uint64 // min, and the number of values
}

// maxWhole is the largest whole number UniformInt accepts: every whole
// number up to it is exact in a float64.
const maxWhole = 1 << 53

func newUniformInt(min, max float64) *uniformInt {
	return &uniformInt{min: min, max: max, lo: uint64(min), n: uint64(max) - uint64(min) + 1}
}

func (d *uniformInt) Sample(r *rand.Rand) float64 { return float64(d.lo + r.Uint64N(d.n)) }
func (d *uniformInt) Mean() float64               { return d.min/2 + d.max/2 }
func (d *uniformInt) String() string              { return format("UniformInt", d.min, d.max) }

// normal is Normal(mean,sd), drawn again while the value is <= 0. mean > 0,
// so at least half the draws are kept.
type normal struct{ mean, sd, truncMean float64 }

func newNormal(mean, sd float64) *normal {
	m := mean
	if sd > 0 {
		a := mean / sd
		pdf := math.Exp(-a*a/2) / math.Sqrt(2*math.Pi)
		cdf := math.Erfc(-a/math.Sqrt2) / 2
		m = mean + sd*(pdf/cdf)
	}
	return &normal{mean: mean, sd: sd, truncMean: m}
}

func (d *normal) Sample(r *rand.Rand) float64 {
	for {
		if x := d.mean + d.sd*r.NormFloat64(); x > 0 {
			return x
		}
	}
}
func (d *normal) Mean() float64  { return d.truncMean }
func (d *normal) String() string { return format("Normal", d.mean, d.sd) }

// logNormal is LogNormal(mean,sd), with mean and sd of the values drawn;
// mu and sigma are those of the underlying normal.
type logNormal struct{ mean, sd, mu, sigma float64 }

func newLogNormal(mean, sd float64) *logNormal {
	cv := sd / mean
	s2 := math.Log1p(cv * cv)
	return &logNormal{mean: mean, sd: sd, mu: math.Log(mean) - s2/2, sigma: math.Sqrt(s2)}
}

func (d *logNormal) Sample(r *rand.Rand) float64 {
	return math.Exp(d.mu + d.sigma*r.NormFloat64())
}
func (d *logNormal) Mean() float64  { return d.mean }
func (d *logNormal) String() string { return format("LogNormal", d.mean, d.sd) }

// triangular is Triangular(min,mode,max), sampled by inverse transform.
type triangular struct {
	min, mode, max float64
	split          float64 // the CDF at mode
	left, right    float64 // √((max-min)(mode-min)) and √((max-min)(max-mode))
}

func newTriangular(min, mode, max float64) *triangular {
	d := &triangular{min: min, mode: mode, max: max}
	if w := max - min; w > 0 {
		d.split = (mode - min) / w
		d.left = math.Sqrt(w) * math.Sqrt(mode-min) // two roots cannot overflow
		d.right = math.Sqrt(w) * math.Sqrt(max-mode)
	}
	return d
}

func (d *triangular) Sample(r *rand.Rand) float64 {
	u := r.Float64()
	if u < d.split {
		return d.min + math.Sqrt(u)*d.left
	}
	// Rounding could take max-(max-min) a hair below min, which may be 0.
	return max(d.max-math.Sqrt(1-u)*d.right, d.min)
}
func (d *triangular) Mean() float64  { return d.min/3 + d.mode/3 + d.max/3 }
func (d *triangular) String() string { return format("Triangular", d.min, d.mode, d.max) }

// erlang is Erlang(k,mean): the sum of k exponentials of mean mean/k. Small
// k add exponentials; large k draw a gamma, which costs the same for any k.
type erlang struct {
	k, mean float64
	phase   float64 // mean/k
	gamma   marsagliaTsang
}

// erlangSumMax is the largest k that Erlang samples as a sum.
const erlangSumMax = 8

func newErlang(k, mean float64) *erlang {
	d := &erlang{k: k, mean: mean, phase: mean / k}
	if k > erlangSumMax {
		d.gamma = newMarsagliaTsang(k)
	}
	return d
}

func (d *erlang) Sample(r *rand.Rand) float64 {
	if d.k > erlangSumMax {
		return d.phase * d.gamma.draw(r)
	}
	s := 0.0
	for i := 0; i < int(d.k); i++ {
		s += r.ExpFloat64()
	}
	return d.phase * s
}
func (d *erlang) Mean() float64  { return d.mean }
func (d *erlang) String() string { return format("Erlang", d.k, d.mean) }

// gamma is Gamma(shape,scale).
type gamma struct {
	shape, scale float64
	g            marsagliaTsang
}

func newGamma(shape, scale float64) *gamma {
	return &gamma{shape: shape, scale: scale, g: newMarsagliaTsang(shape)}
}

func (d *gamma) Sample(r *rand.Rand) float64 { return d.scale * d.g.draw(r) }
func (d *gamma) Mean() float64               { return d.shape * d.scale }
func (d *gamma) String() string              { return format("Gamma", d.shape, d.scale) }

// marsagliaTsang draws Gamma(shape, 1) by Marsaglia and Tsang's method
// ("A simple method for generating gamma variables", 2000). A shape below
// 1 draws Gamma(shape+1, 1) and multiplies by U^(1/shape).
type marsagliaTsang struct {
	d, c     float64
	boost    bool
	invShape float64
}

func newMarsagliaTsang(shape float64) marsagliaTsang {
	m := marsagliaTsang{boost: shape < 1, invShape: 1 / shape}
	a := shape
	if m.boost {
		a++
	}
	m.d = a - 1.0/3
	m.c = 1 / math.Sqrt(9*m.d)
	return m
}

func (m *marsagliaTsang) draw(r *rand.Rand) float64 {
	var g float64
	for {
		x := r.NormFloat64()
		v := 1 + m.c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		x2 := x * x
		if u < 1-0.0331*x2*x2 || math.Log(u) < x2/2+m.d*(1-v+math.Log(v)) {
			g = m.d * v
			break
		}
	}
	if m.boost {
		// U^(1/shape), written as exp(log(U)/shape): math.Pow is slower.
		g *= math.Exp(math.Log(r.Float64()) * m.invShape)
	}
	return g
}

// weibull is Weibull(shape,scale), sampled by inverse transform: an
// exponential of mean 1 raised to 1/shape.
type weibull struct{ shape, scale, invShape, mean float64 }

func newWeibull(shape, scale float64) *weibull {
	return &weibull{shape: shape, scale: scale, invShape: 1 / shape, mean: scale * math.Gamma(1+1/shape)}
}

func (d *weibull) Sample(r *rand.Rand) float64 {
	// E^(1/shape), written as exp(log(E)/shape): math.Pow is slower.
	return d.scale * math.Exp(math.Log(r.ExpFloat64())*d.invShape)
}
func (d *weibull) Mean() float64  { return d.mean }
func (d *weibull) String() string { return format("Weibull", d.shape, d.scale) }
