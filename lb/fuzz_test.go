package lb

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// FuzzParams reads any YAML text as parameters: it is refused with
// problems or, when valid, runs (its requests capped at 2,000) within a
// time and memory budget to figures that are all finite.
func FuzzParams(f *testing.F) {
	f.Add(goodYAML)
	f.Add(manyTypes(3))
	f.Add("number_of_servers: 1e9\nnumber_of_requests_per_sec: 1e-320\nnumber_of_requests: 10\nmethod: busyness\ntypes_of_requests:\n  a:\n    output_capacity: 1\n    proportion: 1\n    avg_service_time_secs: 1,15\n    deviation_service_time_secs: 0\n")
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4000 {
			return
		}
		path := filepath.Join(t.TempDir(), "p.yaml")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		var src *Source
		var err error
		loaded := make(chan struct{})
		go func() {
			if src, err = Load(path); err == nil {
				err = src.Check()
			}
			close(loaded)
		}()
		select {
		case <-loaded:
		case <-time.After(10 * time.Second):
			t.Fatalf("reading %q did not end within 10 s", text)
		}
		if err != nil {
			return
		}
		p := src.Params
		p.Requests = min(p.Requests, 2000)
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		done := make(chan *Report, 1)
		go func() {
			rep, err := Run(p, 1)
			if err != nil {
				t.Errorf("Run: %v", err)
			}
			done <- rep
		}()
		select {
		case rep := <-done:
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if after.HeapAlloc > 1<<30 {
				t.Errorf("the run left %d MB of heap", after.HeapAlloc>>20)
			}
			if rep != nil {
				if err := rep.WriteJSON(io.Discard); err != nil {
					t.Errorf("--json: %v", err) // +Inf or NaN
				}
			}
		case <-time.After(20 * time.Second):
			t.Fatal("the run did not end within 20 s")
		}
	})
}
