package fit

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/websim/websim/engine/dist"
)

// The mean of a service time is the load it offers: a cell pasted into a
// model with a mean 20% above the measured times' offers 20% more work
// per request, and a queue's utilization and waits grow with it. A fit by
// maximum likelihood keeps the data's mean only for some families (Exp,
// Gamma, Erlang); LogNormal and Weibull keep it when the times are of
// their shape, and may be far off when they are not (a mix of fast and
// slow requests, a long tail, one huge outlier). So each fit's mean is
// held against the data's.

// meanTolerance is the least share of the data's mean by which a cell's
// mean must differ to be called off: closer than 1% is within what a
// well-fitting LogNormal or Weibull keeps (a few tenths of a percent), and
// a service time 1% long moves the mean response of an M/M/1 at 70%
// utilization by about 3% (1.01 · 0.3/0.293), where 20% moves it 2.25-fold
// (1.2 · 0.3/0.16).
const meanTolerance = 0.01

// z95 is the standard normal's 97.5% quantile: a two-sided 95% range.
const z95 = 1.959963984540054

// meanRange is the 95% range of the average of n values drawn from a cell
// of mean m and sd s: m ± 1.96 s/√n.
func meanRange(m, s float64, n int) (lo, hi float64) {
	h := z95 * s / math.Sqrt(float64(n))
	return m - h, m + h
}

// isMeanOff reports whether a cell's mean m (its sd s) is off the data's
// mean, of n values: outside the range that n values drawn from the cell
// would average 95% of the time, so that the data are unlikely to have
// come from a cell of that mean (whatever its shape), and more than
// meanTolerance of the data's mean away. A mean that is not a number is
// off.
//
// The range is the cell's, not the data mean's confidence interval: the
// data's own sd is no measure of their mean's error when one value makes
// most of it (999 times of 1 and one of 10^6 have a mean of 1,001 and an
// sd of 31,623, whose interval holds 1.1), while the cell's sd says how
// far the mean of n of its draws strays. Were the cell the truth, the
// data's mean would fall outside its range 5% of the time at most, and
// less, since the fit's mean follows the data's (for a maximum-likelihood
// fit the difference of the two varies less than the data's mean).
func isMeanOff(m, s, dataMean float64, n int) bool {
	if math.IsNaN(m) || math.IsInf(m, 0) || math.IsNaN(s) || math.IsInf(s, 0) {
		return true
	}
	lo, hi := meanRange(m, s, n)
	return (dataMean < lo || dataMean > hi) && math.Abs(m-dataMean) > meanTolerance*dataMean
}

// setMean fills f's Mean, SD, MeanShift and MeanOff for data of mean mean
// and n values: the mean and sd of the cell as printed (rounded), which
// is what a model draws once it is pasted; the mean as the model's parser
// gives it (engine/dist).
func (f *Fitted) setMean(mean float64, n int) {
	m, err := cellModel(f.Cell)
	if err != nil {
		m = f.model
	}
	f.Mean, f.SD = m.drawnMean(), m.drawnSD()
	if d, err := dist.Parse(f.Cell); err == nil {
		f.Mean = d.Mean() // the model's own, to the last digit
	}
	f.MeanShift = f.Mean/mean - 1
	f.MeanOff = isMeanOff(f.Mean, f.SD, mean, n)
}

// cellModel is the model of a cell as cellText prints it: the
// distribution a model draws once the cell is pasted, rounded parameters
// and all.
func cellModel(text string) (model, error) {
	name, args, ok := strings.Cut(text, "(")
	args, closed := strings.CutSuffix(args, ")")
	if !ok || !closed {
		return nil, fmt.Errorf("%q is not a cell of a family and its parameters", text)
	}
	var p []float64
	for _, a := range strings.Split(args, ",") {
		x, err := strconv.ParseFloat(a, 64)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", text, err)
		}
		p = append(p, x)
	}
	want := map[string]int{"Exp": 1, "Const": 1, "Erlang": 2, "Gamma": 2, "LogNormal": 2, "Weibull": 2, "Normal": 2, "Uniform": 2, "Triangular": 3}
	if k, known := want[name]; !known || k != len(p) {
		return nil, fmt.Errorf("%q is not a cell fit prints", text)
	}
	switch name {
	case "Exp":
		return expModel{p[0]}, nil
	case "Const":
		return constModel{p[0]}, nil
	case "Erlang":
		return gammaModel{shape: p[0], scale: p[1] / p[0], erlang: true}, nil
	case "Gamma":
		return gammaModel{shape: p[0], scale: p[1]}, nil
	case "LogNormal":
		return logNormalOf(p[0], p[1]), nil
	case "Weibull":
		return weibullModel{shape: p[0], scale: p[1]}, nil
	case "Normal":
		return normalModel{mean: p[0], sd: p[1]}, nil
	case "Uniform":
		return uniformModel{p[0], p[1]}, nil
	}
	return triangularModel{p[0], p[1], p[2]}, nil
}

// logNormalOf is LogNormal(mean,sd): mean and sd of the values.
func logNormalOf(mean, sd float64) logNormalModel {
	cv := sd / mean
	s2 := math.Log1p(cv * cv)
	return logNormalModel{mu: math.Log(mean) - s2/2, sigma: math.Sqrt(s2)}
}

// keepsMeanFamilies are the families that can take any mean and sd, in
// the order that breaks ties.
var keepsMeanFamilies = []string{"LogNormal", "Gamma", "Weibull"}

// keepingMean is the cell offered when the best fit's mean is off: of
// LogNormal, Gamma and Weibull set to the data's mean and sd (by moments),
// the one most likely for the data, printed with the digits that keep its
// mean within a ten-thousandth of the data's and its sd within a
// hundredth.
// It keeps the load, and with the sd the second moment, on which alone
// the mean wait of an M/G/1 queue depends (Pollaczek-Khinchine); its
// shape, and so its tail, may be far from the data's. nil when none of
// the three can hold the data's mean and sd.
func keepingMean(s *sample, sd float64, digits int) *Fitted {
	mean := s.mean
	cv := sd / mean
	var best *Fitted
	for _, fam := range keepsMeanFamilies {
		var m model
		var ll float64
		switch fam {
		case "LogNormal":
			lm := logNormalOf(mean, sd)
			m = lm
			// Σ log pdf = -Σ log x - n log σ - n log √(2π) - Σ (log x - μ)²/(2σ²)
			d := s.meanLog - lm.mu
			ll = -s.n*s.meanLog - s.n*math.Log(lm.sigma) - s.n*math.Log(2*math.Pi)/2 -
				(s.m2Log+s.n*d*d)/(2*lm.sigma*lm.sigma)
		case "Gamma":
			g := gammaModel{shape: 1 / (cv * cv), scale: mean * cv * cv}
			m, ll = g, gammaLogLik(s, g.shape, g.scale)
		case "Weibull":
			k, ok := weibullShapeForCV(cv)
			if !ok {
				continue
			}
			g1, _ := math.Lgamma(1 + 1/k)
			w := weibullModel{shape: k, scale: mean / math.Exp(g1)}
			m, ll = w, weibullLogLik(s, w)
		}
		text, ok := keepingCell(m, digits, mean, sd)
		if !ok || math.IsNaN(ll) || math.IsInf(ll, 0) {
			continue
		}
		if best == nil || ll > best.LogLik {
			best = &Fitted{Family: fam, Params: m.params(), Cell: text, LogLik: ll, AIC: 2*2 - 2*ll,
				PValue: math.NaN(), model: m}
		}
	}
	if best != nil {
		best.KS = ksDistance(s.xs, best.model)
	}
	return best
}

// keepingCell prints m with the fewest digits, from digits up, whose cell
// the model reads with a mean within a ten-thousandth of mean and an sd
// within a hundredth of sd. ok is false when no cell does, or the model's parser
// refuses it.
func keepingCell(m model, digits int, mean, sd float64) (string, bool) {
	for d := digits; d <= 12; d++ {
		text := cellText(m, d)
		if _, err := dist.Parse(text); err != nil {
			return "", false
		}
		cm, err := cellModel(text)
		if err != nil {
			return "", false
		}
		if math.Abs(cm.drawnMean()-mean) <= 1e-4*mean && math.Abs(cm.drawnSD()-sd) <= 1e-2*sd {
			return text, true
		}
	}
	return "", false
}

// weibullShapeForCV solves Γ(1+2/k)/Γ(1+1/k)² - 1 = cv², which falls as k
// rises, for the shape k, by bisection on log k over 10^-3 to 10^4.
func weibullShapeForCV(cv float64) (float64, bool) {
	cv2 := cv * cv
	f := func(k float64) float64 {
		g1, _ := math.Lgamma(1 + 1/k)
		g2, _ := math.Lgamma(1 + 2/k)
		return math.Expm1(g2-2*g1) - cv2
	}
	lo, hi := math.Log(1e-3), math.Log(1e4)
	if !(f(math.Exp(lo)) > 0 && f(math.Exp(hi)) < 0) {
		return 0, false
	}
	for range 200 {
		mid := (lo + hi) / 2
		if f(math.Exp(mid)) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp((lo + hi) / 2), true
}

// weibullLogLik is the log-likelihood of w over s:
// n log k - n k log λ + (k-1) Σ log x - Σ (x/λ)^k.
func weibullLogLik(s *sample, w weibullModel) float64 {
	k, ls := w.shape, math.Log(w.scale)
	var sum float64
	for _, x := range s.xs {
		sum += math.Exp(k * (math.Log(x) - ls))
	}
	return s.n*math.Log(k) - s.n*k*ls + (k-1)*s.n*s.meanLog - sum
}

// meanOffText says, in words, that the best fit's mean is off the data's
// and what that does to a model, with the cell that keeps the mean ("" when
// the best fit's mean is not off).
func (r *Result) meanOffText() (off, keeps string) {
	f := &r.Fits[0]
	if !f.MeanOff {
		return "", ""
	}
	lo, hi := meanRange(f.Mean, f.SD, r.Observations)
	dir, load := "above", "more"
	if f.MeanShift < 0 {
		dir, load = "below", "less"
	}
	pct := percent(math.Abs(f.MeanShift))
	off = fmt.Sprintf("this cell's mean, %s, is %s %s the data's, %s, outside the %s to %s that %d values drawn from it would average (95%%): pasted into a model it offers %s %s load than was measured, and a queue's utilization and waits follow",
		roundText(f.Mean, 4), pct, dir, roundText(r.Mean, 4), roundText(lo, 4), roundText(hi, 4), r.Observations, pct, load)
	k := r.KeepsMean
	if k == nil {
		keeps = "no LogNormal, Gamma or Weibull cell can hold the data's mean and sd; split the times by request type and fit each"
		return off, keeps
	}
	keeps = fmt.Sprintf("%s has the data's mean and sd (%s, %s), so it keeps the load, and the mean wait of a single server with Poisson arrivals (M/G/1), which depends on these two alone; of LogNormal, Gamma and Weibull so set, it is the likeliest for these times (ΔAIC %s from the best fit, KS %.4f), but its shape, and so the tail of the response times, may still differ from the data's: paste it where the load matters more than the tail, or split the times by request type and fit each",
		k.Cell, roundText(r.Mean, 4), roundText(r.SD, 4), fixed(k.AIC-f.AIC, 1), k.KS)
	return off, keeps
}

// percent prints a share as a percentage to 3 significant digits (19.9%,
// 0.52%, 99900%).
func percent(x float64) string {
	p := 100 * x
	if p >= 1000 {
		return strconv.FormatFloat(math.Round(p), 'f', 0, 64) + "%"
	}
	return roundText(p, 3) + "%"
}
