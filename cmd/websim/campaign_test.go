package main

// The mutation campaign (issue 11): not run by default. Run it with
//
//	WEBSIM_CAMPAIGN=3000 go test ./cmd/websim -run TestMutationCampaign -v -timeout 2h
//
// (WEBSIM_CAMPAIGN_SEED picks another set of mutants, WEBSIM_CAMPAIGN_JOBS
// the processes at once). It builds websim, makes that many mutants of the
// samples and templates (one to three cells each set to a hostile value,
// or a header blanked, or a sheet renamed), and runs `websim validate`
// then, when valid, a tiny `websim run` on each, as separate processes
// with a time limit and a memory cap. Each outcome is classified; a crash
// (a Go stack dump, a signal, the memory cap) or a hang (the time limit)
// fails the test, with the mutant's folder kept for a look.

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/websim/websim/internal/xlsx"
)

// hostileValues are what the mutants put into cells.
var hostileValues = []string{
	"", "0", "-1", "0.5", "1e9", "1e12", "1e308", "-1e308", "1e-320", "1e-300", "2147483648", "9223372036854775807",
	"NaN", "Inf", "-0", "1,5", "1 000", "50%", "0x10",
	"Exp(0)", "Exp(1,5)", "Exp(-1)", "Exp(1e300)", "Exp(1e-300)", "Const(1e308)", "Const(0)", "Uniform(5,2)", "Uniform(0,0)",
	"Normal(-5,1)", "Normal(1e300,1e300)", "Triangular(1,1,1)", "UniformInt(1,1e9)", "Erlang(1e9,1)", "Gamma(1e-300,1)", "Weibull(1e-3,1)",
	"None", "none", "Exp(", "((((((((", strings.Repeat("(", 500), strings.Repeat("x", 5000),
	"=A1", "=B2", "=1/0", "=B3+1", "=NOSUCH(1)", "=SUM(A1:Z100)", "=10^6", "=1e308*10",
	"AppUtil", "Now", "Attempt", "Copy", "true", "false", "nil", "Load",
	"END", "EXIT", "DONE", "FAIL", "NEXT", "App", "parallel", "sequential", "PARALLEL",
	"Cards * 1e6", "1000000", "1e6", "Now > 1e9 ? 1 : 0", "1/0", "AppUtil / 0", "util(\"nosuch\")", "queue(\"App\") * 1e300",
	"Now * 1e308", "Attempt ? 1 : 0", "SwitchUtil", "Cards", "-Cards", "Cards == 1", "log(-1)", "sqrt(-1)", "pow(10, 400)",
	"L1", "L1,L1", "all", "auto", "LBS", "Random", "nosuch", "GWay", "MTC", "DSS",
	"\u00a0", " ", "\t", "'", "\"", "#N/A", "#DIV/0!",
}

// mutantSources are the model folders mutated: samples and templates.
func mutantSources(t *testing.T, websim string) []string {
	t.Helper()
	var out []string
	for _, s := range []string{"asum", "mmc"} {
		out = append(out, filepath.Join("..", "..", "samples", s))
	}
	for _, tpl := range []string{"asum", "mmc"} {
		dir := filepath.Join(t.TempDir(), "template-"+tpl)
		if b, err := exec.Command(websim, "new", dir, "--template", tpl).CombinedOutput(); err != nil {
			t.Fatalf("websim new %s: %v\n%s", tpl, err, b)
		}
		out = append(out, dir)
	}
	return out
}

// outcome classes.
const (
	refused    = "refused (exit 2, located)"
	unlocated  = "refused (exit 2), NOT LOCATED"
	ran        = "ran (exit 0)"
	runError   = "run-time error (exit 1)"
	crashed    = "CRASH"
	hung       = "HANG"
	mutateFail = "mutant not written"
)

// located is a problem line: File!Sheet!Cell: or File!Sheet: or File: (or
// a warning, an expression's caret lines, a summary).
var located = regexp.MustCompile(`^(warning: )?(Error: )?[^ !:]+\.xlsx(![^:]+)*: |^\s|^Error: .*: \d+ problems$|^.*: \d+ problems?, \d+ warnings?$`)

func TestMutationCampaign(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("WEBSIM_CAMPAIGN"))
	if n <= 0 {
		t.Skip("set WEBSIM_CAMPAIGN=N to run a campaign of N mutants")
	}
	seed, _ := strconv.ParseUint(os.Getenv("WEBSIM_CAMPAIGN_SEED"), 10, 64)
	jobs, _ := strconv.Atoi(os.Getenv("WEBSIM_CAMPAIGN_JOBS"))
	jobs = max(jobs, 1)
	bin := filepath.Join(t.TempDir(), "websim")
	if b, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	sources := mutantSources(t, bin)
	keep, err := os.MkdirTemp("", "websim-campaign-")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	counts := map[string]int{}
	examples := map[string][]string{}
	work := make(chan int)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				rng := rand.New(rand.NewPCG(seed, uint64(i)))
				dir := filepath.Join(keep, fmt.Sprintf("mutant-%05d", i))
				what, err := mutate(sources[rng.IntN(len(sources))], dir, rng)
				class, detail := mutateFail, fmt.Sprint(err)
				if err == nil {
					class, detail = trial(bin, dir)
				}
				mu.Lock()
				counts[class]++
				if len(examples[class]) < 8 {
					examples[class] = append(examples[class], fmt.Sprintf("%s: %s: %s", filepath.Base(dir), what, firstLines(detail, 3)))
				}
				mu.Unlock()
				if class != crashed && class != hung && class != unlocated {
					os.RemoveAll(dir)
				}
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	classes := make([]string, 0, len(counts))
	for c := range counts {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, c := range classes {
		t.Logf("%-32s %5d", c, counts[c])
		for _, e := range examples[c] {
			t.Logf("    %s", e)
		}
	}
	if counts[crashed]+counts[hung]+counts[unlocated] > 0 {
		t.Errorf("%d crashes, %d hangs, %d unlocated refusals (mutants kept under %s)", counts[crashed], counts[hung], counts[unlocated], keep)
	}
}

// mutate copies the model in src to dir with one to three changes, and
// says what they were.
func mutate(src, dir string, rng *rand.Rand) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	var did []string
	books := map[string]*xlsx.Book{}
	for _, name := range []string{"SvcData.xlsx", "ProcData.xlsx"} {
		b, err := xlsx.Open(filepath.Join(src, name))
		if err != nil {
			return "", err
		}
		defer b.Close()
		books[name] = b
	}
	for range 1 + rng.IntN(3) {
		name := []string{"SvcData.xlsx", "ProcData.xlsx"}[rng.IntN(2)]
		b := books[name]
		sheets := b.Sheets()
		sheet := sheets[rng.IntN(len(sheets))]
		rows, err := b.Rows(sheet)
		if err != nil || len(rows) == 0 {
			continue
		}
		switch k := rng.IntN(20); {
		case k == 0: // rename the sheet
			to := sheet + "2"
			if err := b.RenameSheet(sheet, to); err == nil {
				did = append(did, fmt.Sprintf("%s!%s renamed %s", name, sheet, to))
			}
		case k <= 2: // blank or change a header
			c := rng.IntN(max(len(rows[0]), 1))
			v := hostileValues[rng.IntN(len(hostileValues))]
			if err := b.SetCell(sheet, xlsx.CellName(c, 1), v); err == nil {
				did = append(did, fmt.Sprintf("%s!%s!%s header = %q", name, sheet, xlsx.CellName(c, 1), v))
			}
		default: // a cell of the grid, or just beyond it
			r := rng.IntN(len(rows)+1) + 1
			c := rng.IntN(max(len(rows[0]), 1) + 1)
			ref := xlsx.CellName(c, r)
			v := hostileValues[rng.IntN(len(hostileValues))]
			var cell any = v
			if strings.HasPrefix(v, "=") {
				cell = xlsx.Formula(v)
			} else if f, err := strconv.ParseFloat(v, 64); err == nil && rng.IntN(2) == 0 {
				cell = f // a number cell, not text
			}
			if err := b.SetCell(sheet, ref, cell); err == nil {
				did = append(did, fmt.Sprintf("%s!%s!%s = %q", name, sheet, ref, v))
			}
		}
	}
	for name, b := range books {
		if err := b.Save(filepath.Join(dir, name)); err != nil {
			return "", err
		}
	}
	return strings.Join(did, "; "), nil
}

// trial runs validate and, when it passes, a tiny run, each as a process
// with a time limit and a memory cap, and classifies the outcome.
func trial(bin, dir string) (class, detail string) {
	code, out, timedOut := capped(bin, 30*time.Second, "validate", dir)
	switch {
	case timedOut:
		return hung, "validate: " + out
	case crash(code, out):
		return crashed, "validate: " + out
	case code == 2:
		return checkLocated(out)
	case code != 0:
		return crashed, fmt.Sprintf("validate exit %d: %s", code, out)
	}
	code, out, timedOut = capped(bin, 60*time.Second, "run", dir, "--observations", "300", "--quiet", "--out", filepath.Join(dir, "R.xlsx"))
	switch {
	case timedOut:
		return hung, "run: " + out
	case crash(code, out):
		return crashed, "run: " + out
	case code == 0:
		return ran, ""
	case code == 1:
		return runError, out
	case code == 2:
		return checkLocated(out)
	}
	return crashed, fmt.Sprintf("run exit %d: %s", code, out)
}

// checkLocated classifies an exit 2 by whether every line is located.
func checkLocated(out string) (string, string) {
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line != "" && !located.MatchString(line) {
			return unlocated, line + "\n" + out
		}
	}
	return refused, out
}

// crash tells a Go runtime failure or a signal from an answer.
func crash(code int, out string) bool {
	return code < 0 || strings.Contains(out, "goroutine ") || strings.Contains(out, "panic:") ||
		strings.Contains(out, "fatal error:") || strings.Contains(out, "runtime: out of memory")
}

// capped runs websim with a time limit and an address-space cap of 4 GB
// (through the shell's ulimit), returning its exit code (-1 after a
// signal) and its combined output.
func capped(bin string, limit time.Duration, args ...string) (code int, out string, timedOut bool) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", "ulimit -v 4194304; exec '"+bin+"' "+strings.Join(quoted, " "))
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := cmd.Run()
	if ctx.Err() != nil {
		return -1, b.String(), true
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), b.String(), false
	}
	if err != nil {
		return -1, err.Error(), false
	}
	return 0, b.String(), false
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[:min(n, len(lines))], " | ")
}
