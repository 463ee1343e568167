package modeltext_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/websim/websim/modeltext"
)

// odd holds the cells a text must carry unchanged through a workbook:
// formulas (a number, a text with commas, none saved), true, texts that
// look like numbers, booleans or formulas, edges of space, several lines,
// numbers large and small, a blank header with values under it, a repeated
// header, a number as a header, a blank row, an empty sheet.
const odd = `Notes.xlsx:
  My sheet é:
    - [Name, null, Name, 2024, 'a, b']
    - Name: x
      (B): 1
      (C): {formula: '=IF(1>0,"a,b","c")', value: 'a,b'}
      "2024": {formula: =1/0}
      a, b: true
    - {}
    - Name: "12"
      (B): =not a formula
      (C): ' edge '
      "2024": |-
        two
        lines
      a, b: "true"
    - Name: {formula: =2*3, value: 6}
      (B): 1e+20
      (C): 2.5e-07
      "2024": -0.125
      a, b: 123456789012
    - (F): far right
  Empty: []
`

func TestOddCellsKeepTheirTextThroughAWorkbook(t *testing.T) {
	m := parse(t, "odd.yaml", odd)
	text, err := m.Text()
	if err != nil {
		t.Fatal(err)
	}
	if string(text) != odd {
		t.Fatalf("the text is not canonical:\n%s", firstDifference(odd, string(text)))
	}
	dir := t.TempDir()
	if err := modeltext.Write(m, dir, false); err != nil {
		t.Fatal(err)
	}
	if got := export(t, filepath.Join(dir, "Notes.xlsx")); string(got) != odd {
		t.Errorf("export(import(text)) differs:\n%s", firstDifference(odd, string(got)))
	}
}

func TestWriteRefusesToOverwrite(t *testing.T) {
	m := parse(t, "odd.yaml", odd)
	dir := t.TempDir()
	if err := modeltext.Write(m, dir, false); err != nil {
		t.Fatal(err)
	}
	if err := modeltext.Write(m, dir, false); !errors.Is(err, modeltext.ErrExists) {
		t.Errorf("second Write: %v; want ErrExists", err)
	}
	if err := modeltext.Write(m, dir, true); err != nil {
		t.Errorf("Write with overwrite: %v", err)
	}
}

// A workbook open in Excel or LibreOffice (its lock file beside it) stops
// every workbook of the model from being replaced, not only itself: one
// replaced and not the other would be a mix of two models.
func TestWriteNothingWhenOneIsOpen(t *testing.T) {
	m := parse(t, "two.yaml", "SvcData.xlsx:\n  Notes:\n    - [a]\nProcData.xlsx:\n  Notes:\n    - [b]\n")
	other := parse(t, "other.yaml", "SvcData.xlsx:\n  Notes:\n    - [changed]\nProcData.xlsx:\n  Notes:\n    - [b]\n")
	dir := t.TempDir()
	must(t, modeltext.Write(m, dir, false))
	for _, lock := range []string{"~$ProcData.xlsx", ".~lock.ProcData.xlsx#"} {
		before, _ := os.ReadFile(filepath.Join(dir, "SvcData.xlsx"))
		must(t, os.WriteFile(filepath.Join(dir, lock), nil, 0o644))
		err := modeltext.Write(other, dir, true)
		if !errors.Is(err, modeltext.ErrOpenElsewhere) || !strings.Contains(err.Error(), "ProcData.xlsx is open in Excel or LibreOffice") {
			t.Errorf("%s: Write: %v; want ErrOpenElsewhere", lock, err)
		}
		after, _ := os.ReadFile(filepath.Join(dir, "SvcData.xlsx"))
		if string(before) != string(after) {
			t.Errorf("%s: SvcData.xlsx was replaced while ProcData.xlsx was open", lock)
		}
		must(t, os.Remove(filepath.Join(dir, lock)))
	}
}

// Every problem of a text is reported at once, by line and column.
func TestBadTextIsLocated(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string
	}{
		{"syntax", "SvcData.xlsx:\n  Settings:\n    - [Name, Value\n", []string{
			"bad.yaml:3: did not find expected ',' or ']'; expected YAML as websim export writes it"}},
		{"empty", "", []string{
			"bad.yaml: the file is empty; expected a key per workbook (SvcData.xlsx:, ProcData.xlsx:), as websim export writes"}},
		{"a second document", "SvcData.xlsx:\n  Settings: []\n---\nProcData.xlsx:\n  Start: []\n", []string{
			"bad.yaml:4:1: a second YAML document (after ---); expected the model as one document, as websim export writes"}},
		{"a document after an empty one", "SvcData.xlsx:\n  Settings: []\n--- null\n---\nProcData.xlsx:\n  Start: []\n", []string{
			"bad.yaml:5:1: a second YAML document (after ---); expected the model as one document, as websim export writes"}},
		{"a control character", "SvcData.xlsx:\n  Settings:\n    - [Name, Value]\n    - {Name: \"Se\\x01ed\", Value: 1}\n", []string{
			"bad.yaml:4:14: the text holds the control character U+0001 at character 3, which a cell cannot hold; expected text without it (tabs and line breaks may stay)"}},
		{"more columns than Excel's", "SvcData.xlsx:\n  History:\n    - [" + strings.Repeat("a, ", 16384) + "a]\n", []string{
			"bad.yaml:3:7: sheet History: 16385 columns, more than Excel's 16384; expected at most 16384"}},
		{"an alias of a bad cell, said once", "SvcData.xlsx:\n  Settings:\n    - [Name, Value]\n    - {Name: A, Value: &a [1, 2]}\n    - {Name: B, Value: *a}\n", []string{
			"bad.yaml:4:24: expected a cell: a number, a text, true or false, or a formula {formula: =A1*2, value: 4}"}},
		{"not a map", "- a\n", []string{
			"bad.yaml:1:1: expected a key per workbook (SvcData.xlsx:, ProcData.xlsx:), as websim export writes"}},
		{"a workbook beside the model's", `SvcData.xlsx:
  Settings:
    - [Name, Value]
Other.xlsx:
  S:
    - [A]
`, []string{
			`bad.yaml:4:1: workbook "Other.xlsx" beside another: a model's text holds SvcData.xlsx and ProcData.xlsx, which export reads from a folder, and no other (one workbook alone is the text of that workbook); expected this workbook in a text of its own`,
		}},
		{"many at once", `SvcData.xlsx:
  Settings:
    - [Name, Value]
    - Name: Seed
      Valeu: 1
    - Name: [1, 2]
  Bad/Name:
    - [A]
  ServerInfo:
    - Server: GWay
  settings:
    - [Name]
Data.txt:
  Sheet1: []
ProcData.xlsx:
  Start:
    - [Step]
    - Step: {formula: 1+2}
    - Step: {formula: =1+2, value: 3, colour: red}
    - Step: Auth
      Step: Login
`, []string{
			`bad.yaml:5:7: sheet Settings: unknown column "Valeu"; expected a header of the sheet's first row (Name, Value) or a column letter such as (C)`,
			"bad.yaml:6:13: expected a cell: a number, a text, true or false, or a formula {formula: =A1*2, value: 4}",
			`bad.yaml:7:3: sheet "Bad/Name": Excel refuses the characters : \ / ? * [ ] in a sheet name; expected a name without them`,
			"bad.yaml:10:7: sheet ServerInfo: expected the header row first, a list of the column headers such as [Name, Value]",
			`bad.yaml:11:3: sheet "settings" again (first at line 2); expected each sheet once (Excel ignores case in sheet names)`,
			`bad.yaml:13:1: workbook "Data.txt": expected a workbook's file name, such as SvcData.xlsx or ProcData.xlsx`,
			"bad.yaml:18:23: expected a formula starting with =, such as =1+2",
			`bad.yaml:19:39: unknown key "colour" in a cell; expected formula: and value: ({formula: =A1*2, value: 4})`,
			`bad.yaml:21:7: sheet Start: column "Step" again in this row; expected each column once`,
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := modeltext.Parse("bad.yaml", []byte(c.text))
			var ps modeltext.Problems
			if !errors.As(err, &ps) {
				t.Fatalf("Parse: %v; want Problems", err)
			}
			if got := err.Error(); got != strings.Join(c.want, "\n") {
				t.Errorf("got\n  %s\nwant\n  %s", strings.ReplaceAll(got, "\n", "\n  "), strings.Join(c.want, "\n  "))
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A document marker at the end, with nothing after it, is no second
// document.
func TestTrailingDocumentMarker(t *testing.T) {
	for _, tail := range []string{"---\n", "---\n...\n", "---\nnull\n"} {
		text := "SvcData.xlsx:\n  Settings:\n    - [Name, Value]\n    - {Name: Seed, Value: 1}\n" + tail
		if _, err := modeltext.Parse("t.yaml", []byte(text)); err != nil {
			t.Errorf("ending in %q: %v", tail, err)
		}
	}
}

// A header that YAML reads as a number (1e3, which the workbook holds as
// 1000) is named by the same text as a row's key.
func TestNumberHeaderNamedAsWritten(t *testing.T) {
	text := "SvcData.xlsx:\n  Arrivals:\n    - [Entity, 1e3, 2.50]\n    - {Entity: Job, 1e3: Exp(1), 2.50: Exp(2)}\n"
	m, err := modeltext.Parse("m.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	row := m.Books[0].Sheets[0].Rows[0]
	if len(row) != 3 || row[1].Value != "Exp(1)" || row[2].Value != "Exp(2)" {
		t.Errorf("row %+v, want Exp(1) and Exp(2) in columns B and C", row)
	}
}
