package report

import (
	"testing"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/study"
)

// intervals are timeline intervals with the given ends, from 0.
func intervals(ends ...float64) []engine.TimelineInterval {
	var out []engine.TimelineInterval
	start := 0.0
	for _, e := range ends {
		out = append(out, engine.TimelineInterval{Start: start, End: e})
		start = e
	}
	return out
}

func TestStubEnd(t *testing.T) {
	for _, c := range []struct {
		name string
		ends []float64
		want bool
	}{
		{"a stub of 403 after 1,000", []float64{1000, 2000, 2403}, true},
		{"half an interval is not a stub", []float64{1000, 2000, 2500}, false},
		{"equal intervals", []float64{1000, 2000, 3000}, false},
		{"one interval", []float64{3}, false},
	} {
		if got := stubEnd(intervals(c.ends...)); got != c.want {
			t.Errorf("%s: stubEnd = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestEdgeStyle(t *testing.T) {
	run := func(ends ...float64) study.Run {
		var r study.Run
		r.Result.Timeline = intervals(ends...)
		return r
	}
	for _, c := range []struct {
		name string
		runs []study.Run
		want xlsx.Style
	}{
		{"whole ends", []study.Run{run(1000, 2000, 2403)}, xlsx.Count},
		{"409.6 wide", []study.Run{run(409.6, 819.2, 1228.8)}, xlsx.Time1},
		{"the narrowest decides", []study.Run{run(409.6, 819.2), run(0.5, 1.0, 1.0625)}, xlsx.TimeStyle(xlsx.TimeDigits(0.0625, 4))},
	} {
		if got := edgeStyle(c.runs); got != c.want {
			t.Errorf("%s: edgeStyle = %v, want %v", c.name, got, c.want)
		}
	}
}
