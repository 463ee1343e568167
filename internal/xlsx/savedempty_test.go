package xlsx

import (
	"path/filepath"
	"strings"
	"testing"
)

// A formula whose saved value is an empty text (as Excel and LibreOffice
// save =IF(TODAY()>1,"","late") when it gave "") is read as that value,
// not computed again: refused as volatile, a workbook saved by Excel
// itself would be refused. Without a saved value it is refused.
func TestSavedEmptyTextIsNotComputed(t *testing.T) {
	dir := t.TempDir()
	b := New()
	b.SetRow("Sheet1", 1, "Name", "Value")
	b.SetRow("Sheet1", 2, "X", Formula(`=IF(TODAY()>1,"","old")`))
	b.SetRow("Sheet1", 3, "Y", Formula(`=RAND()`))
	unsaved := filepath.Join(dir, "unsaved.xlsx")
	must(t, b.Save(unsaved))
	saved := filepath.Join(dir, "saved.xlsx")
	editZip(t, unsaved, saved, "xl/worksheets/sheet1.xml", func(s string) string {
		// As LibreOffice writes it.
		return strings.Replace(s, `<c r="B2" t="str"><f>IF(TODAY()&gt;1,&#34;&#34;,&#34;old&#34;)</f>`,
			`<c r="B2" s="0" t="str"><f aca="true">IF(TODAY()&gt;1,&quot;&quot;,&quot;old&quot;)</f><v></v>`, 1)
	})
	for path, want := range map[string][]string{
		unsaved: {"B2", "B3"},
		saved:   {"B3"},
	} {
		bk, err := Open(path)
		must(t, err)
		tab, ps := bk.ReadTable("Sheet1", Spec{Columns: []string{"Name", "Value"}})
		var got []string
		for _, p := range ps {
			got = append(got, p.Cell)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: problems at %q, want at %q: %v", filepath.Base(path), got, want, ps)
		}
		if path == saved && tab.Get(tab.Rows[0], "Value").Text != "" {
			t.Errorf("%s: B2 reads %q, want the saved empty text", filepath.Base(path), tab.Get(tab.Rows[0], "Value").Text)
		}
		bk.Close()
	}
}
