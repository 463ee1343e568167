package fit

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/websim/websim/engine/dist"
)

// meanOf is the mean of xs.
func meanOf(xs []float64) float64 {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// Each model's mean and sd are those of what the model's sampler draws:
// the mean is the parser's own Mean of the cell (to 1e-9), and the mean
// and sd of 400,000 draws lie within 5 standard errors of them (the sd's
// error taken from the draws' fourth moment).
func TestModelMeanAndSDAreTheSamplers(t *testing.T) {
	const n = 400_000
	cells := []string{"Exp(3)", "Erlang(3,6)", "Gamma(2.5,4)", "LogNormal(23.1,8.4)", "Weibull(1.7,10)", "Weibull(0.8,5)",
		"Normal(10,2)", "Normal(2,2)", "Normal(1,3)", "Uniform(2,10)", "Triangular(1,3,10)", "Const(4.5)"}
	for i, cell := range cells {
		m, err := cellModel(cell)
		if err != nil {
			t.Fatalf("%s: %v", cell, err)
		}
		if want := dist.MustParse(cell).Mean(); math.Abs(m.drawnMean()-want) > 1e-9*want {
			t.Errorf("%s: model mean %v, the parser's %v", cell, m.drawnMean(), want)
		}
		xs := draw(t, cell, n, uint64(300+i))
		mean := meanOf(xs)
		var m2, m4 float64
		for _, x := range xs {
			d := x - mean
			m2 += d * d
			m4 += d * d * d * d
		}
		v := m2 / n
		sd := math.Sqrt(v)
		seMean := sd / math.Sqrt(n)
		seSD := math.Sqrt(max(m4/n-v*v, 0)/n) / (2 * math.Max(sd, 1e-300))
		if math.Abs(mean-m.drawnMean()) > 5*seMean+1e-12 {
			t.Errorf("%s: draws' mean %v, the model's %v (± %.3g)", cell, mean, m.drawnMean(), 5*seMean)
		}
		if math.Abs(sd-m.drawnSD()) > 5*seSD+1e-12 {
			t.Errorf("%s: draws' sd %v, the model's %v (± %.3g)", cell, sd, m.drawnSD(), 5*seSD)
		}
	}
}

// mixture is n times, a share fast of Exp(10) and the rest Exp(100): a mix
// of fast and slow requests.
func mixture(n int, fast float64, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 7))
	xs := make([]float64, n)
	for i := range xs {
		if r.Float64() < fast {
			xs[i] = 10 * r.ExpFloat64()
		} else {
			xs[i] = 100 * r.ExpFloat64()
		}
	}
	return xs
}

// pareto is n Pareto times of shape a from 1: a tail with no variance.
func pareto(n int, a float64, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 8))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = math.Pow(1-r.Float64(), -1/a)
	}
	return xs
}

// When the best fit's mean is off the data's, beyond what as many of its
// draws would average and by more than 1%, the text says so right below
// the cell to paste, with the load it would offer, and offers a cell of
// the data's mean and sd; the data's mean and sd and each cell's are
// printed. Times of one shape get no such line. The cases are the outside
// check's: a mix of fast and slow requests, a Pareto tail, one outlier.
func TestMeanOffIsSaid(t *testing.T) {
	outlier := make([]float64, 1000)
	for i := range outlier {
		outlier[i] = 1
	}
	outlier[999] = 1e6
	for _, tc := range []struct {
		name string
		xs   []float64
		off  string // "" when the best fit keeps the mean, else "more" or "less" load
	}{
		{"70% Exp(10), 30% Exp(100)", mixture(100_000, 0.7, 1), "more"},
		{"Pareto(1.1), 500 values", pareto(500, 1.1, 2), "less"},
		{"999 times of 1 and one of 10^6", outlier, "less"},
		{"LogNormal, 2,000 values", draw(t, "LogNormal(22.5,8.4)", 2000, 3), ""},
		{"Weibull, 2,000 values", draw(t, "Weibull(0.8,5)", 2000, 4), ""},
		{"Gamma, 500 values", draw(t, "Gamma(2.5,4)", 500, 5), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			xs := slices.Clone(tc.xs)
			mean, sdev := meanOf(xs), sd(xs)
			res, err := Distributions(xs, Options{Replicates: -1})
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(res.Mean-mean) > 1e-9*mean || math.Abs(res.SD-sdev) > 1e-9*sdev {
				t.Errorf("data's mean and sd %v, %v; want %v, %v", res.Mean, res.SD, mean, sdev)
			}
			var b strings.Builder
			if err := res.WriteText(&b, &Data{Source: "x.csv", Column: "t"}); err != nil {
				t.Fatal(err)
			}
			text := b.String()
			best := res.Fits[0]
			t.Logf("data mean %.4g, sd %.4g; best %s: mean %.4g (%+.1f%%), sd %.4g", mean, sdev, best.Cell, best.Mean, 100*best.MeanShift, best.SD)
			if !strings.Contains(text, "mean "+fmtG(mean)+", sd "+fmtG(sdev)) {
				t.Errorf("the data's mean and sd are not printed:\n%s", text)
			}
			for _, f := range res.Fits {
				if !strings.Contains(text, f.Cell+strings.Repeat(" ", 2)) || !strings.Contains(text, roundText(f.Mean, 4)) {
					t.Errorf("%s: its mean %s is not printed beside it", f.Cell, roundText(f.Mean, 4))
				}
			}
			lines := strings.Split(text, "\n")
			at := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "best fit, to paste into a cell: ") })
			if tc.off == "" {
				if best.MeanOff || strings.Contains(text, "mean off") || res.KeepsMean != nil {
					t.Errorf("the best fit's mean is called off:\n%s", text)
				}
				return
			}
			if !best.MeanOff || at < 0 || at+3 >= len(lines) || !strings.HasPrefix(lines[at+1], "mean off: ") {
				t.Fatalf("no mean off line right below the cell:\n%s", text)
			}
			pct := percent(math.Abs(best.Mean/mean - 1))
			if !strings.Contains(lines[at+1], "offers "+pct+" "+tc.off+" load than was measured") {
				t.Errorf("the mean off line does not say the load is %s %s: %s", pct, tc.off, lines[at+1])
			}
			k := res.KeepsMean
			if k == nil {
				t.Fatalf("no cell that keeps the mean:\n%s", text)
			}
			if lines[at+2] != "keeps the mean, to paste instead: "+k.Cell {
				t.Errorf("line %q, want the cell that keeps the mean", lines[at+2])
			}
			d, err := dist.Parse(k.Cell)
			if err != nil {
				t.Fatalf("%s: %v", k.Cell, err)
			}
			km, _ := cellModel(k.Cell)
			if math.Abs(d.Mean()-mean) > 1e-4*mean || math.Abs(km.drawnSD()-sdev) > 1e-2*sdev || k.MeanOff {
				t.Errorf("%s: mean %v, sd %v; the data's %v, %v", k.Cell, d.Mean(), km.drawnSD(), mean, sdev)
			}
			// It is the likeliest of the three families set to the data's
			// mean and sd, each log-likelihood summed here from the density.
			cv := sdev / mean
			shape, ok := weibullShapeForCV(cv)
			g1, _ := math.Lgamma(1 + 1/shape)
			candidates := map[string]model{"LogNormal": logNormalOf(mean, sdev),
				"Gamma": gammaModel{shape: 1 / (cv * cv), scale: mean * cv * cv}}
			if ok {
				candidates["Weibull"] = weibullModel{shape: shape, scale: mean / math.Exp(g1)}
			}
			bestFam, bestLL := "", math.Inf(-1)
			for fam, m := range candidates {
				var ll float64
				for _, x := range xs {
					ll += math.Log(m.pdf(x))
				}
				t.Logf("%s with the data's mean and sd: log-likelihood %.1f", fam, ll)
				if ll > bestLL {
					bestFam, bestLL = fam, ll
				}
			}
			if k.Family != bestFam || math.Abs(k.LogLik-bestLL) > 1e-6*math.Abs(bestLL) {
				t.Errorf("%s (log-likelihood %.1f) keeps the mean; want %s (%.1f)", k.Cell, k.LogLik, bestFam, bestLL)
			}
		})
	}
}

// The rule calls a well-fitting cell's mean off seldom: over 40 seeds of
// 50 and 2,000 values of each family (and of two with long tails), the
// true family's fit is called off at most 6 times (about 5% expected at
// most, and 6 of 40 has a chance of 5% then; 3 is the most seen, Uniform's
// of 2,000 values). Without the range of the mean of n draws (the 1%
// alone), the fits of 50 values of Uniform, Triangular and the long-tailed
// LogNormal and Weibull, whose maximum-likelihood means are not the
// data's, were called off in 29 to 39 of the 40.
func TestMeanOffSeldomForTheTrueFamily(t *testing.T) {
	cases := append(slices.Clone(truths), []struct {
		cell   string
		family string
		params []float64
	}{
		{"LogNormal(10,30)", "LogNormal", []float64{10, 30}}, // long tails
		{"Weibull(0.6,10)", "Weibull", []float64{0.6, 10}},
	}...)
	for i, tc := range cases {
		for _, n := range []int{50, 2000} {
			off := 0
			for seed := range 40 {
				res, err := Distributions(draw(t, tc.cell, n, uint64(500+100*i+seed)), Options{Replicates: -1})
				if err != nil {
					t.Fatal(err)
				}
				if f := fitOf(res, tc.family); f != nil && f.MeanOff {
					off++
				}
			}
			t.Logf("%s, %d values: called off in %d of 40", tc.cell, n, off)
			if off > 6 {
				t.Errorf("%s, %d values: the true family's mean called off in %d of 40 seeds", tc.cell, n, off)
			}
		}
	}
}

// isMeanOff by hand: outside m ± 1.96 s/√n and more than 1% away.
func TestIsMeanOff(t *testing.T) {
	for _, tc := range []struct {
		m, s, data float64
		n          int
		want       bool
	}{
		{44.34, 170.4, 36.88, 100_000, true}, // the outside check's mix: 20% off, range ± 1.06
		{1.115, 0.51, 1001, 1000, true},      // one outlier: the data's interval holds 1.1, the cell's range does not hold 1,001
		{10.3, 10, 10, 100, false},           // 3% off, inside ± 1.96
		{10.05, 0.1, 10, 10_000, false},      // outside ± 0.002, but 0.5%
		{10.2, 0.1, 10, 10_000, true},        // outside, and 2%
		{math.Inf(1), 1, 10, 100, true},      // a mean that is no number
	} {
		if got := isMeanOff(tc.m, tc.s, tc.data, tc.n); got != tc.want {
			t.Errorf("isMeanOff(%v, %v, %v, %d) = %v, want %v", tc.m, tc.s, tc.data, tc.n, got, tc.want)
		}
	}
}

// A family whose fitted parameters overflow, on times spread over
// hundreds of powers of ten, is left out in words, not as the parse error
// of a cell holding +Inf.
func TestOverflowIsSaidInWords(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	xs := []float64{1e-140, 1e137}
	for range 200 {
		xs = append(xs, math.Pow(10, float64(r.IntN(278)-140)))
	}
	res, err := Distributions(xs, Options{Replicates: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ family, want string }{
		{"LogNormal", "its fitted mean and sd overflow for times this spread (1e-140 to 1e+137)"},
		{"Weibull", "overflows for times this spread (1e-140 to 1e+137)"},
	} {
		i := slices.IndexFunc(res.Skipped, func(s Skipped) bool { return s.Family == tc.family })
		if i < 0 {
			t.Errorf("%s is ranked; the test needs it left out", tc.family)
			continue
		}
		reason := res.Skipped[i].Reason
		if !strings.Contains(reason, tc.want) || strings.Contains(reason, "Inf") || strings.Contains(reason, "expected a number") {
			t.Errorf("%s: %q, want %q in words", tc.family, reason, tc.want)
		}
	}
}

// The table's columns stay in line whatever the widths of their figures:
// the AIC of 10^7 values has 11 digits and its ΔAIC 10, where the
// columns were cut for 9.
func TestTableStaysInLine(t *testing.T) {
	res := &Result{Observations: 10_000_000, Values: []float64{1.3, 265.4}, Mean: 22.76, SD: 12.12, Replicates: 199, Seed: 1, Tested: 2000,
		Fits: []Fitted{
			{Family: "LogNormal", Cell: "LogNormal(22.764,12.134)", AIC: 74522318.0, KS: 0.0003, PValue: 0.695, Mean: 22.764, SD: 12.134},
			{Family: "Normal", Cell: "Normal(20.927,13.74)", AIC: 77430113.8, KS: 0.0845, PValue: 0.005, Mean: 22.76, SD: 12.12},
			{Family: "Uniform", Cell: "Uniform(1.31,265.44)", AIC: 111527868.2, KS: 0.7826, PValue: 0.005, Mean: 133.4, SD: 76.25, MeanShift: 4.859},
		}}
	var b strings.Builder
	if err := res.WriteText(&b, &Data{Source: "big.csv", Column: "ms"}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")[2:6]
	head := lines[0]
	// Each column's right edge, where its header ends, is where each of
	// its figures ends.
	for _, name := range []string{"mean", "sd", "Δmean", "AIC", "ΔAIC", "KS", "p-value"} {
		end := strings.Index(head, " "+name+" ")
		if name == "p-value" {
			end = strings.Index(head, " "+name)
		}
		if end < 0 {
			t.Fatalf("no column %s in %q", name, head)
		}
		end = len([]rune(head[:end+1+len(name)]))
		for _, l := range lines[1:] {
			r := []rune(l)
			if end > len(r) || r[end-1] == ' ' || (end < len(r) && r[end] != ' ') {
				t.Errorf("column %s ends at %d in the header, not in %q", name, end, l)
			}
		}
	}
}
