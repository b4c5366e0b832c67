package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// byteUnits maps a size suffix, lower-cased, to its multiplier. K, KB and
// KiB all mean 1024 bytes: sandbox limits are about memory, where binary
// units are what people expect.
var byteUnits = map[string]int64{
	"":    1,
	"b":   1,
	"k":   1 << 10,
	"kb":  1 << 10,
	"kib": 1 << 10,
	"m":   1 << 20,
	"mb":  1 << 20,
	"mib": 1 << 20,
	"g":   1 << 30,
	"gb":  1 << 30,
	"gib": 1 << 30,
	"t":   1 << 40,
	"tb":  1 << 40,
	"tib": 1 << 40,
}

// parseBytes parses a byte count such as "4096", "64K", "16MiB" or "1.5G".
func parseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	mult, ok := byteUnits[unit]
	if num == "" || !ok {
		return 0, fmt.Errorf("invalid size %q: want a number of bytes with an optional suffix K, M, G, KiB, MiB or GiB (e.g. 64M)", s)
	}
	if !strings.Contains(num, ".") {
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil || n > math.MaxInt64/mult {
			return 0, fmt.Errorf("invalid size %q: too large", s)
		}
		return n * mult, nil
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("invalid size %q: %v", s, err)
	}
	v := f * float64(mult)
	if v >= math.MaxInt64 {
		return 0, fmt.Errorf("invalid size %q: too large", s)
	}
	return int64(v), nil
}

// parseTimeout parses a duration such as "2s", "500ms" or "1m30s". A bare
// number means seconds.
func parseTimeout(s string) (time.Duration, error) {
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if f < 0 || f*float64(time.Second) >= math.MaxInt64 {
			return 0, fmt.Errorf("invalid timeout %q: out of range", s)
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("invalid timeout %q: want a duration such as 2s, 500ms or 1m30s", s)
	}
	return d, nil
}
