package engine

import (
	"fmt"
	"testing"
)

// BenchmarkMMc runs the reference model of ../shared/bench: M/M/20 at
// utilization 0.8 (arrival rate 16, service mean 1), processing on the
// application server, 10^6 requests per iteration. It reports finished
// requests and events per second.
func BenchmarkMMc(b *testing.B) {
	m := oneService(expD(1.0/16), Step{Name: "Work", Kind: Local, ProcTime: expD(1)})
	m.App.Capacity = 20
	const n = 1_000_000
	b.ReportAllocs()
	var events int64
	for i := 0; b.Loop(); i++ {
		r, err := Run(m, RunConfig{Seed: uint64(i + 1), Observations: n})
		if err != nil {
			b.Fatal(err)
		}
		events += r.Events
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(n)*float64(b.N)/sec, "requests/s")
	b.ReportMetric(float64(events)/sec, "events/s")
}

// BenchmarkMMcMemory runs the same model for 10^5, 10^6 and 10^7
// requests: bytes allocated per run (B/op) stay flat, because statistics
// are running figures and requests are recycled.
func BenchmarkMMcMemory(b *testing.B) {
	m := oneService(expD(1.0/16), Step{Name: "Work", Kind: Local, ProcTime: expD(1)})
	m.App.Capacity = 20
	for _, n := range []int64{100_000, 1_000_000, 10_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Run(m, RunConfig{Seed: 1, Observations: n}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
