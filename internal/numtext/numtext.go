// Package numtext writes numbers for the people who read websim's
// messages and sheets: digits grouped by thousands, as Excel shows them.
package numtext

import (
	"math"
	"strconv"
)

// Group writes n with a comma between each three digits: 100,000 and
// -12,345.
func Group(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Huge writes x in four significant digits with an exponent (1e+300) when
// it is 1e15 or more in size, where its fixed-point digits would fill a
// console line; ok is false for any other x, which the caller writes as
// it does.
func Huge(x float64) (text string, ok bool) {
	if math.Abs(x) < 1e15 || math.IsInf(x, 0) || math.IsNaN(x) {
		return "", false
	}
	return strconv.FormatFloat(x, 'g', 4, 64), true
}

// AsExcelKeeps is v as Excel keeps a number typed into a cell: 15
// significant digits. A whole number below 2^53 keeps every digit (a seed
// of 17 digits written by a script stays itself). A formula's saved value
// or a script's number may carry 17 digits (=0.57*100 is saved as
// 56.999999999999993); websim reads every number through this one rule, so
// that what the model text writes (15 digits, as the spreadsheet library
// does) reads back as the number the simulation ran with.
func AsExcelKeeps(v float64) float64 {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 15, 64), 64)
	if err != nil {
		return v
	}
	return r
}
