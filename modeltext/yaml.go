package modeltext

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// maxCellChars is the most characters (UTF-16 units) Excel holds in a cell.
const maxCellChars = 32767

// WriteText writes the model as one YAML document (see the package
// comment for its shape). The same model always gives the same bytes.
func (m *Model) WriteText(w io.Writer) error {
	root := &yaml.Node{Kind: yaml.MappingNode}
	for _, b := range m.Books {
		sheets := &yaml.Node{Kind: yaml.MappingNode}
		for _, s := range b.Sheets {
			sheets.Content = append(sheets.Content, str(s.Name), sheetNode(s))
		}
		root.Content = append(root.Content, str(b.Name), sheets)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// Text is WriteText into a byte slice.
func (m *Model) Text() ([]byte, error) {
	var buf bytes.Buffer
	err := m.WriteText(&buf)
	return buf.Bytes(), err
}

// sheetNode is a sheet as a list: the header row (a flow list), then a
// map per row, blank cells left out; a blank row is {}.
func sheetNode(s *Sheet) *yaml.Node {
	list := &yaml.Node{Kind: yaml.SequenceNode}
	if len(s.Header) == 0 && len(s.Rows) == 0 {
		list.Style = yaml.FlowStyle
		return list
	}
	header := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, h := range s.Header {
		header.Content = append(header.Content, cellNode(h))
	}
	list.Content = append(list.Content, header)
	keys := s.columnKeys(s.width())
	for _, r := range s.Rows {
		row := &yaml.Node{Kind: yaml.MappingNode}
		for i, c := range r {
			if !c.IsBlank() {
				row.Content = append(row.Content, str(keys[i]), cellNode(c))
			}
		}
		if len(row.Content) == 0 {
			row.Style = yaml.FlowStyle
		}
		list.Content = append(list.Content, row)
	}
	return list
}

// cellNode is a cell as YAML: a scalar, or {formula: =..., value: ...}.
func cellNode(c Cell) *yaml.Node {
	v := valueNode(c)
	if c.Formula == "" {
		return v
	}
	n := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: []*yaml.Node{str("formula"), str(c.Formula)}}
	if c.Kind != Blank {
		n.Content = append(n.Content, str("value"), v)
	}
	return n
}

func valueNode(c Cell) *yaml.Node {
	switch c.Kind {
	case Number:
		tag := "!!float"
		if _, err := strconv.ParseInt(c.Value, 10, 64); err == nil {
			tag = "!!int"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: c.Value}
	case Text:
		return str(c.Value)
	case Bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: c.Value}
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
}

func str(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if yaml11Other(s) {
		n.Style = yaml.SingleQuotedStyle
	}
	return n
}

// yaml11Other reports whether a text, which YAML 1.2 reads bare as text,
// is something else to a YAML 1.1 reader (PyYAML, many tools): a boolean
// (yes, No, on, OFF, y), a number in base 60 (12:30) or in binary (0b101).
// Such a text is written quoted, so that the model reads the same in
// either.
func yaml11Other(s string) bool {
	switch strings.ToLower(s) {
	case "y", "yes", "n", "no", "on", "off":
		return true
	}
	return yaml11Number.MatchString(s)
}

// yaml11Number matches YAML 1.1's sexagesimal and binary numbers.
var yaml11Number = regexp.MustCompile(`^[-+]?(?:[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?|0b[01_]+)$`)

// Parse reads a model's text, as WriteText writes it. name names the file
// in problems. It reports every problem it finds, each located by line and
// column, as Problems.
func Parse(name string, data []byte) (*Model, error) {
	p := &parser{file: name}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		p.syntax(err)
		return nil, p.problems
	}
	// Every further document must be empty (a trailing --- alone): one
	// with content would be dropped without a word.
	for {
		var more yaml.Node
		err := dec.Decode(&more)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			p.syntax(err)
			return nil, p.problems
		}
		if !emptyDocument(&more) {
			at := &more
			if len(more.Content) > 0 {
				at = more.Content[0]
			}
			p.add(at, "a second YAML document (after ---); expected the model as one document, as websim export writes")
			return nil, p.problems
		}
	}
	m := &Model{Source: name}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		p.add(nil, "the file is empty; expected a key per workbook (SvcData.xlsx:, ProcData.xlsx:), as websim export writes")
		return nil, p.problems
	}
	root := resolve(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		p.add(root, "expected a key per workbook (SvcData.xlsx:, ProcData.xlsx:), as websim export writes")
		return nil, p.problems
	}
	seenBook := map[string]*yaml.Node{}
	var books []*yaml.Node // the keys of the workbooks read, in order
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], resolve(root.Content[i+1])
		bookName, ok := p.name(k, "workbook")
		if !ok {
			continue
		}
		switch {
		case !strings.HasSuffix(strings.ToLower(bookName), ".xlsx") || strings.ContainsAny(bookName, `/\:`) || strings.HasPrefix(bookName, "."):
			p.add(k, "workbook %q: expected a workbook's file name, such as SvcData.xlsx or ProcData.xlsx", bookName)
			continue
		case seenBook[strings.ToLower(bookName)] != nil:
			p.add(k, "workbook %q again (first at line %d); expected each workbook once", bookName, seenBook[strings.ToLower(bookName)].Line)
			continue
		}
		seenBook[strings.ToLower(bookName)] = k
		books = append(books, k)
		if b := p.book(bookName, v); b != nil {
			m.Books = append(m.Books, b)
		}
	}
	if len(seenBook) == 0 && len(p.problems) == 0 {
		p.add(root, "no workbook; expected a key per workbook (SvcData.xlsx:, ProcData.xlsx:)")
	}
	if len(books) > 1 {
		// A model is its two workbooks (export reads no other from a
		// folder); one workbook alone is the text of that workbook.
		for _, k := range books {
			if !strings.EqualFold(k.Value, SvcData) && !strings.EqualFold(k.Value, ProcData) {
				p.add(k, "workbook %q beside another: a model's text holds %s and %s, which export reads from a folder, and no other (one workbook alone is the text of that workbook); expected this workbook in a text of its own", k.Value, SvcData, ProcData)
			}
		}
	}
	if len(p.problems) > 0 {
		return nil, p.problems
	}
	return m, nil
}

// parser gathers the problems of one text.
type parser struct {
	file     string
	problems Problems
	seen     map[Problem]bool // the problems added, each once
}

// add records a problem at node n, once: an alias (*a) reaches the node
// it names again, which is one mistake, at one place.
func (p *parser) add(n *yaml.Node, format string, args ...any) {
	pr := &Problem{File: p.file, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		pr.Line, pr.Column = n.Line, n.Column
	}
	if p.seen[*pr] {
		return
	}
	if p.seen == nil {
		p.seen = map[Problem]bool{}
	}
	p.seen[*pr] = true
	p.problems = append(p.problems, pr)
}

var syntaxLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parserErrors begin the messages of yaml's parser, whose line numbers
// count from 0 (its scanner's count from 1).
var parserErrors = []string{
	"did not find expected <", "did not find expected node content", "did not find expected key",
	"did not find expected '-' indicator", "did not find expected ','", "found undefined tag handle",
	"found duplicate %", "found incompatible YAML document",
}

// syntax reports a YAML syntax error, located by its line.
func (p *parser) syntax(err error) {
	for _, msg := range strings.Split(err.Error(), "\n") {
		msg = strings.TrimSpace(strings.TrimPrefix(msg, "yaml: unmarshal errors:"))
		if msg == "" {
			continue
		}
		pr := &Problem{File: p.file, Msg: msg + "; expected YAML as websim export writes it"}
		if m := syntaxLine.FindStringSubmatch(msg); m != nil {
			pr.Line, _ = strconv.Atoi(m[1])
			pr.Msg = m[2] + "; expected YAML as websim export writes it"
			// yaml reports a parser's (not a scanner's) line from 0.
			for _, prefix := range parserErrors {
				if strings.HasPrefix(m[2], prefix) {
					pr.Line++
					break
				}
			}
		}
		p.problems = append(p.problems, pr)
	}
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// name reads a key naming a workbook or a sheet: text, not blank.
func (p *parser) name(k *yaml.Node, what string) (string, bool) {
	k = resolve(k)
	if k.Kind != yaml.ScalarNode || k.Tag == "!!null" || strings.TrimSpace(k.Value) == "" {
		p.add(k, "expected a %s's name", what)
		return "", false
	}
	return k.Value, true
}

// book reads one workbook: a map from sheet name to sheet.
func (p *parser) book(name string, v *yaml.Node) *Book {
	if v.Kind != yaml.MappingNode || len(v.Content) == 0 {
		p.add(v, "workbook %s: expected a key per sheet (Settings:, ...), each a list of rows; a workbook has at least one sheet", name)
		return nil
	}
	b := &Book{Name: name}
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, sv := v.Content[i], resolve(v.Content[i+1])
		sheet, ok := p.name(k, "sheet")
		if !ok {
			continue
		}
		if msg := badSheetName(sheet); msg != "" {
			p.add(k, "sheet %q: %s", sheet, msg)
			continue
		}
		if first := seen[strings.ToLower(sheet)]; first != nil {
			p.add(k, "sheet %q again (first at line %d); expected each sheet once (Excel ignores case in sheet names)", sheet, first.Line)
			continue
		}
		seen[strings.ToLower(sheet)] = k
		if s := p.sheet(sheet, sv); s != nil {
			b.Sheets = append(b.Sheets, s)
		}
	}
	return b
}

// badSheetName says why Excel would refuse name as a sheet's name.
func badSheetName(name string) string {
	switch {
	case len(utf16.Encode([]rune(name))) > 31:
		return "the name is longer than Excel allows; expected at most 31 characters"
	case strings.HasPrefix(name, "'") || strings.HasSuffix(name, "'"):
		return "Excel refuses a sheet name that starts or ends with '; expected a name without"
	case strings.ContainsAny(name, `:\/?*[]`):
		return `Excel refuses the characters : \ / ? * [ ] in a sheet name; expected a name without them`
	}
	return ""
}

// sheet reads one sheet: a list whose first item is the header row.
func (p *parser) sheet(name string, v *yaml.Node) *Sheet {
	s := &Sheet{Name: name, HeaderRow: 1}
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return s
	}
	if v.Kind != yaml.SequenceNode {
		p.add(v, "sheet %s: expected a list: the header row first ([Name, Value]), then a map per row", name)
		return nil
	}
	if len(v.Content) == 0 {
		return s
	}
	h := resolve(v.Content[0])
	if h.Kind != yaml.SequenceNode {
		p.add(h, "sheet %s: expected the header row first, a list of the column headers such as [Name, Value]", name)
		return nil
	}
	if n := len(h.Content); n > maxColumns {
		p.add(h, "sheet %s: %d columns, more than Excel's %d; expected at most %d", name, n, maxColumns, maxColumns)
		return nil
	}
	if n := len(v.Content); n > maxRows {
		p.add(v.Content[maxRows], "sheet %s: %d rows, more than Excel's %d; expected at most %d, the header row included", name, n, maxRows, maxRows)
		return nil
	}
	for _, hc := range h.Content {
		c, ok := p.cell(resolve(hc))
		if ok && c.Kind == Text && len(c.Value) == 0 {
			c = Cell{}
		}
		s.Header = append(s.Header, c)
	}
	keys := s.columnKeys(len(s.Header))
	index := map[string]int{}
	for i, k := range keys {
		index[k] = i
	}
	for _, rn := range v.Content[1:] {
		rn = resolve(rn)
		if rn.Kind != yaml.MappingNode {
			p.add(rn, "sheet %s: expected a row, a map from header to cell such as {Name: Seed, Value: 1} ({} for a blank row)", name)
			continue
		}
		var row []Cell
		seen := map[string]bool{}
		for i := 0; i+1 < len(rn.Content); i += 2 {
			k, cv := resolve(rn.Content[i]), resolve(rn.Content[i+1])
			if k.Kind != yaml.ScalarNode {
				p.add(k, "sheet %s: expected a column's header as the key", name)
				continue
			}
			col, ok := index[k.Value]
			if tag := k.ShortTag(); !ok && (tag == "!!int" || tag == "!!float") {
				// A key that YAML reads as a number (1e3) names the header
				// that the same text in the header row became (1000).
				var f float64
				if k.Decode(&f) == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
					col, ok = index[Cell{Kind: Number, Value: FormatNumber(f)}.key()]
				}
			}
			if !ok && isColumnRef(k.Value) {
				if n, err := columnNumber(k.Value[1 : len(k.Value)-1]); err == nil && (n >= len(keys) || keys[n] == k.Value) {
					col, ok = n, true
				}
			}
			if !ok {
				p.add(k, "sheet %s: unknown column %q; expected a header of the sheet's first row (%s) or a column letter such as (%s)",
					name, k.Value, strings.Join(keys, ", "), colName(len(keys)))
				continue
			}
			if seen[k.Value] {
				p.add(k, "sheet %s: column %q again in this row; expected each column once", name, k.Value)
				continue
			}
			seen[k.Value] = true
			c, ok := p.cell(cv)
			if !ok {
				continue
			}
			for len(row) <= col {
				row = append(row, Cell{})
			}
			row[col] = c
		}
		s.Rows = append(s.Rows, row)
	}
	s.trim()
	return s
}

// emptyDocument reports whether a YAML document holds nothing (a trailing
// --- alone, or one with only a null).
func emptyDocument(n *yaml.Node) bool {
	if len(n.Content) == 0 {
		return true
	}
	c := n.Content[0]
	return len(n.Content) == 1 && c.Kind == yaml.ScalarNode && c.ShortTag() == "!!null"
}

// unstorable reports whether r is a character an Excel cell cannot hold:
// a control character other than tab, line feed and carriage return
// (the workbook would get U+FFFD in its place).
func unstorable(r rune) bool {
	return (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0xFFFE || r == 0xFFFF
}

// maxColumns and maxRows are the most columns and rows of an Excel sheet.
const (
	maxColumns = 16384
	maxRows    = 1_048_576
)

// columnNumber is the 0-based number of the column letters name ("C": 2).
func columnNumber(name string) (int, error) {
	n := 0
	for _, r := range name {
		n = n*26 + int(r-'A') + 1
		if n > maxColumns {
			return 0, fmt.Errorf("column %s is past Excel's last column XFD", name)
		}
	}
	return n - 1, nil
}

// cell reads a cell: a number, a text, true/false, null (blank), or a
// formula {formula: =..., value: ...}.
func (p *parser) cell(n *yaml.Node) (Cell, bool) {
	switch n.Kind {
	case yaml.ScalarNode:
		return p.value(n)
	case yaml.MappingNode:
	default:
		p.add(n, "expected a cell: a number, a text, true or false, or a formula {formula: =A1*2, value: 4}")
		return Cell{}, false
	}
	var c Cell
	var sawFormula, sawValue bool
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), resolve(n.Content[i+1])
		switch k.Value {
		case "formula":
			if sawFormula {
				p.add(k, "formula again; expected one formula per cell")
				return Cell{}, false
			}
			sawFormula = true
			if v.Kind != yaml.ScalarNode || !strings.HasPrefix(v.Value, "=") || len(strings.TrimSpace(v.Value)) < 2 {
				p.add(v, "expected a formula starting with =, such as =1+2")
				return Cell{}, false
			}
			c.Formula = v.Value
		case "value":
			if sawValue {
				p.add(k, "value again; expected one saved value per formula")
				return Cell{}, false
			}
			sawValue = true
			if v.Kind != yaml.ScalarNode {
				p.add(v, "expected the formula's saved value: a number, a text or true/false")
				return Cell{}, false
			}
			val, ok := p.value(v)
			if !ok {
				return Cell{}, false
			}
			c.Kind, c.Value = val.Kind, val.Value
		default:
			p.add(k, "unknown key %q in a cell; expected formula: and value: ({formula: =A1*2, value: 4})", k.Value)
			return Cell{}, false
		}
	}
	if !sawFormula {
		p.add(n, "a cell map without formula:; expected {formula: =A1*2, value: 4}, or a plain value")
		return Cell{}, false
	}
	return c, true
}

// value reads a scalar cell value.
func (p *parser) value(n *yaml.Node) (Cell, bool) {
	switch n.ShortTag() {
	case "!!null":
		return Cell{}, true
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			p.add(n, "%q is not true or false", n.Value)
			return Cell{}, false
		}
		return Cell{Kind: Bool, Value: strconv.FormatBool(b)}, true
	case "!!int", "!!float":
		var f float64
		if err := n.Decode(&f); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			p.add(n, "%q is not a number Excel holds; expected a finite number", n.Value)
			return Cell{}, false
		}
		return Cell{Kind: Number, Value: FormatNumber(f)}, true
	case "!!timestamp":
		// A date typed by hand: Excel's text of it.
		return Cell{Kind: Text, Value: n.Value}, true
	case "!!str":
		if len(utf16.Encode([]rune(n.Value))) > maxCellChars {
			p.add(n, "the text is longer than a cell holds; expected at most %d characters", maxCellChars)
			return Cell{}, false
		}
		if n.Value == "" {
			return Cell{}, true
		}
		if i := strings.IndexFunc(n.Value, unstorable); i >= 0 {
			p.add(n, "the text holds the control character U+%04X at character %d, which a cell cannot hold; expected text without it (tabs and line breaks may stay)", []rune(n.Value[i:])[0], utf8.RuneCountInString(n.Value[:i])+1)
			return Cell{}, false
		}
		return Cell{Kind: Text, Value: n.Value}, true
	}
	p.add(n, "a value tagged %s; expected a number, a text, true or false", n.Tag)
	return Cell{}, false
}
