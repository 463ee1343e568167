package fit

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/websim/websim/engine/stats"
)

// When every family is rejected, the text says so above the cell to paste
// (and the p-values at the bootstrap's least read "<=0.005"): a mix of fast
// and slow requests, 70% Exp(10) and 30% about 100, is of none of the
// shapes, and its best fit misstates the spread. Times of one shape get no
// such line.
func TestNoneFits(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 1))
	mix := make([]float64, 20_000)
	for i := range mix {
		if r.Float64() < 0.7 {
			mix[i] = 10 * r.ExpFloat64()
		} else {
			mix[i] = math.Abs(100 + 10*r.NormFloat64())
		}
	}
	for _, tc := range []struct {
		name string
		xs   []float64
		none bool
	}{
		{"a mix", mix, true},
		{"one shape", draw(t, "LogNormal(22.5,8.4)", 2000, 3), false},
	} {
		res, err := Distributions(tc.xs, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := res.WriteText(&b, &Data{Source: "x.csv", Column: "t"}); err != nil {
			t.Fatal(err)
		}
		text := b.String()
		if got := strings.Contains(text, "none fits: every family's p-value is below 0.05"); got != tc.none {
			t.Errorf("%s: none fits said %v, want %v:\n%s", tc.name, got, tc.none, text)
		}
		if tc.none {
			if !strings.Contains(text, "<=0.005") {
				t.Errorf("%s: no p-value at the bootstrap's least:\n%s", tc.name, text)
			}
			dataSD, bestSD := sd(tc.xs), sd(draw(t, res.Fits[0].Cell, 200_000, 5))
			t.Logf("best %s: sd %.1f, the data's %.1f", res.Fits[0].Cell, bestSD, dataSD)
			if bestSD < 1.15*dataSD {
				t.Errorf("%s: the best fit's sd %.1f is near the data's %.1f: the example does not show a misfit", tc.name, bestSD, dataSD)
			}
		}
	}
}

// sd is the sample standard deviation of xs.
func sd(xs []float64) float64 {
	var t stats.Tally
	for _, x := range xs {
		t.Add(x)
	}
	return t.SD()
}

// --json keeps the contract's fields (observations; fits of distribution,
// aic, ks, pValue) and adds the data's mean and sd, each fit's, and the
// cell that keeps the mean when the best fit's is off (null otherwise).
func TestJSONHasTheMeans(t *testing.T) {
	for _, tc := range []struct {
		name string
		xs   []float64
		off  bool
	}{
		{"a mix", mixture(20_000, 0.7, 1), true},
		{"one shape", draw(t, "LogNormal(22.5,8.4)", 2000, 3), false},
	} {
		res, err := Distributions(tc.xs, Options{Replicates: 19, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := res.WriteJSON(&b, &Data{Source: "x.csv", Column: "t"}); err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(b.String()), &doc); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, key := range []string{"observations", "fits", "mean", "sd", "keepsMean"} {
			if _, ok := doc[key]; !ok {
				t.Errorf("%s: no %q in %s", tc.name, key, b.String())
			}
		}
		if doc["mean"] != res.Mean || doc["sd"] != res.SD {
			t.Errorf("%s: mean %v, sd %v; want %v, %v", tc.name, doc["mean"], doc["sd"], res.Mean, res.SD)
		}
		fits := doc["fits"].([]any)
		for i, f := range fits {
			fit := f.(map[string]any)
			for _, key := range []string{"distribution", "aic", "ks", "pValue", "mean", "sd", "meanShift", "meanOff"} {
				if _, ok := fit[key]; !ok {
					t.Errorf("%s: fit %d has no %q", tc.name, i+1, key)
				}
			}
			if fit["mean"] != res.Fits[i].Mean || fit["meanOff"] != res.Fits[i].MeanOff {
				t.Errorf("%s: fit %d: mean %v, meanOff %v; want %v, %v", tc.name, i+1, fit["mean"], fit["meanOff"], res.Fits[i].Mean, res.Fits[i].MeanOff)
			}
		}
		keeps, _ := doc["keepsMean"].(map[string]any)
		if (keeps != nil) != tc.off || fits[0].(map[string]any)["meanOff"] != tc.off {
			t.Errorf("%s: keepsMean %v, best meanOff %v; want an alternative %v", tc.name, doc["keepsMean"], fits[0].(map[string]any)["meanOff"], tc.off)
		}
		if keeps != nil && keeps["distribution"] != res.KeepsMean.Cell {
			t.Errorf("%s: keepsMean %v, want %s", tc.name, keeps["distribution"], res.KeepsMean.Cell)
		}
	}
}
