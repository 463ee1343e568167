package study

import (
	"context"
	"math"
	"testing"
)

// BenchmarkSizeMMc sizes an M/M/c queue (λ = 4, μ = 1) on a mean target
// over 1..64 and reports the probes per point beside log2(range)+3.
func BenchmarkSizeMMc(b *testing.B) {
	p := mmcSizePlan(4, 1, 20_000, Target{Measure: MeasureMean, Limit: 1.09})
	set, err := ParseSizeSetting("AppCapacity", p.Scenarios[0].Model)
	if err != nil {
		b.Fatal(err)
	}
	probes := 0
	for b.Loop() {
		sz, err := Size(context.Background(), p, SizeOptions{Setting: set, Max: 64, Jobs: 1})
		if err != nil {
			b.Fatal(err)
		}
		pt := sz.Points[0]
		if pt.Outcome != SizeFound || pt.Size != 7 {
			b.Fatalf("%s %d: %s", pt.Outcome, pt.Size, pt.Text)
		}
		probes = pt.Probes
	}
	b.ReportMetric(float64(probes), "probes/point")
	b.ReportMetric(math.Log2(64)+3, "log2(range)+3")
}
