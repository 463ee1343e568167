package modeltext

import "testing"

// Two formulas without saved values (workbooks a script wrote) are not
// said to have the same value: neither is known.
func TestChangeOfFormulasWithoutValues(t *testing.T) {
	a, b := Cell{Formula: "=3*5"}, Cell{Formula: "=5*3"}
	if got, want := change(a, b), "formula =3*5 -> =5*3 (neither has a saved value to compare)"; got != want {
		t.Errorf("change = %q, want %q", got, want)
	}
}
