package engine

import "math/rand/v2"

// Random streams. Each purpose draws from its own PCG stream, seeded by
// the base seed, the load level and the replication, but not by the
// scenario: two scenarios at the same load see the same arrivals, service
// times and draws (common random numbers), and a run's results do not
// depend on which other runs go on at the same time.
const (
	streamArrival   = 1 << 20 // + entity
	streamAttribute = 2 << 20 // + entity
	streamPatience  = 3 << 20 // + entity
	streamRetry     = 4 << 20 // + entity
	streamService   = 5 << 20 // + server
	streamBgArrival = 6 << 20 // + server
	streamBgService = 7 << 20 // + server
	streamLocal     = 8 << 20 // processing on the application servers
	streamRouting   = 9 << 20 // success draws
	streamSelection = 10 << 20
)

// runSeed mixes the base seed with a load level and replication
// (SplitMix64 finalizer), so neighbouring runs get unrelated streams.
func runSeed(seed uint64, load, replication int) uint64 {
	z := seed ^ uint64(load+1)*0x9e3779b97f4a7c15 ^ uint64(replication+1)*0xbf58476d1ce4e5b9
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func newStream(runSeed uint64, purpose int) *rand.Rand {
	return rand.New(rand.NewPCG(runSeed, uint64(purpose)))
}
