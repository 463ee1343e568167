package modeltext_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/websim/websim/modeltext"
)

// base is a small model's text, as export writes it.
const base = `SvcData.xlsx:
  Settings:
    - [Name, Value]
    - Name: TimeUnit
      Value: ms
    - Name: Seed
      Value: 1
  ServerInfo:
    - [Server, Capacity, TimeLimit]
    - Server: GWay
      Capacity: 90
      TimeLimit: 2000
    - Server: DSS
      Capacity: 12
    - Server: CM
      Capacity: {formula: =3*5, value: 15}
  Arrivals:
    - [Entity, L1]
    - Entity: ASUM
      L1: Exp(40)
  ASUM:
    - [Service, OnSuccess, OnFailure]
    - Service: Start
  Log:
    - [Date, Change]
    - Date: 2026-11-30
      Change: more GWay
ProcData.xlsx:
  Start:
    - [Step, ProcTime, SuccessRate, Server]
    - Step: Auth
      ProcTime: Exp(2)
      SuccessRate: 0.99
      Server: GWay
`

// edit applies replacements to base, each of which must apply.
func edit(t *testing.T, pairs ...string) string {
	t.Helper()
	s := base
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("edit: %q is not in the base text", pairs[i])
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	return s
}

func parse(t *testing.T, name, text string) *modeltext.Model {
	t.Helper()
	m, err := modeltext.Parse(name, []byte(text))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

func TestDiff(t *testing.T) {
	cases := []struct {
		name string
		b    func(t *testing.T) string
		// want are the lines expected (the golden file holds them all).
		want []string
	}{
		{"same model", func(t *testing.T) string { return base }, nil},
		{"changed cell", func(t *testing.T) string { return edit(t, "Capacity: 90", "Capacity: 60") },
			[]string{"SvcData.xlsx!ServerInfo!B2 (GWay, Capacity): 90 -> 60"}},
		{"inserted row", func(t *testing.T) string {
			return edit(t, "    - Server: DSS\n", "    - Server: MTC\n      Capacity: 25\n    - Server: DSS\n")
		}, []string{"SvcData.xlsx!ServerInfo!A3 (MTC): row added: Server MTC, Capacity 25"}},
		{"removed row", func(t *testing.T) string { return edit(t, "    - Server: DSS\n      Capacity: 12\n", "") },
			[]string{"SvcData.xlsx!ServerInfo!A3 (DSS): row removed: Server DSS, Capacity 12"}},
		{"moved row", func(t *testing.T) string {
			return edit(t, "    - Server: GWay\n      Capacity: 90\n      TimeLimit: 2000\n", "",
				"  Arrivals:", "    - Server: GWay\n      Capacity: 90\n      TimeLimit: 2000\n  Arrivals:")
		}, []string{"SvcData.xlsx!ServerInfo!A4 (GWay): row moved from row 2 to row 4"}},
		{"renamed sheet", func(t *testing.T) string { return edit(t, "  Start:", "  Begin:") },
			[]string{`ProcData.xlsx!Begin: sheet renamed from "Start"`}},
		{"added sheet", func(t *testing.T) string {
			return edit(t, "ProcData.xlsx:", "  Targets:\n    - [Entity, Measure, Limit]\n    - Measure: p95\n      Limit: 500\nProcData.xlsx:")
		},
			[]string{"SvcData.xlsx!Targets: sheet added (1 row)"}},
		{"added column", func(t *testing.T) string {
			return edit(t, "    - [Entity, L1]\n    - Entity: ASUM\n      L1: Exp(40)\n", "    - [Entity, L1, L2]\n    - Entity: ASUM\n      L1: Exp(40)\n      L2: Exp(30)\n")
		}, []string{"SvcData.xlsx!Arrivals!C1 (L2): column added: ASUM Exp(30)"}},
		{"removed column", func(t *testing.T) string {
			return edit(t, "[Server, Capacity, TimeLimit]", "[Server, Capacity]", "      TimeLimit: 2000\n", "")
		}, []string{"SvcData.xlsx!ServerInfo!C1 (TimeLimit): column removed: GWay 2000"}},
		{"renamed column", func(t *testing.T) string {
			return edit(t, "[Server, Capacity, TimeLimit]", "[Server, Capacity, Limit]", "      TimeLimit: 2000\n", "      Limit: 2000\n")
		}, []string{`SvcData.xlsx!ServerInfo!C1: column renamed from "TimeLimit" to "Limit"`}},
		{"header respelled", func(t *testing.T) string {
			return edit(t, "[Server, Capacity, TimeLimit]", "[Server, Capacity, time_limit]", "      TimeLimit: 2000\n", "      time_limit: 2000\n")
		}, []string{`SvcData.xlsx!ServerInfo!C1: column header respelled from "TimeLimit" to "time_limit" (the same column to websim, which reads headers ignoring case, spaces and underscores)`}},
		{"moved column", func(t *testing.T) string {
			return edit(t, "[Step, ProcTime, SuccessRate, Server]", "[Step, Server, ProcTime, SuccessRate]")
		}, []string{"ProcData.xlsx!Start!B1 (Server): column moved from D to B"}},
		{"formula changed, same value", func(t *testing.T) string { return edit(t, "=3*5", "=5*3") },
			[]string{"SvcData.xlsx!ServerInfo!B4 (CM, Capacity): formula =3*5 -> =5*3, same value 15"}},
		{"formula replaced by its value", func(t *testing.T) string { return edit(t, "{formula: =3*5, value: 15}", "15") },
			[]string{"SvcData.xlsx!ServerInfo!B4 (CM, Capacity): =3*5 (value 15) -> 15"}},
		{"a formula's saved value lost (written by a script, not yet saved in Excel)", func(t *testing.T) string {
			return edit(t, "{formula: =3*5, value: 15}", "{formula: =3*5}")
		}, nil},
		{"a formula's saved value changed", func(t *testing.T) string { return edit(t, "{formula: =3*5, value: 15}", "{formula: =3*5, value: 16}") },
			[]string{"SvcData.xlsx!ServerInfo!B4 (CM, Capacity): =3*5 (value 15) -> =3*5 (value 16)"}},
		{"number and text that look alike", func(t *testing.T) string { return edit(t, "Value: 1\n", "Value: \"1\"\n") },
			[]string{`SvcData.xlsx!Settings!B3 (Seed, Value): 1 -> "1"`}},
		{"blank cell filled", func(t *testing.T) string {
			return edit(t, "      Capacity: 12\n", "      Capacity: 12\n      TimeLimit: 1000\n")
		},
			[]string{"SvcData.xlsx!ServerInfo!C3 (DSS, TimeLimit): (blank) -> 1000"}},
		{"a sheet without a name column is compared row by row", func(t *testing.T) string {
			return edit(t, "Change: more GWay", "Change: fewer GWay")
		}, []string{"SvcData.xlsx!Log!B2 (row 2, Change): more GWay -> fewer GWay"}},
		{"blank row inserted is layout", func(t *testing.T) string { return edit(t, "    - Server: DSS\n", "    - {}\n    - Server: DSS\n") }, nil},
	}
	var all strings.Builder
	a := parse(t, "a.yaml", base)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, d := range modeltext.Diff(a, parse(t, "b.yaml", c.b(t))) {
				got = append(got, d.String())
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
			fmt.Fprintf(&all, "# %s\n", c.name)
			for _, l := range got {
				fmt.Fprintln(&all, l)
			}
		})
	}
	golden(t, "diff.golden", []byte(all.String()))
}

// Rows are matched by as many name columns as make them unique: in
// Attributes, Entity and Attribute together.
func TestDiffMatchesRowsByTheirNameColumns(t *testing.T) {
	const a = `SvcData.xlsx:
  Attributes:
    - [Entity, Attribute, Value]
    - {Entity: ASUM, Attribute: Cards, Value: "UniformInt(1,6)"}
    - {Entity: ASUM, Attribute: Size, Value: 3}
`
	b := strings.Replace(a, "    - {Entity: ASUM, Attribute: Cards, Value: \"UniformInt(1,6)\"}\n", "", 1)
	b = strings.Replace(b, "Value: 3}\n", "Value: 4}\n    - {Entity: ASUM, Attribute: Cards, Value: \"UniformInt(1,6)\"}\n", 1)
	var got []string
	for _, d := range modeltext.Diff(parse(t, "a.yaml", a), parse(t, "b.yaml", b)) {
		got = append(got, d.String())
	}
	want := []string{
		// Two rows swapped: one of them moved.
		"SvcData.xlsx!Attributes!A2 (ASUM, Size): row moved from row 3 to row 2",
		"SvcData.xlsx!Attributes!C2 (ASUM, Size, Value): 3 -> 4",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// A formula saved with a value on one side and without one on the other
// is the same model when the formula gives that value (Excel saved what
// websim computes); when it does not (a script saved 99 beside =3*5),
// websim runs on the saved value, so the two models differ, and diff says
// so in both directions.
func TestDiffSavedValueTheFormulaDoesNotGive(t *testing.T) {
	unsaved := parse(t, "a.yaml", strings.Replace(base, "{formula: =3*5, value: 15}", "{formula: =3*5}", 1))
	for _, c := range []struct {
		saved string
		want  []string
	}{
		{"{formula: =3*5, value: 15}", nil},
		{"{formula: =3*5, value: 99}", []string{"SvcData.xlsx!ServerInfo!B4 (CM, Capacity): formula =3*5: value 15 (computed, no saved value) -> 99 (saved), which websim runs on"}},
	} {
		saved := parse(t, "b.yaml", strings.Replace(base, "{formula: =3*5, value: 15}", c.saved, 1))
		var got []string
		for _, d := range modeltext.Diff(unsaved, saved) {
			got = append(got, d.String())
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s: got %q, want %q", c.saved, got, c.want)
		}
		got = nil
		for _, d := range modeltext.Diff(saved, unsaved) {
			got = append(got, d.String())
		}
		if (len(got) == 0) != (c.want == nil) || len(got) > 0 && !strings.HasSuffix(got[0], "-> 15 (computed, no saved value)") {
			t.Errorf("%s the other way: got %q", c.saved, got)
		}
	}
}

// LibreOffice saves a boolean cell as =TRUE() with its value: the same
// cell to websim, so diff says nothing; another formula, or another
// value, is a difference.
func TestDiffBooleanAsLibreOfficeSavesIt(t *testing.T) {
	withDone := func(cell string) *modeltext.Model {
		return parse(t, "m.yaml", strings.Replace(base, "    - [Date, Change]\n    - Date: 2026-11-30\n      Change: more GWay\n",
			"    - [Date, Change, Done]\n    - Date: 2026-11-30\n      Change: more GWay\n      Done: "+cell+"\n", 1))
	}
	typed := withDone("true")
	for _, c := range []struct {
		cell string
		same bool
	}{
		{"{formula: =TRUE(), value: true}", true},
		{"{formula: =true(), value: true}", true},
		{"{formula: =FALSE(), value: false}", false},
		{"{formula: =1=1, value: true}", false},
	} {
		got := modeltext.Diff(typed, withDone(c.cell))
		if (len(got) == 0) != c.same {
			t.Errorf("true against %s: %v; want the same model: %v", c.cell, got, c.same)
		}
		if back := modeltext.Diff(withDone(c.cell), typed); (len(back) == 0) != c.same {
			t.Errorf("%s against true: %v; want the same model: %v", c.cell, back, c.same)
		}
	}
}

// A model read from its workbooks is computed in its own files, where
// the cell and the formula's references stand: ServerInfo's header moved
// down a row (a blank first row) still finds CM's =3*5, unsaved, against a
// text that saved 99 beside it.
func TestDiffComputesAWorkbookWhereItsCellsStand(t *testing.T) {
	dir := t.TempDir()
	if err := modeltext.Write(parse(t, "a.yaml", strings.Replace(base, "{formula: =3*5, value: 15}", "{formula: =3*5}", 1)), dir, false); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "SvcData.xlsx")
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.InsertRows("ServerInfo", 1, 1); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	folder, err := modeltext.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	saved := parse(t, "b.yaml", strings.Replace(base, "{formula: =3*5, value: 15}", "{formula: =3*5, value: 99}", 1))
	var got []string
	for _, d := range modeltext.Diff(folder, saved) {
		got = append(got, d.String())
	}
	want := "SvcData.xlsx!ServerInfo!B4 (CM, Capacity): formula =3*5: value 15 (computed, no saved value) -> 99 (saved), which websim runs on"
	if !slices.Contains(got, want) {
		t.Errorf("got %q; want among them %q", got, want)
	}
}
