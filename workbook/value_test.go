package workbook

import (
	"strings"
	"testing"
)

// A number typed wrongly gets a number's hint; a sum of numbers is an
// expression and compiles as one.
func TestLooksNumeric(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"0,5", true}, {"1 000", true}, {"1.5e-3", true}, {"12'500", true}, {"-3", true},
		{"1-0.5", false}, {"1+1", false}, {"-1+3", false}, {"0.5 + 0", false}, {"2.-1", false},
		{"Expo(3)", false}, {"", false}, {"e", false},
	} {
		if got := looksNumeric(tt.text); got != tt.want {
			t.Errorf("looksNumeric(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// Only what stands inside a pair of quotes is shortened, never the words
// between them.
func TestShortQuotes(t *testing.T) {
	long := strings.Repeat("x", 300)
	words := strings.Repeat("w", 200)
	msg := `a "` + long + `" then ` + words + ` "short" and "with \"escaped\" quotes"`
	got := shortQuotes(msg)
	if !strings.Contains(got, `"`+strings.Repeat("x", 80)+" … (200 characters) … "+strings.Repeat("x", 20)+`"`) {
		t.Errorf("the long quote is not cut: %s", got)
	}
	if !strings.Contains(got, " then "+words+` "short" and "with \"escaped\" quotes"`) {
		t.Errorf("the words between quotes changed: %s", got)
	}
}

// A quote left open pairs nothing: the message is cut as a whole, past
// four times maxQuoted.
func TestShortQuotesOddQuotes(t *testing.T) {
	msg := `expression "` + strings.Repeat("a", 1000) + `: missing a closing quote`
	got := shortQuotes(msg)
	if len([]rune(got)) > 5*maxQuoted || !strings.Contains(got, "characters) …") || !strings.HasSuffix(got, "closing quote") {
		t.Errorf("%d runes: %s", len([]rune(got)), got)
	}
	if short := `a "b" and "c`; shortQuotes(short) != short {
		t.Errorf("a short message changed: %s", shortQuotes(short))
	}
}
