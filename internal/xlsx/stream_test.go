package xlsx

import (
	"path/filepath"
	"testing"
)

// A streamed sheet keeps the layout set before it (widths, frozen rows,
// drop-down lists), its header row's style, formulas with their saved
// values and types, and comments added after; RawGrid reads the cells as
// saved, formulas unresolved.
func TestStreamRowsKeepLayoutAndSavedFormulas(t *testing.T) {
	path := filepath.Join(t.TempDir(), "S.xlsx")
	b := New()
	b.RenameSheet("Sheet1", "S")
	b.ColWidths("S", 1, 17)
	b.FreezeRows("S", 1)
	b.AddDropList("S", "C2:C9", DropList{Items: []string{"x", "y"}, Strict: true, Title: "Not a letter", Message: "Choose x or y."})
	b.StreamRows("S", []NumberedRow{
		{Num: 1, Values: []any{"Name", "Value", "Choice"}, Style: Header},
		{Num: 3, Values: []any{"n", SavedFormula{Formula: "=3*5", Value: 15.0}, SavedFormula{Formula: "=LOWER(\"Y\")", Value: "y"}}},
		{Num: 4, Values: []any{"none", SavedFormula{Formula: "=1+1"}}},
	})
	b.Comment("S", "A1", "Name", "a name")
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	b.Close()

	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if w, _ := b.ColWidth("S", 1); w != 17 {
		t.Errorf("width of B = %g, want 17", w)
	}
	if n, _ := b.FrozenRows("S"); n != 1 {
		t.Errorf("frozen rows = %d, want 1", n)
	}
	if l, _ := b.LookOf("S", "B1"); !l.Bold {
		t.Error("the header row is not styled")
	}
	if l, _ := b.LookOf("S", "B3"); l.Bold {
		t.Error("a value row is styled as the header")
	}
	dvs, _ := b.Validations("S")
	if len(dvs) != 1 || dvs[0].Sqref != "C2:C9" || dvs[0].ErrorStyle != "stop" || dvs[0].ErrorTitle != "Not a letter" || dvs[0].ErrorMessage != "Choose x or y." {
		t.Errorf("validations = %+v", dvs)
	}
	if cs, _ := b.Comments("S"); len(cs) != 1 || cs[0].Text != "Name: a name" {
		t.Errorf("comments = %+v", cs)
	}
	for ref, want := range map[string]CellType{"B3": Unset, "C3": FormulaCell} {
		if typ, _ := b.TypeOf("S", ref); typ != want && !(want == Unset && typ == NumberCell) {
			t.Errorf("type of %s = %v, want %v", ref, typ, want)
		}
	}
	if f, _ := b.Formula("S", "B3"); f != "3*5" {
		t.Errorf("formula of B3 = %q", f)
	}
	grid, err := b.RawGrid("S")
	if err != nil {
		t.Fatal(err)
	}
	var nums []int
	for _, r := range grid {
		nums = append(nums, r.Num)
	}
	if len(grid) != 3 || nums[1] != 3 || grid[1].At(1).Text != "15" || grid[1].At(2).Text != "y" || grid[2].At(1).Text != "" {
		t.Errorf("RawGrid = %+v", grid)
	}
}
