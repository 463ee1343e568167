package fit

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The Fit workbook holds the ranking as printed, the charts' numbers, and
// two charts; it is written through a temporary file, so nothing but the
// workbook is left in the folder.
func TestWriteWorkbook(t *testing.T) {
	d, err := Read("testdata/response.csv", "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Distributions(d.Values, Options{Seed: 1, Replicates: 19})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "Fit.xlsx")
	if err := WriteWorkbook(path, d, res); err != nil {
		t.Fatal(err)
	}
	rows, err := readSheet(path, FitSheet)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rows[7], "|"); got != "Rank|Distribution|AIC|ΔAIC|KS distance|p-value" {
		t.Errorf("header row %q", got)
	}
	for i, f := range res.Fits {
		if rows[8+i][1] != f.Cell {
			t.Errorf("row %d: %q, want %q", 9+i, rows[8+i][1], f.Cell)
		}
	}
	data, err := readSheet(path, FitDataSheet)
	if err != nil {
		t.Fatal(err)
	}
	if data[0][3] != "Measured density" || data[0][4] != res.Fits[0].Cell || data[0][9] != "Measured quantile" {
		t.Errorf("FitData header %q", data[0])
	}
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	charts := 0
	for _, f := range z.File {
		if strings.HasPrefix(f.Name, "xl/charts/chart") {
			charts++
		}
	}
	if charts != 2 {
		t.Errorf("%d charts, want 2 (histogram with densities, Q-Q plot)", charts)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the folder holds %d files, want only Fit.xlsx", len(entries))
	}
}

// The histogram's densities integrate to the share of values it shows.
func TestHistogramIsADensity(t *testing.T) {
	xs := draw(t, "LogNormal(23.1,8.4)", 5000, 3)
	res, err := Distributions(xs, Options{Replicates: -1})
	if err != nil {
		t.Fatal(err)
	}
	h := NewHistogram(res.Values)
	area := 0.0
	for i := range h.Counts {
		area += h.Density(i) * h.Width
	}
	if want := 1 - float64(h.Above)/float64(h.N); area < want-1e-9 || area > want+1e-9 {
		t.Errorf("area %v, want %v", area, want)
	}
	if len(h.Counts) < 10 || len(h.Counts) > 50 || h.Above > h.N/100 {
		t.Errorf("%d bins, %d values above", len(h.Counts), h.Above)
	}
}
