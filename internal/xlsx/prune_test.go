package xlsx

import (
	"archive/zip"
	"os"
	"path/filepath"
	"regexp"
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

func must(t testing.TB, err error) {
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
	for name, rename := range map[string]map[string]string{
		// C's comments and VML drawing 4, as if its sheet were the fourth:
		// three comments parts, and the library's next name, 4, taken.
		"both": {"xl/comments3.xml": "xl/comments4.xml", "xl/drawings/vmlDrawing3.vml": "xl/drawings/vmlDrawing4.vml"},
		// As LibreOffice saves them: comments by sheet, VML drawings 1, 2, 3.
		"comments only": {"xl/comments3.xml": "xl/comments4.xml"},
	} {
		t.Run(name, func(t *testing.T) { commentsNumberedWithGaps(t, rename) })
	}
}

func commentsNumberedWithGaps(t *testing.T, rename map[string]string) {
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
	gapped := filepath.Join(dir, "gapped.xlsx")
	rewriteZip(t, path, gapped, rename)
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
	// Each sheet's VML drawing is numbered as its comments, as the library
	// takes them to be.
	zr, err := zip.OpenReader(gapped)
	must(t, err)
	defer zr.Close()
	num := regexp.MustCompile(`(comments|vmlDrawing)([0-9]+)\.`)
	for _, f := range zr.File {
		if !strings.HasPrefix(f.Name, "xl/worksheets/_rels/") {
			continue
		}
		b, err := readPart(f)
		must(t, err)
		got := map[string]string{}
		for _, m := range num.FindAllStringSubmatch(string(b), -1) {
			got[m[1]] = m[2]
		}
		if got["comments"] != got["vmlDrawing"] {
			t.Errorf("%s: comments %s shown by VML drawing %s", f.Name, got["comments"], got["vmlDrawing"])
		}
	}
}

// rewriteZip copies the package at from to to with parts renamed, and the
// references to them in relationships and content types.
func rewriteZip(t *testing.T, from, to string, rename map[string]string) {
	t.Helper()
	copyZip(t, from, to, func(name, text string) (string, string) {
		if strings.HasSuffix(name, ".rels") || name == "[Content_Types].xml" {
			for old, n := range rename {
				text = strings.ReplaceAll(text, strings.TrimPrefix(old, "xl/"), strings.TrimPrefix(n, "xl/"))
			}
		}
		if n, ok := rename[name]; ok {
			name = n
		}
		return name, text
	})
}

// copyZip copies the package at from to to, each part's name and text as
// edit returns them.
func copyZip(t *testing.T, from, to string, edit func(name, text string) (string, string)) {
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
		name, text := edit(f.Name, string(b))
		w, err := zw.Create(name)
		must(t, err)
		_, err = w.Write([]byte(text))
		must(t, err)
	}
	must(t, zw.Close())
	must(t, out.Close())
}

// A package whose relationships this cannot read whole (a declared
// encoding other than UTF-8, or a target spelt in another case than its
// part) is left as it is: dropping or renaming what such a part names
// would send a sheet to another sheet's comments.
func TestPruneLeavesWhatItCannotReadAlone(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "book.xlsx")
	b := New()
	must(t, b.RenameSheet("Sheet1", "A"))
	must(t, b.NewSheet("B"))
	must(t, b.NewSheet("C"))
	for _, s := range []string{"A", "B", "C"} {
		must(t, b.WriteTable(s, Table{Columns: []Column{{Header: "x", Comment: "note of " + s}}}))
	}
	must(t, b.Save(path))
	b.Close()
	gapped := filepath.Join(dir, "gapped.xlsx")
	rewriteZip(t, path, gapped, map[string]string{"xl/comments3.xml": "xl/comments4.xml", "xl/drawings/vmlDrawing3.vml": "xl/drawings/vmlDrawing4.vml"})
	data, err := os.ReadFile(gapped)
	must(t, err)
	if out, err := pruneParts(data); err != nil || string(out) == string(data) {
		t.Fatalf("the gapped package was not renumbered (%v): the test shows nothing", err)
	}
	for _, c := range []struct {
		name, part string
		edit       func(string) string
	}{
		{"declared encoding", "xl/worksheets/_rels/sheet3.xml.rels", func(s string) string { return strings.Replace(s, `encoding="UTF-8"`, `encoding="ISO-8859-1"`, 1) }},
		{"target in capitals", "xl/worksheets/_rels/sheet3.xml.rels", func(s string) string { return strings.Replace(s, "../comments4.xml", "../Comments4.xml", 1) }},
		{"target in single quotes", "xl/worksheets/_rels/sheet3.xml.rels", func(s string) string {
			return strings.Replace(s, `Target="../comments4.xml"`, `Target='../comments4.xml'`, 1)
		}},
		{"content type in single quotes", "[Content_Types].xml", func(s string) string {
			return strings.Replace(s, `PartName="/xl/comments4.xml"`, `PartName='/xl/comments4.xml'`, 1)
		}},
	} {
		name := c.name
		odd := filepath.Join(dir, "odd.xlsx")
		editZip(t, gapped, odd, c.part, c.edit)
		data, err := os.ReadFile(odd)
		must(t, err)
		if out, err := pruneParts(data); err != nil || string(out) != string(data) {
			t.Errorf("%s: the package was changed (%v)", name, err)
		}
	}
}

// editZip copies the package at from to to with one part's text edited.
func editZip(t *testing.T, from, to, part string, edit func(string) string) {
	t.Helper()
	found := false
	copyZip(t, from, to, func(name, text string) (string, string) {
		if name != part {
			return name, text
		}
		found = true
		if edited := edit(text); edited != text {
			return name, edited
		}
		t.Fatalf("%s: the edit changed nothing:\n%s", part, text)
		return name, text
	})
	if !found {
		t.Fatalf("no part %s", part)
	}
}
