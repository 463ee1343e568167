package workbook_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/rules"
	"github.com/websim/websim/workbook"
	"github.com/websim/websim/workbook/wbtest"
)

// A problem keeps its typed cause: the rules error of an expression cell
// (with its caret), the xlsx sentinel of a formula or a missing sheet.
func TestProblemsKeepTheirCause(t *testing.T) {
	dir := t.TempDir()
	m := wbtest.Valid()
	m.Set(t, "ProcData.xlsx", "ASumSvc", "H3", "Pages > 2 and Pgaes < 9")
	m.Set(t, "SvcData.xlsx", "ServerInfo", "B2", wbtest.Formula("=1/0"))
	m.Remove(t, "SvcData.xlsx", "Ping")
	m.Write(t, dir)
	_, err := workbook.Read(dir)
	var ps workbook.Problems
	if !errors.As(err, &ps) {
		t.Fatalf("err = %v, want Problems", err)
	}
	var re *rules.Error
	if !errors.As(err, &re) || re.Src != "Pages > 2 and Pgaes < 9" {
		t.Errorf("no *rules.Error among the problems:\n%v", err)
	}
	if !errors.Is(err, xlsx.ErrFormula) || !errors.Is(err, xlsx.ErrNotFound) {
		t.Errorf("ErrFormula %v, ErrNotFound %v; want both:\n%v", errors.Is(err, xlsx.ErrFormula), errors.Is(err, xlsx.ErrNotFound), err)
	}
	for _, p := range ps {
		if p.Cell == "H3" && !strings.Contains(p.Caret(), "^") {
			t.Errorf("%v: no caret", p)
		}
	}
}
