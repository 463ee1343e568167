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

// TestCommentsNumberedWithGaps: a package whose comments are numbered
// with gaps, as LibreOffice saves them (by sheet), opens with them
// numbered 1, 2, ... (each VML drawing with its comments), so that a new
// sheet's comments go to a free part: before, the library wrote them into
// another sheet's part and failed ("comment already exist").
func TestCommentsNumberedWithGaps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "book.xlsx")
	b := New()
	must(t, b.RenameSheet("Sheet1", "A"))
	for _, s := range []string{"B", "C"} {
		must(t, b.NewSheet(s))
	}
	for _, s := range []string{"A", "B", "C"} {
		must(t, b.WriteTable(s, Table{Columns: []Column{{Header: "x", Comment: "note of " + s}}}))
	}
	must(t, b.Save(path))
	b.Close()
	// Number C's comments and VML drawing 4, as if its sheet were the
	// fourth: three comments parts, and the library's next name, 4, taken.
	gapped := filepath.Join(dir, "gapped.xlsx")
	rewriteZip(t, path, gapped, map[string]string{"xl/comments3.xml": "xl/comments4.xml", "xl/drawings/vmlDrawing3.vml": "xl/drawings/vmlDrawing4.vml"})
	for run := range 2 {
		b, err := Open(gapped)
		must(t, err)
		if run > 0 {
			must(t, b.DeleteSheet("New"))
		}
		must(t, b.NewSheet("New"))
		must(t, b.WriteTable("New", Table{Columns: []Column{{Header: "y", Comment: "note of New"}, {Header: "z", Comment: "second"}}}))
		must(t, b.Save(gapped))
		b.Close()
	}
	b, err := Open(gapped)
	must(t, err)
	defer b.Close()
	for _, s := range []string{"A", "B", "C", "New"} {
		cs, err := b.f.GetComments(s)
		must(t, err)
		want := "note of " + s
		text := ""
		if len(cs) > 0 {
			text = cs[0].Text
			for _, p := range cs[0].Paragraph {
				text += p.Text
			}
		}
		if !strings.Contains(text, want) || (s == "New") != (len(cs) == 2) {
			t.Errorf("sheet %s: comments %+v, want %q", s, cs, want)
		}
	}
}

// rewriteZip copies the package at from to to with parts renamed, and the
// references to them in relationships and content types.
func rewriteZip(t *testing.T, from, to string, rename map[string]string) {
	t.Helper()
	zr, err := zip.OpenReader(from)
	must(t, err)
	defer zr.Close()
	out, err := os.Create(to)
	must(t, err)
	zw := zip.NewWriter(out)
	for _, f := range zr.File {
		b, err := readPart(f)
		must(t, err)
		name := f.Name
		if n, ok := rename[name]; ok {
			name = n
		}
		text := string(b)
		if strings.HasSuffix(f.Name, ".rels") || f.Name == "[Content_Types].xml" {
			for old, n := range rename {
				text = strings.ReplaceAll(text, strings.TrimPrefix(old, "xl/"), strings.TrimPrefix(n, "xl/"))
			}
		}
		w, err := zw.Create(name)
		must(t, err)
		_, err = w.Write([]byte(text))
		must(t, err)
	}
	must(t, zw.Close())
	must(t, out.Close())
}
