package dist

import (
	"math"
	"math/rand/v2"
	"testing"
)

// weibullVar is the variance of Weibull(shape,scale).
func weibullVar(shape, scale float64) float64 {
	g1, g2 := math.Gamma(1+1/shape), math.Gamma(1+2/shape)
	return scale * scale * (g2 - g1*g1)
}

// sampleTests cover every distribution and every sampling path (Erlang
// as a sum and as a gamma, Gamma with shape below and above 1). variance is
// the true variance, or NaN where the test does not check it.
var sampleTests = []struct {
	in       string
	variance float64
}{
	{"12.5", 0},
	{"Exp(3)", 9},
	{"Uniform(1,5)", 16.0 / 12},
	{"UniformInt(1,6)", 35.0 / 12},
	{"UniformInt(0,0)", 0},
	{"Normal(10,2)", 4},  // truncation at 5 sd changes nothing visible
	{"Normal(1,3)", NaN}, // truncation moves the mean to 2.795
	{"Normal(4,0)", 0},
	{"LogNormal(4,2)", 4},
	{"Triangular(1,2,6)", 21.0 / 18},
	{"Triangular(0,0,1)", 1.0 / 18},
	{"Triangular(0,1,1)", 1.0 / 18},
	{"Erlang(3,6)", 12},
	{"Erlang(20,1)", 1.0 / 20},
	{"Gamma(3,2)", 12},
	{"Gamma(0.5,4)", 8},
	{"Weibull(3,2)", weibullVar(3, 2)},
	{"Weibull(0.5,3)", 180},
	{"ERLA(2,3)", 12},
	{"GAMM(2,3)", 12},
	{"WEIB(2,3)", weibullVar(3, 2)},
}

// NaN marks a variance the test does not check.
var NaN = math.NaN()

func TestSample(t *testing.T) {
	const n = 200_000
	for _, tt := range sampleTests {
		d := MustParse(tt.in)
		r := rand.New(rand.NewPCG(1, 2))
		var sum, sumSq float64
		min, max := math.Inf(1), math.Inf(-1)
		for range n {
			x := d.Sample(r)
			if !(x >= 0) || math.IsInf(x, 0) {
				t.Fatalf("%s: Sample() = %v, want a finite value >= 0", tt.in, x)
			}
			if u, ok := d.(*uniformInt); ok && (x != math.Trunc(x) || x < u.min || x > u.max) {
				t.Fatalf("%s: Sample() = %v, want a whole number in %v..%v", tt.in, x, u.min, u.max)
			}
			sum += x
			sumSq += x * x
			min, max = math.Min(min, x), math.Max(max, x)
		}
		mean := sum / n
		variance := (sumSq - sum*mean) / (n - 1)
		se := math.Sqrt(variance / n)
		if diff := math.Abs(mean - d.Mean()); diff > 4*se+1e-12*d.Mean() {
			t.Errorf("%s: sample mean %.5g is %.1f standard errors from Mean() %.5g",
				tt.in, mean, diff/se, d.Mean())
		}
		if !math.IsNaN(tt.variance) && !near(variance, tt.variance, 0.1) {
			t.Errorf("%s: sample variance %.5g, want %.5g", tt.in, variance, tt.variance)
		}
		checkRange(t, d, min, max)
	}
}

// checkRange checks the bounded distributions stay within their bounds.
func checkRange(t *testing.T, d Dist, min, max float64) {
	t.Helper()
	var lo, hi float64
	switch d := d.(type) {
	case *uniform:
		lo, hi = d.min, d.max
	case *uniformInt:
		lo, hi = d.min, d.max
	case *triangular:
		lo, hi = d.min, d.max
	default:
		return
	}
	if min < lo || max > hi {
		t.Errorf("%s: samples span %v..%v, outside %v..%v", d, min, max, lo, hi)
	}
}

// TestSampleDegenerate checks distributions whose range is one point
// give that point exactly.
func TestSampleDegenerate(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, in := range []string{"Uniform(2,2)", "UniformInt(2,2)", "Triangular(2,2,2)", "Normal(2,0)"} {
		d := MustParse(in)
		for range 100 {
			if x := d.Sample(r); x != 2 {
				t.Fatalf("%s: Sample() = %v, want 2", in, x)
			}
		}
	}
}

// TestArenaSamplesMatch checks an Arena cell draws the very same values as
// its websim form, so the two are one distribution.
func TestArenaSamplesMatch(t *testing.T) {
	for _, pair := range [][2]string{
		{"ERLA(2,3)", "Erlang(3,6)"},
		{"GAMM(2,3)", "Gamma(3,2)"},
		{"WEIB(2,3)", "Weibull(3,2)"},
		{"LOGN(4,2)", "LogNormal(4,2)"},
	} {
		a, w := MustParse(pair[0]), MustParse(pair[1])
		ra, rw := rand.New(rand.NewPCG(3, 4)), rand.New(rand.NewPCG(3, 4))
		for range 1000 {
			if x, y := a.Sample(ra), w.Sample(rw); x != y {
				t.Fatalf("%s drew %v where %s drew %v", pair[0], x, pair[1], y)
			}
		}
	}
}

func TestSampleDoesNotAllocate(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var sink float64
	for _, tt := range sampleTests {
		d := MustParse(tt.in)
		if n := testing.AllocsPerRun(1000, func() { sink += d.Sample(r) }); n != 0 {
			t.Errorf("%s: Sample allocates %v times a call", tt.in, n)
		}
	}
	_ = sink
}

func BenchmarkSample(b *testing.B) {
	for _, in := range []string{
		"12.5", "Exp(3)", "Uniform(1,5)", "UniformInt(1,6)", "Normal(10,2)", "Normal(1,3)",
		"LogNormal(4,2)", "Triangular(1,2,6)", "Erlang(3,6)", "Erlang(20,1)",
		"Gamma(3,2)", "Gamma(0.5,4)", "Weibull(3,2)",
	} {
		d := MustParse(in)
		b.Run(in, func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			var sink float64
			for b.Loop() {
				sink += d.Sample(r)
			}
			_ = sink
		})
	}
}

func BenchmarkParse(b *testing.B) {
	for b.Loop() {
		if _, err := Parse("Triangular(1, 2.5, 6)"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSampleExtremes checks parameters at the edges of what parses still
// draw values >= 0, never NaN.
func TestSampleExtremes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, in := range []string{
		"Exp(5e-324)", "Exp(1e300)", "Uniform(0,1.7e308)", "UniformInt(0,9007199254740992)",
		"Normal(5e-324,1e308)", "Normal(1e300,5e-324)", "LogNormal(1e-300,1e-150)", "LogNormal(5e-324,0)",
		"Triangular(0,0,1.7e308)", "Triangular(0,1.7e308,1.7e308)", "Triangular(1e-300,1e-300,1)",
		"Erlang(1,5e-324)", "Erlang(1e300,1)", "Erlang(9,1)",
		"Gamma(5e-324,1)", "Gamma(1e-300,1e300)", "Gamma(1e300,1)", "Gamma(0.999999,1)",
		"Weibull(0.006,1)", "Weibull(1e300,1)", "Weibull(1,5e-324)",
	} {
		d, err := Parse(in)
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		for range 1000 {
			if x := d.Sample(r); !(x >= 0) {
				t.Fatalf("%s: Sample() = %v, want a value >= 0", in, x)
			}
		}
	}
}
