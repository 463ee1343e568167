package xlsx

import (
	"archive/zip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReplacedChartsLeaveNoParts replaces a sheet with a chart again and
// again, as each --write-back does: the package keeps the user's chart
// and the newest one only, and does not grow.
func TestReplacedChartsLeaveNoParts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "book.xlsx")
	chart := func(sheet string) Chart {
		return Chart{Kind: LineChart, Title: sheet, Series: []Series{{Name: "s", Categories: QuoteSheet(sheet) + "!$A$1:$A$3", Values: QuoteSheet(sheet) + "!$B$1:$B$3"}}}
	}
	b := New()
	must(t, b.RenameSheet("Sheet1", "Mine"))
	must(t, b.SetRow("Mine", 1, 1, 2))
	must(t, b.AddChart("Mine", "D2", chart("Mine")))
	must(t, b.Save(path))
	b.Close()
	var sizes []int64
	for run := range 4 {
		b, err := Open(path)
		must(t, err)
		if run > 0 {
			must(t, b.DeleteSheet("Results"))
		}
		must(t, b.NewSheet("Results"))
		must(t, b.SetRow("Results", 1, 1, 2))
		must(t, b.AddChart("Results", "D2", chart("Results")))
		must(t, b.AddChart("Results", "D20", chart("Results")))
		must(t, b.Save(path))
		b.Close()
		fi, err := os.Stat(path)
		must(t, err)
		sizes = append(sizes, fi.Size())
	}
	zr, err := zip.OpenReader(path)
	must(t, err)
	defer zr.Close()
	var charts []string
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "xl/charts/chart") {
			charts = append(charts, f.Name)
		}
	}
	if len(charts) != 3 {
		t.Errorf("chart parts %v, want the user's and the two newest", charts)
	}
	// The content types name the parts there are, no more: the library
	// leaves those of the parts it deletes.
	for _, f := range zr.File {
		if f.Name != "[Content_Types].xml" {
			continue
		}
		data, err := readPart(f)
		must(t, err)
		var named []string
		for _, m := range overrideTag.FindAllSubmatch(data, -1) {
			if part := strings.TrimPrefix(string(m[1]), "/"); strings.HasPrefix(part, "xl/charts/") {
				named = append(named, part)
			}
		}
		slices.Sort(named)
		slices.Sort(charts)
		if !slices.Equal(named, charts) {
			t.Errorf("content types of charts %v, parts %v", named, charts)
		}
	}
	if d := sizes[3] - sizes[1]; d > 200 || d < -200 {
		t.Errorf("sizes %v: the file grows with each replacement", sizes)
	}
	b, err = Open(path)
	must(t, err)
	defer b.Close()
	if got := b.Sheets(); !slices.Equal(got, []string{"Mine", "Results"}) {
		t.Errorf("sheets %v", got)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
