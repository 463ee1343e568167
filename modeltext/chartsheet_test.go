package modeltext_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/xuri/excelize/v2"
)

// A chart sheet (a chart on a tab of its own, which an analyst adds to
// SvcData.xlsx) holds no cells: the text leaves it out, as it leaves out
// every chart, and the workbook's sheets export as they do without it.
func TestExportLeavesOutAChartSheet(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"SvcData.xlsx", "ProcData.xlsx"} {
		data, err := os.ReadFile(filepath.Join("..", "templates", "mmc", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := export(t, dir)
	path := filepath.Join(dir, "SvcData.xlsx")
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.AddChartSheet("MyChart", &excelize.Chart{Type: excelize.Line, Series: []excelize.ChartSeries{{Name: "Settings!$A$3", Values: "Settings!$B$3:$B$4"}}}); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if got := export(t, dir); string(got) != string(want) {
		t.Errorf("with a chart sheet, the text is\n%s\nwant\n%s", got, want)
	}
}
