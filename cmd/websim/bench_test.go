package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/websim/websim/internal/benchref"
	"github.com/websim/websim/workbook/wbtest"
)

// BenchmarkWholeProcessMMc holds the whole websim process (the program
// built as users build it, reading the M/M/20 workbooks of `websim new
// --template mmc`, simulating 10^6 requests at rho0.8 and writing
// OutPut.xlsx) against the minimal container/heap loop of ../shared/bench
// (bench/mmc-minimal, 10^6 customers). Each round runs websim, then the
// same with --observations 1 (starting the program, the workbooks in and
// out, the warm-up: what does not grow with the requests), then the
// minimal loop, all as child processes, in turn. It reports the CPU
// seconds of each and the median of the rounds' ratios of websim to the
// minimal loop (x-minimal), the figure of issue 17's goal of at most 0.6.
func BenchmarkWholeProcessMMc(b *testing.B) {
	websim := benchref.Build(b, "./cmd/websim")
	minimal := benchref.Build(b, "./bench/mmc-minimal")
	dir := filepath.Join(b.TempDir(), "m")
	benchref.CPU(b, websim, "new", dir, "--template", "mmc")
	out := filepath.Join(b.TempDir(), "OutPut.xlsx")
	var whole, fixed, loop, ratios []float64
	for b.Loop() {
		w, _ := benchref.CPU(b, websim, "run", dir, "--observations", "1000000", "--loads", "rho0.8", "--quiet", "--out", out)
		f, _ := benchref.CPU(b, websim, "run", dir, "--observations", "1", "--loads", "rho0.8", "--quiet", "--out", out)
		l, _ := benchref.CPU(b, minimal, "-n", "1000000")
		whole, fixed, loop = append(whole, w), append(fixed, f), append(loop, l)
		ratios = append(ratios, w/l)
	}
	if _, err := os.Stat(out); err != nil {
		b.Fatalf("websim wrote no workbook: %v", err)
	}
	b.ReportMetric(benchref.Median(whole), "cpu-s")
	b.ReportMetric(benchref.Median(fixed), "fixed-cpu-s")
	b.ReportMetric(benchref.Median(loop), "minimal-cpu-s")
	b.ReportMetric(benchref.Median(ratios), "x-minimal")
}

// BenchmarkSmallRun is the part of a run that does not grow with its
// requests, inside the process: the M/M/20 workbooks of `websim new
// --template mmc` read and checked, one request simulated after the
// warm-up, OutPut.xlsx written. Its allocations (B/op) are what the
// process touches for the first time, page by page, since the heap
// starts at 64 MB (startheap.go): on a virtual machine where a page fault
// costs microseconds, a good part of the CPU of a small run.
func BenchmarkSmallRun(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "m")
	out := filepath.Join(b.TempDir(), "OutPut.xlsx")
	if code := run([]string{"websim", "new", dir, "--template", "mmc"}, io.Discard, io.Discard); code != 0 {
		b.Fatalf("websim new: exit %d", code)
	}
	b.ReportAllocs()
	for b.Loop() {
		if code := run([]string{"websim", "run", dir, "--observations", "1", "--loads", "rho0.8", "--quiet", "--out", out}, io.Discard, io.Discard); code != 0 {
			b.Fatalf("websim run: exit %d", code)
		}
	}
}

// BenchmarkManyRunsMemory runs a study of 100 scenarios × 100 loads of
// small runs (an M/M/2 queue, 2,000 requests each: 10,000 runs) with the
// websim program, workbooks in and OutPut.xlsx out (its Timeline sheet
// alone has half a million rows), and reports the process's peak resident
// memory (peak-RSS-MB) and CPU: issue 17 asks at most 300 MB, flat in the
// number of runs. runs=1000 is the same with 10 scenarios.
func BenchmarkManyRunsMemory(b *testing.B) {
	websim := benchref.Build(b, "./cmd/websim")
	for _, scenarios := range []int{10, 100} {
		b.Run(fmt.Sprintf("runs=%d", scenarios*100), func(b *testing.B) {
			dir := filepath.Join(b.TempDir(), "many")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
			manyRunsModel(scenarios, 100).Write(b, dir)
			out := filepath.Join(b.TempDir(), "OutPut.xlsx")
			var peak, cpu []float64
			for b.Loop() {
				u := benchref.Run(b, websim, "run", dir, "--quiet", "--out", out)
				peak, cpu = append(peak, float64(u.PeakRSS)/(1<<20)), append(cpu, u.CPU)
			}
			b.ReportMetric(benchref.Median(peak), "peak-RSS-MB")
			b.ReportMetric(benchref.Median(cpu), "cpu-s")
		})
	}
}

// manyRunsModel is an M/M/2 model of scenarios × loads small runs (2,000
// requests each, no warm-up; utilization 0.1 to 0.9 over the loads).
func manyRunsModel(scenarios, loads int) *wbtest.Model {
	m := &wbtest.Model{}
	m.Add("SvcData.xlsx", "Settings",
		[]any{"Name", "Value"},
		[]any{"TimeUnit", "s"}, []any{"Seed", 1}, []any{"WarmUp", 0}, []any{"Observations", 2000},
		[]any{"AppServers", 1}, []any{"AppCapacity", 2}, []any{"RATParameter", 0},
	)
	header, rates := []any{"Entity"}, []any{"Job"}
	for l := range loads {
		header = append(header, fmt.Sprintf("L%d", l+1))
		rates = append(rates, fmt.Sprintf("Exp(%g)", 1/(0.2+1.6*float64(l)/float64(loads))))
	}
	m.Add("SvcData.xlsx", "Arrivals", header, rates)
	m.Add("SvcData.xlsx", "Job", []any{"Service"}, []any{"Work"})
	experiments := m.Add("SvcData.xlsx", "Experiments", []any{"Scenario", "AppCapacity"})
	for s := range scenarios {
		experiments.Rows = append(experiments.Rows, []any{fmt.Sprintf("S%d", s+1), 2})
	}
	m.Add("ProcData.xlsx", "Work", []any{"Step", "ProcTime"}, []any{"Process", "Exp(1)"})
	return m
}

// firstLanding is main as the first session left it (2026-11-30), the
// baseline of issue 17's goal for the asum study: half its CPU.
const firstLanding = "5c4e803"

// BenchmarkASUMAgainstFirstLanding runs the full asum study (the first
// landing's samples/asum: 10 scenarios × 10 loads × 100,000 observations,
// on every core) with the websim program as built now and as the first
// landing built it, in turn, and reports the median of the rounds' ratios
// of CPU (x-first-landing; the goal is at most 0.5) and each one's CPU.
// It needs the repository's history (git), and takes about a minute of
// wall time a round on two cores.
func BenchmarkASUMAgainstFirstLanding(b *testing.B) {
	old := benchref.Checkout(b, firstLanding)
	then := benchref.BuildAt(b, old, "./cmd/websim")
	now := benchref.Build(b, "./cmd/websim")
	sample := filepath.Join(old, "samples", "asum")
	out := filepath.Join(b.TempDir(), "OutPut.xlsx")
	var ratios, nowCPU, thenCPU []float64
	for b.Loop() {
		n, _ := benchref.CPU(b, now, "run", sample, "--quiet", "--out", out)
		t, _ := benchref.CPU(b, then, "run", sample, "--quiet", "--out", out)
		ratios, nowCPU, thenCPU = append(ratios, n/t), append(nowCPU, n), append(thenCPU, t)
	}
	b.ReportMetric(benchref.Median(ratios), "x-first-landing")
	b.ReportMetric(benchref.Median(nowCPU), "cpu-s")
	b.ReportMetric(benchref.Median(thenCPU), "first-landing-cpu-s")
}
