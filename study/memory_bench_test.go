//go:build unix

package study

import (
	"context"
	"fmt"
	"runtime"
	"syscall"
	"testing"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/engine/dist"
)

// manyRunsPlan is scenarios × loads small runs of an M/M/2 model (obs
// requests each, one replication): a study whose size is its number of
// runs, not their length.
func manyRunsPlan(scenarios, loads int, obs int64) *Plan {
	labels := make([]string, loads)
	ia := make([]engine.Dist, loads)
	idx := make([]int, loads)
	for l := range loads {
		labels[l] = fmt.Sprintf("L%d", l+1)
		ia[l] = dist.MustParse(fmt.Sprintf("Exp(%g)", 1/(0.2+1.6*float64(l)/float64(loads))))
		idx[l] = l
	}
	m := &engine.Model{
		Name: "many", TimeUnit: "s", Loads: labels,
		App: engine.AppConfig{Servers: 1, Capacity: 2},
		Services: []engine.Service{{Name: "Work", Steps: []engine.Step{
			{Name: "Process", Kind: engine.Local, ProcTime: dist.MustParse("Exp(1)"), OnSuccess: engine.Done, OnFailure: engine.Fail},
		}}},
		Entities: []engine.Entity{{Name: "Job", InterArrival: ia,
			Stages: []engine.Stage{{Service: 0, OnSuccess: engine.End, OnFailure: engine.Exit}}}},
	}
	p := &Plan{Model: "many", TimeUnit: "s"}
	for s := range scenarios {
		p.Scenarios = append(p.Scenarios, Scenario{Name: fmt.Sprintf("S%d", s+1), Model: m,
			Run: RunSettings{Seed: 1, Observations: obs, Replications: 1, Loads: idx}})
	}
	return p
}

// BenchmarkStudyMemory runs studies of 1,000 and 10,000 small runs (10 and
// 100 scenarios × 100 loads, 2,000 requests each) and reports the peak
// resident memory of the process (peak-RSS-MB, from getrusage) and the
// heap the finished study keeps (retained-MB): each finished run is folded
// into its pooled figures at once, so both grow by a few hundred bytes a
// run rather than by a run's histograms.
// Run: go test ./study -run '^$' -bench StudyMemory -benchtime 1x
func BenchmarkStudyMemory(b *testing.B) {
	for _, scenarios := range []int{10, 100} {
		b.Run(fmt.Sprintf("runs=%d", scenarios*100), func(b *testing.B) {
			var st *Study
			var before, after runtime.MemStats
			for b.Loop() {
				runtime.GC()
				runtime.ReadMemStats(&before)
				var err error
				if st, err = Execute(context.Background(), manyRunsPlan(scenarios, 100, 2000), Options{}); err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
			}
			if len(st.Runs) != scenarios*100 {
				b.Fatalf("%d runs", len(st.Runs))
			}
			var ru syscall.Rusage
			if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MB") // kilobytes on Linux
			b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "retained-MB")
			b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(len(st.Runs)), "retained-B/run")
		})
	}
}
