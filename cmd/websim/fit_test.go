package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/websim/websim/engine/dist"
)

var updateFit = flag.Bool("update", false, "rewrite the golden files under testdata/")

const fitSample = "../../fit/testdata/response.csv"

func runFitArgs(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"websim", "fit"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func goldenFit(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *updateFit {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -update rewrites it):\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// The ranking as printed, in-process, flags after the file.
func TestFitText(t *testing.T) {
	code, out, errs := runFitArgs(t, fitSample, "--seed", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	goldenFit(t, "fit.golden", out)
}

// --json: best first, AIC rising, every distribution a cell the model
// accepts, the bootstrap stated.
func TestFitJSON(t *testing.T) {
	code, out, errs := runFitArgs(t, "--json", fitSample)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Observations int `json:"observations"`
		Fits         []struct {
			Distribution string   `json:"distribution"`
			AIC          *float64 `json:"aic"`
			KS           float64  `json:"ks"`
			PValue       *float64 `json:"pValue"`
			Mean         *float64 `json:"mean"`
			SD           *float64 `json:"sd"`
			MeanShift    *float64 `json:"meanShift"`
			MeanOff      bool     `json:"meanOff"`
		} `json:"fits"`
		Mean      float64         `json:"mean"`
		SD        float64         `json:"sd"`
		KeepsMean json.RawMessage `json:"keepsMean"`
		Bootstrap struct {
			Replicates int    `json:"replicates"`
			Seed       uint64 `json:"seed"`
			Tested     int    `json:"tested"`
		} `json:"bootstrap"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if doc.Observations != 500 || len(doc.Fits) < 7 || doc.Bootstrap.Replicates != 199 || doc.Bootstrap.Seed != 1 || doc.Bootstrap.Tested != 500 {
		t.Errorf("doc %+v", doc)
	}
	for i, f := range doc.Fits {
		if _, err := dist.Parse(f.Distribution); err != nil {
			t.Errorf("%s: %v", f.Distribution, err)
		}
		if f.AIC == nil || f.PValue == nil || *f.PValue <= 0 || *f.PValue > 1 || f.KS <= 0 || f.KS >= 1 {
			t.Errorf("fit %+v", f)
		}
		if i > 0 && *f.AIC < *doc.Fits[i-1].AIC {
			t.Errorf("%s (AIC %v) ranks after %s (AIC %v)", f.Distribution, *f.AIC, doc.Fits[i-1].Distribution, *doc.Fits[i-1].AIC)
		}
	}
	// The data's mean and sd (response.csv: 500 times of mean 22.543), each
	// cell's, and no cell to keep the mean: the best fit's is 0.3% off.
	if math.Abs(doc.Mean-22.543) > 1e-9 || math.Abs(doc.SD-8.137) > 1e-3 || string(doc.KeepsMean) != "null" {
		t.Errorf("mean %v, sd %v, keepsMean %s; want 22.543, 8.137, null", doc.Mean, doc.SD, doc.KeepsMean)
	}
	for _, f := range doc.Fits {
		if f.Mean == nil || f.SD == nil || f.MeanShift == nil || math.Abs(*f.Mean/doc.Mean-1-*f.MeanShift) > 1e-9 {
			t.Errorf("%s: mean %v, sd %v, meanShift %v", f.Distribution, f.Mean, f.SD, f.MeanShift)
		}
	}
	if doc.Fits[0].MeanOff {
		t.Errorf("%s: its mean called off the data's", doc.Fits[0].Distribution)
	}
	if !strings.HasPrefix(doc.Fits[0].Distribution, "LogNormal(") {
		t.Errorf("best %s; the sample was drawn from LogNormal(23.1,8.4)", doc.Fits[0].Distribution)
	}
}

func TestFitOut(t *testing.T) {
	out := filepath.Join(t.TempDir(), "Fit.xlsx")
	code, _, errs := runFitArgs(t, fitSample, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(out); err != nil || !strings.Contains(errs, "wrote "+out) {
		t.Errorf("no %s (%v); stderr %q", out, err, errs)
	}
}

// Invalid data or flags: every problem on stderr, exit 2, nothing written.
func TestFitInvalid(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	text := "ms\n" + strings.Repeat("12.5\n", 40) + "abc\n0\n"
	if err := os.WriteFile(bad, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "Fit.xlsx")
	var b strings.Builder
	for _, args := range [][]string{
		{bad, "--out", out},
		{bad, "--out", filepath.Join(dir, "Fit.xls")},
		{filepath.Join(dir, "none.csv")},
		{fitSample, "--column", "latency"},
		{},
	} {
		code, stdout, errs := runFitArgs(t, args...)
		if code != 2 || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want 2 and nothing", args, code, stdout)
		}
		b.WriteString("$ websim fit " + strings.Join(args, " ") + "\n" + errs)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was written", out)
	}
	goldenFit(t, "fit-invalid.golden", strings.ReplaceAll(b.String(), dir, "DIR"))
	if code, _, _ := runFitArgs(t, fitSample, "--seed", "x"); code != 2 {
		t.Errorf("--seed x: exit %d, want 2", code)
	}
}

// When the best fit's mean is off the data's, the text says so right
// below the cell, with the load it would offer and a cell that keeps the
// mean: 5,000 times, 70% Exp(10) and 30% Exp(100), written with six
// significant digits.
func TestFitTextMeanOff(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 7))
	var b strings.Builder
	b.WriteString("ms\n")
	for range 5000 {
		mean := 100.0
		if r.Float64() < 0.7 {
			mean = 10
		}
		b.WriteString(strconv.FormatFloat(mean*r.ExpFloat64(), 'g', 6, 64) + "\n")
	}
	path := filepath.Join(t.TempDir(), "mix.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runFitArgs(t, path, "--seed", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	goldenFit(t, "fit-mean-off.golden", strings.ReplaceAll(out, path, "mix.csv"))
}
