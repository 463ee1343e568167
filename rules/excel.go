package rules

import (
	"strings"
	"unicode"
)

// rewritten is a user's expression turned into expr syntax, with a map back
// to the user's own text so that errors point at what the user wrote.
type rewritten struct {
	src string
	// orig[i] is the rune column in the user's text of rune i of src;
	// orig[len] is the user's text length, for errors at the end.
	orig []int
}

// origPos maps a rune column of the rewritten text to the user's text.
func (r *rewritten) origPos(i int) int {
	if i < 0 {
		return 0
	}
	if i >= len(r.orig) {
		return r.orig[len(r.orig)-1]
	}
	return r.orig[i]
}

// rewriteExcel turns the Excel habits the package accepts into expr syntax,
// token by token, leaving string literals alone:
//
//	=a          a        (a leading "=")
//	a <> b      a != b
//	a = b       a == b   (a single "=")
//	TRUE FALSE  true false (any case)
//	and( or(    AND( OR(  (function style, any case; turned into && and || later)
//
// AND, OR, NOT and IF calls themselves are rewritten on the syntax tree
// (see resolve), where their arguments are known.
func rewriteExcel(src string, isName func(string) bool) rewritten {
	in := []rune(src)
	var out []rune
	var orig []int
	emit := func(r rune, at int) {
		out = append(out, r)
		orig = append(orig, at)
	}
	i := 0
	// A leading "=" as in an Excel formula.
	for i < len(in) && unicode.IsSpace(in[i]) {
		emit(in[i], i)
		i++
	}
	if i < len(in) && in[i] == '=' && (i+1 >= len(in) || in[i+1] != '=') {
		emit(' ', i)
		i++
	}
	prevOperand := false // the previous token ends an operand: a name, number, string, ) or ]
	letState := 0        // 1 after "let", 2 after "let name": the next "=" assigns
	for i < len(in) {
		r := in[i]
		switch {
		case r == '"' || r == '\'' || r == '`':
			// A string literal: copied as it is.
			emit(r, i)
			i++
			for i < len(in) {
				c := in[i]
				emit(c, i)
				i++
				if c == '\\' && r != '`' && i < len(in) {
					emit(in[i], i)
					i++
					continue
				}
				if c == r {
					break
				}
			}
			prevOperand = true
		case r == '_' || r == '$' || unicode.IsLetter(r):
			start := i
			for i < len(in) && (in[i] == '_' || in[i] == '$' || unicode.IsLetter(in[i]) || unicode.IsDigit(in[i])) {
				i++
			}
			word := string(in[start:i])
			next := i
			for next < len(in) && unicode.IsSpace(in[next]) {
				next++
			}
			call := next < len(in) && in[next] == '('
			lower := strings.ToLower(word)
			switch {
			case (lower == "true" || lower == "false") && word != lower && !call && !isName(word):
				word = lower
			case (lower == "and" || lower == "or") && call && !prevOperand:
				word = strings.ToUpper(word)
			}
			for k, c := range []rune(word) {
				emit(c, start+k)
			}
			switch {
			case word == "let":
				letState = 1
			case letState == 1:
				letState = 2
			default:
				letState = 0
			}
			prevOperand = !isOperatorWord(word)
		case unicode.IsDigit(r) || (r == '.' && i+1 < len(in) && unicode.IsDigit(in[i+1]) && !prevOperand):
			for i < len(in) && (unicode.IsDigit(in[i]) || unicode.IsLetter(in[i]) || in[i] == '_' ||
				(in[i] == '.' && !(i+1 < len(in) && in[i+1] == '.')) ||
				((in[i] == '+' || in[i] == '-') && (in[i-1] == 'e' || in[i-1] == 'E'))) {
				emit(in[i], i)
				i++
			}
			prevOperand = true
		case r == '<' && i+1 < len(in) && in[i+1] == '>':
			emit('!', i)
			emit('=', i+1)
			i += 2
			prevOperand = false
		case (r == '=' || r == '!' || r == '<' || r == '>') && i+1 < len(in) && in[i+1] == '=':
			emit(r, i)
			emit('=', i+1)
			i += 2
			prevOperand = false
		case r == '=':
			emit('=', i)
			if letState != 2 {
				emit('=', i) // a single "=" compares, as in Excel
			}
			i++
			letState = 0
			prevOperand = false
		default:
			emit(r, i)
			i++
			if !unicode.IsSpace(r) {
				prevOperand = r == ')' || r == ']' || r == '}'
			}
		}
	}
	orig = append(orig, len(in))
	return rewritten{src: string(out), orig: orig}
}

// isOperatorWord reports whether word is one of expr's word operators, after
// which an operand is expected.
func isOperatorWord(word string) bool {
	switch word {
	case "and", "or", "not", "in", "matches", "contains", "startsWith", "endsWith", "let", "if", "else":
		return true
	}
	return false
}
