package stats

import "math"

// ErlangC returns the probability that an arrival waits in an M/M/c queue
// with c servers and offered load a = λ/μ (a < c), by the stable recursion
// on Erlang B.
func ErlangC(c int, a float64) float64 {
	if a >= float64(c) {
		return 1
	}
	b := 1.0
	for k := 1; k <= c; k++ {
		b = a * b / (float64(k) + a*b)
	}
	rho := a / float64(c)
	return b / (1 - rho + rho*b)
}

// MMcResponse returns the mean response time (wait plus service) of an
// M/M/c queue with arrival rate lambda and service rate mu per server.
func MMcResponse(c int, lambda, mu float64) float64 {
	a := lambda / mu
	return ErlangC(c, a)/(float64(c)*mu-lambda) + 1/mu
}

// PKResponse returns the Pollaczek-Khinchine mean response time of an M/G/1
// queue with arrival rate lambda and service moments es = E[S] and
// es2 = E[S²].
func PKResponse(lambda, es, es2 float64) float64 {
	rho := lambda * es
	return lambda*es2/(2*(1-rho)) + es
}

// Harmonic returns the n-th harmonic number 1 + 1/2 + ... + 1/n: the mean
// of the largest of n independent Exp(1) variables.
func Harmonic(n int) float64 {
	h := 0.0
	for k := 1; k <= n; k++ {
		h += 1 / float64(k)
	}
	return h
}

// MM1AbandonProbability returns the probability that a customer abandons an
// M/M/1+M queue (exponential patience with rate theta, abandonment only
// while waiting), from the birth-death chain with death rates μ + (n-1)θ,
// summed until the terms vanish.
func MM1AbandonProbability(lambda, mu, theta float64) float64 {
	// p_n ∝ Π_{k=1..n} λ / (μ + (k-1)θ); abandonment rate = Σ p_n (n-1)θ.
	sum, weighted := 1.0, 0.0
	term := 1.0
	for n := 1; n < 1_000_000; n++ {
		term *= lambda / (mu + float64(n-1)*theta)
		sum += term
		weighted += term * float64(n-1) * theta
		if term < 1e-18*sum && n > 10 {
			break
		}
	}
	return weighted / sum / lambda
}

// NormalTruncatedMoments returns E[X] and E[X²] of a Normal(mean, sd)
// variable conditioned on X > 0 (values ≤ 0 drawn again).
func NormalTruncatedMoments(mean, sd float64) (m1, m2 float64) {
	if sd == 0 {
		return mean, mean * mean
	}
	alpha := -mean / sd
	phi := math.Exp(-alpha*alpha/2) / math.Sqrt(2*math.Pi)
	z := 1 - 0.5*math.Erfc(-alpha/math.Sqrt2)
	lambda := phi / z
	m1 = mean + sd*lambda
	variance := sd * sd * (1 + alpha*lambda - lambda*lambda)
	return m1, variance + m1*m1
}

// MMcSojournQuantile is the q-quantile of the time in system of an M/M/c
// queue (arrival rate lambda, service rate mu per server, lambda < c·mu),
// by bisection on its tail: a wait that is Exp(cμ-λ) with probability
// Erlang C, plus an Exp(μ) service.
func MMcSojournQuantile(c int, lambda, mu, q float64) float64 {
	theta := float64(c)*mu - lambda
	pc := ErlangC(c, lambda/mu)
	tail := func(t float64) float64 {
		if math.Abs(theta-mu) < 1e-12 {
			return math.Exp(-mu*t) * (1 + pc*mu*t)
		}
		return math.Exp(-mu*t) + pc*mu*(math.Exp(-mu*t)-math.Exp(-theta*t))/(theta-mu)
	}
	lo, hi := 0.0, 1.0
	for tail(hi) > 1-q {
		hi *= 2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if tail(mid) > 1-q {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
