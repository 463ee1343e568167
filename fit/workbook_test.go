package fit

import (
	"archive/zip"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/websim/websim/internal/xlsx"
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
	path, rows := writeFitSheet(t, dir, d, res)
	if got := strings.Join(rows[fitHeaderRow-1], "|"); got != "Rank|Distribution|Mean|SD|Δmean|AIC|ΔAIC|KS distance|p-value" {
		t.Errorf("header row %q", got)
	}
	for i, f := range res.Fits {
		if rows[fitHeaderRow+i][1] != f.Cell {
			t.Errorf("row %d: %q, want %q", fitHeaderRow+1+i, rows[fitHeaderRow+i][1], f.Cell)
		}
	}
	if rows[6][0] != "Mean" || rows[7][0] != "SD" {
		t.Errorf("rows 7 and 8: %q, %q; want the data's Mean and SD", rows[6], rows[7])
	}
	data, err := readSheet(path, FitDataSheet)
	if err != nil {
		t.Fatal(err)
	}
	if data[0][3] != "Measured density" || data[0][4] != res.Fits[0].Cell || data[0][9] != "Measured quantile" || data[0][11] != "Line y = x: y" {
		t.Errorf("FitData header %q", data[0])
	}
	// FitData reads as a table: its header frozen, its numbers formatted;
	// a Not ranked reason wraps over C:F, clear of the histogram at K1.
	b, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if n, _ := b.FrozenRows(FitDataSheet); n != 1 {
		t.Errorf("FitData freezes %d rows, want 1", n)
	}
	if l, _ := b.LookOf(FitDataSheet, "D2"); l.NumFormat == "" {
		t.Errorf("FitData D2 (a density) in General format")
	}
	for i, r := range rows {
		if len(r) > 0 && r[0] == "Not ranked" {
			if l, _ := b.LookOf(FitSheet, fmt.Sprintf("C%d", i+1)); !l.Wrap {
				t.Errorf("Fit C%d, a Not ranked reason, does not wrap", i+1)
			}
		}
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

// A family left unranked says why in a cell that wraps over C:F, clear of
// the histogram at K1 (left to run on, the reason passed under it).
func TestNotRankedReasonWraps(t *testing.T) {
	// Exponential quantiles: Erlang's best whole k is 1, which is Exp.
	d := &Data{Source: "exp.csv", Column: "t"}
	for i := range 1000 {
		d.Values = append(d.Values, -40*math.Log(1-(float64(i)+0.5)/1000))
	}
	res, err := Distributions(d.Values, Options{Seed: 1, Replicates: 19})
	if err != nil {
		t.Fatal(err)
	}
	path, rows := writeFitSheet(t, t.TempDir(), d, res)
	b, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	found := false
	for i, r := range rows {
		if len(r) > 2 && r[0] == "Not ranked" {
			found = true
			if l, _ := b.LookOf(FitSheet, fmt.Sprintf("C%d", i+1)); !l.Wrap {
				t.Errorf("Fit C%d, the reason %q, does not wrap", i+1, r[2])
			}
			if h, _ := b.RowHeightOf(FitSheet, i+1); h < 15*float64((len([]rune(r[2]))+49)/50) {
				t.Errorf("Fit row %d is %v points tall for a reason of %d characters", i+1, h, len([]rune(r[2])))
			}
		}
	}
	if !found {
		t.Fatal("no family left unranked: the test needs one")
	}
}

// FitData's bin ends and quantiles take the decimals of the bins' width,
// and an exponent only where the times themselves are that short: times
// of 1 ± 2e-6 keep six decimals (1.00E+00 would show every end alike),
// times of about 5e-6 take one.
func TestFitDataFormatsNarrowTimes(t *testing.T) {
	for _, tc := range []struct {
		centre, sd float64
		format     string
	}{
		{1, 2e-6, "#,##0.000000"},
		{5e-6, 1e-6, "0.00E+00"},
	} {
		r := rand.New(rand.NewPCG(5, 1))
		xs := make([]float64, 3000)
		for i := range xs {
			xs[i] = tc.centre + tc.sd*r.NormFloat64()
		}
		res, err := Distributions(xs, Options{Replicates: -1})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "Fit.xlsx")
		if err := WriteWorkbook(path, &Data{Source: "x.csv", Column: "t", Values: xs}, res); err != nil {
			t.Fatal(err)
		}
		b, err := xlsx.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range []string{"A2", "I2"} {
			if l, _ := b.LookOf(FitDataSheet, ref); l.NumFormat != tc.format {
				t.Errorf("times about %g: FitData %s in %q, want %q", tc.centre, ref, l.NumFormat, tc.format)
			}
		}
		b.Close()
	}
}

// The Fit sheet holds the data's mean and sd, each fit's mean, sd and
// Δmean, and, when the best fit's mean is off the data's, the warning and
// the cell that keeps the mean below the best fit; none of it otherwise.
func TestFitSheetSaysTheMeanIsOff(t *testing.T) {
	for _, tc := range []struct {
		name string
		xs   []float64
		off  bool
	}{
		{"a mix", mixture(20_000, 0.7, 1), true},
		{"one shape", draw(t, "LogNormal(22.5,8.4)", 2000, 3), false},
	} {
		d := &Data{Source: "x.csv", Column: "t", Values: tc.xs}
		res, err := Distributions(tc.xs, Options{Replicates: -1})
		if err != nil {
			t.Fatal(err)
		}
		_, rows := writeFitSheet(t, t.TempDir(), d, res)
		near := func(text string, want float64) bool {
			v, err := strconv.ParseFloat(text, 64)
			return err == nil && math.Abs(v-want) <= 1e-9*math.Abs(want)
		}
		if !near(rows[6][1], res.Mean) || !near(rows[7][1], res.SD) {
			t.Errorf("%s: Mean and SD rows %q, %q; want %v, %v", tc.name, rows[6], rows[7], res.Mean, res.SD)
		}
		for i, f := range res.Fits {
			r := rows[fitHeaderRow+i]
			if !near(r[2], f.Mean) || !near(r[3], f.SD) || !near(r[4], f.MeanShift) {
				t.Errorf("%s: row %q; want mean %v, sd %v, Δmean %v", tc.name, r, f.Mean, f.SD, f.MeanShift)
			}
		}
		labels := map[string][]string{}
		for _, r := range rows {
			if len(r) > 1 {
				labels[r[0]] = r
			}
		}
		_, warned := labels["Mean off"]
		keeps, offered := labels["Keeps the mean"]
		if warned != tc.off || offered != tc.off || (tc.off && keeps[1] != res.KeepsMean.Cell) {
			t.Errorf("%s: Mean off row %v, Keeps the mean row %q; want them %v", tc.name, warned, keeps, tc.off)
		}
	}
}

// writeFitSheet writes the Fit workbook of d and res in dir and returns
// its path and the Fit sheet's rows.
func writeFitSheet(t *testing.T, dir string, d *Data, res *Result) (string, [][]string) {
	t.Helper()
	path := filepath.Join(dir, "Fit.xlsx")
	if err := WriteWorkbook(path, d, res); err != nil {
		t.Fatal(err)
	}
	rows, err := readSheet(path, FitSheet)
	if err != nil {
		t.Fatal(err)
	}
	return path, rows
}
