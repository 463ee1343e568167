package stats

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// histogramFormat versions the bytes of MarshalBinary.
const histogramFormat = 1

// MarshalBinary encodes the histogram exactly (every count), sparsely: the
// non-empty buckets only, so that a run's histogram travels in a few
// kilobytes. encoding/gob uses it, so a Result carrying a histogram can be
// written to a file and read back to the same histogram.
func (h *Histogram) MarshalBinary() ([]byte, error) {
	buf := binary.AppendUvarint(nil, histogramFormat)
	buf = binary.AppendUvarint(buf, uint64(h.n))
	buf = binary.AppendUvarint(buf, uint64(h.zero))
	last := -1
	h.each(func(i int, c int64) bool {
		buf = binary.AppendUvarint(buf, uint64(i-last)) // gap from the previous non-empty bucket
		buf = binary.AppendUvarint(buf, uint64(c))
		last = i
		return true
	})
	return buf, nil
}

// errHistogramBytes is the cause of every decoding failure.
var errHistogramBytes = errors.New("histogram: damaged bytes")

// UnmarshalBinary decodes what MarshalBinary wrote, replacing h (and
// reusing its buckets' memory).
func (h *Histogram) UnmarshalBinary(data []byte) error {
	read := func() (uint64, error) {
		v, n := binary.Uvarint(data)
		if n <= 0 {
			return 0, errHistogramBytes
		}
		data = data[n:]
		return v, nil
	}
	format, err := read()
	if err != nil {
		return err
	}
	if format != histogramFormat {
		return fmt.Errorf("%w: format %d, expected %d", errHistogramBytes, format, histogramFormat)
	}
	n, err := read()
	if err != nil {
		return err
	}
	zero, err := read()
	if err != nil {
		return err
	}
	// The chunks' memory is reused, so that decoding many histograms in
	// turn does not allocate.
	// A new chunk is taken from counts' spare capacity and must be zero.
	slot, counts := h.slot, h.counts[:cap(h.counts)]
	clear(slot)
	clear(counts)
	counts = counts[:0]
	*h = Histogram{n: int64(n), zero: int64(zero), slot: slot, counts: counts}
	sum := zero
	i := -1
	for len(data) > 0 {
		gap, err := read()
		if err != nil {
			return err
		}
		c, err := read()
		if err != nil {
			return err
		}
		if gap == 0 || gap > uint64(nBuckets) || i+int(gap) >= nBuckets || c == 0 {
			return errHistogramBytes
		}
		i += int(gap)
		h.chunk(i >> chunkBits)[i&(chunkSize-1)] = uint32(c)
		if hi := c >> 32 << 32; hi != 0 {
			h.addCarry(i, int64(hi))
		}
		sum += c
	}
	if sum != n {
		return fmt.Errorf("%w: counts add up to %d, expected %d", errHistogramBytes, sum, n)
	}
	return nil
}
