package xlsx

import (
	"archive/zip"
	"bytes"
	stdflate "compress/flate"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/klauspost/compress/flate"
)

// TestZipWriterReusesDeflaters writes parts one after another, and two
// packages at once, through newZipWriter, whose deflate writers come from
// a pool: every part reads back as written.
func TestZipWriterReusesDeflaters(t *testing.T) {
	parts := map[string]string{
		"a.xml": strings.Repeat("<row><c>1</c></row>", 5000),
		"b.xml": "<short/>",
		"c.xml": strings.Repeat("<row><c>text</c><c>2.5</c></row>", 3000),
	}
	names := []string{"a.xml", "b.xml", "c.xml"}
	var bufs [2]bytes.Buffer
	zws := [2]*zip.Writer{newZipWriter(&bufs[0]), newZipWriter(&bufs[1])}
	for _, name := range names {
		for k, zw := range zws {
			w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.WriteString(w, parts[name]+name); err != nil {
				t.Fatalf("package %d, %s: %v", k, name, err)
			}
		}
	}
	for k, zw := range zws {
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		zr, err := zip.NewReader(bytes.NewReader(bufs[k].Bytes()), int64(bufs[k].Len()))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			b, err := readPart(f)
			if err != nil {
				t.Fatalf("package %d, %s: %v", k, f.Name, err)
			}
			if want := parts[f.Name] + f.Name; string(b) != want {
				t.Errorf("package %d, %s: read %d bytes that differ from the %d written", k, f.Name, len(b), len(want))
			}
		}
	}
}

// BenchmarkDeflateLevel deflates the sheet of a table like a large study's
// Timeline (100,000 rows of run labels, counts and times with all their
// digits) with newZipWriter's deflate at deflateLevel (7) and at its level
// 5, and with the standard library's at levels 1, 5 (websim's before) and
// 6 (the zip package's default), and reports the deflated size
// (deflated-MB) beside the time (ns/op): the figures behind
// newZipWriter's choice.
func BenchmarkDeflateLevel(b *testing.B) {
	book := New()
	must(b, book.NewSheet("Timeline"))
	cols := []Column{{Header: "Scenario"}, {Header: "Load"}, {Header: "Stable"}, {Header: "Interval", Format: Count},
		{Header: "Start", Format: Time}, {Header: "End", Format: Time}, {Header: "Completed", Format: Count},
		{Header: "Mean response", Format: Time}, {Header: "In system", Format: Decimal2}, {Header: "Utilization", Format: Share},
		{Header: "Run"}, {Header: "Warm-up"}, {Header: "Share of the run", Format: Share}}
	r := rand.New(rand.NewPCG(1, 2))
	must(b, book.WriteTable("Timeline", Table{Columns: cols, NumRows: 100_000, RowFunc: func(i int) []any {
		run, k := i/50, float64(i%50+1)
		return []any{fmt.Sprintf("S%d", run/100+1), fmt.Sprintf("L%d", run%100+1), "yes", k, (k - 1) * 40.3, k * 40.3,
			float64(80 + r.IntN(40)), 1 + r.ExpFloat64(), 2 * r.Float64(), r.Float64(), fmt.Sprintf("S%d L%d", run/100+1, run%100+1), "", k / 50}
	}}))
	sheet := savedPart(b, book, "xl/worksheets/sheet2.xml")
	deflaters := []struct {
		name string
		new  func(io.Writer) (io.WriteCloser, error)
	}{
		{fmt.Sprintf("websim=%d", deflateLevel), func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, deflateLevel) }},
		{"websim=5", func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, 5) }},
		{"std=1", func(w io.Writer) (io.WriteCloser, error) { return stdflate.NewWriter(w, 1) }},
		{"std=5", func(w io.Writer) (io.WriteCloser, error) { return stdflate.NewWriter(w, 5) }},
		{"std=6", func(w io.Writer) (io.WriteCloser, error) { return stdflate.NewWriter(w, 6) }},
	}
	for _, d := range deflaters {
		b.Run(d.name, func(b *testing.B) {
			var out bytes.Buffer
			for b.Loop() {
				out.Reset()
				fw, err := d.new(&out)
				must(b, err)
				_, err = fw.Write(sheet)
				must(b, err)
				must(b, fw.Close())
			}
			b.ReportMetric(float64(out.Len())/1e6, "deflated-MB")
		})
	}
}
