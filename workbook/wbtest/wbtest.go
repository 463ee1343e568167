// Package wbtest builds model workbooks in code for tests: a Model is a list
// of sheets per file, each a grid of cells, that tests change cell by cell
// and write into a folder as SvcData.xlsx and ProcData.xlsx.
package wbtest

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/websim/websim/internal/xlsx"
)

// Formula is a cell holding an Excel formula (without its value, as a
// workbook written by code has none).
type Formula = xlsx.Formula

// Sheet is a named grid of cells; Rows[0] is row 1. Far holds rows far
// below the grid, by row number.
type Sheet struct {
	Name string
	Rows [][]any
	Far  map[int][]any
}

// Book is one workbook's sheets and its custom document properties.
type Book struct {
	Sheets []*Sheet
	Props  map[string]any
}

// Model is the two workbooks of a model folder.
type Model struct {
	Svc, Proc Book
}

// Book returns the workbook named "SvcData.xlsx" or "ProcData.xlsx".
func (m *Model) Book(file string) *Book {
	if strings.HasPrefix(strings.ToLower(file), "svc") {
		return &m.Svc
	}
	return &m.Proc
}

// Sheet finds a sheet of file, or fails the test.
func (m *Model) Sheet(t testing.TB, file, name string) *Sheet {
	t.Helper()
	for _, s := range m.Book(file).Sheets {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("wbtest: no sheet %s!%s", file, name)
	return nil
}

// Set puts v in the cell ref ("B3") of file!sheet, growing the grid.
func (m *Model) Set(t testing.TB, file, sheet, ref string, v any) {
	t.Helper()
	s := m.Sheet(t, file, sheet)
	col, row, err := xlsx.CellCoordinates(ref)
	if err != nil {
		t.Fatal(err)
	}
	for len(s.Rows) < row {
		s.Rows = append(s.Rows, nil)
	}
	for len(s.Rows[row-1]) < col {
		s.Rows[row-1] = append(s.Rows[row-1], nil)
	}
	s.Rows[row-1][col-1] = v
}

// Remove deletes a sheet.
func (m *Model) Remove(t testing.TB, file, sheet string) {
	t.Helper()
	b := m.Book(file)
	for i, s := range b.Sheets {
		if s.Name == sheet {
			b.Sheets = append(b.Sheets[:i], b.Sheets[i+1:]...)
			return
		}
	}
	t.Fatalf("wbtest: no sheet %s!%s", file, sheet)
}

// Add appends a sheet.
func (m *Model) Add(file, name string, rows ...[]any) *Sheet {
	s := &Sheet{Name: name, Rows: rows}
	b := m.Book(file)
	b.Sheets = append(b.Sheets, s)
	return s
}

// Write writes SvcData.xlsx and ProcData.xlsx into dir.
func (m *Model) Write(t testing.TB, dir string) {
	t.Helper()
	for file, b := range map[string]*Book{"SvcData.xlsx": &m.Svc, "ProcData.xlsx": &m.Proc} {
		if err := b.Write(filepath.Join(dir, file)); err != nil {
			t.Fatal(err)
		}
	}
}

// Write saves the workbook at path, each sheet streamed row by row.
func (b *Book) Write(path string) error {
	f := xlsx.New()
	defer f.Close()
	for i, s := range b.Sheets {
		if i == 0 {
			f.RenameSheet("Sheet1", s.Name)
		} else {
			f.NewSheet(s.Name)
		}
		var rows []xlsx.NumberedRow
		for r, cells := range s.Rows {
			rows = append(rows, xlsx.NumberedRow{Num: r + 1, Values: cells})
		}
		for _, r := range slices.Sorted(maps.Keys(s.Far)) {
			rows = append(rows, xlsx.NumberedRow{Num: r, Values: s.Far[r]})
		}
		f.StreamRows(s.Name, rows)
	}
	if len(b.Sheets) == 0 {
		return fmt.Errorf("wbtest: %s has no sheets", path)
	}
	for name, v := range b.Props {
		f.SetProperty(name, v)
	}
	return f.Save(path)
}

// Valid returns a small valid model: entities ASUM and Ping; services
// Start (a call to GWay with a time limit, then local work), ASumSvc (a
// nested step running GetASum Cards times in an expression Mode, then a
// conditional local step) and GetASum (a call to MTC); attributes Cards
// and Pages; and two scenarios.
func Valid() *Model {
	m := &Model{}
	m.Add("SvcData.xlsx", "Settings",
		[]any{"Name", "Value", "Note"},
		[]any{"TimeUnit", "ms", "every time in milliseconds"},
		[]any{"Seed", 7},
		[]any{"Observations", 5000},
		[]any{"App Servers", 2},
		[]any{"AppCapacity", "10"},
		[]any{"SelectionRule", "random"},
		[]any{"RATParameter", 50},
		[]any{"TActive", 0},
		[]any{"SwitchUtil", 0.5, "parallel below this utilisation"},
		[]any{"Loads", "L1, L2"},
		[]any{"WarmUp", "auto"},
	)
	m.Add("SvcData.xlsx", "ServerInfo",
		[]any{"Server", "Capacity", "TimeLimit", "BackgroundInterArrival", "BackgroundServiceTime"},
		[]any{"GWay", 4, 2000, "Exp(10)", "Exp(6)"},
		[]any{"MTC", 2},
	)
	m.Add("SvcData.xlsx", "Arrivals",
		[]any{"Entity", "L1", "L2", "L3", "Patience", "RetryProbability", "RetryDelay", "MaxRetries"},
		[]any{"ASUM", "Exp(100)", "Exp(50)", "Exp(25)", nil, 0.5, "Exp(1000)", 2},
		[]any{"Ping", "Exp(200)", "None", "Exp(100)"},
	)
	m.Add("SvcData.xlsx", "Attributes",
		[]any{"Entity", "Attribute", "Value"},
		[]any{"ASUM", "Cards", "UniformInt(1,6)"},
		[]any{"ASUM", "Pages", "Cards * 2"},
	)
	m.Add("SvcData.xlsx", "ASUM",
		[]any{"Service", "OnSuccess", "OnFailure"},
		[]any{"Start"},
		[]any{"ASumSvc"},
	)
	m.Add("SvcData.xlsx", "Ping",
		[]any{"Service"},
		[]any{"Start"},
	)
	m.Add("SvcData.xlsx", "Experiments",
		[]any{"Scenario", "AppServers", "SelectionRule"},
		[]any{"Base"},
		[]any{"Big", 4, "LBS"},
	)
	m.Add("ProcData.xlsx", "Start",
		[]any{"Step", "ProcTime", "SuccessRate", "Server"},
		[]any{"Auth", "Exp(2)", 0.99, "GWay"},
		[]any{"Log", 1},
	)
	m.Add("ProcData.xlsx", "ASumSvc",
		[]any{"Step", "ProcTime", "SuccessRate", "Server", "Service", "Count", "Mode", "Condition", "OnSuccess", "OnFailure"},
		[]any{"Fetch", nil, nil, nil, "GetASum", "Cards", `AppUtil < SwitchUtil ? "parallel" : "sequential"`},
		[]any{"Render", "Normal(5,1)", nil, "App", nil, nil, nil, "Pages > 2", "DONE", "FAIL"},
	)
	m.Add("ProcData.xlsx", "GetASum",
		[]any{"Step", "ProcTime", "Server"},
		[]any{"Gw", "Exp(3)", "MTC"},
	)
	return m
}
