package workbook

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/websim/websim/internal/xlsx"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/workbook/wbtest"
)

// FuzzReadSheet writes a grid of cells (rows split on "\n", cells on "|")
// as a ProcData service sheet of an otherwise valid model and reads the
// model: no panic, and every problem is located in a file and a sheet.
func FuzzReadSheet(f *testing.F) {
	for _, seed := range []string{
		"Step|ProcTime|Server\nA|Exp(3)|MTC",
		"Step|ProcTime|Server|OnSuccess\nA|1|App|B\nB| 0.5 |app|a",
		"step|proc_time|SUCCESS RATE\nA|Expo(3|1.5",
		"Step|Service|Count|Mode\nA|GetASum|Cards|paralel\nB|GetASum|-1|AppUtil < 0.5 ? \"parallel\" : \"sequential\"",
		"Step|Step|Colour\nA|B|red",
		"|||\n\n\nStep\nA",
		"#DIV/0!|Step\nA|#N/A",
		"Step|Condition|OnFailure\nA|Pages >|A\nA|TRUE|NEXT",
		"Step|SuccessRate\nx|1e309\ny|NaN\nz|0x1p-2",
		"Step\n" + strings.Repeat("\n", 50) + "A",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, grid string) {
		if len(grid) > 4000 {
			return
		}
		m := wbtest.Valid()
		s := m.Sheet(t, "ProcData.xlsx", "GetASum")
		s.Rows = nil
		for _, line := range strings.Split(grid, "\n") {
			var row []any
			for _, c := range strings.Split(line, "|") {
				if !validCellText(c) {
					return // the workbook library refuses such text; not a reading question
				}
				row = append(row, c)
			}
			s.Rows = append(s.Rows, row)
		}
		dir := t.TempDir()
		m.Write(t, dir)
		var err error
		withinBudget(t, "Read", fuzzReadTime, func(context.Context) { _, err = Read(dir) })
		if err == nil {
			return
		}
		problems, ok := err.(Problems)
		if !ok {
			t.Fatalf("Read returned %T: %v", err, err)
		}
		for _, p := range problems {
			if p.File == "" || p.Msg == "" || (p.File != filepath.Base(p.File)) {
				t.Errorf("problem not located: %#v", p)
			}
			if p.File == ProcDataFile && p.Sheet == "" {
				t.Errorf("problem without its sheet: %#v", p)
			}
			if strings.Contains(p.Msg, "\n") {
				t.Errorf("problem on more than one line: %q", p.Msg)
			}
		}
	})
}

// validCellText is text the workbook library writes: valid UTF-8 of at most 32767
// characters without control characters other than tab.
func validCellText(s string) bool {
	if len(s) > 32767 || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 && r != '\t' || r == 0xFFFE || r == 0xFFFF || r == '\uFFFD' {
			return false
		}
	}
	return true
}

func TestParseNumber(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"12", 12, true}, {" 0.5 ", 0.5, true}, {"\u00a03\u00a0", 3, true}, {"2.5e-3", 0.0025, true},
		{"50%", 0.5, true}, {"-4", -4, true}, {".5", 0.5, true}, {"1.", 1, true},
		{"", 0, false}, {"0,5", 0, false}, {"1 000", 0, false}, {"0x10", 0, false}, {"NaN", 0, false},
		{"Inf", 0, false}, {"1e400", 0, false}, {"1_000", 0, false}, {"Exp(3)", 0, false}, {"%", 0, false},
	} {
		got, ok := parseNumber(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("parseNumber(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestNormKey(t *testing.T) {
	for _, h := range []string{"ProcTime", "proc time", "PROC_TIME", " Proc  Time "} {
		if normKey(h) != "proctime" {
			t.Errorf("normKey(%q) = %q", h, normKey(h))
		}
	}
}

func TestProblemError(t *testing.T) {
	ps := Problems{
		{File: "SvcData.xlsx", Sheet: "ServerInfo", Cell: "B2", Msg: "capacity 0"},
		{File: "SvcData.xlsx", Sheet: "Arrivals", Msg: "missing sheet"},
		{File: "ProcData.xlsx", Msg: "missing workbook", Warning: true},
	}
	want := "SvcData.xlsx!ServerInfo!B2: capacity 0\nSvcData.xlsx!Arrivals: missing sheet\nwarning: ProcData.xlsx: missing workbook"
	if ps.Error() != want {
		t.Errorf("got %q", ps.Error())
	}
	if len(ps.Errors()) != 2 || len(ps.Warnings()) != 1 {
		t.Errorf("Errors %v Warnings %v", ps.Errors(), ps.Warnings())
	}
}

// FuzzReadTable is the light twin of FuzzReadSheet: the grid goes into an
// in-memory workbook (no files), and only the sheet layer reads it (header
// matching, raw values, numbers typed as text), for each kind of sheet.
// It runs thousands of inputs a second where FuzzReadSheet, which writes
// and reads a whole model per input, runs a few.
func FuzzReadTable(f *testing.F) {
	for _, seed := range []string{
		"Step|ProcTime|Server\nA|Exp(3)|MTC",
		"name|VALUE|note\nSeed| 7 |x\nLoads|all",
		"Server|Capacity|Time_Limit\nGWay|four|2,5",
		"|||\n\n\nStep\nA",
		"#DIV/0!|Step\nA|#N/A",
		"Entity|L1|L1\nASUM|Exp(1)|Exp(2)",
	} {
		f.Add(seed)
	}
	specs := []sheetSpec{serviceSpec, settingsSpec, serverSpec, arrivalsSpec, attributesSpec, entitySpec, experimentsSpec}
	f.Fuzz(func(t *testing.T, grid string) {
		if len(grid) > 2000 {
			return
		}
		x := xlsx.New()
		defer x.Close()
		for r, line := range strings.Split(grid, "\n") {
			for c, text := range strings.Split(line, "|") {
				if !validCellText(text) {
					return
				}
				if err := x.SetCell("Sheet1", xlsx.CellName(c, r+1), text); err != nil {
					return
				}
			}
		}
		x.Name = ProcDataFile
		b := &book{name: ProcDataFile, x: x, sheets: x.Sheets()}
		for _, spec := range specs {
			r := &reader{used: map[string]bool{}, model: &engine.Model{}}
			r.readTable(b, "Sheet1", spec)
			for _, p := range r.problems {
				if p.File != ProcDataFile || p.Sheet != "Sheet1" || p.Msg == "" || strings.Contains(p.Msg, "\n") {
					t.Errorf("problem not located on one line: %#v", p)
				}
			}
		}
	})
}
