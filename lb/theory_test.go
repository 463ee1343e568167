package lb

import (
	"math"
	"testing"

	"github.com/websim/websim/engine/stats"
)

// spread returns the mean of a figure over the replications of r and its
// standard error, derived from the 95% half-width (Student t).
func spread(mean, halfWidth float64, reps int) (float64, float64) {
	return mean, halfWidth / stats.StudentT(0.95, reps-1)
}

// truncatedNormalMoments returns E[X] and E[X²] of a Normal(mu, sigma)
// truncated to X > 0, exactly (the service times redraw values <= 0).
func truncatedNormalMoments(mu, sigma float64) (m1, m2 float64) {
	alpha := -mu / sigma
	phi := math.Exp(-alpha*alpha/2) / math.Sqrt(2*math.Pi)
	z := 0.5 * (1 - math.Erf(alpha/math.Sqrt2)) // P(X > 0)
	lambda := phi / z
	m1 = mu + sigma*lambda
	variance := sigma * sigma * (1 + alpha*lambda - lambda*lambda)
	return m1, variance + m1*m1
}

func TestTruncatedNormalMoments(t *testing.T) {
	// Far from zero the truncation does not matter.
	m1, m2 := truncatedNormalMoments(10, 1)
	if math.Abs(m1-10) > 1e-12 || math.Abs(m2-101) > 1e-9 {
		t.Errorf("N(10,1): %v %v", m1, m2)
	}
	// Mean 0: the half-normal, E = sigma·sqrt(2/pi), E[X²] = sigma².
	m1, m2 = truncatedNormalMoments(0, 2)
	if math.Abs(m1-2*math.Sqrt(2/math.Pi)) > 1e-12 || math.Abs(m2-4) > 1e-12 {
		t.Errorf("half-normal: %v %v", m1, m2)
	}
	// And the sampler agrees with them.
	ds, err := serviceDists([]RequestType{{AvgServiceTimeSecs: 1, DeviationServiceTimeSecs: 1}})
	if err != nil {
		t.Fatal(err)
	}
	arrivals, _, _ := streams(7, 0)
	var s1, s2 float64
	const n = 400000
	for range n {
		x := ds[0].Sample(arrivals)
		s1 += x
		s2 += x * x
	}
	m1, m2 = truncatedNormalMoments(1, 1)
	if math.Abs(s1/n-m1) > 0.005 || math.Abs(s2/n-m2) > 0.02 {
		t.Errorf("sampled moments %v %v, exact %v %v", s1/n, s2/n, m1, m2)
	}
}

// One server, one unit, a near-constant service time (M/D/1): by PASTA the
// share of requests that wait is the utilization λ·s.
func TestMD1ShareWaitingIsUtilization(t *testing.T) {
	const reps, lambda, service = 10, 1.0, 0.5
	p := Params{Servers: 1, RequestsPerSec: lambda, Requests: 50000, Method: RoundRobin, Seed: 1,
		Types: []RequestType{{Name: "a", OutputCapacity: 1, Proportion: 1, AvgServiceTimeSecs: service, DeviationServiceTimeSecs: 1e-9}}}
	r, err := Run(p, reps)
	if err != nil {
		t.Fatal(err)
	}
	got, se := spread(r.All.Mean.WaitedPercent/100, r.All.HalfWidth.WaitedPercent/100, reps)
	want, tol := lambda*service, 4*se
	t.Logf("share waiting %.4f, want %.4f, tolerance %.4f (4 standard errors)", got, want, tol)
	if math.Abs(got-want) > tol {
		t.Errorf("share waiting %.4f, want ρ = %.4f ± %.4f", got, want, tol)
	}
	// The test can fail: it tells ρ from ρ ± 0.02.
	if tol >= 0.02 || se == 0 {
		t.Errorf("tolerance %.4f too loose to check anything", tol)
	}
}

// One server, one unit, a wide Normal service time (M/G/1): the mean wait
// matches Pollaczek-Khinchine, Wq = λ E[S²] / (2(1-ρ)), with the moments of
// the Normal truncated at 0.
func TestMG1MeanWaitIsPollaczekKhinchine(t *testing.T) {
	const reps, mu, sigma = 10, 1.0, 1.0
	m1, m2 := truncatedNormalMoments(mu, sigma)
	lambda := 0.5 / m1 // ρ = 0.5
	p := Params{Servers: 1, RequestsPerSec: lambda, Requests: 50000, Method: RoundRobin, Seed: 1,
		Types: []RequestType{{Name: "a", OutputCapacity: 1, Proportion: 1, AvgServiceTimeSecs: mu, DeviationServiceTimeSecs: sigma}}}
	r, err := Run(p, reps)
	if err != nil {
		t.Fatal(err)
	}
	pk := func(m1, m2 float64) float64 { return lambda * m2 / (2 * (1 - lambda*m1)) }
	want := pk(m1, m2)
	got, se := spread(r.All.Mean.MeanWait, r.All.HalfWidth.MeanWait, reps)
	tol := 4 * se
	t.Logf("mean wait %.4f, Pollaczek-Khinchine %.4f, tolerance %.4f (4 standard errors)", got, want, tol)
	if math.Abs(got-want) > tol {
		t.Errorf("mean wait %.4f, want %.4f ± %.4f", got, want, tol)
	}
	// The test can fail: it tells the truncated moments from the plain
	// Normal's, and from exponential service (M/M/1).
	plain := pk(mu, sigma*sigma+mu*mu)
	mm1 := pk(m1, 2*m1*m1)
	for name, wrong := range map[string]float64{"untruncated Normal": plain, "M/M/1": mm1} {
		if math.Abs(wrong-want) <= 2*tol {
			t.Errorf("tolerance %.4f cannot tell %s (%.4f) from %.4f", tol, name, wrong, want)
		}
	}
}

// On the sample at 30 requests per second, busyness never waits longer on
// average than roundrobin: the paired difference over common seeds (the
// same requests for both) is not significantly positive.
func TestBusynessNoWorseThanRoundRobin(t *testing.T) {
	const seeds = 10
	diffs := make([]float64, seeds)
	for i := range seeds {
		p := Sample()
		p.Seed = uint64(i + 1)
		p.Method = RoundRobin
		rr, err := Run(p, 1)
		if err != nil {
			t.Fatal(err)
		}
		p.Method = Busyness
		bz, _ := Run(p, 1)
		diffs[i] = bz.All.Mean.MeanWait - rr.All.Mean.MeanWait
	}
	mean, hw := meanHalfWidth(diffs)
	t.Logf("busyness - roundrobin mean wait: %.5f ± %.5f s", mean, hw)
	if mean+hw > 0 {
		t.Errorf("busyness waits longer than roundrobin: %.5f ± %.5f s", mean, hw)
	}
}
