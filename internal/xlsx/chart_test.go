package xlsx

import (
	"archive/zip"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// A column chart with lines over it keeps each series' colour, width, dash
// and marker, the gap between columns and the labels' rotation; titles and
// axis labels are dark.
func TestChartOptions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "C.xlsx")
	b := New()
	b.RenameSheet("Sheet1", "D")
	b.SetRow("D", 1, "x", "bars", "line")
	for i := 2; i <= 5; i++ {
		b.SetRow("D", i, float64(i), float64(i*i), float64(2*i))
	}
	b.AddChart("D", "E1", Chart{
		Kind: ColumnChart, Title: "T", XTitle: "x", YTitle: "y", GapWidth: 5, XRotate: -45,
		Series: []Series{{Name: AbsRange("D", 1, 1, 1), Categories: AbsRange("D", 0, 2, 5), Values: AbsRange("D", 1, 2, 5), Color: "A9C4E2"}},
		Lines: []Series{{Name: AbsRange("D", 2, 1, 1), Categories: AbsRange("D", 0, 2, 5), Values: AbsRange("D", 2, 2, 5),
			Color: "C00000", Width: 2, Dash: Dashed, Marker: "none"}},
	})
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	b.Close()
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	var charts []string
	for _, f := range z.File {
		if strings.HasPrefix(f.Name, "xl/charts/chart") {
			rc, _ := f.Open()
			data, _ := io.ReadAll(rc)
			rc.Close()
			charts = append(charts, string(data))
		}
	}
	if len(charts) != 1 {
		t.Fatalf("%d charts, want one (columns and lines together)", len(charts))
	}
	x := charts[0]
	for _, want := range []string{"barChart>", "lineChart>", `"A9C4E2"`, `"C00000"`, `gapWidth val="5"`, `<a:prstDash val="dash"`,
		`rot="-2700000"`, `symbol val="none"`, `"262626"`} {
		if !strings.Contains(x, want) {
			t.Errorf("the chart lacks %s", want)
		}
	}
	// The value axis's title reads upwards for LibreOffice as for Excel:
	// its text properties are turned a quarter too; the category axis's
	// title stays level.
	val := x[strings.Index(x, "<valAx>"):strings.Index(x, "</valAx>")]
	title := val[strings.Index(val, "<title>"):strings.Index(val, "</title>")]
	props := title[strings.Index(title, "<txPr>"):]
	if !strings.Contains(props, `rot="-5400000" vert="horz"`) {
		t.Errorf("the value axis title's text properties are not turned: %s", props)
	}
	cat := x[strings.Index(x, "<catAx>"):strings.Index(x, "</catAx>")]
	if strings.Contains(cat, `rot="-5400000"`) {
		t.Errorf("the category axis title is turned: %s", cat)
	}
}

func TestTurnTitlesLeavesTurnedAndUntitledAxesAlone(t *testing.T) {
	for _, chart := range []string{
		`<valAx><axId val="1"></axId></valAx>`, // no title
		`<valAx><axPos val="l"></axPos><title><tx></tx><txPr><a:bodyPr rot="-5400000" vert="horz"></a:bodyPr></txPr></title></valAx>`,
		`<catAx><title><txPr><a:bodyPr rot="0"></a:bodyPr></txPr></title></catAx>`,
	} {
		if out, ok := turnTitles([]byte(chart)); ok || string(out) != chart {
			t.Errorf("turnTitles(%s) = %s, %v; want it unchanged", chart, out, ok)
		}
	}
	// A scatter chart: its X axis (at the bottom) is a value axis too,
	// and keeps a level title; its Y axis (left) is turned.
	scatter := `<valAx><axPos val="b"></axPos><title><txPr><a:bodyPr rot="0"></a:bodyPr></txPr></title></valAx>` +
		`<valAx><axPos val="l"></axPos><title><txPr><a:bodyPr a="1" rot="0"></a:bodyPr></txPr></title></valAx>`
	out, ok := turnTitles([]byte(scatter))
	want := strings.Replace(scatter, `a="1" rot="0"`, `a="1" rot="-5400000" vert="horz"`, 1)
	if !ok || string(out) != want {
		t.Errorf("a scatter chart's axes: %s, %v; want %s", out, ok, want)
	}
	vertical := `<valAx><axPos val="l"></axPos><title><txPr><a:bodyPr rot="0" vert="vert"></a:bodyPr></txPr></title></valAx>`
	if out, ok := turnTitles([]byte(vertical)); ok || string(out) != vertical {
		t.Errorf("a title that sets its own direction: %s, %v; want it unchanged", out, ok)
	}
}

// A chart in a workbook websim opens (a user's, in a write-back) is left
// as it is: only a book made by New has its axis titles turned.
func TestOpenedBooksChartsAreLeftAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "Mine.xlsx")
	b := New()
	b.SetRow("Sheet1", 1, "x", "y")
	b.SetRow("Sheet1", 2, 1.0, 2.0)
	b.AddChart("Sheet1", "D1", Chart{Kind: LineChart, Title: "T", XTitle: "x", YTitle: "y",
		Series: []Series{{Name: AbsRange("Sheet1", 1, 1, 1), Categories: AbsRange("Sheet1", 0, 2, 2), Values: AbsRange("Sheet1", 1, 2, 2)}}})
	if err := b.f.SaveAs(path); err != nil { // as another tool would, without websim's rewriting
		t.Fatal(err)
	}
	b.Close()
	chart := func() string {
		z, err := zip.OpenReader(path)
		if err != nil {
			t.Fatal(err)
		}
		defer z.Close()
		for _, f := range z.File {
			if f.Name == "xl/charts/chart1.xml" {
				rc, _ := f.Open()
				data, _ := io.ReadAll(rc)
				rc.Close()
				return string(data)
			}
		}
		t.Fatal("no chart")
		return ""
	}
	before := chart()
	o, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	o.SetCell("Sheet1", "A5", "a note")
	if err := o.Save(path); err != nil {
		t.Fatal(err)
	}
	o.Close()
	if after := chart(); after != before {
		t.Errorf("the opened book's chart changed:\n%s\n%s", before, after)
	}
}
