package fit

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/websim/websim/engine/dist"
)

func TestRoundText(t *testing.T) {
	tests := []struct {
		x      float64
		digits int
		want   string
	}{
		{23.14159, 3, "23.1"}, {8.412, 3, "8.41"}, {12345, 3, "12300"}, {0.0041234, 3, "0.00412"},
		{1.0001, 3, "1"}, {99.96, 3, "100"}, {2.5e-7, 3, "2.5e-7"}, {2.5123e-300, 3, "2.51e-300"}, {0.000123456, 3, "0.000123"}, {1.23456e-5, 3, "1.23e-5"}, {3.2e17, 2, "3.2e17"}, {-4.56e-9, 2, "-4.6e-9"}, {7.26, 2, "7.3"}, {123456.7, 5, "123460"},
	}
	for _, tc := range tests {
		if got := roundText(tc.x, tc.digits); got != tc.want {
			t.Errorf("roundText(%v, %d) = %q, want %q", tc.x, tc.digits, got, tc.want)
		}
	}
}

// numbersOf reads the arguments of a cell text such as "Gamma(2.5,4)".
func numbersOf(t *testing.T, cell string) []float64 {
	t.Helper()
	_, args, _ := strings.Cut(strings.TrimSuffix(cell, ")"), "(")
	var out []float64
	for _, a := range strings.Split(args, ",") {
		v, err := strconv.ParseFloat(a, 64)
		if err != nil {
			t.Fatalf("%s: %v", cell, err)
		}
		out = append(out, v)
	}
	return out
}

// Every cell printed is one the model's parser reads, as the same family
// with the parameters printed, within the rounding of the fit; and the
// model's own mean of the best cell is within 1% of the data's (maximum
// likelihood keeps the mean exactly for some families, not LogNormal's or
// Weibull's).
func TestCellsRoundTripThroughTheModelsParser(t *testing.T) {
	for i, tc := range truths {
		sizes := []int{50, 2000, 200000} // 200,000 gets a fourth digit
		if testing.Short() {
			sizes = sizes[:2]
		}
		for _, n := range sizes {
			xs := draw(t, tc.cell, n, uint64(40+i))
			var sum float64
			for _, x := range xs {
				sum += x
			}
			mean := sum / float64(n)
			res, err := Distributions(xs, Options{Replicates: -1})
			if err != nil {
				t.Fatal(err)
			}
			digits := significantDigits(n)
			for _, f := range res.Fits {
				d, err := dist.Parse(f.Cell)
				if err != nil {
					t.Errorf("%s: %v", f.Cell, err)
					continue
				}
				if !strings.HasPrefix(d.String(), f.Family+"(") {
					t.Errorf("%s reads as %s", f.Cell, d)
				}
				got := numbersOf(t, d.String())
				scale := f.Params[len(f.Params)-1] - f.Params[0] // the range, for Uniform and Triangular
				for j, p := range f.Params {
					ref := math.Abs(p) // rounding is relative to the number...
					if f.Family == "Uniform" || f.Family == "Triangular" {
						ref = scale // ...or to the range of the points on the axis
					}
					if f.Family == "Erlang" && j == 0 {
						ref = 0 // k is whole, exactly
					}
					half := 0.5 // half a unit of the last digit...
					if (f.Family == "Uniform" || f.Family == "Triangular") && (j == 0 || j == len(f.Params)-1) {
						half = 1 // ...or a whole unit for the ends, which round outwards
					}
					if math.Abs(got[j]-p) > half*math.Pow(10, 1-float64(digits))*ref*1.0001 {
						t.Errorf("%s (n %d): parameter %d reads as %v, fitted %v", f.Cell, n, j+1, got[j], p)
					}
				}
			}
			if u := fitOf(res, "Uniform"); u != nil {
				if got := numbersOf(t, u.Cell); got[0] > res.Values[0] || got[1] < res.Values[n-1] {
					t.Errorf("%s does not cover the data, %v to %v", u.Cell, res.Values[0], res.Values[n-1])
				}
			}
			if best := dist.MustParse(res.Fits[0].Cell); n >= 2000 && math.Abs(best.Mean()-mean) > 0.01*mean {
				t.Errorf("%s (n %d): the model's mean of %s is %v, the data's %v", tc.cell, n, res.Fits[0].Cell, best.Mean(), mean)
			}
		}
	}
}

func TestConstWhenEveryValueIsOne(t *testing.T) {
	xs := make([]float64, 40)
	for i := range xs {
		xs[i] = 12.5
	}
	res, err := Distributions(xs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Fits) != 1 || res.Fits[0].Cell != "Const(12.5)" || !math.IsNaN(res.Fits[0].AIC) || res.Fits[0].PValue != 1 {
		t.Errorf("fits %+v", res.Fits)
	}
	if v, ok := dist.IsConst(dist.MustParse(res.Fits[0].Cell)); !ok || v != 12.5 {
		t.Errorf("%s does not read as the constant 12.5", res.Fits[0].Cell)
	}
}

// On extreme scales a cell stays short, with an exponent (Exp(2.5e-7),
// not 300 digits), and the model's parser reads it back as fitted.
func TestCellsOnExtremeScales(t *testing.T) {
	base := draw(t, "Gamma(2,5)", 500, 7)
	for _, scale := range []float64{1e-8, 1e-30, 1e-200, 1e20, 1e200} {
		xs := make([]float64, len(base))
		for i, x := range base {
			xs[i] = x * scale
		}
		res, err := Distributions(xs, Options{Replicates: -1})
		if err != nil {
			t.Fatalf("scale %g: %v", scale, err)
		}
		digits := significantDigits(len(xs))
		for _, f := range res.Fits {
			if len(f.Cell) > 60 {
				t.Errorf("scale %g: %d characters: %s", scale, len(f.Cell), f.Cell)
			}
			d, err := dist.Parse(f.Cell)
			if err != nil || !strings.HasPrefix(d.String(), f.Family+"(") {
				t.Errorf("scale %g: %s reads as %v (%v)", scale, f.Cell, d, err)
				continue
			}
			got := numbersOf(t, f.Cell)
			for j, p := range f.Params {
				ref := math.Abs(p)
				if f.Family == "Uniform" || f.Family == "Triangular" {
					ref = f.Params[len(f.Params)-1] - f.Params[0]
				}
				if math.Abs(got[j]-p) > math.Pow(10, 1-float64(digits))*ref*1.0001 {
					t.Errorf("scale %g: %s: parameter %d reads as %v, fitted %v", scale, f.Cell, j+1, got[j], p)
				}
			}
		}
	}
}

// A cell keeps the fit's mean within a hundredth of the data's sd however
// narrow the data are for their size: times of 1,234.5 ± 10 printed as
// Normal(1230,10) at three significant digits, and a Gamma's shape and
// scale, each rounded on its own, moved its mean by 0.29 sd.
func TestCellsKeepTheMeanOfNarrowData(t *testing.T) {
	for _, tc := range []struct {
		cell string
		n    int
	}{
		{"Normal(1234.5,10)", 5000},
		{"Normal(1000,10)", 5000},
		{"Gamma(40000,0.125)", 3000},
		{"Uniform(4.999,5.001)", 2000},
	} {
		xs := draw(t, tc.cell, tc.n, 7)
		dataSD := sd(xs)
		res, err := Distributions(xs, Options{Replicates: -1})
		if err != nil {
			t.Fatalf("%s: %v", tc.cell, err)
		}
		for _, f := range res.Fits {
			if f.Family == "Uniform" || f.Family == "Triangular" || f.Family == "Exp" {
				continue // rounded to their range, outwards; Exp's sd is its mean
			}
			exact := dist.MustParse(exactText(f.model)).Mean()
			if got := dist.MustParse(f.Cell).Mean(); math.Abs(got-exact) > dataSD/100 {
				t.Errorf("%s: %s has a mean of %v, the fit's %v (sd %.4g)", tc.cell, f.Cell, got, exact, dataSD)
			}
		}
	}
}
