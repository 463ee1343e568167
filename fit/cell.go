package fit

import (
	"math"
	"strconv"
	"strings"

	"github.com/websim/websim/engine/dist"
)

// cellText prints m as a cell: its family and its parameters in the
// contract's order, each to digits significant digits (Erlang's k whole).
// The ends and mode of Uniform and Triangular are points on one axis, so
// they are rounded to the same decimals, digits significant digits of the
// range: a minimum of 0.0000135 beside a maximum of 30.2 prints as 0, and
// 100.31 to 110.27 as 100.3 to 110.3. Their ends round outwards (min down,
// max up), so that the cell covers the data.
func cellText(m model, digits int) string {
	var b strings.Builder
	b.WriteString(m.family())
	b.WriteByte('(')
	ps := m.params()
	shared := m.family() == "Uniform" || m.family() == "Triangular"
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		switch {
		case m.family() == "Erlang" && i == 0:
			b.WriteString(strconv.FormatFloat(p, 'f', 0, 64))
		case m.family() == "Const":
			b.WriteString(strconv.FormatFloat(p, 'f', -1, 64))
		case shared:
			d := decimalsFor(ps[len(ps)-1]-ps[0], digits)
			switch i {
			case 0:
				p = roundOut(p, d, math.Floor)
			case len(ps) - 1:
				p = roundOut(p, d, math.Ceil)
			}
			b.WriteString(roundAt(p, d))
		default:
			b.WriteString(roundText(p, digits))
		}
	}
	b.WriteByte(')')
	return b.String()
}

// faithfulCell is cellText with the fewest significant digits, from digits
// up, that keep the cell's mean within a hundredth of the fit's spread (sd)
// of the exact fit's mean: digits significant digits of each parameter
// suit times that spread about as widely as they are large, but times of
// 1,234.5 ± 10 would print Normal(1230,10), its mean 0.45 sd off, and the
// shape and scale of a Gamma each rounded on its own move its mean (their
// product) as far. Uniform and Triangular keep cellText's rounding, to
// digits of their range, outwards; and cellText stands where the model's
// parser cannot read the cells (unfit says so).
func faithfulCell(m model, digits int) string {
	if f := m.family(); f == "Uniform" || f == "Triangular" || f == "Const" {
		return cellText(m, digits)
	}
	exact, err := dist.Parse(exactText(m))
	if err != nil {
		return cellText(m, digits)
	}
	spread := (m.quantile(0.8413447460685429) - m.quantile(0.15865525393145707)) / 2
	const most = 12
	for d := digits; d < most; d++ {
		text := cellText(m, d)
		if r, err := dist.Parse(text); err == nil && math.Abs(r.Mean()-exact.Mean()) <= spread/100 {
			return text
		}
	}
	return cellText(m, most)
}

// exactText prints m with every parameter exact, for the bootstrap's
// sampler.
func exactText(m model) string {
	var b strings.Builder
	b.WriteString(m.family())
	b.WriteByte('(')
	for i, p := range m.params() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatFloat(p, 'g', -1, 64))
	}
	b.WriteByte(')')
	return b.String()
}

// roundText prints x to digits significant digits, in plain decimals
// (12300, 23.1, 0.00412), without trailing zeros.
func roundText(x float64, digits int) string {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	// Round in decimal first ('e' rounds correctly), then print plain.
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'e', digits-1, 64), 64)
	return roundAt(r, decimalsFor(r, digits))
}

// decimalsFor is the number of decimals that give x digits significant
// digits; below 0 it rounds to tens, hundreds...
func decimalsFor(x float64, digits int) int {
	if x == 0 {
		return digits - 1
	}
	return digits - 1 - int(math.Floor(math.Log10(math.Abs(x))))
}

// roundOut rounds x to decimals decimals with floor or ceil, leaving
// alone an x already that close to a rounded value (so that 7.5 stays 7.5
// and not 7.499999 or 7.500001).
func roundOut(x float64, decimals int, dir func(float64) float64) float64 {
	p := math.Pow(10, float64(decimals))
	if r := math.Round(x * p); math.Abs(x*p-r) < 1e-9 {
		return r / p
	}
	return dir(x*p) / p
}

// maxDecimals, minPlain and maxPlain bound the plain form a cell prints: a
// number below minPlain that needs more than maxDecimals decimals, or one
// of 10^15 or above, prints with an exponent (2.5e-7, 1.2e15), which the
// model's cells read too; a number near 1 that needs more digits to keep
// its fit's mean (faithfulCell) stays plain (0.99999997).
const (
	maxDecimals = 6
	minPlain    = 1e-4
	maxPlain    = 1e15
)

// roundAt prints x rounded to decimals decimals (to 10^-decimals when
// decimals is below 0), without trailing zeros; with an exponent when the
// plain form would be long (see maxDecimals).
func roundAt(x float64, decimals int) string {
	if a := math.Abs(x); a != 0 && !math.IsInf(x, 0) && !math.IsNaN(x) && ((decimals > maxDecimals && a < minPlain) || a >= maxPlain) {
		sig := decimals + 1 + int(math.Floor(math.Log10(a)))
		if sig < 1 {
			return "0"
		}
		return tidyExp(strconv.FormatFloat(x, 'e', sig-1, 64))
	}
	if decimals < 0 {
		p := math.Pow(10, float64(-decimals))
		return strconv.FormatFloat(math.Round(x/p)*p, 'f', 0, 64)
	}
	s := strconv.FormatFloat(x, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// tidyExp drops the trailing zeros of an 'e' form's mantissa and the
// padding of its exponent: "2.50e-07" is "2.5e-7", "1.2e+15" is "1.2e15".
func tidyExp(s string) string {
	m, e, _ := strings.Cut(s, "e")
	if strings.Contains(m, ".") {
		m = strings.TrimRight(strings.TrimRight(m, "0"), ".")
	}
	sign := ""
	if e[0] == '-' {
		sign = "-"
	}
	e = strings.TrimLeft(e[1:], "0")
	if e == "" {
		return m
	}
	return m + "e" + sign + e
}

// significantDigits is how many digits a cell gets for n values: 3 up to
// 10,000 values, 4 up to 1,000,000, 5 up to 100,000,000: one more for each
// hundredfold, so that rounding stays well inside the parameters' standard
// errors, which shrink as 1/√n.
func significantDigits(n int) int {
	d := int(math.Ceil(math.Log10(float64(n))/2)) + 1
	return min(max(d, 3), 6)
}
