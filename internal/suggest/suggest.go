// Package suggest finds the known name closest to a misspelt one, for
// messages such as `unknown server "GWy"; did you mean "GWay"?`.
package suggest

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Closest returns the candidate nearest to name by edit distance, ignoring
// case, or "" when none is near enough to be a likely misspelling (more
// than a third of the longer name would have to change).
func Closest(name string, candidates []string) string {
	best, bestDist := "", -1
	ln := strings.ToLower(name)
	for _, c := range candidates {
		d := distance(ln, strings.ToLower(c))
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	if best == "" {
		return ""
	}
	longest := max(len([]rune(name)), len([]rune(best)))
	if bestDist*3 > longest+1 {
		return ""
	}
	return best
}

// DidYouMean returns `; did you mean "X"?` for the closest candidate, or ""
// when there is none.
func DidYouMean(name string, candidates []string) string {
	if c := Closest(name, candidates); c != "" {
		return `; did you mean "` + c + `"?` + lookAlike(name, c)
	}
	return ""
}

// lookAlike names the first character in which two names of the same
// length differ, by its code point, when one of them is not ASCII: "Work"
// and "Wоrk" (a Cyrillic о) look the same in print, and the message would
// be a riddle.
func lookAlike(name, near string) string {
	a, b := []rune(name), []rune(near)
	if len(a) != len(b) {
		return ""
	}
	for i := range a {
		if a[i] == b[i] || unicode.ToLower(a[i]) == unicode.ToLower(b[i]) {
			continue
		}
		if a[i] < utf8.RuneSelf && b[i] < utf8.RuneSelf {
			return "" // a plain misspelling
		}
		return fmt.Sprintf(" (character %d differs: %q is U+%04X, %q is U+%04X)", i+1, a[i], a[i], b[i], b[i])
	}
	return ""
}

// Distance is the edit distance between a and b, in runes, ignoring
// case: the letters to insert, delete or change, or neighbours to swap
// (optimal string alignment: "Epx" is one swap from "Exp").
func Distance(a, b string) int { return distance(strings.ToLower(a), strings.ToLower(b)) }

// distance is the optimal-string-alignment distance between a and b, in
// runes: Levenshtein's, with a swap of two neighbours counted as one edit.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// Index returns the index of the item named name, matched exactly first,
// then ignoring case (so "gway" finds "GWay" unless a "gway" exists too);
// -1 when there is none.
func Index[T any](items []T, name string, nameOf func(T) string) int {
	for i, it := range items {
		if nameOf(it) == name {
			return i
		}
	}
	for i, it := range items {
		if strings.EqualFold(nameOf(it), name) {
			return i
		}
	}
	return -1
}

// IndexOf is Index for a list of names.
func IndexOf(names []string, name string) int {
	return Index(names, name, func(s string) string { return s })
}
