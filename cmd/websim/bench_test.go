package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/websim/websim/internal/benchref"
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
