package lb

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/websim/websim/internal/xlsx"
)

// The YAML file and its workbook twin give identical figures for a seed.
func TestTwinsGiveIdenticalFigures(t *testing.T) {
	var texts []string
	for _, path := range []string{sampleYAML, sampleWorkbook} {
		p := load(t, path).Params
		p.Requests = 5000
		r, err := Run(p, 2)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		r.WriteJSON(&b)
		texts = append(texts, b.String())
	}
	if texts[0] != texts[1] {
		t.Errorf("YAML:\n%s\nworkbook:\n%s", texts[0], texts[1])
	}
}

// editedWorkbook writes the sample twin with edit applied and returns its path.
func editedWorkbook(t *testing.T, edit func(f *xlsx.Book)) string {
	t.Helper()
	f, err := NewParametersWorkbook(Sample())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	edit(f)
	path := filepath.Join(t.TempDir(), "Parameters.xlsx")
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestWorkbookProblems(t *testing.T) {
	tests := []struct {
		name string
		edit func(f *xlsx.Book)
		want []string
	}{
		{"good", func(*xlsx.Book) {}, nil},
		{"headers ignore case and underscores", func(f *xlsx.Book) {
			f.SetCell(TypesSheet, "B1", "Output Capacity")
			f.SetCell(SettingsSheet, "A2", "Number Of Servers")
		}, nil},
		{"not a number", func(f *xlsx.Book) { f.SetCell(SettingsSheet, "B2", "abc") },
			[]string{`Parameters.xlsx!Settings!B2: number_of_servers "abc" is not a whole number`}},
		{"misspelt column", func(f *xlsx.Book) { f.SetCell(TypesSheet, "C1", "proportoin") },
			[]string{`Parameters.xlsx!RequestTypes!C1: unknown column "proportoin"; did you mean "proportion"?`}},
		{"misspelt setting", func(f *xlsx.Book) { f.SetCell(SettingsSheet, "A5", "methd") },
			[]string{`Parameters.xlsx!Settings!A5: unknown setting "methd"; did you mean "method"?`}},
		{"unknown method", func(f *xlsx.Book) { f.SetCell(SettingsSheet, "B5", "random") },
			[]string{`Parameters.xlsx!Settings!B5: method "random" is unknown; expected roundrobin or busyness`}},
		{"proportions", func(f *xlsx.Book) { f.SetCell(TypesSheet, "C3", 0.9) },
			[]string{`Parameters.xlsx!RequestTypes: the proportions add up to 0.95`}},
		{"blank cell", func(f *xlsx.Book) { f.SetCell(TypesSheet, "D2", "") },
			[]string{`Parameters.xlsx!RequestTypes!D2: dma avg_service_time_secs has no value`}},
		{"zero capacity", func(f *xlsx.Book) { f.SetCell(TypesSheet, "B3", 0) },
			[]string{`Parameters.xlsx!RequestTypes!B3: other output_capacity must be at least 1 unit, got 0`}},
		{"missing sheet", func(f *xlsx.Book) { f.RenameSheet(TypesSheet, "Types") },
			[]string{`Parameters.xlsx: missing sheet "RequestTypes"; did you mean "Types"?`}},
		{"notes column left alone", func(f *xlsx.Book) { f.SetCell(TypesSheet, "F1", "Comment") }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, err := Load(editedWorkbook(t, tt.edit))
			if err == nil {
				defer src.Workbook.Close()
				err = src.Check()
			}
			var lines []string
			if err != nil {
				lines = strings.Split(err.Error(), "\n")
			}
			if len(lines) != len(tt.want) {
				t.Fatalf("problems %q, want %q", lines, tt.want)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("problem %q, want it to start %q", lines[i], w)
				}
			}
		})
	}
}

// Results are written into the workbook as new sheets; a second run
// replaces them and keeps every other sheet and cell; a user's sheet of the
// same name is never replaced.
func TestWriteBack(t *testing.T) {
	path := editedWorkbook(t, func(f *xlsx.Book) {
		f.NewSheet("Notes")
		f.SetCell("Notes", "B2", "keep me")
	})
	p := Sample()
	p.Requests = 2000
	for range 2 {
		src := load(t, path)
		r, err := Run(src.Params, 2)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := WriteResults(src.Workbook, r); err != nil {
			t.Fatal(err)
		}
		if err := src.Workbook.Save(path); err != nil {
			t.Fatal(err)
		}
	}
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := []string{SettingsSheet, TypesSheet, "Notes", SummarySheet, PerServerSheet, ChartSheet}
	if got := f.Sheets(); !slices.Equal(got, want) {
		t.Errorf("sheets %v, want %v", got, want)
	}
	if v, _ := f.Value("Notes", "B2"); v != "keep me" {
		t.Errorf("Notes!B2 = %q", v)
	}
	if v, _ := f.Value(ChartSheet, "B3"); v != "dma" {
		t.Errorf("LBChart!B3 = %q, want dma", v)
	}
	rows, _ := f.Rows(SummarySheet)
	servers := ""
	for _, r := range rows {
		if len(r) > 1 && r[0] == KeyServers {
			servers = r[1]
		}
	}
	if servers != "6" {
		t.Errorf("LBSummary: %s = %q, want 6 servers", KeyServers, servers)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("files left beside the workbook: %v", entries)
	}

	user := editedWorkbook(t, func(f *xlsx.Book) {
		f.NewSheet(SummarySheet)
		f.SetCell(SummarySheet, "A1", "my own summary")
	})
	// As websim run does, the results go beside a user's sheet of the same
	// name, under "LBSummary (websim)", run after run.
	for range 2 {
		src := load(t, user)
		r, _ := Run(p, 1)
		names, err := WriteResults(src.Workbook, r)
		if err != nil {
			t.Fatal(err)
		}
		if names.Summary != SummarySheet+" (websim)" || names.Chart != ChartSheet {
			t.Errorf("result sheets %+v, want LBSummary (websim)", names)
		}
		if err := src.Workbook.Save(user); err != nil {
			t.Fatal(err)
		}
		src.Workbook.Close()
	}
	f, err = xlsx.Open(user)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want = []string{SettingsSheet, TypesSheet, SummarySheet, SummarySheet + " (websim)", PerServerSheet, ChartSheet}
	if got := f.Sheets(); !slices.Equal(got, want) {
		t.Errorf("sheets %v, want %v", got, want)
	}
	if v, _ := f.Value(SummarySheet, "A1"); v != "my own summary" {
		t.Errorf("the user's LBSummary!A1 = %q", v)
	}
	// The user renames their own sheet: the results keep their name, where
	// the user's formulas read them.
	if err := f.RenameSheet(SummarySheet, "My summary"); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(user); err != nil {
		t.Fatal(err)
	}
	src := load(t, user)
	defer src.Workbook.Close()
	r, _ := Run(p, 1)
	if names, err := WriteResults(src.Workbook, r); err != nil || names.Summary != SummarySheet+" (websim)" {
		t.Errorf("after the user renamed their LBSummary: result sheets %+v, %v; want LBSummary (websim) still", names, err)
	}
}

func TestNewParametersWorkbook(t *testing.T) {
	f, err := NewParametersWorkbook(Sample())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.Sheets(); !slices.Equal(got, []string{SettingsSheet, TypesSheet}) {
		t.Errorf("sheets %v", got)
	}
	dvs, err := f.Validations(SettingsSheet)
	if err != nil || len(dvs) != 1 || dvs[0].Sqref != "B5" || !strings.Contains(dvs[0].Formula1, "busyness") {
		t.Errorf("method drop-down: %+v %v", dvs, err)
	}
	comments, err := f.Comments(TypesSheet)
	if err != nil || len(comments) != 5 {
		t.Errorf("RequestTypes header comments: %d %v", len(comments), err)
	}
	if rows, err := f.FrozenRows(TypesSheet); err != nil || rows != 1 {
		t.Errorf("RequestTypes frozen rows %d %v", rows, err)
	}
}

// Result sheets written by an earlier websim, known by their A1 text only
// (no owner marker), are still replaced rather than kept as a user's.
func TestWriteResultsReplacesEarlierVersionsSheets(t *testing.T) {
	path := editedWorkbook(t, func(f *xlsx.Book) {
		f.NewSheet(SummarySheet)
		f.SetCell(SummarySheet, "A1", resultsMark+": figures per type")
	})
	src := load(t, path)
	defer src.Workbook.Close()
	p := Sample()
	p.Requests = 1000
	r, err := Run(p, 1)
	if err != nil {
		t.Fatal(err)
	}
	names, err := WriteResults(src.Workbook, r)
	if err != nil {
		t.Fatal(err)
	}
	if names.Summary != SummarySheet {
		t.Errorf("results in %q, want the earlier LBSummary replaced", names.Summary)
	}
	if got, want := src.Workbook.Sheets(), []string{SettingsSheet, TypesSheet, SummarySheet, PerServerSheet, ChartSheet}; !slices.Equal(got, want) {
		t.Errorf("sheets %v, want %v", got, want)
	}
}
