package tool

import (
	"math"
	"strings"
)

// ParseSize parses a count with an optional GNU multiplier suffix: b (512),
// K/k (1024), M, G, T, P, E (powers of 1024), KB, MB... (powers of 1000),
// KiB, MiB... (powers of 1024). Values too large clamp to MaxInt64.
func ParseSize(s string) (int64, bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, false
	}
	var v uint64
	overflow := false
	for _, c := range s[:i] {
		d := uint64(c - '0')
		if v > (math.MaxInt64-d)/10 {
			overflow = true
			break
		}
		v = v*10 + d
	}
	suffix := s[i:]
	mult := uint64(1)
	if suffix != "" {
		base, exp := uint64(1024), -1
		unit := suffix[0]
		switch {
		case len(suffix) == 1:
		case suffix[1:] == "B":
			base = 1000
		case suffix[1:] == "iB":
		default:
			return 0, false
		}
		if p := strings.IndexByte("kKMGTPEZYRQ", unit); p >= 0 {
			exp = max(p, 1)
		} else if unit == 'b' && len(suffix) == 1 {
			mult = 512
		} else if unit == 'B' && len(suffix) == 1 {
			mult = 1
		} else {
			return 0, false
		}
		for ; exp > 0; exp-- {
			if mult > math.MaxInt64/base {
				overflow = true
				break
			}
			mult *= base
		}
	}
	if overflow || v != 0 && mult > math.MaxInt64/v {
		return math.MaxInt64, true
	}
	return int64(v * mult), true
}
