package xlsx

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFormulaChains reads formulas websim must compute itself: a circle of
// references and a chain deeper than MaxFormulaDepth are located problems
// (the formula engine would read a circle as blank and overflow its stack
// on a long chain); a chain within the limit and names that look like
// cells (LOG10) are computed.
func TestFormulaChains(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rows  func(b *Book)
		want  []string // problems, "CELL: start of message"
		value map[string]string
	}{
		{name: "circle", rows: func(b *Book) {
			b.SetRow("Sheet1", 1, Formula("=B1+1"), Formula("=C1*2"), Formula("=A1"))
			b.SetRow("Sheet1", 2, Formula("=A2"))
		}, want: []string{
			"A1: the formula =B1+1 refers back to itself (A1 → B1 → C1 → A1)",
			"B1: the formula =C1*2 refers back to itself (B1 → C1 → A1 → B1)",
			"C1: the formula =A1 refers back to itself (C1 → A1 → B1 → C1)",
			"A2: the formula =A2 refers back to itself (A2 → A2)",
		}},
		{name: "circle through a range and another sheet", rows: func(b *Book) {
			b.NewSheet("Other sheet")
			b.SetRow("Sheet1", 1, Formula("=SUM('Other sheet'!A1:A3)"))
			b.SetRow("Other sheet", 2, Formula("=Sheet1!A1"))
		}, want: []string{"A1: the formula =SUM('Other sheet'!A1:A3) refers back to itself (A1 → Other sheet!A2 → A1)"}},
		{name: "names that look like cells", rows: func(b *Book) {
			b.SetRow("Sheet1", 1, 100, Formula("=LOG10(A1)"), Formula(`="A1"&B1`))
		}, value: map[string]string{"B1": "2", "C1": "A12"}},
		{name: "chain within the limit", rows: func(b *Book) { chain(b, MaxFormulaDepth) },
			value: map[string]string{fmt.Sprintf("A%d", MaxFormulaDepth+1): fmt.Sprint(MaxFormulaDepth + 1)}},
		{name: "chain of 100000", rows: func(b *Book) { chain(b, 100_000) }, want: []string{
			fmt.Sprintf("A%d: the formula =A%d+1 is at the end of a chain of 1,001 formulas, each using the next, that websim would compute; expected at most 1,000 (compute part of it", MaxFormulaDepth+2, MaxFormulaDepth+1),
			fmt.Sprintf("A%d: this formula (and 98,998 more formulas after it) stands further down a chain longer than 1,000 formulas, each using the next; expected at most 1,000 (", MaxFormulaDepth+3),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.xlsx")
			b := New()
			tc.rows(b)
			if err := b.Save(path); err != nil {
				t.Fatal(err)
			}
			b, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			start := time.Now()
			grid, ps, ok := b.ReadGrid("Sheet1")
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("ReadGrid took %v", d)
			}
			if !ok {
				t.Fatalf("ReadGrid: %v", ps)
			}
			var got []string
			for _, p := range ps {
				got = append(got, p.Cell+": "+p.Msg)
			}
			if len(got) != len(tc.want) {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			for i := range min(len(got), len(tc.want)) {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("problem %d: %s\nwant: %s...", i, got[i], tc.want[i])
				}
			}
			for ref, want := range tc.value {
				c, r, _ := CellCoordinates(ref)
				for _, rw := range grid {
					if rw.Num == r && rw.At(c-1).Text != want {
						t.Errorf("%s = %q, want %q", ref, rw.At(c-1).Text, want)
					}
				}
			}
		})
	}
}

// chain writes A1 = 1 and n formulas below, each the cell above plus 1.
func chain(b *Book, n int) {
	rows := []NumberedRow{{Num: 1, Values: []any{1}}}
	for i := 2; i <= n+1; i++ {
		rows = append(rows, NumberedRow{Num: i, Values: []any{Formula(fmt.Sprintf("=A%d+1", i-1))}})
	}
	b.StreamRows("Sheet1", rows)
}

// TestNotComputableAsExcel checks the formulas websim refuses to compute
// itself, and that it computes the others.
func TestNotComputableAsExcel(t *testing.T) {
	for _, tt := range []struct{ formula, want string }{
		{"SUMPRODUCT(B3:B4*1)/50", "arithmetic on the range B3:B4"},
		{"SUM(B3:B4*1)/50", "arithmetic on the range B3:B4"},
		{"SUM(2*$B$3:$B$4)", "arithmetic on the range $B$3:$B$4"},
		{"SUMPRODUCT(Data!A1:A9, 1/Data!B1:B9)", "arithmetic on the range Data!B1:B9"},
		{"SUM(B:B-1)", "arithmetic on the range B:B"},
		{"MAX(3:3 + 1)", "arithmetic on the range 3:3"},
		{"RANDBETWEEN(1,40)", "uses RANDBETWEEN, which Excel computes afresh"},
		{"rand()*10", "uses RAND, which"},
		{"NOW()-TODAY()", "uses NOW"},
		{`INDIRECT("B"&ROW())+5`, "uses INDIRECT, whose reference is made as it is computed"},
		{"OFFSET(A1,1,0)", "uses OFFSET"},
		{"SUM(B3:B4)*2", ""},
		{"SUMPRODUCT(B3:B4,C3:C4)", ""},
		{"B3*2+C4", ""},
		{"AVERAGE(Data!A1:A9)/2", ""},
		{`IF(A1="RAND()", 1, 2)`, ""},
		{`"B3:B4*2"&A1`, ""},
		{"MYRAND(2)", ""},
		{"OPERAND(1)", ""},
		{"LOG10(B3:B4)", "passes the range B3:B4 to LOG10, which takes one value"},
		{"SUMPRODUCT((B3:B4)*2)", "arithmetic on the range B3:B4"},
		{"SUM(ABS(B3:B4))", "passes the range B3:B4 to ABS"},
		{"SUMPRODUCT(ABS(B3:B4))", "passes the range B3:B4 to ABS"},
		{"SUM(B3:B4%)", "arithmetic on the range B3:B4"},
		{"_xlfn.RANDARRAY(3)", "uses RANDARRAY"},
		{"SUM(A1:A3)-1", ""},
		{"-SUM(A1:A2)", ""},
		{"A1:A2", ""},
		{"INDEX(A1:A3,2)*2", ""},
		{`COUNTIF(A1:A9,">0")*2`, ""},
		{"SUM((B3:B4))", ""},
		{"IF(A1>0,SUM(B3:B4),0)", ""},
		{"A1:INDEX(A:A,3)", ""},
		{"MAX(1:1)-MIN(1:1)", ""},
		{"SUM(A1:A3)^2", ""},
		{"SUM(A1:A3)=6", ""},
		{"HLOOKUP(1,1:2,2,0)", ""},
		{"_xlfn.XLOOKUP(1,A1:A3,B1:B3)", ""},
		{"'My Data'!A1+SUM('My Data'!B1:B3)", ""},
	} {
		got := notComputableAsExcel(tt.formula)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("=%s: %q, want %q", tt.formula, got, tt.want)
		}
	}
}
