package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/websim/websim/internal/xlsx"
)

const lbSample = "../../samples/loadbalancer/sample1.yaml"

func runLBArgs(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"websim", "lb"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

// The original tool's command line, flags after the file.
func TestLBIssueCommand(t *testing.T) {
	code, out, errs := runLBArgs(t, lbSample, "--number_of_servers=4", "--number_of_requests=20000",
		"--number_of_requests_per_sec=20", "--method=busyness")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"4 servers, 20 requests/s, 20000 requests, busyness, seed 1",
		"dma              5,5,5,5", "waited %", "p95 wait s"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

type lbJSON struct {
	Requests           float64   `json:"requests"`
	Failed             float64   `json:"failed"`
	Waited             float64   `json:"waited"`
	WaitedPercent      float64   `json:"waitedPercent"`
	TotalWait          float64   `json:"totalWait"`
	MeanWait           float64   `json:"meanWait"`
	WaitShareOfService float64   `json:"waitShareOfService"`
	PerServer          []float64 `json:"perServer"`
	ByType             map[string]struct {
		Requests, Failed, Waited, WaitedPercent, TotalWait, MeanWait float64
		Capacity                                                     []int
	} `json:"byType"`
	CIHalfWidth95 *struct {
		MeanWait float64 `json:"meanWait"`
	} `json:"ciHalfWidth95"`
}

func TestLBJSON(t *testing.T) {
	code, out, errs := runLBArgs(t, lbSample, "--json", "--seed", "3", "--number_of_requests=5000", "--replications", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc lbJSON
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Requests != 5000 || len(doc.PerServer) != 6 || doc.CIHalfWidth95 == nil {
		t.Errorf("doc %+v", doc)
	}
	dma := doc.ByType["dma"]
	if !slices.Equal(dma.Capacity, []int{4, 4, 3, 3, 3, 3}) || dma.Requests == 0 {
		t.Errorf("byType.dma %+v", dma)
	}
	// Means over replications: equal up to rounding.
	if sum := dma.Waited + doc.ByType["other"].Waited; math.Abs(doc.Waited-sum) > 1e-9*sum {
		t.Errorf("waited %v is not the sum over types, %v", doc.Waited, sum)
	}
}

func TestLBBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	seedExample := "number_of_servers: 6\nnumber_of_requests_per_sec: 30\nnumber_of_requests: 50000\nmethod: roundrobin\n" +
		"    types_of_requests:\n      dma:\n        output_capacity: 20\n"
	os.WriteFile(bad, []byte(seedExample), 0o644)
	typo := filepath.Join(dir, "typo.yaml")
	text, _ := os.ReadFile(lbSample)
	os.WriteFile(typo, bytes.Replace(text, []byte("proportion: 0.95"), []byte("proportoin: 0.95"), 1), 0o644)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{bad}, "bad.yaml:5: not valid YAML: mapping values are not allowed in this context; Try: start types_of_requests:"},
		{[]string{typo}, `typo.yaml:15: unknown key "proportoin" in other; did you mean "proportion"?`},
		{[]string{lbSample, "--method=fastest"}, `--method: method "fastest" is unknown`},
		{[]string{lbSample, "--number_of_servers=0"}, "--number_of_servers: number_of_servers must be at least 1 server, got 0"},
		{[]string{lbSample, "--number_of_requests_per_sec=-1"}, "must be a rate above 0"},
		{[]string{lbSample, "--replications=x"}, `--replications: "x" is not a number of replications`},
		{[]string{filepath.Join(dir, "none.yaml")}, "none.yaml: no such file"},
		{[]string{}, "expected one parameters file"},
	}
	for _, tt := range tests {
		code, out, errs := runLBArgs(t, tt.args...)
		if code != 2 || !strings.Contains(errs, tt.want) || out != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want 2 and %q", tt.args, code, errs, out, tt.want)
		}
	}
}

// A workbook gets the result sheets written into it (the second run
// replacing the first's); --out writes parameters and results to a new
// workbook; YAML and workbook give the same figures.
func TestLBWorkbook(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "Parameters.xlsx")
	data, err := os.ReadFile("../../samples/loadbalancer/Parameters.xlsx")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(book, data, 0o644)
	var outputs []string
	for range 2 {
		code, out, errs := runLBArgs(t, book, "--number_of_requests=3000", "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		outputs = append(outputs, out)
	}
	out := filepath.Join(dir, "out.xlsx")
	code, fromYAML, errs := runLBArgs(t, lbSample, "--number_of_requests=3000", "--json", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if outputs[0] != outputs[1] || outputs[0] != fromYAML {
		t.Errorf("workbook and YAML figures differ:\n%s\n%s", outputs[0], fromYAML)
	}
	for path, want := range map[string][]string{
		book: {"Settings", "RequestTypes", "LBSummary", "LBPerServer", "LBChart"},
		out:  {"Settings", "RequestTypes", "LBSummary", "LBPerServer", "LBChart"},
	} {
		f, err := xlsx.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Sheets(); !slices.Equal(got, want) {
			t.Errorf("%s: sheets %v, want %v", filepath.Base(path), got, want)
		}
		f.Close()
	}
	if code, _, errs := runLBArgs(t, book, "--out", book); code != 2 || !strings.Contains(errs, "--out: is the parameters workbook itself") {
		t.Errorf("--out onto the input: exit %d %s", code, errs)
	}
	// The folder of the template is its Parameters.xlsx; a folder without
	// one is refused, naming it.
	if code, fromDir, errs := runLBArgs(t, dir, "--number_of_requests=3000", "--json"); code != 0 || fromDir != outputs[0] {
		t.Errorf("the folder: exit %d %s\n%s", code, errs, fromDir)
	}
	if code, _, errs := runLBArgs(t, t.TempDir(), "--json"); code != 2 || !strings.Contains(errs, "is a folder without Parameters.xlsx") {
		t.Errorf("a folder without Parameters.xlsx: exit %d %s", code, errs)
	}
}
