package workbook

import (
	"errors"
	"strings"
	"testing"

	"github.com/websim/websim/workbook/wbtest"
)

// An expression that reads an attribute some of the requests reaching it
// do not carry is refused at its cell, naming those entities: their
// requests would read 0 (a Count of 0 that skips the step, say) and give
// plausible figures from nothing.
func TestAttributesDrawnByEveryEntityThatReadsThem(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(t *testing.T, m *wbtest.Model)
		want []string // "cell: words of the message", in order; none: valid
	}{
		{"each entity runs only what its own attributes serve", func(t *testing.T, m *wbtest.Model) {}, nil},
		{"Ping runs ASUM's service, whose Count and Condition read Cards and Pages", func(t *testing.T, m *wbtest.Model) {
			m.Set(t, "SvcData.xlsx", "Ping", "A3", "ASumSvc")
		}, []string{
			`ProcData.xlsx!ASumSvc!F2: requests of Ping run service "ASumSvc" without the attribute "Cards" that its Count reads (Ping draws none in SvcData.xlsx!Attributes), so the Count would read 0 for them; expected a row for Ping with "Cards" in Attributes`,
			`ProcData.xlsx!ASumSvc!H3: requests of Ping run service "ASumSvc" without the attribute "Pages" that its Condition reads`,
		}},
		{"a nested service's cell, reached through the service that runs it", func(t *testing.T, m *wbtest.Model) {
			m.Set(t, "SvcData.xlsx", "Ping", "A3", "ASumSvc")
			m.Set(t, "SvcData.xlsx", "Attributes", "A4", "Ping")
			m.Set(t, "SvcData.xlsx", "Attributes", "B4", "Cards")
			m.Set(t, "SvcData.xlsx", "Attributes", "C4", 0)
			m.Set(t, "ProcData.xlsx", "GetASum", "D1", "SuccessRate")
			m.Set(t, "ProcData.xlsx", "GetASum", "D2", "Pages > 3 ? 0.9 : 1")
		}, []string{
			`ProcData.xlsx!ASumSvc!H3: requests of Ping run service "ASumSvc" without the attribute "Pages"`,
			`ProcData.xlsx!GetASum!D2: requests of Ping run service "GetASum" without the attribute "Pages" that its SuccessRate reads`,
		}},
		{"a RAT of Experiments reads what only ASUM draws", func(t *testing.T, m *wbtest.Model) {
			m.Set(t, "SvcData.xlsx", "Experiments", "D1", "RAT")
			m.Set(t, "SvcData.xlsx", "Experiments", "D3", "Cards * AppUtil")
		}, []string{
			`SvcData.xlsx!Experiments!D3: requests of Ping take units of the application servers without the attribute "Cards" that its RAT reads`,
		}},
		{"Ping's RetryProbability reads Cards", func(t *testing.T, m *wbtest.Model) {
			m.Set(t, "SvcData.xlsx", "Arrivals", "F3", "Cards > 2 ? 0.5 : 0")
		}, []string{
			`SvcData.xlsx!Arrivals!F3: requests of Ping retry without the attribute "Cards" that its RetryProbability reads`,
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := wbtest.Valid()
			tt.edit(t, m)
			dir := t.TempDir()
			m.Write(t, dir)
			_, err := Read(dir)
			var ps Problems
			if err != nil && !errors.As(err, &ps) {
				t.Fatal(err)
			}
			got := ps.Errors()
			if len(got) != len(tt.want) {
				t.Fatalf("got %d problems, want %d:\n%v", len(got), len(tt.want), err)
			}
			for i, w := range tt.want {
				if s := got[i].Where() + ": " + got[i].Msg; !strings.HasPrefix(s, w) {
					t.Errorf("problem %d:\n%s\nwant it to begin\n%s", i, s, w)
				}
			}
		})
	}
}
