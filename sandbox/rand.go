package sandbox

import (
	"encoding/binary"
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
