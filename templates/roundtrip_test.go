package templates_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/websim/websim/report"
	"github.com/websim/websim/study"
	"github.com/websim/websim/templates"
	"github.com/websim/websim/workbook"
)

// dumpPlan describes a plan as text: every scenario's settings and model,
// with distributions and expressions as written.
func dumpPlan(p *study.Plan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "time unit %s\n", p.TimeUnit)
	for _, sc := range p.Scenarios {
		m := sc.Model
		fmt.Fprintf(&b, "scenario %s run %+v app %+v rat %v\n", sc.Name, sc.Run, m.App.Selection, m.App.RAT)
		fmt.Fprintf(&b, "  app %d×%d RATParameter %g TActive %g\n", m.App.Servers, m.App.Capacity, m.App.RATParameter, m.App.TActive)
		fmt.Fprintf(&b, "  loads %v attributes %v params %v\n", m.Loads, m.Attributes, m.Params)
		for _, s := range m.Servers {
			fmt.Fprintf(&b, "  server %s %d %g %v %v\n", s.Name, s.Capacity, s.TimeLimit, s.BackgroundInterArrival, s.BackgroundServiceTime)
		}
		for _, e := range m.Entities {
			fmt.Fprintf(&b, "  entity %s %v %+v %v %g %v %d\n", e.Name, e.InterArrival, e.Stages, e.Patience, e.RetryProbability, e.RetryDelay, e.MaxRetries)
			for _, a := range e.Attributes {
				fmt.Fprintf(&b, "    attribute %d %v %v\n", a.Index, a.Dist, a.Expr)
			}
		}
		for _, s := range m.Services {
			fmt.Fprintf(&b, "  service %s\n", s.Name)
			for _, st := range s.Steps {
				fmt.Fprintf(&b, "    step %s kind %d proc %v rate %v server %d service %d count %v mode %v cond %v → %d/%d\n",
					st.Name, st.Kind, st.ProcTime, st.SuccessRate, st.Server, st.Services, st.Count, st.Mode, st.Condition, st.OnSuccess, st.OnFailure)
			}
		}
	}
	return b.String()
}

// TestModelsRoundTrip: every template and sample reads, and reads back to
// the same model after websim has written its results into SvcData.xlsx
// twice.
func TestModelsRoundTrip(t *testing.T) {
	dirs := map[string]string{
		"samples/asum": filepath.Join("..", "samples", "asum"),
		"samples/mmc":  filepath.Join("..", "samples", "mmc"),
	}
	for _, name := range []string{"asum", "mmc"} {
		dir := filepath.Join(t.TempDir(), name)
		if err := templates.Create(dir, name); err != nil {
			t.Fatal(err)
		}
		dirs["template "+name] = dir
	}
	for label, src := range dirs {
		t.Run(label, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range []string{workbook.SvcDataFile, workbook.ProcDataFile} {
				b, err := os.ReadFile(filepath.Join(src, f))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before, err := workbook.Read(dir)
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			for i := range before.Scenarios {
				before.Scenarios[i].Run.Observations = 300
			}
			st, err := study.Execute(context.Background(), before, study.Options{})
			if err != nil {
				t.Fatal(err)
			}
			svcData := filepath.Join(dir, workbook.SvcDataFile)
			for range 2 {
				// As a second run would read it: the workbook as the first
				// write-back left it (WriteBack refuses one changed since).
				data, err := os.ReadFile(svcData)
				if err != nil {
					t.Fatal(err)
				}
				sum := sha256.Sum256(data)
				for i := range st.Inputs {
					if st.Inputs[i].Name == workbook.SvcDataFile {
						st.Inputs[i].SHA256 = hex.EncodeToString(sum[:])
					}
				}
				if err := report.WriteBack(svcData, st); err != nil {
					t.Fatal(err)
				}
			}
			after, err := workbook.Read(dir)
			if err != nil {
				t.Fatalf("read after write-back: %v", err)
			}
			for i := range after.Scenarios {
				after.Scenarios[i].Run.Observations = 300
			}
			if a, b := dumpPlan(before), dumpPlan(after); a != b {
				t.Errorf("the model changed after write-back:\nbefore:\n%s\nafter:\n%s", a, b)
			}
			if len(after.Warnings) != len(before.Warnings) {
				t.Errorf("warnings %q, then %q", before.Warnings, after.Warnings)
			}
		})
	}
}

// TestBlankTemplateReadsWithItsPlaceholders: the blank template is a form
// to fill in; read as it is, it reports what is still missing, and the
// same after a write-back would (nothing else).
func TestBlankTemplateSaysWhatIsMissing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "blank")
	if err := templates.Create(dir, "blank"); err != nil {
		t.Fatal(err)
	}
	_, err := workbook.Read(dir)
	ps, ok := err.(workbook.Problems)
	if !ok || len(ps.Errors()) == 0 {
		t.Fatalf("a blank model read without problems: %v", err)
	}
	for _, p := range ps {
		if p.File == "" || !strings.Contains(p.Error(), ": ") {
			t.Errorf("problem without a location: %q", p.Error())
		}
	}
}
