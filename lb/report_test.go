package lb

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// golden compares got with testdata/name, which -update rewrites.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test ./lb -update rewrites it); got:\n%s", path, got)
	}
}

func TestGoldenText(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Params)
		reps int
	}{
		{"sample1.txt", func(*Params) {}, 1},
		{"sample1_issue_flags_3reps.txt", func(p *Params) {
			p.Servers, p.Requests, p.RequestsPerSec, p.Method = 4, 20000, 20, Busyness
		}, 3},
		{"two_units_four_servers.txt", func(p *Params) {
			p.Servers, p.Requests, p.Types[0].OutputCapacity = 4, 2000, 2
		}, 1},
	}
	for _, tt := range tests {
		p := Sample()
		tt.edit(&p)
		r, err := Run(p, tt.reps)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := r.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		golden(t, tt.name, b.Bytes())
	}
}

func TestJSONSchema(t *testing.T) {
	p := Sample()
	p.Requests = 5000
	for _, reps := range []int{1, 3} {
		r, _ := Run(p, reps)
		var b bytes.Buffer
		if err := r.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"requests", "failed", "waited", "waitedPercent", "totalWait", "meanWait", "waitShareOfService", "perServer", "byType"} {
			if _, ok := doc[k]; !ok {
				t.Errorf("no %q in %s", k, b.Bytes())
			}
		}
		dma := doc["byType"].(map[string]any)["dma"].(map[string]any)
		for _, k := range []string{"requests", "failed", "waited", "waitedPercent", "totalWait", "meanWait", "capacity"} {
			if _, ok := dma[k]; !ok {
				t.Errorf("no byType.dma.%q", k)
			}
		}
		if _, ok := doc["ciHalfWidth95"]; ok != (reps > 1) {
			t.Errorf("%d replications: ciHalfWidth95 present %v", reps, ok)
		}
		if doc["requests"].(float64) != 5000 || len(doc["perServer"].([]any)) != 6 {
			t.Errorf("requests %v, perServer %v", doc["requests"], doc["perServer"])
		}
	}
}

// A figure so large that its digits would fill the table is printed with
// an exponent, its percent sign kept.
func TestFixedKeepsHugeFiguresShort(t *testing.T) {
	for _, c := range []struct {
		format string
		v      float64
		want   string
	}{
		{"%.4f", 1.5, "1.5000"},
		{"%.2f%%", 12.345, "12.35%"},
		{"%.4f", 1e300, "1e+300"},
		{"%.2f%%", 3e18, "3e+18%"},
	} {
		if got := fixed(c.format, c.v); got != c.want {
			t.Errorf("fixed(%q, %g) = %q, want %q", c.format, c.v, got, c.want)
		}
	}
}
