package templates

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/websim/websim/internal/xlsx"
)

var update = flag.Bool("update", false, "regenerate templates/<name>/ and samples/asum, samples/mmc")

// committed are the folders that hold each template's generated files: the
// template folder itself, and for asum and mmc the sample too.
func committed(name string) []string {
	dirs := []string{name}
	if name == "asum" || name == "mmc" {
		dirs = append(dirs, filepath.Join("..", "samples", name))
	}
	return dirs
}

// TestCommittedFilesAreGenerated checks that templates/<name>/ and the
// samples hold what the generator makes; -update rewrites them (the
// samples' README.md files are written by hand and left alone).
func TestCommittedFilesAreGenerated(t *testing.T) {
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			fresh := filepath.Join(t.TempDir(), name)
			if err := Create(fresh, name); err != nil {
				t.Fatal(err)
			}
			files, _ := Files(name)
			for _, dir := range committed(name) {
				if *update {
					if err := os.MkdirAll(dir, 0o755); err != nil {
						t.Fatal(err)
					}
					for _, f := range files {
						data, err := os.ReadFile(filepath.Join(fresh, f))
						if err != nil {
							t.Fatal(err)
						}
						fi, _ := os.Stat(filepath.Join(fresh, f))
						if err := os.WriteFile(filepath.Join(dir, f), data, fi.Mode().Perm()); err != nil {
							t.Fatal(err)
						}
						os.Chmod(filepath.Join(dir, f), fi.Mode().Perm())
					}
					continue
				}
				for _, f := range files {
					got, want := filepath.Join(dir, f), filepath.Join(fresh, f)
					if strings.HasSuffix(f, ".xlsx") {
						if g, w := dump(t, got), dump(t, want); g != w {
							t.Errorf("%s is not what the generator makes (go test ./templates -update):\n%s", got, diff(g, w))
						}
						continue
					}
					g, err := os.ReadFile(got)
					if err != nil {
						t.Fatalf("%v (go test ./templates -update)", err)
					}
					w, _ := os.ReadFile(want)
					// Line ends aside: a Windows checkout may convert them.
					cr := []byte("\r")
					if !bytes.Equal(bytes.ReplaceAll(g, cr, nil), bytes.ReplaceAll(w, cr, nil)) {
						t.Errorf("%s is not what the generator makes (go test ./templates -update)", got)
					}
				}
			}
		})
	}
}

// dump is a text dump of a workbook: custom properties, then per sheet its
// cells (with their types), comments, data validations, frozen panes and
// column widths.
func dump(t *testing.T, path string) string {
	t.Helper()
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	props, _ := f.Properties()
	for _, name := range slices.Sorted(maps.Keys(props)) {
		fmt.Fprintf(&b, "property %s = %v\n", name, props[name])
	}
	for _, sh := range f.Sheets() {
		fmt.Fprintf(&b, "== %s\n", sh)
		rows, err := f.Rows(sh)
		if err != nil {
			t.Fatal(err)
		}
		for r, row := range rows {
			for c, v := range row {
				if v == "" {
					continue
				}
				cell := cellName(c+1, r+1)
				typ, _ := f.TypeOf(sh, cell)
				fmt.Fprintf(&b, "%s [%d] %s\n", cell, typ, v)
			}
		}
		comments, _ := f.Comments(sh)
		for _, c := range comments {
			fmt.Fprintf(&b, "comment %s (%s): %s\n", c.Cell, c.Author, c.Text)
		}
		dvs, _ := f.Validations(sh)
		for _, d := range dvs {
			fmt.Fprintf(&b, "validation %s %s %s error=%v\n", d.Sqref, d.Type, d.Formula1, d.ErrorStyle)
		}
		frozen, _ := f.FrozenRows(sh)
		fmt.Fprintf(&b, "panes freeze=%v ysplit=%d\n", frozen > 0, frozen)
		cols, _ := f.ColCount(sh)
		for i := range max(cols, 1) {
			w, _ := f.ColWidth(sh, i)
			fmt.Fprintf(&b, "width %s %.1f\n", xlsx.ColumnName(i), w)
		}
	}
	return b.String()
}

// diff shows the first differing line of two dumps.
func diff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n committed: %s\n generated: %s", i+1, gl, wl)
		}
	}
	return ""
}

func TestCreate(t *testing.T) {
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "model")
			if err := Create(dir, name); err != nil {
				t.Fatal(err)
			}
			files, _ := Files(name)
			for _, f := range files {
				fi, err := os.Stat(filepath.Join(dir, f))
				if err != nil {
					t.Fatal(err)
				}
				exec := fi.Mode().Perm()&0o111 != 0
				if want := f == "run.sh" || f == "run.command"; exec != want {
					t.Errorf("%s executable = %v, want %v", f, exec, want)
				}
				if !strings.HasSuffix(f, ".xlsx") {
					continue
				}
				checkWorkbook(t, filepath.Join(dir, f))
			}
		})
	}
}

// checkWorkbook checks what every template workbook has: the version
// property, and on every sheet a frozen header whose cells carry comments.
func checkWorkbook(t *testing.T, path string) {
	t.Helper()
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	props, _ := f.Properties()
	if props[VersionProperty] != "1" {
		t.Errorf("%s: custom properties %v, want %s = 1", path, props, VersionProperty)
	}
	if filepath.Base(path) == "Parameters.xlsx" {
		return // laid out by package lb
	}
	for _, sh := range f.Sheets() {
		if frozen, _ := f.FrozenRows(sh); frozen != 1 {
			t.Errorf("%s!%s: header not frozen", filepath.Base(path), sh)
		}
		rows, _ := f.Rows(sh)
		comments, _ := f.Comments(sh)
		commented := map[string]bool{}
		for _, c := range comments {
			commented[c.Cell] = true
		}
		if len(rows) == 0 {
			t.Errorf("%s!%s: no header", filepath.Base(path), sh)
			continue
		}
		for i := range rows[0] {
			if cell := cellName(i+1, 1); !commented[cell] {
				t.Errorf("%s!%s!%s: header without a comment", filepath.Base(path), sh, cell)
			}
		}
	}
}

func TestCreateRefuses(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Create(dir, "asum"); !errors.Is(err, ErrNotEmpty) {
		t.Errorf("Create into a non-empty folder: err = %v, want ErrNotEmpty", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "SvcData.xlsx")); err == nil {
		t.Error("Create wrote into a non-empty folder")
	}
	if err := Create(filepath.Join(dir, "x"), "asm"); !errors.Is(err, ErrUnknown) {
		t.Errorf("Create with an unknown template: err = %v, want ErrUnknown", err)
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	if err := Create(empty, "blank"); err != nil {
		t.Errorf("Create into an empty folder: %v", err)
	}
}

// The asum template is the paper's example: spot-check what the brief fixes.
func TestAsumContent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "asum")
	if err := Create(dir, "asum"); err != nil {
		t.Fatal(err)
	}
	svc := dump(t, filepath.Join(dir, "SvcData.xlsx"))
	proc := dump(t, filepath.Join(dir, "ProcData.xlsx"))
	for _, want := range []string{
		"== Settings", "== ServerInfo", "== Arrivals", "== Attributes", "== ASUM", "== Experiments",
		"B8 [0] 10", "D4 [7] Exp(13.3)", "K2 [7] Exp(12)", "C2 [7] UniformInt(1,6)",
		"A11 [7] M10-TActive20", "validation B10 list \"LBS,Random,Cyclic\"",
	} {
		if !strings.Contains(svc, want) {
			t.Errorf("SvcData lacks %q", want)
		}
	}
	for _, want := range []string{
		"== Start", "== CardSvc", "== ASumSvc", "== GetASum", "== GWaySvc", "== Customization",
		`G2 [7] AppUtil < SwitchUtil ? "parallel" : "sequential"`, "F2 [7] Cards", "C3 [0] 0.995",
	} {
		if !strings.Contains(proc, want) {
			t.Errorf("ProcData lacks %q", want)
		}
	}
}
