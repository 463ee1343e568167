package lb

import "testing"

// BenchmarkLB runs one replication of the sample: 50,000 requests over six
// servers.
func BenchmarkLB(b *testing.B) {
	p := Sample()
	services, err := serviceDists(p.Types)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s := runOnce(&p, services, 0)
		summarise(s, &p)
	}
}

// The hot path allocates nothing per request once the queues have grown.
func TestArriveDoesNotAllocate(t *testing.T) {
	p := Sample()
	s := newSim(&p)
	now := 0.0
	for i := range 1000 { // let the queues reach their working size
		now += 0.01
		s.arrive(now, i%2, 1)
	}
	allocs := testing.AllocsPerRun(1000, func() {
		now += 0.05
		s.arrive(now, 1, 1.15)
	})
	if allocs != 0 {
		t.Errorf("arrive allocates %v times per request", allocs)
	}
}
