package stats

import (
	"encoding/binary"
	"fmt"
)

// percentilesFormat versions the bytes of Percentiles.MarshalBinary.
// Format 2: a window of 64 cells that may cover the median, the merged
// intervals of p50 and p90 too, and the window's counts only once it is
// placed (a series of fewer than pinAfter observations has none).
const percentilesFormat = 2

// percentilesState is what Percentiles keeps besides its histogram, in
// fixed-size fields for encoding/binary.
type percentilesState struct {
	Pinned    bool
	Wide      bool
	Lo        int64
	Below     [MaxBatches]uint32
	Full      int64
	Size      int64
	PBelow    uint32
	PCells    [windowCells]uint32
	InPartial int64
	Merged    [len(MergedProbs)]struct {
		V, DF         float64
		Missing, Thin bool
	}
	MergedN int64
	Parts   int64
}

// MarshalBinary encodes p exactly: its histogram (as
// Histogram.MarshalBinary) and its batches, so that encoding/gob can carry
// a Result with its percentiles' intervals to another process (a shard's
// partial file) and Merge them there as if they had never left.
func (p *Percentiles) MarshalBinary() ([]byte, error) {
	h, err := p.hist.MarshalBinary()
	if err != nil {
		return nil, err
	}
	st := percentilesState{Pinned: p.pinned, Wide: p.wide, Lo: int64(p.lo), Below: p.below, Full: int64(p.full),
		Size: p.size, PBelow: p.pBelow, PCells: p.pCells, InPartial: p.inPartial, MergedN: p.mergedN, Parts: int64(p.parts)}
	for i, m := range p.merged {
		st.Merged[i].V, st.Merged[i].DF, st.Merged[i].Missing, st.Merged[i].Thin = m.v, m.df, m.missing, m.thin
	}
	buf := binary.AppendUvarint(nil, percentilesFormat)
	buf = binary.AppendUvarint(buf, uint64(len(h)))
	buf = append(buf, h...)
	buf, err = binary.Append(buf, binary.LittleEndian, &st)
	if err != nil || !p.pinned {
		return buf, err
	}
	cells := p.cells
	if cells == nil {
		cells = new(windowBatches)
	}
	return binary.Append(buf, binary.LittleEndian, cells)
}

// UnmarshalBinary decodes what MarshalBinary wrote, replacing p.
func (p *Percentiles) UnmarshalBinary(data []byte) error {
	format, n := binary.Uvarint(data)
	if n <= 0 || format != percentilesFormat {
		return fmt.Errorf("%w: percentiles format %d, expected %d", errHistogramBytes, format, percentilesFormat)
	}
	data = data[n:]
	size, n := binary.Uvarint(data)
	if n <= 0 || uint64(len(data)-n) < size {
		return fmt.Errorf("%w: percentiles cut short", errHistogramBytes)
	}
	data = data[n:]
	var h Histogram
	if err := h.UnmarshalBinary(data[:size]); err != nil {
		return err
	}
	var st percentilesState
	n, err := binary.Decode(data[size:], binary.LittleEndian, &st)
	if err != nil {
		return fmt.Errorf("%w: percentiles: %v", errHistogramBytes, err)
	}
	var cells *windowBatches
	if st.Pinned {
		cells = new(windowBatches)
		if _, err := binary.Decode(data[int(size)+n:], binary.LittleEndian, cells); err != nil {
			return fmt.Errorf("%w: percentiles window: %v", errHistogramBytes, err)
		}
	}
	if st.Lo < 0 || st.Lo > int64(nChunks-windowCells) || st.Full < 0 || st.Full >= MaxBatches {
		return fmt.Errorf("%w: percentiles window %d, batches %d", errHistogramBytes, st.Lo, st.Full)
	}
	*p = Percentiles{hist: h, pinned: st.Pinned, wide: st.Wide, lo: int(st.Lo), below: st.Below, full: int(st.Full),
		size: st.Size, pBelow: st.PBelow, pCells: st.PCells, inPartial: st.InPartial, mergedN: st.MergedN, parts: int(st.Parts)}
	p.cells = cells
	for i, m := range st.Merged {
		p.merged[i].v, p.merged[i].df, p.merged[i].missing, p.merged[i].thin = m.V, m.DF, m.Missing, m.Thin
	}
	return nil
}
