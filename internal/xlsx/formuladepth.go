package xlsx

import (
	"fmt"
	"github.com/websim/websim/internal/numtext"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// MaxFormulaDepth bounds a chain of formulas that websim computes itself
// (formulas without a value saved by Excel, each reading the next): the
// formula engine recurses once per link, so a longer chain is refused
// (at the first cell past the limit) instead of exhausting the stack.
const MaxFormulaDepth = 1000

// formulaRef finds cell references in a formula: an optional sheet, a
// cell, an optional second cell of a range.
var formulaRef = regexp.MustCompile(`(?:(?:'((?:[^']|'')+)'|([A-Za-z_][A-Za-z0-9_.]*))!)?\$?([A-Za-z]{1,3})\$?([0-9]{1,7})(?::\$?([A-Za-z]{1,3})\$?([0-9]{1,7}))?`)

// formulaString matches a string literal of a formula, whose text holds no
// reference.
var formulaString = regexp.MustCompile(`"(?:[^"]|"")*"`)

// cellKey is a cell of a sheet.
type cellKey struct{ sheet, ref string }

// formulaGraph walks the references between computed formulas, to find a
// circle or a chain too deep before the formula engine is called.
type formulaGraph struct {
	b *Book
	// depth is the depth of a cell already walked (0 for a value); on
	// marks the cells of the path being walked.
	depth map[cellKey]int
	on    map[cellKey]bool
	// formulas caches each sheet's formula cells, for ranges.
	formulas map[string]map[string]string
}

// formulaProblem says why the formula of sheet!ref cannot be computed
// safely (a circle of references, or a chain deeper than
// MaxFormulaDepth), or "" when it can; deeper reports whether the cell
// only stands beyond another cell whose chain is too deep (reported there).
func (b *Book) formulaProblem(g **formulaGraph, sheet, ref string) (msg string, deeper bool) {
	if *g == nil {
		*g = &formulaGraph{b: b, depth: map[cellKey]int{}, on: map[cellKey]bool{}, formulas: map[string]map[string]string{}}
	}
	d, msg := (*g).walk(cellKey{sheet, ref})
	switch {
	case msg != "":
		return msg + "; expected a formula that ends in values (or save the workbook in Excel so that its values are stored)", false
	case d == MaxFormulaDepth+1:
		return fmt.Sprintf("is at the end of a chain of %s formulas, each using the next, that websim would compute; expected at most %s (compute part of it in fewer steps, or save the workbook in Excel so that its values are stored)", numtext.Group(int64(d)), numtext.Group(int64(MaxFormulaDepth))), false
	case d > MaxFormulaDepth+1:
		return "deeper", true
	}
	return "", false
}

// computed returns the formula of a cell that websim would compute (a
// formula without a saved value), or "".
func (g *formulaGraph) computed(c cellKey) string {
	f, err := g.b.f.GetCellFormula(c.sheet, c.ref)
	if err != nil || f == "" {
		return ""
	}
	if v, err := g.b.f.GetCellValue(c.sheet, c.ref, rawValues); err == nil && v != "" {
		return "" // Excel saved its value: it is not computed
	}
	return f
}

// walk returns the depth of c's chain of computed formulas (0 for a value,
// 1 for a formula of values), or a message for a circle. It keeps its own
// stack, so that a chain of any length is walked without recursion.
func (g *formulaGraph) walk(root cellKey) (int, string) {
	type frame struct {
		c    cellKey
		deps []cellKey
		next int
		max  int
	}
	if d, ok := g.depth[root]; ok {
		return d, ""
	}
	var stack []*frame
	push := func(c cellKey) string {
		if g.on[c] {
			start := 0
			for i, f := range stack {
				if f.c == c {
					start = i
				}
			}
			var names []string
			for _, f := range stack[start:] {
				names = append(names, g.name(f.c, c.sheet))
			}
			names = append(names, g.name(c, c.sheet))
			return "refers back to itself (" + strings.Join(names, " → ") + ")"
		}
		f := g.computed(c)
		if f == "" {
			g.depth[c] = 0
			return ""
		}
		g.on[c] = true
		stack = append(stack, &frame{c: c, deps: g.refs(c.sheet, f)})
		return ""
	}
	fail := func(msg string) (int, string) {
		for _, f := range stack {
			delete(g.on, f.c)
		}
		return 0, msg
	}
	if msg := push(root); msg != "" {
		return fail(msg)
	}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		if top.next == len(top.deps) {
			d := top.max + 1
			g.depth[top.c] = d
			delete(g.on, top.c)
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				stack[len(stack)-1].max = max(stack[len(stack)-1].max, d)
			}
			continue
		}
		dep := top.deps[top.next]
		top.next++
		if d, ok := g.depth[dep]; ok {
			top.max = max(top.max, d)
			continue
		}
		if msg := push(dep); msg != "" {
			return fail(msg)
		}
		if d, ok := g.depth[dep]; ok {
			top.max = max(top.max, d)
		}
	}
	return g.depth[root], ""
}

// name is a cell as a message gives it: its sheet only when not home.
func (g *formulaGraph) name(c cellKey, home string) string {
	if c.sheet == home {
		return c.ref
	}
	return c.sheet + "!" + c.ref
}

// refs lists the cells a formula of sheet reads that are computed
// formulas themselves (a range gives its formula cells).
func (g *formulaGraph) refs(sheet, formula string) []cellKey {
	text := formulaString.ReplaceAllStringFunc(formula, func(s string) string { return strings.Repeat(" ", len(s)) })
	var out []cellKey
	for _, m := range formulaRef.FindAllStringSubmatchIndex(text, -1) {
		start, end := m[0], m[1]
		if start > 0 && isNameByte(text[start-1]) || end < len(text) && (isNameByte(text[end]) || text[end] == '(') {
			continue // part of a name or a function call (LOG10(...))
		}
		sh := sheet
		if m[2] >= 0 {
			sh = strings.ReplaceAll(text[m[2]:m[3]], "''", "'")
		} else if m[4] >= 0 {
			sh = text[m[4]:m[5]]
		}
		if name, ok := g.b.FindSheet(sh); ok {
			sh = name
		} else {
			continue
		}
		first := text[m[6]:m[7]] + text[m[8]:m[9]]
		if m[10] < 0 {
			out = append(out, cellKey{sh, strings.ToUpper(first)})
			continue
		}
		c1, r1, err1 := CellCoordinates(first)
		c2, r2, err2 := CellCoordinates(text[m[10]:m[11]] + text[m[12]:m[13]])
		if err1 != nil || err2 != nil {
			continue
		}
		fs, ok := g.formulas[sh]
		if !ok {
			fs, _ = g.b.Formulas(sh)
			g.formulas[sh] = fs
		}
		for _, ref := range slices.Sorted(maps.Keys(fs)) {
			c, r, err := CellCoordinates(ref)
			if err == nil && c >= min(c1, c2) && c <= max(c1, c2) && r >= min(r1, r2) && r <= max(r1, r2) {
				out = append(out, cellKey{sh, ref})
			}
		}
	}
	return out
}

func isNameByte(c byte) bool {
	return c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
}

// volatileCall finds a call of a function that Excel computes afresh at
// every recalculation, or whose references are made as it runs (with the
// _xlfn. prefix a file gives newer functions, or without).
var volatileCall = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[^A-Za-z0-9_.])(?:_xlfn\.)?(RAND|RANDBETWEEN|RANDARRAY|NOW|TODAY|INDIRECT|OFFSET|CELL|INFO)\s*\(`)
})

// rangeRef finds a range of cells (B3:B4, $B$3:$B$4, Sheet1!B3:B4), a
// whole column (B:B) or a whole row (3:3).
var rangeRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:(?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!)?(?:\$?[A-Za-z]{1,3}\$?[0-9]{1,7}:\$?[A-Za-z]{1,3}\$?[0-9]{1,7}|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}|\$?[0-9]{1,7}:\$?[0-9]{1,7})`)
})

// rangeFunctions take a range as a whole (a sum, a lookup, a count): a
// range passed to any other function (ABS(B3:B4), inside a SUM) makes an
// array formula, which Excel computes cell by cell.
var rangeFunctions = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(`SUM SUMPRODUCT SUMSQ SUMIF SUMIFS SUMX2MY2 SUMX2PY2 SUMXMY2 SUBTOTAL AGGREGATE
		AVERAGE AVERAGEA AVERAGEIF AVERAGEIFS COUNT COUNTA COUNTBLANK COUNTIF COUNTIFS
		MIN MINA MINIFS MAX MAXA MAXIFS PRODUCT MEDIAN MODE MODE.SNGL MODE.MULT
		STDEV STDEV.S STDEV.P STDEVA STDEVP STDEVPA VAR VAR.S VAR.P VARA VARP VARPA
		LARGE SMALL PERCENTILE PERCENTILE.INC PERCENTILE.EXC QUARTILE QUARTILE.INC QUARTILE.EXC
		RANK RANK.EQ RANK.AVG PERCENTRANK PERCENTRANK.INC PERCENTRANK.EXC TRIMMEAN
		GEOMEAN HARMEAN SKEW SKEW.P KURT DEVSQ AVEDEV CORREL COVAR COVARIANCE.P COVARIANCE.S
		PEARSON RSQ SLOPE INTERCEPT FORECAST FORECAST.LINEAR STEYX TREND GROWTH LINEST LOGEST
		FREQUENCY PROB NPV IRR XNPV XIRR MIRR MDETERM MINVERSE MMULT TRANSPOSE
		INDEX MATCH XMATCH VLOOKUP HLOOKUP LOOKUP XLOOKUP ROWS COLUMNS ROW COLUMN AREAS ISREF
		AND OR XOR CONCAT TEXTJOIN COUNTUNIQUE FILTER SORT SORTBY UNIQUE TAKE DROP
		DSUM DAVERAGE DCOUNT DCOUNTA DGET DMAX DMIN DPRODUCT DSTDEV DSTDEVP DVAR DVARP`) {
		m[f] = true
	}
	return m
})

// notComputableAsExcel says why websim, computing a formula that has no
// saved value, would not get what Excel gets ("" when it would): a
// volatile function (RAND, NOW, INDIRECT, ...), which would give another
// value at each reading (two runs of the same seed would differ, and a
// reference made as it runs escapes the check for circles); or an array
// formula, arithmetic on a range (SUMPRODUCT(B3:B4*2), (B3:B4)*2, B3:B4%)
// or a range passed to a function of one value (SUM(ABS(B3:B4))), which
// the formula engine reads as the range's first cell. A range given a name
// (SUM(MyRange*2)) is not seen.
func notComputableAsExcel(formula string) string {
	text := formulaString.ReplaceAllStringFunc(formula, func(s string) string { return strings.Repeat(" ", len(s)) })
	if m := volatileCall().FindStringSubmatch(text); m != nil {
		name := strings.ToUpper(m[1])
		if name == "INDIRECT" || name == "OFFSET" {
			return fmt.Sprintf("uses %s, whose reference is made as it is computed: websim cannot check what it reads, nor compute it as Excel does", name)
		}
		return fmt.Sprintf("uses %s, which Excel computes afresh at every recalculation: websim would read another value each time, and two runs of the same seed would differ", name)
	}
	const operators = "+-*/^&=<>"
	for _, at := range rangeRef().FindAllStringIndex(text, -1) {
		start, end := at[0], at[1]
		if start > 0 && isNameByte(text[start-1]) || end < len(text) && (isNameByte(text[end]) || text[end] == '(') {
			continue // part of a name or a call
		}
		rng := strings.TrimSpace(text[start:end])
		// Out through parentheses that only group it: (B3:B4)*2.
		for {
			before := strings.TrimRight(text[:start], " ")
			after := strings.TrimLeft(text[end:], " ")
			if !strings.HasSuffix(before, "(") || !strings.HasPrefix(after, ")") {
				break
			}
			open := len(before) - 1
			if callee := strings.TrimRight(text[:open], " "); callee != "" && isNameByte(callee[len(callee)-1]) {
				break // a call's parenthesis
			}
			start, end = open, len(text)-len(after)+1
		}
		before := strings.TrimRight(text[:start], " ")
		after := strings.TrimLeft(text[end:], " ")
		if before != "" && strings.ContainsRune(operators, rune(before[len(before)-1])) ||
			after != "" && strings.ContainsRune(operators+"%", rune(after[0])) {
			return fmt.Sprintf("does arithmetic on the range %s (an array formula), which websim cannot compute as Excel does, cell by cell", rng)
		}
		if fn := calledWith(text, start); fn != "" && !rangeFunctions()[fn] {
			return fmt.Sprintf("passes the range %s to %s, which takes one value (an array formula, computed by Excel cell by cell), which websim cannot compute as Excel does", rng, fn)
		}
	}
	return ""
}

// calledWith returns the function (in capitals, without a _xlfn. prefix)
// whose argument list the text at start begins an argument of, "" when it
// is none (the formula's top level, or a parenthesis that groups).
func calledWith(text string, start int) string {
	depth := 0
	for i := start - 1; i >= 0; i-- {
		switch text[i] {
		case ')':
			depth++
		case '(':
			if depth > 0 {
				depth--
				continue
			}
			j := i
			for j > 0 && isNameByte(text[j-1]) {
				j--
			}
			return strings.TrimPrefix(strings.ToUpper(text[j:i]), "_XLFN.")
		}
	}
	return ""
}
