package lb

import "math"

// waitHist keeps waits in logarithmic bins 0.1% wide from a microsecond to
// ten million seconds, so that memory stays flat however many requests
// there are, with zero waits counted apart.
type waitHist struct {
	zero, n int
	bins    []uint32
}

const (
	histMin   = 1e-6
	histScale = 1000.5 // bins per unit of ln: 1/ln(1.001)
	histBins  = 29960  // ln(1e13) * histScale, rounded up
)

func newWaitHist() waitHist { return waitHist{bins: make([]uint32, histBins)} }

func (h *waitHist) record(w float64) {
	h.n++
	if w <= 0 {
		h.zero++
		return
	}
	i := int(math.Log(w/histMin) * histScale)
	h.bins[min(max(i, 0), histBins-1)]++
}

func (h *waitHist) add(o *waitHist) {
	if h.bins == nil {
		*h = newWaitHist()
	}
	h.zero += o.zero
	h.n += o.n
	for i, c := range o.bins {
		h.bins[i] += c
	}
}

// quantile returns the q-quantile (0 < q < 1) of the waits recorded, by the
// nearest rank, as the middle of its bin; 0 when nothing was recorded.
func (h *waitHist) quantile(q float64) float64 {
	rank := int(math.Ceil(q * float64(h.n)))
	if rank <= h.zero {
		return 0
	}
	seen := h.zero
	for i, c := range h.bins {
		seen += int(c)
		if seen >= rank {
			return histMin * math.Exp((float64(i)+0.5)/histScale)
		}
	}
	return 0
}
