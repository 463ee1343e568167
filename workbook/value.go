package workbook

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/websim/websim/internal/numtext"
	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/rules"
)

// normKey is the form in which headers and names are compared: lower case,
// without spaces and underscores ("Proc Time", "proc_time" and "PROCTIME"
// are one column).
func normKey(s string) string { return xlsx.NormKey(s) }

// cleanText trims spaces, including the non-breaking spaces that pasting
// from web pages leaves, from both ends of a cell's text.
func cleanText(s string) string { return xlsx.CleanText(s) }

// plainNumber is a decimal number as Excel stores it or as a user types it
// into a text cell: sign, digits, a point, an exponent, and an optional %.
var plainNumber = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?%?$`)

// parseNumber reads a cell's raw text as a number where that is
// unambiguous: "12", " 0.5 ", "2.5e-3", "50%" (0.5). A decimal comma, a
// thousands separator, hexadecimal, NaN and infinity are refused. The
// number is read at the 15 significant digits Excel keeps of one typed
// (numtext.AsExcelKeeps): a formula's saved 0.33333333333333331 is the
// 0.333333333333333 that the model's text form writes for it.
func parseNumber(s string) (float64, bool) {
	s = cleanText(s)
	if !plainNumber.MatchString(s) {
		return 0, false
	}
	percent := strings.HasSuffix(s, "%")
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	v = numtext.AsExcelKeeps(v)
	if percent {
		v /= 100
	}
	return v, true
}

// percentCell tells whether a cell of SvcData holds a percentage: text
// written as one ("50%"), or a number shown as one (50% typed in Excel is
// 0.5 in a 0% format). A time cell must not be one.
func (r *reader) percentCell(t *table, c cell) bool {
	return strings.HasSuffix(cleanText(c.text), "%") || r.svc.x.IsPercent(t.sheet, c.ref)
}

// percentText is a percentage cell as its user sees it: "50%".
func percentText(text string, v float64) string {
	if s := cleanText(text); strings.HasSuffix(s, "%") {
		return s
	}
	return strconv.FormatFloat(100*v, 'g', 6, 64) + "%"
}

// looksNumeric tells whether s was probably meant as a number, for a
// message: "0,5" and "1 000" were, "Expo(3)" was not.
func looksNumeric(s string) bool {
	s = cleanText(s)
	if s == "" {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789.,+-eE% \u00a0'", r) {
			return false
		}
	}
	return strings.ContainsAny(s, "0123456789") && !arithmetic(s)
}

// arithmetic tells whether s adds or subtracts numbers (1-0.5, -1+3): a +
// or - after a digit or a point, which is not an exponent's sign (1e-5).
// Such a text is an expression, not a number typed wrongly.
func arithmetic(s string) bool {
	prev := byte(0) // the last character that is not a space
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c == '+' || c == '-') && (prev >= '0' && prev <= '9' || prev == '.') {
			return true
		}
		if c != ' ' {
			prev = c
		}
	}
	return false
}

// numberHint explains why text is not a number.
func numberHint(s string) string {
	if looksNumeric(s) && strings.ContainsAny(s, ", '\u00a0") {
		return fmt.Sprintf("%q is not a number (write it with a point for decimals and no thousands separator, e.g. 1234.5)", s)
	}
	return fmt.Sprintf("%q is not a number", s)
}

// formatNumber prints a number as briefly as it can.
func formatNumber(v float64) string {
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// isWhole tells whether v is a whole number that fits an int32, with a
// little room for the rounding of a computed formula (rules.Whole); the
// reader then takes math.Round(v), never v cut down.
func isWhole(v float64) bool {
	_, whole := rules.Whole(v)
	return whole && math.Abs(v) <= math.MaxInt32
}

// identifier is a name an expression can use: letters (of any script, as
// expressions read them), digits and _, not starting with a digit.
var identifier = regexp.MustCompile(`^[\p{L}_][\p{L}\p{Nd}_]*$`)

// asIdentifier suggests a name an expression can use for name: spaces
// left out, any other character that cannot be in one made _, and N put
// before a leading digit ("Card count" → "Cardcount", "Cards-1" →
// "Cards_1", "2nd" → "N2nd").
func asIdentifier(name string) string {
	var b strings.Builder
	for _, r := range strings.Join(strings.Fields(name), "") {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			if b.Len() == 0 && unicode.IsDigit(r) {
				b.WriteByte('N')
			}
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "Name"
	}
	return b.String()
}

// callLike tells whether s is written as a function call, "Name(...", the
// shape of a distribution.
var callLike = regexp.MustCompile(`^\s*[A-Za-z_][A-Za-z0-9_]*\s*\(`)
