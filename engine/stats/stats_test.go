package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestStudentT(t *testing.T) {
	// Values from standard tables.
	tests := []struct {
		df   int
		want float64
	}{
		{1, 12.7062}, {2, 4.3027}, {5, 2.5706}, {10, 2.2281}, {30, 2.0423}, {1000, 1.9623},
	}
	for _, tt := range tests {
		if got := StudentT(0.95, tt.df); math.Abs(got-tt.want) > 1e-3 {
			t.Errorf("StudentT(0.95, %d) = %.5f, want %.4f", tt.df, got, tt.want)
		}
	}
	if got := StudentT(0.99, 10); math.Abs(got-3.1693) > 1e-3 {
		t.Errorf("StudentT(0.99, 10) = %.5f, want 3.1693", got)
	}
}

func TestStudentTKept(t *testing.T) {
	// A value is kept at its first call, once: it is the value computed,
	// and the second call returns it.
	for _, df := range []int{1, 7, 199} {
		want := studentT(0.9, df)
		for call := range 2 {
			before := keptValues()
			if got := StudentT(0.9, df); got != want {
				t.Errorf("StudentT(0.9, %d) = %v, want %v", df, got, want)
			}
			if kept := keptValues() - before; kept != 1-call {
				t.Errorf("StudentT(0.9, %d), call %d, kept %d values, want %d", df, call+1, kept, 1-call)
			}
		}
	}
	// What has no value is not kept: a NaN key would never be found again,
	// and the table would grow at every call.
	before := keptValues()
	for _, level := range []float64{math.NaN(), 0, 1, -1} {
		if got := StudentT(level, 5); !math.IsNaN(got) {
			t.Errorf("StudentT(%v, 5) = %v, want NaN", level, got)
		}
	}
	if got := StudentT(0.95, 0); !math.IsNaN(got) {
		t.Errorf("StudentT(0.95, 0) = %v, want NaN", got)
	}
	if after := keptValues(); after != before {
		t.Errorf("%d values kept after calls without a value, want %d", after, before)
	}
}

func keptValues() int {
	n := 0
	tValues.Range(func(any, any) bool { n++; return true })
	return n
}

func TestErlangC(t *testing.T) {
	// M/M/1: P(wait) = ρ. M/M/2 with a=1: C = 1/3.
	if got := ErlangC(1, 0.8); math.Abs(got-0.8) > 1e-12 {
		t.Errorf("ErlangC(1, 0.8) = %v", got)
	}
	if got := ErlangC(2, 1); math.Abs(got-1.0/3) > 1e-12 {
		t.Errorf("ErlangC(2, 1) = %v", got)
	}
	// M/M/1 response 1/(μ-λ).
	if got := MMcResponse(1, 0.5, 1); math.Abs(got-2) > 1e-12 {
		t.Errorf("MMcResponse(1, .5, 1) = %v", got)
	}
}

func TestMM1AbandonMatchesMM1WhenPatienceIsInfinite(t *testing.T) {
	if got := MM1AbandonProbability(0.8, 1, 0); got != 0 {
		t.Errorf("no abandonment expected, got %v", got)
	}
	// θ = μ: the chain is M/M/∞-like with rate nμ beyond the first; check
	// against a direct sum.
	got := MM1AbandonProbability(1, 1, 1)
	// p_n ∝ 1/n! → Σ p_n (n-1) / Σ p_n = (e·1 - e + 1)/e ... computed: E[N]-P(N≥1) = 1 - (1-e^-1).
	want := 1 - (1 - math.Exp(-1))
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("MM1AbandonProbability(1,1,1) = %v, want %v", got, want)
	}
}

func TestHistogramQuantilesWithinRelativeError(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var h Histogram
	for range 200000 {
		h.Add(r.ExpFloat64())
	}
	// Exp(1) quantiles -ln(1-q); sampling error at n=2e5 is about 1% at p99.
	for _, q := range []float64{0.5, 0.9, 0.95, 0.99} {
		want := -math.Log(1 - q)
		got := h.Quantile(q)
		if math.Abs(got-want)/want > 0.03 {
			t.Errorf("q%.2f = %.4f, want %.4f", q, got, want)
		}
	}
}

func TestHistogramExactForKnownValues(t *testing.T) {
	var h Histogram
	for i := 1; i <= 100; i++ {
		h.Add(float64(i))
	}
	for _, q := range []float64{0.5, 0.9, 0.95, 0.99, 1} {
		want := math.Ceil(q * 100)
		if got := h.Quantile(q); math.Abs(got-want)/want > 0.002 {
			t.Errorf("q%.2f = %v, want %v within 0.2%%", q, got, want)
		}
	}
}

func TestBatchMeansCoversTheMean(t *testing.T) {
	// Independent Exp(1) series: the interval must cover 1 in about 95% of
	// 200 runs; a binomial 99.9% band for 200 trials at p=.95 is [180, 199].
	covered := 0
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 7))
		var b BatchMeans
		var tl Tally
		for range 5000 {
			x := r.ExpFloat64()
			b.Add(x)
			tl.Add(x)
		}
		if n, _ := b.Batches(); n < minCIBatches || n > CIBatches {
			t.Fatalf("only %d batches", n)
		}
		if math.Abs(tl.Mean()-1) <= b.HalfWidth(0.95) {
			covered++
		}
	}
	if covered < 180 {
		t.Errorf("interval covered the mean in %d of 200 runs, want about 190", covered)
	}
}

func TestTallyAndTimeAverage(t *testing.T) {
	var tl Tally
	for _, x := range []float64{2, 4, 4, 4, 5, 5, 7, 9} {
		tl.Add(x)
	}
	if tl.Mean() != 5 || math.Abs(tl.Var()-32.0/7) > 1e-12 || tl.Min() != 2 || tl.Max() != 9 {
		t.Errorf("tally = mean %v var %v min %v max %v", tl.Mean(), tl.Var(), tl.Min(), tl.Max())
	}
	var a TimeAverage
	a.Set(0, 1)
	a.Set(2, 3)
	if got := a.Mean(4); got != 2 {
		t.Errorf("time average = %v, want 2", got)
	}
}

func TestNormalTruncatedMoments(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var tl Tally
	var sq Tally
	for range 400000 {
		x := 1 + 1.5*r.NormFloat64()
		for x <= 0 {
			x = 1 + 1.5*r.NormFloat64()
		}
		tl.Add(x)
		sq.Add(x * x)
	}
	m1, m2 := NormalTruncatedMoments(1, 1.5)
	if math.Abs(tl.Mean()-m1) > 4*tl.SD()/math.Sqrt(400000) {
		t.Errorf("E[X] = %v, sampled %v", m1, tl.Mean())
	}
	if math.Abs(sq.Mean()-m2) > 4*sq.SD()/math.Sqrt(400000) {
		t.Errorf("E[X²] = %v, sampled %v", m2, sq.Mean())
	}
}

func TestHistogramRelativeErrorEverywhere(t *testing.T) {
	// Every value from 1e-8 to 1e11 comes back within 0.2% as the only
	// observation's quantile.
	for x := 1e-8; x < 1e11; x *= 1.0137 {
		var h Histogram
		h.Add(x)
		if got := h.Quantile(0.5); math.Abs(got-x)/x > 0.002 {
			t.Fatalf("Quantile of {%g} = %g", x, got)
		}
	}
}
