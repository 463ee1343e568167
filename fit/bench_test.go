package fit

import (
	"bufio"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/websim/websim/engine/dist"
	"github.com/websim/websim/internal/xlsx"
)

// bigCSV writes n LogNormal(23.1,8.4) response times, to the microsecond
// as a monitoring export prints them ("23.114"), under a header.
func bigCSV(b *testing.B, n int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "big.csv")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString("response_ms\n")
	d := dist.MustParse("LogNormal(23.1,8.4)")
	r := rand.New(rand.NewPCG(1, 1))
	var buf []byte
	for range n {
		buf = strconv.AppendFloat(buf[:0], d.Sample(r), 'f', 3, 64)
		buf = append(buf, '\n')
		w.Write(buf)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return path
}

// Reading and fitting 10^7 values: go test -bench . -benchtime 3x ./fit
// (memory: the values, 80 MB, and the reader's line buffer).
func BenchmarkReadAndFit10M(b *testing.B) {
	path := bigCSV(b, 10_000_000)
	b.ReportAllocs()
	for b.Loop() {
		d, err := ReadCSVFile(path, "")
		if err != nil {
			b.Fatal(err)
		}
		res, err := Distributions(d.Values, Options{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		if res.Fits[0].Family != "LogNormal" {
			b.Fatalf("best %s", res.Fits[0].Cell)
		}
	}
}

// BenchmarkRead10M is the reading alone.
func BenchmarkRead10M(b *testing.B) {
	path := bigCSV(b, 10_000_000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadCSVFile(path, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadWorkbook1M reads a column of 10^6 times from a sheet (a
// monitoring export saved as .xlsx, 10^6 rows), the way `websim fit
// Book.xlsx!Sheet!Column` does: the sheet is streamed, never held whole
// (B/op is what the reading allocates in all; the values are 8 MB).
func BenchmarkReadWorkbook1M(b *testing.B) {
	const n = 1_000_000
	path := filepath.Join(b.TempDir(), "big.xlsx")
	d := dist.MustParse("LogNormal(23.1,8.4)")
	r := rand.New(rand.NewPCG(1, 1))
	values := make([]float64, n)
	for i := range values {
		values[i] = math.Round(d.Sample(r)*1000) / 1000
	}
	book := xlsx.New()
	err := book.WriteTable("Sheet1", xlsx.Table{
		Columns: []xlsx.Column{{Header: "response_ms", Format: xlsx.Number}},
		RowFunc: func(i int) []any { return []any{values[i]} },
		NumRows: n,
	})
	if err == nil {
		err = book.Save(path)
	}
	book.Close()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		got, err := Read(path+"!Sheet1!response_ms", "")
		if err != nil {
			b.Fatal(err)
		}
		if len(got.Values) != n {
			b.Fatalf("read %d values of %d", len(got.Values), n)
		}
	}
}
