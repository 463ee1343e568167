package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/websim/websim/workbook/wbtest"
)

// copyModel copies a sample model folder's workbooks into a temporary
// folder, so tests never write into the repository.
func copyModel(t *testing.T, sample string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"SvcData.xlsx", "ProcData.xlsx"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "samples", sample, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"websim"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestRunWritesResultsAndLeavesInputsAlone(t *testing.T) {
	dir := copyModel(t, "mmc")
	before, _ := os.ReadFile(filepath.Join(dir, "SvcData.xlsx"))
	// Flags after MODEL work as well as before it.
	code, stdout, stderr := runCLI(t, "run", dir, "--observations", "2000", "--seed", "7")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "OutPut.xlsx")); err != nil {
		t.Fatalf("no OutPut.xlsx: %v", err)
	}
	if !strings.Contains(stdout, "rho0.8") || !strings.Contains(stdout, "Results:") {
		t.Errorf("summary missing:\n%s", stdout)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "SvcData.xlsx"))
	if !bytes.Equal(before, after) {
		t.Error("SvcData.xlsx changed without --write-back")
	}
}

func TestRunJSON(t *testing.T) {
	dir := copyModel(t, "mmc")
	out := filepath.Join(t.TempDir(), "res.xlsx")
	code, stdout, stderr := runCLI(t, "run", "--json", "--observations", "3000", "--loads", "rho0.5,rho0.9", "--out", out, dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Model    string `json:"model"`
		TimeUnit string `json:"timeUnit"`
		Runs     []struct {
			Scenario, Load string
			Completed      int64 `json:"completed"`
			Observations   int64 `json:"observations"`
			ResponseTime   struct {
				Mean          float64 `json:"mean"`
				P95           float64 `json:"p95"`
				CIHalfWidth95 float64 `json:"ciHalfWidth95"`
			} `json:"responseTime"`
			Stable bool  `json:"stable"`
			Events int64 `json:"events"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, stdout)
	}
	if doc.TimeUnit != "s" || len(doc.Runs) != 2 || doc.Runs[1].Load != "rho0.9" {
		t.Fatalf("unexpected document: %+v", doc)
	}
	for _, r := range doc.Runs {
		if !r.Stable || r.Completed != 3000 || r.ResponseTime.Mean < 1 || r.Events == 0 {
			t.Errorf("run %+v", r)
		}
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("--out file missing: %v", err)
	}
}

func TestRunSameSeedSameJSONWhateverTheJobs(t *testing.T) {
	dir := copyModel(t, "mmc")
	var first string
	for _, jobs := range []string{"1", "2"} {
		code, stdout, stderr := runCLI(t, "run", dir, "--json", "--observations", "2000", "--jobs", jobs)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		// Wall-clock figures differ from run to run; drop them.
		var doc map[string]any
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatal(err)
		}
		for _, r := range doc["runs"].([]any) {
			delete(r.(map[string]any), "wallSeconds")
		}
		delete(doc, "started")
		b, _ := json.Marshal(doc)
		if first == "" {
			first = string(b)
		} else if string(b) != first {
			t.Error("results differ between --jobs 1 and --jobs 2")
		}
	}
}

func TestRunRefusesBadInputWithExitTwo(t *testing.T) {
	dir := copyModel(t, "mmc")
	code, _, stderr := runCLI(t, "run", dir, "--loads", "rho0.7")
	if code != 2 || !strings.Contains(stderr, `no load "rho0.7"`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCLI(t, "run", filepath.Join(dir, "missing"))
	if code != 2 {
		t.Errorf("missing model: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "OutPut.xlsx")); !os.IsNotExist(err) {
		t.Error("OutPut.xlsx written for a bad input")
	}
}

func TestRunWriteBack(t *testing.T) {
	dir := copyModel(t, "mmc")
	for range 2 {
		code, _, stderr := runCLI(t, "run", dir, "--observations", "1000", "--write-back", "--quiet")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	// The model still reads after two write-backs.
	code, stdout, stderr := runCLI(t, "validate", dir)
	if code != 0 {
		t.Fatalf("validate after write-back: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

func TestRunTimeExpressionFailureStopsTheRun(t *testing.T) {
	// Count = Cards - 4 with Cards ~ UniformInt(1,6) is negative for some
	// requests: the run stops with the cell, the simulated time and the
	// request, exit code 1, and nothing is written.
	m := wbtest.Valid()
	m.Set(t, "ProcData.xlsx", "ASumSvc", "F2", "Cards - 4")
	dir := t.TempDir()
	m.Write(t, dir)
	code, _, stderr := runCLI(t, "run", dir, "--observations", "2000")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	t.Log(stderr)
	for _, want := range []string{"ProcData.xlsx!ASumSvc!F2", "at simulated ", " ms", "request", "ASUM"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("message lacks %q:\n%s", want, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "OutPut.xlsx")); !os.IsNotExist(err) {
		t.Error("OutPut.xlsx written after a failed run")
	}
}

func TestDroppedFolderRuns(t *testing.T) {
	dir := copyModel(t, "mmc")
	code, stdout, stderr := runCLI(t, filepath.Join(dir, "SvcData.xlsx"))
	if code != 0 || !strings.Contains(stdout, "Results:") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if code, _, _ := runCLI(t, filepath.Join(dir, "nothing-here")); code != 2 {
		t.Errorf("a missing path: exit %d, want 2", code)
	}
}

func TestRunRefusesAnOutThatIsAnInput(t *testing.T) {
	dir := copyModel(t, "mmc")
	before, _ := os.ReadFile(filepath.Join(dir, "SvcData.xlsx"))
	for _, args := range [][]string{
		{"run", dir, "--out", filepath.Join(dir, "SvcData.xlsx")},
		{"run", dir, "--out", filepath.Join(dir, "results.csv")},
		{"run", dir, "--observations", "0"},
		{"run", dir, "--no-such-flag"},
	} {
		if code, _, stderr := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s", args, code, stderr)
		}
	}
	after, _ := os.ReadFile(filepath.Join(dir, "SvcData.xlsx"))
	if !bytes.Equal(before, after) {
		t.Error("SvcData.xlsx changed")
	}
	// A workbook given for its folder runs the model.
	if code, _, stderr := runCLI(t, "run", filepath.Join(dir, "SvcData.xlsx"), "--observations", "500", "--quiet"); code != 0 {
		t.Errorf("run MODEL/SvcData.xlsx: exit %d\n%s", code, stderr)
	}
}

func TestDroppingAnotherWorkbookIsRefused(t *testing.T) {
	dir := copyModel(t, "mmc")
	if code, _, _ := runCLI(t, "run", dir, "--observations", "300", "--quiet"); code != 0 {
		t.Fatal("run failed")
	}
	code, _, stderr := runCLI(t, filepath.Join(dir, "OutPut.xlsx"))
	if code != 2 || !strings.Contains(stderr, "expected a model folder") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if code, stdout, stderr := runCLI(t, filepath.Join("..", "..", "samples", "loadbalancer", "sample1.yaml")); code != 0 || !strings.Contains(stdout, "dma") {
		t.Errorf("dropping the lb YAML: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

func TestRunTrace(t *testing.T) {
	dir := copyModel(t, "mmc")
	trace := filepath.Join(t.TempDir(), "trace.txt")
	code, _, stderr := runCLI(t, "run", dir, "--loads", "rho0.5", "--observations", "50", "--trace", trace, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Job#1 ", "arrives, asks App1 for a unit", "starts Work/Process", "reaches END after"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("trace lacks %q:\n%.600s", want, b)
		}
	}
	// Three loads are three runs: a trace needs one.
	if code, _, stderr := runCLI(t, "run", dir, "--trace", trace); code != 2 || !strings.Contains(stderr, "--trace follows one run") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// TestNoCommandWritesOverAModelsWorkbook: every command that writes a file
// refuses an --out named as a model's workbook, with exit 2, and leaves
// the model as it was (merge, fit, export and lb replaced it once).
func TestNoCommandWritesOverAModelsWorkbook(t *testing.T) {
	dir := copyModel(t, "mmc")
	scratch := t.TempDir()
	part := filepath.Join(scratch, "p.wsp")
	if code, _, stderr := runCLI(t, "run", dir, "--observations", "300", "--loads", "rho0.5", "--shard", "0/1", "--partial", part, "--quiet"); code != 0 {
		t.Fatalf("shard: exit %d\n%s", code, stderr)
	}
	data := filepath.Join(scratch, "d.csv")
	if err := os.WriteFile(data, []byte("ms\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	svc, proc := filepath.Join(dir, "SvcData.xlsx"), filepath.Join(dir, "ProcData.xlsx")
	beforeSvc, _ := os.ReadFile(svc)
	beforeProc, _ := os.ReadFile(proc)
	for _, args := range [][]string{
		{"merge", part, "--out", svc, "--quiet"},
		{"merge", part, "--out", filepath.Join(scratch, "procdata.xlsx"), "--quiet"},
		{"fit", data, "--out", proc},
		{"export", dir, "--out", svc},
		{"export", dir, "--out", filepath.Join(scratch, "model.xlsx")},
		{"lb", filepath.Join("..", "..", "samples", "loadbalancer", "sample1.yaml"), "--out", svc},
		{"size", copyModel(t, "asum"), "--vary", "AppCapacity", "--out", filepath.Join(scratch, "SvcData.xlsx")},
		{"run", dir, "--out", filepath.Join(scratch, "ProcData.XLSX"), "--quiet"},
	} {
		code, _, stderr := runCLI(t, args...)
		if code != 2 || !strings.Contains(stderr, "--out") {
			t.Errorf("%v: exit %d, want 2 with a message about --out\n%s", args[:1], code, stderr)
		}
	}
	afterSvc, _ := os.ReadFile(svc)
	afterProc, _ := os.ReadFile(proc)
	if !bytes.Equal(beforeSvc, afterSvc) || !bytes.Equal(beforeProc, afterProc) {
		t.Error("a model workbook changed")
	}
	if entries, _ := os.ReadDir(scratch); len(entries) != 2 {
		t.Errorf("files written beside the part and the data: %v", entries)
	}
}

// A load-balancer folder (Parameters.xlsx, as the loadbalancer template
// writes it) dropped on websim runs websim lb; run and validate on it say
// which command runs it (exit 2).
func TestLoadBalancerFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lbm")
	if code, _, stderr := runCLI(t, "new", dir, "--template", "loadbalancer"); code != 0 {
		t.Fatalf("new: %s", stderr)
	}
	if code, stdout, stderr := runCLI(t, dir); code != 0 || !strings.Contains(stdout, "websim lb:") {
		t.Errorf("dropped: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, cmd := range []string{"run", "validate", "size"} {
		code, _, stderr := runCLI(t, cmd, dir, "--vary", "AppServers")
		if cmd != "size" {
			code, _, stderr = runCLI(t, cmd, dir)
		}
		if code != 2 || !strings.Contains(stderr, "holds a load-balancer model (Parameters.xlsx)") || !strings.Contains(stderr, "websim lb "+dir) {
			t.Errorf("%s: exit %d, %s", cmd, code, stderr)
		}
	}
}

// TestRunJSONBesideALockedWorkbook: when OutPut.xlsx is open elsewhere (a
// lock file beside it, perhaps a stale one) the results are saved beside
// it and the run exits 1, but --json still prints the finished study, and
// the console its table without a "Results:" line.
func TestRunJSONBesideALockedWorkbook(t *testing.T) {
	dir := copyModel(t, "mmc")
	if err := os.WriteFile(filepath.Join(dir, "~$OutPut.xlsx"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want func(stdout string) bool
	}{
		{"json", []string{"--json"}, func(s string) bool { return json.Valid([]byte(s)) && strings.Contains(s, `"runs"`) }},
		{"console", nil, func(s string) bool { return strings.Contains(s, "rho0.8") && !strings.Contains(s, "Results:") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"run", dir, "--observations", "2000", "--loads", "rho0.8"}, tc.args...)
			code, stdout, stderr := runCLI(t, args...)
			if code != 1 || !strings.Contains(stderr, "OutPut (") {
				t.Errorf("exit %d, want 1 with the name the results were saved as\nstderr:\n%s", code, stderr)
			}
			if !tc.want(stdout) {
				t.Errorf("stdout:\n%s", stdout)
			}
		})
	}
}

// An empty --loads or --scenarios, or any flag given an empty value or none
// at the end of the line, is refused (--loads "" ran everything without a
// word); --loads all runs every load, as the Loads setting's all.
func TestEmptyListFlags(t *testing.T) {
	dir := copyModel(t, "mmc")
	for _, args := range [][]string{
		{"run", dir, "--loads", ""},
		{"run", dir, "--scenarios", " , "},
		{"size", dir, "--vary", "AppServers", "--loads="},
		{"cluster", "slurm", dir, "--shards", "2", "--scenarios", ""},
		{"run", dir, "--out", ""},
		{"merge", "p.wsp", "--out="},
		{"fit", "times.csv", "--column", " "},
		{"run", dir, "--out"},
		{"cluster", "slurm", dir, "--shards", "2", "--slurm-option"},
	} {
		if code, _, stderr := runCLI(t, args...); code != exitInvalid || !(strings.Contains(stderr, "empty; expected a value") || strings.Contains(stderr, "expected a comma list") || strings.Contains(stderr, "needs a value after it")) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2, an empty list refused", args, code, stderr)
		}
	}
	code, stdout, stderr := runCLI(t, "run", dir, "--loads", "all", "--observations", "1000", "--json", "--out", filepath.Join(t.TempDir(), "r.xlsx"))
	if code != 0 || strings.Count(stdout, `"load":`) < 2 {
		t.Errorf("--loads all: exit %d, stderr %q; want every load run", code, stderr)
	}
}

// --write-back into a SvcData.xlsx that is a symbolic link is refused
// before anything runs: it would part the model from the linked workbook,
// or change a file outside the folder. A results --out that is a link is
// replaced by the results, the linked file left alone (here another
// model's workbook).
func TestWriteBackRefusesALinkedWorkbook(t *testing.T) {
	other := copyModel(t, "mmc")
	dir := t.TempDir()
	for _, f := range []string{"ProcData.xlsx", "SvcData.xlsx"} {
		b, err := os.ReadFile(filepath.Join(other, f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "ProcData.xlsx" {
			must(t, os.WriteFile(filepath.Join(dir, f), b, 0o644))
		}
	}
	if err := os.Symlink(filepath.Join(other, "SvcData.xlsx"), filepath.Join(dir, "SvcData.xlsx")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	before, _ := os.ReadFile(filepath.Join(other, "SvcData.xlsx"))
	code, _, stderr := runCLI(t, "run", dir, "--observations", "1000", "--write-back", "--quiet")
	if code != 1 || !strings.Contains(stderr, "is a symbolic link") {
		t.Errorf("write-back into a link: exit %d, stderr %q; want 1 and the link named", code, stderr)
	}
	// A load balancer's parameters workbook takes its results without --out.
	lbDir := t.TempDir()
	if code, _, stderr := runCLI(t, "new", filepath.Join(lbDir, "real"), "--template", "loadbalancer"); code != 0 {
		t.Fatal(stderr)
	}
	must(t, os.Mkdir(filepath.Join(lbDir, "linked"), 0o755))
	must(t, os.Symlink(filepath.Join(lbDir, "real", "Parameters.xlsx"), filepath.Join(lbDir, "linked", "Parameters.xlsx")))
	if code, _, stderr := runCLI(t, "lb", filepath.Join(lbDir, "linked", "Parameters.xlsx"), "--number_of_requests=200"); code != 1 || !strings.Contains(stderr, "is a symbolic link") {
		t.Errorf("lb into a linked Parameters.xlsx: exit %d, stderr %q; want 1 and the link named", code, stderr)
	}
	link := filepath.Join(t.TempDir(), "res.xlsx")
	must(t, os.Symlink(filepath.Join(other, "SvcData.xlsx"), link))
	if code, _, stderr := runCLI(t, "run", copyModel(t, "mmc"), "--observations", "1000", "--out", link, "--quiet"); code != 0 {
		t.Errorf("--out a link: exit %d, stderr %q", code, stderr)
	}
	if after, _ := os.ReadFile(filepath.Join(other, "SvcData.xlsx")); string(after) != string(before) {
		t.Error("the linked workbook of another model was changed")
	}
}

// When OutPut.xlsx is saved and the write-back is not (SvcData.xlsx open
// elsewhere), the console still says where the results are.
func TestRunResultsLineWhenOnlyWriteBackFails(t *testing.T) {
	dir := copyModel(t, "mmc")
	must(t, os.WriteFile(filepath.Join(dir, "~$SvcData.xlsx"), nil, 0o644))
	code, stdout, stderr := runCLI(t, "run", dir, "--observations", "1000", "--loads", "rho0.8", "--write-back")
	if code != 1 || !strings.Contains(stdout, "Results: "+filepath.Join(dir, "OutPut.xlsx")) || strings.Contains(stdout, "Also added to") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit 1, the Results line and no 'Also added to'", code, stdout, stderr)
	}
}

// --help shows the help wherever it stands, also beside a flag that would
// be refused.
func TestHelpWinsOverBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--help", "--out"},
		{"run", "m", "--loads=", "--help"},
		{"cluster", "slurm", "-h", "--shards"},
	} {
		if code, stdout, stderr := runCLI(t, args...); code != 0 || !strings.Contains(stdout+stderr, "USAGE") {
			t.Errorf("%v: exit %d, want the help with exit 0\nstderr: %s", args, code, stderr)
		}
	}
}

// A model whose workbook is named svcdata.xlsx (copied from Windows) is
// read, and --write-back adds its sheets to that file, for run and size.
func TestWriteBackIntoALowerCaseName(t *testing.T) {
	dir := copyModel(t, "mmc")
	must(t, os.Rename(filepath.Join(dir, "SvcData.xlsx"), filepath.Join(dir, "svcdata.xlsx")))
	if _, err := os.Stat(filepath.Join(dir, "SvcData.xlsx")); err == nil {
		t.Skip("a file system that ignores case")
	}
	code, stdout, stderr := runCLI(t, "run", dir, "--observations", "1000", "--loads", "rho0.8", "--write-back")
	if code != 0 || !strings.Contains(stdout, "Also added to: "+filepath.Join(dir, "svcdata.xlsx")) {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "SvcData.xlsx")); err == nil {
		t.Error("write-back made a second SvcData.xlsx beside svcdata.xlsx")
	}
}

// A located problem found once the study is laid out (too many runs) is
// printed as every problem of the model is, File!Sheet!Cell first, with
// exit 2; a message that names no cell keeps its "Error:".
func TestLocatedProblemsPrintWithoutPrefix(t *testing.T) {
	m := wbtest.Valid()
	m.Set(t, "SvcData.xlsx", "Settings", "A13", "Replications")
	m.Set(t, "SvcData.xlsx", "Settings", "B13", 4000)
	dir := t.TempDir()
	m.Write(t, dir)
	code, _, stderr := runCLI(t, "run", dir, "--observations", "2000")
	if code != 2 || !strings.HasPrefix(stderr, "SvcData.xlsx!Settings!") || !strings.Contains(stderr, "more than the limit") {
		t.Errorf("exit %d; want 2 and the problem at its cell, first on its line:\n%s", code, stderr)
	}
	code, _, stderr = runCLI(t, "run", dir, "--scenarios", "Nowhere")
	if code != 2 || !strings.HasPrefix(stderr, "Error: ") {
		t.Errorf("exit %d; want 2 and Error: before a message that names no cell:\n%s", code, stderr)
	}
}

// --write-back into a SvcData.xlsx whose structure is protected (Review >
// Protect Workbook) is refused before anything runs, as Excel refuses to
// add sheets to it: exit 1, the file named, nothing written.
func TestWriteBackRefusesAStructureLockedWorkbook(t *testing.T) {
	dir := copyModel(t, "mmc")
	svc := filepath.Join(dir, "SvcData.xlsx")
	replaceInZip(t, svc, "<bookViews>", `<workbookProtection lockStructure="1"/><bookViews>`)
	before, _ := os.ReadFile(svc)
	code, _, stderr := runCLI(t, "run", dir, "--observations", "1000", "--write-back", "--quiet")
	if code != 1 || !strings.Contains(stderr, svc) || !strings.Contains(stderr, "structure is protected") {
		t.Errorf("write-back into a structure-locked workbook: exit %d, stderr %q; want 1 and the file named", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "OutPut.xlsx")); err == nil {
		t.Error("OutPut.xlsx was written: the run was not refused before it began")
	}
	if after, _ := os.ReadFile(svc); string(after) != string(before) {
		t.Error("SvcData.xlsx changed")
	}
	// Without --write-back the workbook is only read.
	if code, _, stderr := runCLI(t, "run", dir, "--observations", "1000", "--quiet"); code != 0 {
		t.Errorf("a run without --write-back: exit %d, stderr %q", code, stderr)
	}
}
