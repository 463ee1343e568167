// Package numtext writes numbers for the people who read websim's
// messages and sheets: digits grouped by thousands, as Excel shows them.
package numtext

import "strconv"

// Group writes n with a comma between each three digits: 100,000 and
// -12,345.
func Group(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
