package stats

import (
	"bytes"
	"encoding/gob"
	"math"
	"math/rand/v2"
	"testing"
)

func TestHistogramBinaryRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := map[string]func(*Histogram){
		"empty": func(*Histogram) {},
		"zeros": func(h *Histogram) { h.Add(0); h.Add(math.NaN()) },
		"spread": func(h *Histogram) {
			for range 5000 {
				h.Add(r.ExpFloat64() * 100)
			}
			h.Add(0)
			h.Add(1e15) // clamped into the last bucket
		},
	}
	for name, fill := range cases {
		t.Run(name, func(t *testing.T) {
			var h Histogram
			fill(&h)
			var buf bytes.Buffer
			if err := gob.NewEncoder(&buf).Encode(&h); err != nil {
				t.Fatal(err)
			}
			var back Histogram
			if err := gob.NewDecoder(&buf).Decode(&back); err != nil {
				t.Fatal(err)
			}
			// The chunks may be stored in another order: compare what they
			// hold, bucket by bucket.
			hb, _ := h.MarshalBinary()
			bb, _ := back.MarshalBinary()
			if !bytes.Equal(hb, bb) || h.n != back.n || h.zero != back.zero {
				t.Errorf("round trip changed the histogram: n %d/%d zero %d/%d", h.n, back.n, h.zero, back.zero)
			}
			for _, q := range []float64{0.5, 0.9, 0.99} {
				if h.Quantile(q) != back.Quantile(q) {
					t.Errorf("q%.2f: %g, want %g", q, back.Quantile(q), h.Quantile(q))
				}
			}
		})
	}
}

func TestHistogramUnmarshalRefusesDamage(t *testing.T) {
	var h Histogram
	for i := range 100 {
		h.Add(float64(i))
	}
	b, _ := h.MarshalBinary()
	for _, bad := range [][]byte{nil, {9}, b[:len(b)-1], append(append([]byte{}, b...), 1, 1)} {
		var back Histogram
		if err := back.UnmarshalBinary(bad); err == nil {
			t.Errorf("% x: decoded without error", bad)
		}
	}
}
