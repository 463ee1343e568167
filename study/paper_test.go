package study_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/benchref"
	"github.com/websim/websim/study"
	"github.com/websim/websim/workbook"
)

// asum reads the bundled sample of the paper's example.
func asum(t testing.TB) *study.Plan {
	t.Helper()
	p, err := workbook.Read("../samples/asum")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func scenario(t testing.TB, p *study.Plan, name string) *study.Scenario {
	t.Helper()
	for i := range p.Scenarios {
		if p.Scenarios[i].Name == name {
			return &p.Scenarios[i]
		}
	}
	t.Fatalf("no scenario %s in the sample", name)
	return nil
}

func loadIndex(t testing.TB, m *engine.Model, label string) int {
	t.Helper()
	for i, l := range m.Loads {
		if l == label {
			return i
		}
	}
	t.Fatalf("no load %s", label)
	return -1
}

// TestMixedModeGoesSequentialUnderLoad: ASumSvc's Mode cell is
// `AppUtil < SwitchUtil ? "parallel" : "sequential"` with SwitchUtil 0.7
// (paper 5.1). Each request takes that decision once, so parallel
// decisions per request is the share that went parallel: all of them at
// light load, fewer as the servers fill.
func TestMixedModeGoesSequentialUnderLoad(t *testing.T) {
	p := asum(t)
	sc := scenario(t, p, "M10")
	var shares []float64
	for _, load := range []string{"L1", "L7", "L9"} {
		r, err := engine.Run(sc.Model, engine.RunConfig{Load: loadIndex(t, sc.Model, load), Seed: 1, WarmUp: 20000, Observations: 15000})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Stable {
			t.Fatalf("M10 at %s unstable: %s", load, r.Unstable)
		}
		share := float64(r.ParallelSteps) / float64(r.Arrivals)
		t.Logf("%s: app utilization %.2f, parallel share %.3f", load, r.AppUtilization, share)
		shares = append(shares, share)
	}
	if shares[0] < 0.99 {
		t.Errorf("at light load only %.3f went parallel, want all", shares[0])
	}
	for i := 1; i < len(shares); i++ {
		if shares[i] > shares[i-1] {
			t.Errorf("parallel share rose with load: %v", shares)
		}
	}
	// At L9 the share is binomial over ~15000 requests: a drop of 0.05 is
	// far beyond its sampling error (about 0.004).
	if shares[2] > shares[0]-0.05 {
		t.Errorf("parallel share %.3f at L9 hardly below %.3f at L1", shares[2], shares[0])
	}
}

// BenchmarkASUMParallel runs the paper's example shape from the sample:
// 10 application servers of 20 units, a parallel fork of UniformInt(1,6)
// copies per request, five external servers with background load
// (scenario P10 at load L5, stable, 20,000 requests per iteration).
func BenchmarkASUMParallel(b *testing.B) {
	p := asum(b)
	sc := scenario(b, p, "P10")
	load := loadIndex(b, sc.Model, "L3")
	const n = 20_000
	b.ReportAllocs()
	var events int64
	start := time.Now()
	for i := 0; b.Loop(); i++ {
		r, err := engine.Run(sc.Model, engine.RunConfig{Load: load, Seed: uint64(i + 1), Observations: n})
		if err != nil {
			b.Fatal(err)
		}
		if !r.Stable {
			b.Fatalf("unstable: %s", r.Unstable)
		}
		events += r.Events
	}
	sec := time.Since(start).Seconds()
	b.ReportMetric(float64(n*b.N)/sec, "requests/s")
	b.ReportMetric(float64(events)/sec, "events/s")
}

// BenchmarkASUMStudy runs the whole Experiments sheet of the sample (10
// scenarios × 10 loads, 100,000 observations each) on all cores. It
// reports the CPU seconds of a study (cpu-s) beside its wall time.
func BenchmarkASUMStudy(b *testing.B) {
	p := asum(b)
	cpu := benchref.SelfCPU()
	for b.Loop() {
		if _, err := study.Execute(context.Background(), p, study.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((benchref.SelfCPU()-cpu)/float64(b.N), "cpu-s")
}

// BenchmarkASUMJobs runs the sample's whole study with one run at a time
// and then with two at once, in turn, and reports the median of the
// rounds' speed-ups of the wall time (x-faster; issue 17 asks at least
// 1.8 on two idle cores) and the CPU seconds of each. It needs two cores.
//
// After each round it measures what the machine itself gives two
// CPU-bound processes (benchref.Speedup of the typed-heap loop of bench/):
// machine-x-faster, whose median is the ceiling of x-faster here, and
// x-of-machine, the median of the rounds' x-faster over it (near 1 where
// the study uses the second core fully). Two virtual cores that share a
// physical core, or run at different speeds, lower both x-faster and
// machine-x-faster, but not x-of-machine.
func BenchmarkASUMJobs(b *testing.B) {
	if runtime.NumCPU() < 2 {
		b.Skip("needs two cores")
	}
	p := asum(b)
	typed := benchref.Build(b, "./bench/mmc-typed")
	var speedups, machine, ofMachine, cpu1, cpu2 []float64
	for b.Loop() {
		var wall [2]time.Duration
		var cpu [2]float64
		for k, jobs := range []int{1, 2} {
			c, start := benchref.SelfCPU(), time.Now()
			if _, err := study.Execute(context.Background(), p, study.Options{Jobs: jobs}); err != nil {
				b.Fatal(err)
			}
			wall[k], cpu[k] = time.Since(start), benchref.SelfCPU()-c
		}
		x := wall[0].Seconds() / wall[1].Seconds()
		m := benchref.Speedup(b, typed, "-n", "20000000")
		speedups, machine, ofMachine = append(speedups, x), append(machine, m), append(ofMachine, x/m)
		cpu1, cpu2 = append(cpu1, cpu[0]), append(cpu2, cpu[1])
	}
	b.ReportMetric(benchref.Median(speedups), "x-faster")
	b.ReportMetric(benchref.Median(machine), "machine-x-faster")
	b.ReportMetric(benchref.Median(ofMachine), "x-of-machine")
	b.ReportMetric(benchref.Median(cpu1), "jobs1-cpu-s")
	b.ReportMetric(benchref.Median(cpu2), "jobs2-cpu-s")
}
