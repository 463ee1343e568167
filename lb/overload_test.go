package lb

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
)

func TestOverloads(t *testing.T) {
	// The sample at 30 requests/s: dma offers 30 × 5% × 4.705 s = 7.06 s
	// of work a second to 20 units (0.35 of them), other 30 × 95% × 1.15 s
	// = 32.8 to 60 (0.55): no overload. At 200 requests/s dma offers 47.05
	// to 20 units (2.35 times), other 218.5 to 60 (3.64 times). dma's
	// mean is that of Normal(4.5,2.5) drawn again at or below 0:
	// 4.5 + 2.5 φ(1.8)/Φ(1.8) = 4.705.
	for _, c := range []struct {
		rate float64
		want string
	}{
		{30, ""},
		{200, "dma 2.35 -1; other 3.64 -1"},
	} {
		p := Sample()
		p.RequestsPerSec, p.Requests = c.rate, 2000
		r, err := Run(p, 1)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, o := range r.Overloads() {
			got = append(got, o.Type+" "+strings.TrimRight(strings.TrimRight(fmtFloat(o.Load), "0"), ".")+" "+itoa(o.Server))
		}
		if strings.Join(got, "; ") != c.want {
			t.Errorf("%g requests/s: overloads %q, want %q", c.rate, got, c.want)
		}
		var js strings.Builder
		if err := r.WriteJSON(&js); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Overloaded []struct {
				Type   string
				Server *int
				Load   float64
			}
		}
		if err := json.Unmarshal([]byte(js.String()), &doc); err != nil {
			t.Fatal(err)
		}
		var inJSON []string
		for _, o := range doc.Overloaded {
			server := -1
			if o.Server != nil {
				server = *o.Server
			}
			inJSON = append(inJSON, o.Type+" "+strings.TrimRight(strings.TrimRight(fmtFloat(o.Load), "0"), ".")+" "+itoa(server))
		}
		if strings.Join(inJSON, "; ") != c.want || !strings.Contains(js.String(), `"overloaded": [`) {
			t.Errorf("%g requests/s: JSON overloaded %q, want %q", c.rate, inJSON, c.want)
		}
		var text strings.Builder
		r.WriteText(&text)
		if (c.want != "") != strings.Contains(text.String(), "OVERLOADED: type dma") {
			t.Errorf("%g requests/s: the text says overload %v, want %v", c.rate, !(c.want != ""), c.want != "")
		}
	}
	// Round robin, servers with too few units of their own: 8 dma units
	// over 6 servers are 2,2,1,1,1,1; each server gets 5 requests/s, so
	// 5 × 5% × 4.705 s = 1.18 s of dma work a second for 1 unit, though
	// all 8 units could serve 7.06 (0.88).
	p := Sample()
	p.Servers, p.RequestsPerSec, p.Requests = 6, 30, 1000
	p.Types[0].OutputCapacity = 8
	r, err := Run(p, 1)
	if err != nil {
		t.Fatal(err)
	}
	if os := r.Overloads(); len(os) != 1 || os[0].Server != 2 || os[0].Units != 1 {
		t.Errorf("overloads %+v, want dma on server 2 (1 unit)", os)
	}
}

// The offered work counts the mean of the service times drawn, not the
// avg_service_time_secs typed: Normal(1,1) drawn again at or below 0 has a
// mean of 1 + φ(1)/Φ(1) = 1.2876, so 18 requests/s offer 23.2 s of work a
// second to 20 units (1.16 times), where the typed mean says 0.9.
func TestOverloadCountsTheMeanDrawn(t *testing.T) {
	typ := RequestType{Name: "dma", OutputCapacity: 20, Proportion: 1, AvgServiceTimeSecs: 1, DeviationServiceTimeSecs: 1}
	if got, want := typ.MeanServiceTime(), 1.2876; math.Abs(got-want) > 1e-4 {
		t.Errorf("MeanServiceTime of Normal(1,1) = %v, want %v", got, want)
	}
	p := Sample()
	p.Servers, p.RequestsPerSec, p.Requests, p.Method = 1, 18, 2000, RoundRobin
	p.Types = []RequestType{typ}
	r, err := Run(p, 1)
	if err != nil {
		t.Fatal(err)
	}
	if os := r.Overloads(); len(os) != 1 || math.Abs(os[0].Load-1.16) > 0.005 {
		t.Errorf("overloads %+v, want dma at 1.16 times its units", os)
	}
}

// TestBusynessOverloadIsObserved: busyness counts busy units, not queued
// requests, so with one unit a server and every unit busy its ties send
// the requests to server 0, which gets more than it can serve though the
// three units together could (24 × 0.1 s over 3 units: 0.8). The overload
// is found from the requests it was sent; round robin, 8 a second to each
// unit (0.8), and busyness with 5 units a server are not overloaded.
func TestBusynessOverloadIsObserved(t *testing.T) {
	for _, c := range []struct {
		method Method
		units  int
		want   string
	}{
		{Busyness, 3, "a 0"},
		{RoundRobin, 3, ""},
		{Busyness, 15, ""},
	} {
		p := Params{Servers: 3, RequestsPerSec: 24, Requests: 20000, Method: c.method, Seed: defaultSeed,
			Types: []RequestType{{Name: "a", OutputCapacity: c.units, Proportion: 1, AvgServiceTimeSecs: 0.1, DeviationServiceTimeSecs: 0.00001}}}
		r, err := Run(p, 1)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, o := range r.Overloads() {
			got = append(got, o.Type+" "+itoa(o.Server))
			if o.Load < 1 || o.Load > 1.2 || !o.Observed || !strings.Contains(o.String(), "busyness sent it") {
				t.Errorf("%v, %d units: %+v, %s", c.method, c.units, o, o)
			}
		}
		if strings.Join(got, "; ") != c.want {
			t.Errorf("%v, %d units: overloads %q, want %q", c.method, c.units, got, c.want)
		}
	}
}

func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

func itoa(i int) string { return strconv.Itoa(i) }

// TestNoOverloadFromRequestsThatFail: a request sent to a server without a
// unit of its type fails there and never queues, so only the work sent to
// servers with a unit counts. One dma unit over 3 servers (1,0,0), 3 s of
// work a second offered: round robin sends the unit a third of it (1.00,
// overloaded, and says why); busyness sends most requests to the idle
// servers without a unit, where they fail, and the unit is not
// overloaded (it read 3.00 times before).
func TestNoOverloadFromRequestsThatFail(t *testing.T) {
	for _, c := range []struct {
		method Method
		want   string
	}{
		{RoundRobin, "dma 1 -1"},
		{Busyness, ""},
	} {
		p := Params{Servers: 3, RequestsPerSec: 30, Requests: 20000, Method: c.method, Seed: defaultSeed,
			Types: []RequestType{{Name: "dma", OutputCapacity: 1, Proportion: 0.1, AvgServiceTimeSecs: 1, DeviationServiceTimeSecs: 0.1},
				{Name: "other", OutputCapacity: 30, Proportion: 0.9, AvgServiceTimeSecs: 0.1, DeviationServiceTimeSecs: 0.01}}}
		r, err := Run(p, 1)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, o := range r.Overloads() {
			got = append(got, o.Type+" "+strings.TrimRight(strings.TrimRight(fmtFloat(o.Load), "0"), ".")+" "+itoa(o.Server))
			if !strings.Contains(o.String(), "those sent to servers without one fail") {
				t.Errorf("%v: %s, want it to say the other requests fail", c.method, o)
			}
		}
		if strings.Join(got, "; ") != c.want {
			t.Errorf("%v: overloads %q, want %q", c.method, got, c.want)
		}
	}
}
