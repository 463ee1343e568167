package modeltext_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/websim/websim/lb"
	"github.com/websim/websim/modeltext"
	"github.com/websim/websim/report"
	"github.com/websim/websim/study"
	"github.com/websim/websim/templates"
	"github.com/websim/websim/workbook"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// source is a model the tests export: a folder, or a single workbook.
type source struct {
	name string
	path string
	// workbookOnly marks a single workbook (the load balancer's).
	workbookOnly bool
}

// sources are every template (made afresh by `websim new`'s code) and
// every sample.
func sources(t *testing.T) []source {
	t.Helper()
	var out []source
	for _, name := range templates.Names() {
		dir := filepath.Join(t.TempDir(), name)
		if err := templates.Create(dir, name); err != nil {
			t.Fatal(err)
		}
		if name == "loadbalancer" {
			out = append(out, source{"template-" + name, filepath.Join(dir, "Parameters.xlsx"), true})
			continue
		}
		out = append(out, source{"template-" + name, dir, false})
	}
	out = append(out,
		source{"sample-asum", filepath.Join("..", "samples", "asum"), false},
		source{"sample-mmc", filepath.Join("..", "samples", "mmc"), false},
		source{"sample-loadbalancer", filepath.Join("..", "samples", "loadbalancer", "Parameters.xlsx"), true},
	)
	return out
}

func export(t *testing.T, path string) []byte {
	t.Helper()
	m, err := modeltext.Load(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	text, err := m.Text()
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./modeltext -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test ./modeltext -update rewrites it):\n%s", path, firstDifference(string(want), string(got)))
	}
}

func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n want %q\n  got %q", i+1, wl, gl)
		}
	}
	return "(same lines)"
}

// importText writes text's workbooks into a new folder and returns it.
func importText(t *testing.T, text []byte) string {
	t.Helper()
	m, err := modeltext.Parse("model.yaml", text)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := modeltext.Write(m, dir, false); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestExportGolden(t *testing.T) {
	for _, s := range sources(t) {
		t.Run(s.name, func(t *testing.T) {
			golden(t, filepath.Join("export", s.name+".yaml"), export(t, s.path))
		})
	}
}

// The workbooks committed under templates/ are the text of the golden
// exports: their history is readable in testdata/export.
func TestCommittedTemplatesAreTheirText(t *testing.T) {
	if *update {
		t.Skip("the golden files are being rewritten")
	}
	for _, name := range templates.Names() {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("..", "templates", name)
			if name == "loadbalancer" {
				path = filepath.Join(path, "Parameters.xlsx")
			}
			golden(t, filepath.Join("export", "template-"+name+".yaml"), export(t, path))
		})
	}
}

// import then export gives the same text, byte for byte.
func TestImportThenExportIsTheSameText(t *testing.T) {
	for _, s := range sources(t) {
		t.Run(s.name, func(t *testing.T) {
			text := export(t, s.path)
			dir := importText(t, text)
			again := dir
			if s.workbookOnly {
				again = filepath.Join(dir, filepath.Base(s.path))
			}
			if got := export(t, again); !bytes.Equal(got, text) {
				t.Errorf("export(import(text)) differs:\n%s", firstDifference(string(text), string(got)))
			}
		})
	}
}

// export then import reads as the same model, with the same results for
// the same seed.
func TestExportThenImportIsTheSameModel(t *testing.T) {
	for _, s := range sources(t) {
		t.Run(s.name, func(t *testing.T) {
			dir := importText(t, export(t, s.path))
			if s.workbookOnly {
				sameParameters(t, s.path, filepath.Join(dir, filepath.Base(s.path)))
				return
			}
			want, errW := workbook.Read(s.path)
			got, errG := workbook.Read(dir)
			if errW != nil || errG != nil {
				// The blank template is not yet a model: the same problems.
				if fmt.Sprint(errW) != fmt.Sprint(errG) {
					t.Fatalf("the problems differ:\n want %v\n  got %v", errW, errG)
				}
				return
			}
			if !reflect.DeepEqual(planFacts(want), planFacts(got)) {
				t.Errorf("the plans differ:\n want %v\n  got %v", planFacts(want), planFacts(got))
			}
			if w, g := results(t, want), results(t, got); w != g {
				t.Errorf("results differ at the same seed:\n%s", firstDifference(w, g))
			}
		})
	}
}

// planFacts are what a plan says apart from compiled code: settings,
// scenarios and how they run, warnings.
func planFacts(p *study.Plan) []string {
	facts := []string{"time unit " + p.TimeUnit}
	for _, s := range p.Settings {
		facts = append(facts, fmt.Sprintf("setting %+v", s))
	}
	for _, sc := range p.Scenarios {
		m := sc.Model
		facts = append(facts, fmt.Sprintf("scenario %s %+v %+v loads %v servers %d entities %d services %d",
			sc.Name, sc.Run, sc.Overrides, m.Loads, len(m.Servers), len(m.Entities), len(m.Services)))
	}
	return append(facts, p.Warnings...)
}

// results runs a short study (two scenarios, two loads, 2000 requests)
// and returns its JSON without wall times.
func results(t *testing.T, p *study.Plan) string {
	t.Helper()
	p.Model, p.Inputs = "model", nil
	p.Scenarios = p.Scenarios[:min(2, len(p.Scenarios))]
	for i := range p.Scenarios {
		r := &p.Scenarios[i].Run
		r.Loads = r.Loads[:min(2, len(r.Loads))]
		r.Observations, r.Replications, r.TargetPrecision = 2000, 1, 0
	}
	st, err := study.Execute(context.Background(), p, study.Options{Jobs: 1, Now: func() time.Time { return time.Unix(0, 0) }})
	if err != nil {
		t.Fatal(err)
	}
	for i := range st.Runs {
		st.Runs[i].WallSeconds = 0
	}
	var b bytes.Buffer
	if err := report.WriteJSON(&b, st); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// sameParameters checks that two load-balancer workbooks hold the same
// parameters and give the same results.
func sameParameters(t *testing.T, want, got string) {
	t.Helper()
	load := func(path string) lb.Params {
		src, err := lb.Load(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if src.Workbook != nil {
			src.Workbook.Close()
		}
		return src.Params
	}
	pw, pg := load(want), load(got)
	if !reflect.DeepEqual(pw, pg) {
		t.Fatalf("parameters differ:\n want %+v\n  got %+v", pw, pg)
	}
	pw.Requests, pg.Requests = 2000, 2000
	rw, err := lb.Run(pw, 1)
	if err != nil {
		t.Fatal(err)
	}
	rg, err := lb.Run(pg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rw, rg) {
		t.Error("results differ at the same seed")
	}
}

// A formula's saved value is what the model reader uses: written back
// with its formula, it gives the results of the plain value. (The formulas
// here compute something else, so that a lost saved value would show.)
func TestImportedFormulasKeepTheirSavedValues(t *testing.T) {
	text := string(export(t, filepath.Join("..", "samples", "mmc")))
	withFormulas := strings.NewReplacer(
		"      Value: 1000\n", "      Value: {formula: =1+1, value: 1000}\n",
		"      rho0.5: Exp(0.1)\n", "      rho0.5: {formula: '=\"Exp(\"&1/4&\")\"', value: Exp(0.1)}\n",
	).Replace(text)
	if strings.Count(withFormulas, "formula:") != 2 {
		t.Fatal("the mmc sample no longer has the cells this test turns into formulas")
	}
	want, err := workbook.Read(importText(t, []byte(text)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := workbook.Read(importText(t, []byte(withFormulas)))
	if err != nil {
		t.Fatal(err)
	}
	if w, g := results(t, want), results(t, got); w != g {
		t.Errorf("results differ:\n%s", firstDifference(w, g))
	}
}

// Numbers that need more than Excel's 15 significant digits (computed
// elsewhere: 1/3, 2^60) are taken at 15, as a workbook keeps them, so that
// the text of an imported model is the text it came from.
func TestNumbersKeepExcelsFifteenDigits(t *testing.T) {
	m, err := modeltext.Parse("n.yaml", []byte("Notes.xlsx:\n  Numbers:\n    - [Name, Value]\n"+
		"    - Name: third\n      Value: 0.3333333333333333\n"+
		"    - Name: big\n      Value: 1152921504606846976\n"+
		"    - Name: short\n      Value: 0.1\n"+
		"    - Name: seed\n      Value: 4503599627370497\n"+
		"    - Name: tiny\n      Value: 1.2345678901234567e-200\n"))
	if err != nil {
		t.Fatal(err)
	}
	text, err := m.Text()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Value: 0.333333333333333\n", "Value: 1.15292150460685e+18\n", "Value: 0.1\n", "Value: 4503599627370497\n", "Value: 1.23456789012346e-200\n"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	dir := importText(t, text)
	if got := export(t, filepath.Join(dir, "Notes.xlsx")); !bytes.Equal(got, text) {
		t.Errorf("export(import(text)) differs:\n%s", firstDifference(string(text), string(got)))
	}
}

// FormatNumber is its own fixed point, so that the text of a model is the
// text of its import.
func TestFormatNumberIsAFixedPoint(t *testing.T) {
	for _, v := range []float64{1234567890123456.7, 999999999999999.9, 1 << 53, -1234567890123456.7, 1.0 / 3, 0.1 * 3 * 10,
		4503599627370497, -0.0, 1e15, 1e300, 5e-324, 123456789012345678} {
		once := modeltext.FormatNumber(v)
		back, err := strconv.ParseFloat(once, 64)
		if err != nil {
			t.Fatalf("%v: %q does not parse", v, once)
		}
		if twice := modeltext.FormatNumber(back); twice != once {
			t.Errorf("FormatNumber(%v) = %q, and of that %q", v, once, twice)
		}
	}
}

// Importing the same text twice writes the same bytes: the Run sheet hashes
// the input workbooks, and a workbook under version control should not
// change when nothing in it did.
func TestImportIsTheSameBytesEachTime(t *testing.T) {
	m, err := modeltext.Load(filepath.Join("..", "samples", "asum"))
	if err != nil {
		t.Fatal(err)
	}
	var first map[string][]byte
	for i := range 8 {
		dir := t.TempDir()
		if err := modeltext.Write(m, dir, false); err != nil {
			t.Fatal(err)
		}
		got := map[string][]byte{}
		for _, name := range []string{"SvcData.xlsx", "ProcData.xlsx"} {
			if got[name], err = os.ReadFile(filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
		if i == 0 {
			first = got
			continue
		}
		for name, b := range got {
			if !bytes.Equal(b, first[name]) {
				t.Fatalf("import %d: %s differs from the first import's", i+1, name)
			}
		}
	}
}
