package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// pacing reads the collector's GOGC and memory limit without changing them.
func pacing() (gogc, limit int64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64()), int64(s[1].Value.Uint64())
}

// keepPacing restores the collector's pacing when the test ends.
func keepPacing(t *testing.T) {
	t.Helper()
	gogc, limit := pacing()
	t.Cleanup(func() {
		debug.SetGCPercent(int(gogc))
		debug.SetMemoryLimit(limit)
	})
}

func TestStartingHeapHandsThePacingBack(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	keepPacing(t)
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
	adjustStartingHeap()
	gogc, limit := pacing()
	if limit != startingHeap {
		t.Fatalf("before the first collection: memory limit %d, want %d", limit, startingHeap)
	}
	if gogc == 100 {
		t.Fatalf("before the first collection: GOGC is still 100, want the collector off")
	}
	// The cleanup runs on its own goroutine after a collection.
	for i := 0; i < 200; i++ {
		runtime.GC()
		if gogc, limit = pacing(); gogc == 100 && limit == math.MaxInt64 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("after collections: GOGC %d, memory limit %d; want 100 and no limit", gogc, limit)
}

func TestStartingHeapLeavesTheEnvironmentsPacing(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv("GOGC", "")
			t.Setenv("GOMEMLIMIT", "")
			t.Setenv(env, "200")
			keepPacing(t)
			debug.SetGCPercent(150)
			debug.SetMemoryLimit(math.MaxInt64)
			adjustStartingHeap()
			if gogc, limit := pacing(); gogc != 150 || limit != math.MaxInt64 {
				t.Errorf("with %s set: GOGC %d, memory limit %d; want them untouched (150, no limit)", env, gogc, limit)
			}
		})
	}
}
