package lb

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/websim/websim/internal/xlsx"
)

// TestResultsWorkbookGolden dumps the result sheets of an overloaded run
// (the sample at 200 requests/s): every cell with its number format, the
// frozen panes, and the overload said in words.
func TestResultsWorkbookGolden(t *testing.T) {
	p := Sample()
	p.RequestsPerSec, p.Requests = 200, 3000
	r, err := Run(p, 1)
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewResultsWorkbook(r)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "results.xlsx")
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	f.Close()
	b, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if got := b.ActiveSheet(); got != SummarySheet {
		t.Errorf("the workbook opens on %s, want %s", got, SummarySheet)
	}
	var out strings.Builder
	for _, sh := range []string{SummarySheet, PerServerSheet, ChartSheet} {
		rows, _ := b.FrozenRows(sh)
		cols, _ := b.FrozenColumns(sh)
		fmt.Fprintf(&out, "== %s: frozen %d rows, %d columns\n", sh, rows, cols)
		all, err := b.Rows(sh)
		if err != nil {
			t.Fatal(err)
		}
		for i, row := range all {
			var cells []string
			for j, v := range row {
				l, _ := b.LookOf(sh, xlsx.CellName(j, i+1))
				c := v
				switch {
				case l.NumFormat != "":
					c += " [" + l.NumFormat + "]"
				case l.Fill == "FFC7CE":
					c += " [warning]"
				}
				cells = append(cells, c)
			}
			fmt.Fprintf(&out, "%d: %s\n", i+1, strings.Join(cells, " | "))
		}
	}
	got := out.String()
	golden(t, "results_overloaded.txt", []byte(got))
	if !strings.Contains(got, "OVERLOADED: type dma offers 2.35 times") || !strings.Contains(got, "[warning]") {
		t.Errorf("the overload is not said in LBSummary")
	}
	if strings.Contains(got, "E-0") {
		t.Errorf("a raw number in scientific notation")
	}
}
