package study

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
)

// BenchmarkMerge10000Runs merges 8 parts holding 10,000 runs (two
// scenarios × two loads × 2,500 replications of a short M/M/c run) and
// reports the heap the merged study keeps (retained-MB) beside the usual
// allocation figures. Run: go test ./study -run ^$ -bench Merge10000 -benchtime 3x
func BenchmarkMerge10000Runs(b *testing.B) {
	dir := b.TempDir()
	plan := func() *Plan { return mm1Plan(2500, 100) }
	var files []string
	for k := range 8 {
		path := filepath.Join(dir, fmt.Sprintf("part-%d.wsp", k))
		if _, err := ExecuteShard(context.Background(), plan(), Options{Version: "bench"}, Shard{k, 8}, path); err != nil {
			b.Fatal(err)
		}
		files = append(files, path)
	}
	b.ReportAllocs()
	var st *Study
	var before, after runtime.MemStats
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&before)
		var err error
		if st, err = Merge(files); err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
	}
	if n := len(st.Runs); n != 4 || st.Runs[0].Replications != 2500 {
		b.Fatalf("merged %d cells of %d replications", n, st.Runs[0].Replications)
	}
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "retained-MB")
}
