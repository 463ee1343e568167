package report

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// contractRun holds exactly the names of contract section 5.
type contractRun struct {
	Scenario     string `json:"scenario"`
	Load         string `json:"load"`
	Replications int    `json:"replications"`
	Observations int64  `json:"observations"`
	Arrivals     int64  `json:"arrivals"`
	Completed    int64  `json:"completed"`
	Failed       int64  `json:"failed"`
	Abandoned    int64  `json:"abandoned"`
	Retries      int64  `json:"retries"`
	Timeouts     int64  `json:"timeouts"`
	ResponseTime struct {
		Mean          float64 `json:"mean"`
		SD            float64 `json:"sd"`
		P50           float64 `json:"p50"`
		P90           float64 `json:"p90"`
		P95           float64 `json:"p95"`
		P99           float64 `json:"p99"`
		CIHalfWidth95 float64 `json:"ciHalfWidth95"`
	} `json:"responseTime"`
	AppUtilization float64 `json:"appUtilization"`
	Servers        map[string]struct {
		Utilization float64 `json:"utilization"`
		MeanQueue   float64 `json:"meanQueue"`
		Timeouts    int64   `json:"timeouts"`
	} `json:"servers"`
	Stable      bool    `json:"stable"`
	Events      int64   `json:"events"`
	WallSeconds float64 `json:"wallSeconds"`
}

type contractDoc struct {
	Model    string        `json:"model"`
	TimeUnit string        `json:"timeUnit"`
	Runs     []contractRun `json:"runs"`
}

func TestWriteJSON(t *testing.T) {
	s := testStudy()
	var buf bytes.Buffer
	if err := WriteJSON(&buf, s); err != nil {
		t.Fatal(err)
	}
	golden(t, "output.json", buf.String())

	var doc contractDoc
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Model != "asum" || doc.TimeUnit != "ms" || len(doc.Runs) != len(s.Runs) {
		t.Fatalf("decoded %+v", doc)
	}
	for i, r := range doc.Runs {
		want := s.Runs[i]
		res := want.Result
		if r.Scenario != want.Scenario || r.Load != want.Load || r.Replications != want.Replications ||
			r.Arrivals != res.Arrivals || r.Completed != res.Completed || r.Failed != res.Failed ||
			r.Abandoned != res.Abandoned || r.Retries != res.Retries || r.Timeouts != res.Timeouts ||
			r.Observations != res.Completed+res.Failed+res.Abandoned ||
			r.Stable != res.Stable || r.Events != res.Events || r.WallSeconds != want.WallSeconds ||
			r.AppUtilization != res.AppUtilization || r.ResponseTime.Mean != res.Response.Mean ||
			r.ResponseTime.P95 != res.Response.P95 || r.ResponseTime.CIHalfWidth95 != res.Response.CIHalfWidth95 {
			t.Errorf("run %d decoded as %+v, want %+v", i, r, want)
		}
		if g, ok := r.Servers["GWay"]; !ok || g.Utilization != 0.55 {
			t.Errorf("run %d servers = %+v", i, r.Servers)
		}
	}

	// Every contract name is present, with its nesting, in every run.
	var raw map[string]any
	if err := json.Unmarshal(buf.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"model", "timeUnit", "runs"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("missing %q", k)
		}
	}
	for _, rr := range raw["runs"].([]any) {
		run := rr.(map[string]any)
		for _, k := range []string{"scenario", "load", "replications", "observations", "arrivals", "completed",
			"failed", "abandoned", "retries", "timeouts", "responseTime", "appUtilization", "servers",
			"stable", "events", "wallSeconds"} {
			if _, ok := run[k]; !ok {
				t.Errorf("run lacks %q", k)
			}
		}
		rt := run["responseTime"].(map[string]any)
		for _, k := range []string{"mean", "sd", "p50", "p90", "p95", "p99", "ciHalfWidth95"} {
			if _, ok := rt[k]; !ok {
				t.Errorf("responseTime lacks %q", k)
			}
		}
		for name, sv := range run["servers"].(map[string]any) {
			for _, k := range []string{"utilization", "meanQueue", "timeouts"} {
				if _, ok := sv.(map[string]any)[k]; !ok {
					t.Errorf("server %s lacks %q", name, k)
				}
			}
		}
	}
}

func TestNumberNonFiniteIsNull(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		b, err := json.Marshal(Number(f))
		if err != nil || string(b) != "null" {
			t.Errorf("Number(%v) = %s, %v; want null", f, b, err)
		}
	}
	if b, _ := json.Marshal(Number(1.5)); string(b) != "1.5" {
		t.Errorf("Number(1.5) = %s", b)
	}
}
