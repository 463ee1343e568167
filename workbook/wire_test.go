package workbook

import (
	"errors"
	"strings"
	"testing"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/workbook/wbtest"
)

// problems reads m and returns its problems as text, one per line.
func problemsOf(t *testing.T, m *wbtest.Model) string {
	t.Helper()
	dir := t.TempDir()
	m.Write(t, dir)
	_, err := Read(dir)
	var ps Problems
	if err != nil && !errors.As(err, &ps) {
		t.Fatalf("Read: %v (not Problems)", err)
	}
	return strings.ReplaceAll(ps.Error(), dir, "MODEL")
}

func TestUnitQueueAndMaxAdmittedSettings(t *testing.T) {
	m := wbtest.Valid()
	m.Set(t, "SvcData.xlsx", "Settings", "A13", "Unit Queue")
	m.Set(t, "SvcData.xlsx", "Settings", "B13", "inflightfirst")
	m.Set(t, "SvcData.xlsx", "Settings", "A14", "MaxAdmitted")
	m.Set(t, "SvcData.xlsx", "Settings", "B14", 4)
	m.Set(t, "SvcData.xlsx", "Experiments", "D1", "UnitQueue")
	m.Set(t, "SvcData.xlsx", "Experiments", "E1", "MaxAdmitted")
	m.Set(t, "SvcData.xlsx", "Experiments", "D3", "FCFS")
	m.Set(t, "SvcData.xlsx", "Experiments", "E3", "none")
	dir := t.TempDir()
	m.Write(t, dir)
	plan, err := Read(dir)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	base, big := plan.Scenarios[0].Model.App, plan.Scenarios[1].Model.App
	if base.UnitQueue != engine.InFlightFirst || base.MaxAdmitted != 4 {
		t.Errorf("base: UnitQueue %v, MaxAdmitted %d; want InFlightFirst, 4", base.UnitQueue, base.MaxAdmitted)
	}
	if big.UnitQueue != engine.FCFS || big.MaxAdmitted != 0 {
		t.Errorf("Big: UnitQueue %v, MaxAdmitted %d; want FCFS, 0 (none)", big.UnitQueue, big.MaxAdmitted)
	}

	// Defaults: FCFS and no limit.
	plain := wbtest.Valid()
	dir = t.TempDir()
	plain.Write(t, dir)
	if plan, err = Read(dir); err != nil {
		t.Fatal(err)
	}
	if a := plan.Scenarios[0].Model.App; a.UnitQueue != engine.FCFS || a.MaxAdmitted != 0 {
		t.Errorf("defaults: UnitQueue %v, MaxAdmitted %d", a.UnitQueue, a.MaxAdmitted)
	}

	// Bad values are located, with what was expected.
	m.Set(t, "SvcData.xlsx", "Settings", "B13", "InFlightFrist")
	m.Set(t, "SvcData.xlsx", "Experiments", "E3", 2.5)
	got := problemsOf(t, m)
	for _, want := range []string{
		`SvcData.xlsx!Settings!B13: unknown unit queue "InFlightFrist"; did you mean "InFlightFirst"?; expected FCFS or InFlightFirst`,
		`SvcData.xlsx!Experiments!E3: MaxAdmitted 2.5 is not a whole number >= 1`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
}
