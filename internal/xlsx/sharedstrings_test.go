package xlsx

import (
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFirstBadSharedString(t *testing.T) {
	for _, c := range []struct {
		name, sheet string
		count       int
		ref         string
		index       int64
		bad         bool
	}{
		{"indexes in range", `<row><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>2</v></c><c r="C1"><v>7</v></c></row>`, 3, "", 0, false},
		{"past the table", `<row><c r="A1" t="s"><v>0</v></c><c r="B4" s="1" t="s"><v>3</v></c></row>`, 3, "B4", 3, true},
		{"a namespace prefix", `<x:row><x:c r="C2" t="s"><x:v>5</x:v></x:c></x:row>`, 5, "C2", 5, true},
		{"a formula before the value", `<c r="D1" t="s"><f>A1</f><v>9</v></c>`, 2, "D1", 9, true},
		{"not a number", `<c r="E1" t="s"><v>x</v></c>`, 2, "E1", -1, true},
		{"no shared strings at all", `<c r="F1" t="s"><v>0</v></c>`, -1, "F1", 0, true},
		{"a cell without a value", `<c r="G1" t="s"/><c r="G2" t="s"></c><c r="G3"><v>1</v></c>`, 0, "", 0, false},
		{"another element's t", `<foo t="s"><v>9</v></foo><c r="H1"><v>9</v></c>`, 0, "", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ref, index, bad := firstBadSharedString([]byte(c.sheet), c.count)
			if ref != c.ref || index != c.index || bad != c.bad {
				t.Errorf("got %q %d %v, want %q %d %v", ref, index, bad, c.ref, c.index, c.bad)
			}
		})
	}
}

// A cell whose shared text is past the end of the table is read by the
// library as blank; Open refuses the workbook instead, at that cell.
func TestOpenRefusesASharedStringPastTheTable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "B.xlsx")
	b := New()
	must(t, b.SetRow("Sheet1", 1, "Name", "Value"))
	must(t, b.SetRow("Sheet1", 2, "Seed", 7.0))
	must(t, b.Save(path))
	b.Close()
	if r, err := Open(path); err != nil {
		t.Fatalf("the workbook as saved: %v", err)
	} else {
		r.Close()
	}
	// B2's number becomes shared text number 999, of the three the table
	// holds (Name, Value, Seed).
	data, err := os.ReadFile(path)
	must(t, err)
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	must(t, err)
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	changed := false
	for _, f := range zr.File {
		part, err := readPart(f)
		must(t, err)
		if f.Name == "xl/worksheets/sheet1.xml" {
			fixed := bytes.Replace(part, []byte(`<c r="B2"><v>7</v></c>`), []byte(`<c r="B2" t="s"><v>999</v></c>`), 1)
			changed = !bytes.Equal(fixed, part)
			part = fixed
		}
		w, err := zw.Create(f.Name)
		must(t, err)
		_, err = w.Write(part)
		must(t, err)
	}
	must(t, zw.Close())
	if !changed {
		t.Fatal("no cell B2 of 7 to damage in the sheet")
	}
	must(t, os.WriteFile(path, out.Bytes(), 0o644))
	_, err = Open(path)
	var p Problem
	if !errors.As(err, &p) || !errors.Is(err, ErrDamaged) || p.Where() != "B.xlsx!Sheet1!B2" || !strings.Contains(p.Msg, "shared text number 999, but the workbook holds 3") {
		t.Errorf("Open: %v; want ErrDamaged at B.xlsx!Sheet1!B2", err)
	}
}

func TestSharedItems(t *testing.T) {
	for _, c := range []struct {
		part string
		want int
	}{
		{`<?xml version="1.0"?><sst xmlns="x" count="3"><si><t>a</t></si><si><r><t>b</t></r></si><si/></sst>`, 3},
		{`<x:sst xmlns:x="x"><x:si><x:t>a</x:t></x:si><x:si xml:space="preserve"><x:t>b</x:t></x:si></x:sst>`, 2},
		{`<sst count="0"></sst>`, 0},
	} {
		if got := sharedItems([]byte(c.part)); got != c.want {
			t.Errorf("sharedItems(%s) = %d, want %d", c.part, got, c.want)
		}
	}
}
