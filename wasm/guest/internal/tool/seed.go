package tool

import (
	"crypto/rand"
	"encoding/binary"
)

// Seed returns 64 random bits from the system (under WASI, the host's
// random_get, which the sandbox seeds per process). Use it to seed
// generators instead of math/rand's top-level functions: those draw from
// the Go runtime's own generator, which a pre-initialised module seeded
// once, when its image was made, so every process would get the same
// numbers.
func Seed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}
