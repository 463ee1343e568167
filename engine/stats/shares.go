package stats

// Shares keeps batch means of two 0/1 series observed together, one value
// of each per observation: whether each finished request failed, and
// whether it was abandoned, say. It holds what two BatchMeans fed the same
// values would hold, bit for bit (Series returns them), for a counter
// update per observation instead of two floating-point folds: the sums of
// zeros and ones are whole numbers, which float64 adds exactly.
type Shares struct {
	n, inPartial, size int64
	full               int
	first              [2]bool // each series' first value, BatchMeans' shift
	partial            [2]int64
	sums               [2][MaxBatches]int64
}

// Add records the next observation of both series.
func (s *Shares) Add(a, b bool) {
	if s.n == 0 {
		s.size, s.first = 1, [2]bool{a, b}
	}
	s.n++
	if a {
		s.partial[0]++
	}
	if b {
		s.partial[1]++
	}
	if s.inPartial++; s.inPartial < s.size {
		return
	}
	s.close()
}

// close ends the batch being filled, as BatchMeans.Add does.
func (s *Shares) close() {
	for k := range s.sums {
		s.sums[k][s.full] = s.partial[k]
		s.partial[k] = 0
	}
	s.full++
	s.inPartial = 0
	if s.full == MaxBatches {
		for k := range s.sums {
			for i := 0; i < MaxBatches/2; i++ {
				s.sums[k][i] = s.sums[k][2*i] + s.sums[k][2*i+1]
			}
		}
		s.full = MaxBatches / 2
		s.size *= 2
	}
}

// Series returns series k (0 or 1) as the BatchMeans that the same values
// would have made.
func (s *Shares) Series(k int) BatchMeans {
	var b BatchMeans
	if s.n == 0 {
		return b
	}
	b.full, b.size, b.n, b.inPartial = s.full, s.size, s.n, s.inPartial
	// Every observation is in a kept batch or the one being filled.
	n1 := s.partial[k]
	for i := range s.full {
		b.sums[i] = float64(s.sums[k][i])
		n1 += s.sums[k][i]
	}
	b.partial = float64(s.partial[k])
	// BatchMeans shifts by the first value: each later one less it is 0
	// or 1 (first 0) or -1 or 0 (first 1), and so is its square's sign.
	ones := float64(n1)
	if s.first[k] {
		b.shift = 1
		b.shifted, b.shiftedSq = ones-float64(s.n), float64(s.n)-ones
	} else {
		b.shifted, b.shiftedSq = ones, ones
	}
	return b
}
