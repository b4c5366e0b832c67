package sandbox

import (
	"encoding/binary"
	"hash/fnv"
	"sync"
)

// prng is the sandbox's seeded random source (SplitMix64). It backs
// random_get, /dev/urandom and $RANDOM, so the same seed gives the same
// bytes on every engine. It is not for cryptography.
type prng struct {
	mu    sync.Mutex
	state uint64
}

func newPRNG(seed int64) *prng { return &prng{state: uint64(seed)} }

func (p *prng) next() uint64 {
	p.state += 0x9e3779b97f4a7c15
	z := p.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Read fills b with pseudo-random bytes; it never fails.
func (p *prng) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var buf [8]byte
	n := len(b)
	for len(b) >= 8 {
		binary.LittleEndian.PutUint64(b, p.next())
		b = b[8:]
	}
	if len(b) > 0 {
		binary.LittleEndian.PutUint64(buf[:], p.next())
		copy(b, buf[:])
	}
	return n, nil
}

// processSeed derives the seed of one guest's random stream, so guests that
// run at the same time (pipeline stages) do not draw from one shared
// stream in an order the scheduler decides: `seq 20 | shuf` repeats with
// the sandbox's seed. It mixes the sandbox seed, the Run's number, the
// command line and how many guests with that command line the Run has
// started before.
func processSeed(seed int64, run uint64, argv []string, nth int) int64 {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(seed))
	h.Write(b[:])
	binary.LittleEndian.PutUint64(b[:], run)
	h.Write(b[:])
	for _, a := range argv {
		h.Write([]byte(a))
		h.Write([]byte{0})
	}
	binary.LittleEndian.PutUint64(b[:], uint64(nth))
	h.Write(b[:])
	return int64(h.Sum64())
}
