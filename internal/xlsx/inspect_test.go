package xlsx

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// A number format the workbook defines is the one a cell shows, whatever
// its id: other producers number their own formats below Excel's 164
// (one from 60), and some reuse the id of a built-in format, so a
// plain number is no date for a <numFmt numFmtId="14"> of "0.00", and a
// "yyyy-mm-dd" or a "0.0%" numbered 60 or 70 is a date or a percentage.
// An id the workbook leaves undefined is Excel's built-in format.
func TestNumberFormatsTheWorkbookDefines(t *testing.T) {
	for _, c := range []struct {
		name string
		defs string // the workbook's <numFmt> elements
		id   int    // the numFmtId of A1's style
		// look is the format LookOf gives, "" for a built-in
		look          string
		date, percent bool
	}{
		{"60 defined as a number", `<numFmt numFmtId="60" formatCode="0.0000000000000"/>`, 60, "0.0000000000000", false, false},
		{"14 defined as a number", `<numFmt numFmtId="14" formatCode="0.00"/>`, 14, "0.00", false, false},
		{"22 defined as a number", `<numFmt numFmtId="22" formatCode="#,##0"/>`, 22, "#,##0", false, false},
		{"46 defined as a number", `<numFmt numFmtId="46" formatCode="0.000"/>`, 46, "0.000", false, false},
		{"60 defined as a date", `<numFmt numFmtId="60" formatCode="yyyy-mm-dd"/>`, 60, "yyyy-mm-dd", true, false},
		{"61 defined as a time", `<numFmt numFmtId="61" formatCode="[h]:mm:ss"/>`, 61, "[h]:mm:ss", true, false},
		{"70 defined as a percentage", `<numFmt numFmtId="70" formatCode="0.0%"/>`, 70, "0.0%", false, true},
		{"14 defined as a percentage", `<numFmt numFmtId="14" formatCode="0.00%"/>`, 14, "0.00%", false, true},
		{"10 defined as a number", `<numFmt numFmtId="10" formatCode="0.00"/>`, 10, "0.00", false, false},
		{"built-in 14", "", 14, "", true, false},
		{"built-in 14, another id defined", `<numFmt numFmtId="60" formatCode="0.00"/>`, 14, "", true, false},
		{"built-in 47", "", 47, "", true, false},
		{"built-in 10", "", 10, "", false, true},
		{"built-in 9, another id defined", `<numFmt numFmtId="70" formatCode="0.0"/>`, 9, "", false, true},
		{"built-in 2", "", 2, "", false, false},
		{"60 undefined", "", 60, "", false, false},
		{"164, a date", `<numFmt numFmtId="164" formatCode="d mmm yyyy"/>`, 164, "d mmm yyyy", true, false},
		{"164, a number", `<numFmt numFmtId="164" formatCode="#,##0.000"/>`, 164, "#,##0.000", false, false},
		{"165, a percentage", `<numFmt numFmtId="165" formatCode="0.000%"/>`, 165, "0.000%", false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := bookWithFormat(t, c.defs, c.id)
			if got := b.IsDate("Sheet1", "A1"); got != c.date {
				t.Errorf("IsDate = %v, want %v", got, c.date)
			}
			if got := b.HasDateFormats(); got != c.date {
				t.Errorf("HasDateFormats = %v, want %v", got, c.date)
			}
			if got := b.IsPercent("Sheet1", "A1"); got != c.percent {
				t.Errorf("IsPercent = %v, want %v", got, c.percent)
			}
			if l, err := b.LookOf("Sheet1", "A1"); err != nil || l.NumFormat != c.look {
				t.Errorf("LookOf: format %q (%v), want %q", l.NumFormat, err, c.look)
			}
			// The answers kept are the same.
			if b.IsDate("Sheet1", "A1") != c.date || b.IsPercent("Sheet1", "A1") != c.percent {
				t.Errorf("asked again, IsDate %v and IsPercent %v", b.IsDate("Sheet1", "A1"), b.IsPercent("Sheet1", "A1"))
			}
		})
	}
}

// bookWithFormat opens a workbook whose A1 holds 0.5 in a style of
// numFmtId id, its styles.xml holding the <numFmt> elements defs, as a
// producer other than Excel writes them.
func bookWithFormat(t *testing.T, defs string, id int) *Book {
	t.Helper()
	dir := t.TempDir()
	made, path := filepath.Join(dir, "made.xlsx"), filepath.Join(dir, "formats.xlsx")
	b := New()
	must(t, b.SetCell("Sheet1", "A1", 0.5))
	must(t, b.Save(made))
	edited := map[string]bool{}
	copyZip(t, made, path, func(name, text string) (string, string) {
		was := text
		switch name {
		case "xl/styles.xml":
			if defs != "" {
				text = strings.Replace(text, "<fonts ", fmt.Sprintf(`<numFmts count="%d">%s</numFmts><fonts `, strings.Count(defs, "<numFmt "), defs), 1)
			}
			text = strings.Replace(text, `<cellXfs count="1">`, `<cellXfs count="2">`, 1)
			text = strings.Replace(text, "</xf></cellXfs>", fmt.Sprintf(`</xf><xf numFmtId="%d" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>`, id), 1)
		case "xl/worksheets/sheet1.xml":
			text = strings.Replace(text, `<c r="A1">`, `<c r="A1" s="1">`, 1)
		default:
			return name, text
		}
		edited[name] = text != was
		return name, text
	})
	if !edited["xl/styles.xml"] || !edited["xl/worksheets/sheet1.xml"] {
		t.Fatalf("the made workbook is not as expected: edited %v", edited)
	}
	o, err := Open(path)
	must(t, err)
	t.Cleanup(func() { o.Close() })
	return o
}
