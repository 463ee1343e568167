package dist

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/websim/websim/internal/suggest"
)

// SyntaxError is a distribution string that does not parse or whose
// parameters are out of range.
type SyntaxError struct {
	Input string // the string given to Parse
	Pos   int    // 0-based byte offset in Input where the problem is
	Msg   string // what is wrong and what was expected
}

// Error prints the input, the 1-based column (counted in characters) and
// the message on one line:
//
//	distribution "Expo(3" at column 7: missing ")"; expected "Expo(3)"
//
// A blank input gives the message alone: "empty distribution".
func (e *SyntaxError) Error() string {
	if strings.TrimSpace(e.Input) == "" {
		return e.Msg
	}
	pos := min(max(e.Pos, 0), len(e.Input))
	col := utf8.RuneCountInString(e.Input[:pos]) + 1
	return fmt.Sprintf("distribution %q at column %d: %s", e.Input, col, e.Msg)
}

// Parse reads a distribution in sheet syntax, such as "Exp(3)",
// "uniform( 1, 5 )", "ERLA(2,3)" or "12.5". Its errors are *SyntaxError.
func Parse(s string) (Dist, error) {
	p := parser{in: s}
	d, err := p.parse()
	if err != nil {
		return nil, err
	}
	return d, nil
}

// MustParse is Parse for distributions known to be good, such as those
// written in tests; it panics on error.
func MustParse(s string) Dist {
	d, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return d
}

// A spec is one distribution name and how to build it from its arguments.
type spec struct {
	name   string   // spelling for messages
	params []string // parameter names, in the order written
	build  func(a []float64, p []string) (Dist, *argError)
}

// argError is a bad parameter value: the index of the argument at fault
// and what is wrong with it.
type argError struct {
	arg int
	msg string
}

var (
	websimSpecs = []*spec{
		{"Exp", []string{"mean"}, buildExp},
		{"Uniform", []string{"min", "max"}, buildUniform},
		{"UniformInt", []string{"min", "max"}, buildUniformInt},
		{"Normal", []string{"mean", "sd"}, buildNormal},
		{"LogNormal", []string{"mean", "sd"}, buildLogNormal},
		{"Triangular", []string{"min", "mode", "max"}, buildTriangular},
		{"Erlang", []string{"k", "mean"}, buildErlang},
		{"Gamma", []string{"shape", "scale"}, buildGamma},
		{"Weibull", []string{"shape", "scale"}, buildWeibull},
		{"Const", []string{"x"}, buildConst},
	}
	arenaSpecs = []*spec{
		{"EXPO", []string{"mean"}, buildExp},
		{"UNIF", []string{"min", "max"}, buildUniform},
		{"NORM", []string{"mean", "sd"}, buildNormal},
		{"TRIA", []string{"min", "mode", "max"}, buildTriangular},
		{"LOGN", []string{"logMean", "logStd"}, buildLogNormal},
		{"ERLA", []string{"expMean", "k"}, buildArenaErlang},
		{"GAMM", []string{"beta", "alpha"}, buildArenaGamma},
		{"WEIB", []string{"beta", "alpha"}, buildArenaWeibull},
	}
	specs = map[string]*spec{} // by lower-case name
	names []string             // every name, websim's first

	// hints answer names users are likely to try that are not
	// misspellings of a known one.
	hints = map[string]string{
		"exponential": "write Exp(mean) for an exponential distribution",
		"poisson":     "for Poisson arrivals write the time between them as Exp(mean)",
		"pois":        "for Poisson arrivals write the time between them as Exp(mean)",
		"rand":        "for Excel's RAND() write Uniform(0,1)",
		"randbetween": "for Excel's RANDBETWEEN(a,b) write UniformInt(a,b)",
	}
)

func init() {
	for _, s := range append(websimSpecs[:len(websimSpecs):len(websimSpecs)], arenaSpecs...) {
		specs[strings.ToLower(s.name)] = s
		names = append(names, s.name)
	}
}

func buildExp(a []float64, p []string) (Dist, *argError) {
	if err := above0(a, p, 0); err != nil {
		return nil, err
	}
	return &exponential{mean: a[0]}, nil
}

func buildUniform(a []float64, p []string) (Dist, *argError) {
	if err := first(notNegative(a, p, 0), ordered(a, p, 0, 1)); err != nil {
		return nil, err
	}
	return &uniform{min: a[0], max: a[1]}, nil
}

func buildUniformInt(a []float64, p []string) (Dist, *argError) {
	err := first(whole(a, p, 0), whole(a, p, 1), notNegative(a, p, 0), ordered(a, p, 0, 1))
	if err != nil {
		return nil, err
	}
	if a[1] > maxWhole {
		return nil, &argError{1, fmt.Sprintf("%s must be at most %d, got %s", p[1], int64(maxWhole), formatNumber(a[1]))}
	}
	return newUniformInt(a[0], a[1]), nil
}

func buildNormal(a []float64, p []string) (Dist, *argError) {
	if err := first(above0(a, p, 0), sd(a, p, 1)); err != nil {
		return nil, err
	}
	return newNormal(a[0], a[1]), nil
}

func buildLogNormal(a []float64, p []string) (Dist, *argError) {
	if err := first(above0(a, p, 0), sd(a, p, 1)); err != nil {
		return nil, err
	}
	if cv := a[1] / a[0]; math.IsInf(cv*cv, 0) {
		return nil, &argError{1, fmt.Sprintf("%s %s is too large for %s %s", p[1], formatNumber(a[1]), p[0], formatNumber(a[0]))}
	}
	return newLogNormal(a[0], a[1]), nil
}

func buildTriangular(a []float64, p []string) (Dist, *argError) {
	err := first(notNegative(a, p, 0), ordered(a, p, 0, 2), ordered(a, p, 0, 1), ordered(a, p, 1, 2))
	if err != nil {
		return nil, err
	}
	return newTriangular(a[0], a[1], a[2]), nil
}

func buildErlang(a []float64, p []string) (Dist, *argError) {
	if err := first(phases(a, p, 0), above0(a, p, 1)); err != nil {
		return nil, err
	}
	return newErlang(a[0], a[1]), nil
}

// buildArenaErlang reads ERLA(expMean, k): k phases, each of mean expMean.
func buildArenaErlang(a []float64, p []string) (Dist, *argError) {
	if err := first(above0(a, p, 0), phases(a, p, 1)); err != nil {
		return nil, err
	}
	return newErlang(a[1], a[1]*a[0]), nil
}

func buildGamma(a []float64, p []string) (Dist, *argError) {
	if err := first(above0(a, p, 0), above0(a, p, 1)); err != nil {
		return nil, err
	}
	return newGamma(a[0], a[1]), nil
}

// buildArenaGamma reads GAMM(beta, alpha): scale, then shape.
func buildArenaGamma(a []float64, p []string) (Dist, *argError) {
	if err := first(above0(a, p, 0), above0(a, p, 1)); err != nil {
		return nil, err
	}
	return newGamma(a[1], a[0]), nil
}

func buildWeibull(a []float64, p []string) (Dist, *argError) {
	if err := first(above0(a, p, 0), above0(a, p, 1)); err != nil {
		return nil, err
	}
	return newWeibull(a[0], a[1]), nil
}

// buildArenaWeibull reads WEIB(beta, alpha): scale, then shape.
func buildArenaWeibull(a []float64, p []string) (Dist, *argError) {
	if err := first(above0(a, p, 0), above0(a, p, 1)); err != nil {
		return nil, err
	}
	return newWeibull(a[1], a[0]), nil
}

func buildConst(a []float64, p []string) (Dist, *argError) {
	if err := notNegative(a, p, 0); err != nil {
		return nil, err
	}
	return constant(a[0]), nil
}

// first returns the first non-nil error.
func first(errs ...*argError) *argError {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func above0(a []float64, p []string, i int) *argError {
	if a[i] > 0 {
		return nil
	}
	return &argError{i, fmt.Sprintf("%s must be above 0, got %s", p[i], formatNumber(a[i]))}
}

func sd(a []float64, p []string, i int) *argError {
	if a[i] >= 0 {
		return nil
	}
	return &argError{i, fmt.Sprintf("%s must be 0 or more, got %s", p[i], formatNumber(a[i]))}
}

func notNegative(a []float64, p []string, i int) *argError {
	if a[i] >= 0 {
		return nil
	}
	return &argError{i, fmt.Sprintf("%s must be 0 or more, got %s: values are times or counts and cannot be negative",
		p[i], formatNumber(a[i]))}
}

// ordered checks a[lo] <= a[hi], blaming a[hi].
func ordered(a []float64, p []string, lo, hi int) *argError {
	if a[lo] <= a[hi] {
		return nil
	}
	return &argError{hi, fmt.Sprintf("%s %s is above %s %s", p[lo], formatNumber(a[lo]), p[hi], formatNumber(a[hi]))}
}

func whole(a []float64, p []string, i int) *argError {
	if a[i] == math.Trunc(a[i]) {
		return nil
	}
	return &argError{i, fmt.Sprintf("%s must be a whole number, got %s", p[i], formatNumber(a[i]))}
}

// phases checks the number of phases of an Erlang.
func phases(a []float64, p []string, i int) *argError {
	if a[i] >= 1 && a[i] == math.Trunc(a[i]) {
		return nil
	}
	return &argError{i, fmt.Sprintf("%s must be a whole number, 1 or more, got %s", p[i], formatNumber(a[i]))}
}

// parser reads one distribution string.
type parser struct {
	in  string
	pos int
}

func (p *parser) errorf(pos int, format string, args ...any) *SyntaxError {
	return &SyntaxError{Input: p.in, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) eof() bool { return p.pos >= len(p.in) }

// next is the character at pos, quoted for a message.
// word returns the name that starts at byte i of the input (letters,
// digits and underscores, from a letter), or "".
func (p *parser) word(i int) string {
	j := i
	for j < len(p.in) {
		r, size := utf8.DecodeRuneInString(p.in[j:])
		if !(unicode.IsLetter(r) || r == '_' || (j > i && unicode.IsDigit(r))) {
			break
		}
		j += size
	}
	return p.in[i:j]
}

func (p *parser) next() string {
	_, size := utf8.DecodeRuneInString(p.in[p.pos:])
	return strconv.Quote(p.in[p.pos : p.pos+size])
}

func (p *parser) skipSpace() {
	for !p.eof() {
		r, size := utf8.DecodeRuneInString(p.in[p.pos:])
		if !unicode.IsSpace(r) {
			return
		}
		p.pos += size
	}
}

func (p *parser) parse() (Dist, *SyntaxError) {
	p.skipSpace()
	if p.eof() {
		return nil, p.errorf(0, "empty distribution")
	}
	start := p.pos
	switch c := p.in[p.pos]; {
	case isDigit(c) || c == '+' || c == '-' || c == '.':
		v, err := p.number()
		if err != nil {
			return nil, err
		}
		if err := p.end(`after the number`); err != nil {
			return nil, err
		}
		if v < 0 {
			return nil, p.errorf(start, "%s is below 0: values are times or counts and cannot be negative", formatNumber(v))
		}
		return constant(v), nil
	case isLetter(c):
	case c == '=':
		return nil, p.errorf(start, `unexpected "=": write the distribution alone, as in Exp(3), not as an Excel formula`)
	default:
		return nil, p.errorf(start, "unexpected %s; expected a distribution such as Exp(3), or a number", p.next())
	}

	name := p.ident()
	sp := specs[strings.ToLower(name)]
	if sp == nil {
		return nil, p.unknown(start, name)
	}
	p.skipSpace()
	if p.eof() {
		return nil, p.errorf(p.pos, `missing "(" after %s`, name)
	}
	if p.in[p.pos] != '(' {
		return nil, p.errorf(p.pos, `expected "(" after %s, found %s`, name, p.next())
	}
	open := p.pos
	p.pos++

	var args []float64
	var at []int // where each argument starts
	p.skipSpace()
	if !p.eof() && p.in[p.pos] == ')' {
		p.pos++
	} else {
	loop:
		for {
			p.skipSpace()
			at = append(at, p.pos)
			v, err := p.number()
			if err != nil {
				return nil, err
			}
			args = append(args, v)
			p.skipSpace()
			if p.eof() {
				closed := strings.TrimSpace(p.in) + ")"
				if _, err := Parse(closed); err == nil {
					return nil, p.errorf(p.pos, `missing ")"; expected %q`, closed)
				}
				return nil, p.errorf(p.pos, `missing ")" to close the "(" of column %d`, utf8.RuneCountInString(p.in[:open])+1)
			}
			switch p.in[p.pos] {
			case ',':
				p.pos++
			case ')':
				p.pos++
				break loop
			case ';':
				return nil, p.errorf(p.pos, `use "," between arguments, not ";"`)
			default:
				return nil, p.errorf(p.pos, `expected "," or ")", found %s`, p.next())
			}
		}
	}
	closing := p.pos - 1
	if err := p.end(`after ")"`); err != nil {
		return nil, err
	}

	if n := len(sp.params); len(args) != n {
		pos := closing
		if len(args) > n {
			pos = at[n]
		}
		plural := "s"
		if n == 1 {
			plural = ""
		}
		return nil, p.errorf(pos, "%s takes %d argument%s (%s), got %d",
			sp.name, n, plural, strings.Join(sp.params, ","), len(args))
	}
	d, aerr := sp.build(args, sp.params)
	if aerr != nil {
		return nil, p.errorf(at[aerr.arg], "%s", aerr.msg)
	}
	if m := d.Mean(); math.IsInf(m, 0) || math.IsNaN(m) {
		return nil, p.errorf(open+1, "the mean of %s is too large to compute", d)
	}
	return d, nil
}

// end checks that nothing but spaces is left.
func (p *parser) end(after string) *SyntaxError {
	p.skipSpace()
	if p.eof() {
		return nil
	}
	return p.errorf(p.pos, "unexpected %s %s; expected the end", p.next(), after)
}

// ident reads a name: a letter, then letters, digits and underscores.
func (p *parser) ident() string {
	start := p.pos
	for !p.eof() {
		c := p.in[p.pos]
		if !isLetter(c) && !isDigit(c) && c != '_' {
			break
		}
		p.pos++
	}
	return p.in[start:p.pos]
}

func (p *parser) unknown(pos int, name string) *SyntaxError {
	msg := fmt.Sprintf("unknown distribution %q", name)
	if h, ok := hints[strings.ToLower(name)]; ok {
		return p.errorf(pos, "%s; %s", msg, h)
	}
	if dym := suggest.DidYouMean(name, names); dym != "" {
		return p.errorf(pos, "%s%s", msg, dym)
	}
	return p.errorf(pos, "%s; expected one of %s, or Arena's %s", msg,
		strings.Join(names[:len(websimSpecs)], ", "), strings.Join(names[len(websimSpecs):], ", "))
}

// number reads a decimal number: an optional sign, digits with an optional
// point, and an optional exponent.
func (p *parser) number() (float64, *SyntaxError) {
	start, i := p.pos, p.pos
	if i < len(p.in) && (p.in[i] == '+' || p.in[i] == '-') {
		i++
	}
	digits := 0
	for ; i < len(p.in) && isDigit(p.in[i]); i++ {
		digits++
	}
	if i < len(p.in) && p.in[i] == '.' {
		for i++; i < len(p.in) && isDigit(p.in[i]); i++ {
			digits++
		}
	}
	if digits == 0 {
		if start == len(p.in) {
			return 0, p.errorf(start, "expected a number")
		}
		if word := p.word(start); word != "" {
			// A name where a number goes: an attribute, Copy, a setting.
			return 0, p.errorf(start, "expected a number, found the name %q: a distribution's arguments are numbers, fixed when the model is read (to vary a time per request, pick among steps with Condition, or draw it in Attributes and branch on it)", word)
		}
		return 0, p.errorf(start, "expected a number, found %s", p.next())
	}
	if i < len(p.in) && (p.in[i] == 'e' || p.in[i] == 'E') {
		e := i
		i++
		if i < len(p.in) && (p.in[i] == '+' || p.in[i] == '-') {
			i++
		}
		expDigits := i
		for ; i < len(p.in) && isDigit(p.in[i]); i++ {
		}
		if i == expDigits {
			return 0, p.errorf(e, "malformed number %q: expected digits after %q", p.in[start:i], p.in[e:e+1])
		}
	}
	text := p.in[start:i]
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, p.errorf(start, "number %s is too large", text)
		}
		return 0, p.errorf(start, "malformed number %q", text)
	}
	if v == 0 {
		v = 0 // drop the sign of -0
	}
	p.pos = i
	return v, nil
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// formatNumber prints x as briefly as it parses back exactly, without an
// exponent for everyday sizes.
func formatNumber(x float64) string {
	if a := math.Abs(x); a == 0 || a >= 1e-4 && a < 1e21 {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// format prints name(arg,arg,...).
func format(name string, args ...float64) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('(')
	for i, a := range args {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(formatNumber(a))
	}
	b.WriteByte(')')
	return b.String()
}

// Form is one way to write a distribution in a cell: its name and its
// parameters in order; Arena marks Arena's spellings.
type Form struct {
	Name   string
	Params []string
	Arena  bool
}

// Forms lists the distributions a cell may hold, websim's first, then
// Arena's (for `websim help distributions`).
func Forms() []Form {
	var out []Form
	for _, s := range websimSpecs {
		out = append(out, Form{Name: s.name, Params: s.params})
	}
	for _, s := range arenaSpecs {
		out = append(out, Form{Name: s.name, Params: s.params, Arena: true})
	}
	return out
}
