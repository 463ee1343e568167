package workbook

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/study"
	"github.com/websim/websim/workbook/wbtest"
)

// Budgets of a fuzzed model: reading it, and a tiny run of what reads as
// valid, must each end within their time, and neither may hold more than
// fuzzMemory bytes of heap. A model that needs more is one the limits
// should have refused.
const (
	fuzzReadTime = 10 * time.Second
	fuzzRunTime  = 10 * time.Second
	fuzzMemory   = 1 << 30
)

// FuzzModelCells puts one value into one cell of the valid model (any
// sheet, any cell of its first rows and columns, headers included), reads
// the model within a time and memory budget, and runs what is valid for a
// few observations within its budget: every input ends in located
// problems, a run-time error located at a cell, or a run.
func FuzzModelCells(f *testing.F) {
	for _, seed := range []struct {
		sheet uint8
		ref   string
		value string
	}{
		{0, "B5", "1e9"}, {0, "B4", "1e12"}, {0, "B12", "1e12"}, {1, "B2", "1e9"}, {2, "B2", "Const(1e308)"},
		{2, "C3", ""}, {2, "B2", "0"}, {2, "B2", "Exp(1e-300)"}, {3, "B3", "AppUtil"}, {6, "B3", "1e9"},
		{7, "B2", ""}, {7, "B1", ""}, {8, "F2", "1000000"}, {8, "F2", "Cards * 1e6"}, {9, "C1", ""},
		{0, "B4", "=B5"}, {0, "B5", "=B4"}, {8, "F2", "Cards * 1600"}, {8, "F2", "9000"}, {7, "B2", "Exp(1,5)"}, {1, "A1", "Servers"}, {2, "D2", "None"},
	} {
		f.Add(seed.sheet, seed.ref, seed.value)
	}
	f.Fuzz(func(t *testing.T, which uint8, ref, value string) {
		if !validCellText(value) || len(value) > 200 {
			return
		}
		col, row, err := xlsx.CellCoordinates(ref)
		if err != nil || col > 12 || row > 16 {
			return
		}
		m := wbtest.Valid()
		var sheets []*wbtest.Sheet
		for _, b := range []*wbtest.Book{&m.Svc, &m.Proc} {
			sheets = append(sheets, b.Sheets...)
		}
		s := sheets[int(which)%len(sheets)]
		var v any = value
		if n, ok := parseNumber(value); ok && !strings.HasSuffix(value, "%") {
			v = n
		} else if strings.HasPrefix(value, "=") {
			v = wbtest.Formula(value)
		} else if value == "" {
			v = nil
		}
		file := "SvcData.xlsx"
		if containsSheet(m.Proc.Sheets, s) {
			file = "ProcData.xlsx"
		}
		m.Set(t, file, s.Name, ref, v)
		dir := t.TempDir()
		m.Write(t, dir)
		var plan *study.Plan
		withinBudget(t, "Read", fuzzReadTime, func(ctx context.Context) {
			plan, err = Read(dir)
		})
		if err != nil {
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("Read returned %T: %v", err, err)
			}
			return
		}
		for i := range plan.Scenarios {
			run := &plan.Scenarios[i].Run
			run.Observations, run.Replications = min(run.Observations, 300), 1
			run.Loads = run.Loads[:min(len(run.Loads), 1)]
		}
		withinBudget(t, "the run", fuzzRunTime, func(ctx context.Context) {
			_, err = study.Execute(ctx, plan, study.Options{Jobs: 1})
		})
		var re *engine.RunError
		if err != nil && !errors.As(err, &re) {
			t.Fatalf("the run failed without a located error: %v", err)
		}
	})
}

func containsSheet(list []*wbtest.Sheet, s *wbtest.Sheet) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// withinBudget calls work with a context that ends after d and fails the
// test when work outlives it by more than a second or when the heap grows
// beyond fuzzMemory meanwhile.
func withinBudget(t *testing.T, what string, d time.Duration, work func(ctx context.Context)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	done := make(chan struct{})
	var peak uint64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		var ms runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapAlloc)
			}
		}
	}()
	finished := make(chan struct{})
	go func() { work(ctx); close(finished) }()
	select {
	case <-finished:
	case <-time.After(d + time.Second):
		close(done)
		wg.Wait()
		t.Fatalf("%s did not end within %v", what, d)
	}
	close(done)
	wg.Wait()
	if peak > fuzzMemory {
		t.Fatalf("%s held %d MB of heap, more than the budget of %d MB", what, peak>>20, fuzzMemory>>20)
	}
	if ctx.Err() != nil {
		t.Fatalf("%s reached its deadline of %v", what, d)
	}
}
