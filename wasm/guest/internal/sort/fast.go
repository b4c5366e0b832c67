package sort

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
	"io"
	"slices"
)

// rec is one input line with its first key located once, so comparisons
// do not rescan fields, and an order-preserving 64-bit prefix of that key
// that settles most comparisons without touching the bytes.
type rec struct {
	line []byte
	key  []byte // the first key's text
	pfx  uint64 // valid when the sorter's prefix kind is not prefixNone
	idx  int    // input position, for stability
}

// Kinds of precomputed prefix of the first key.
const (
	prefixNone    = iota
	prefixBytes   // the first 8 bytes, big-endian
	prefixNumeric // the value of a -n key, truncated to 3 decimals
)

// prefixKind says which prefix the first key allows.
func (s *sorter) prefixKind() int {
	k := s.keys[0]
	switch {
	case k.numeric:
		return prefixNumeric
	case k.ignore != nil || k.fold || k.general || k.human || k.month || k.version || k.random:
		return prefixNone
	}
	return prefixBytes
}

// keyText returns the part of line that key k covers.
func (s *sorter) keyText(line []byte, k *key) []byte {
	if k.sword == 0 && k.schar == 0 && k.eword < 0 && !k.skipSBlanks {
		return line
	}
	beg := s.begField(line, k)
	return line[beg:max(s.limField(line, k), beg)]
}

// makeRecs wraps lines into records.
func (s *sorter) makeRecs(lines [][]byte) []rec {
	recs := make([]rec, len(lines))
	kind := s.prefixKind()
	k0 := s.keys[0]
	for i, l := range lines {
		r := &recs[i]
		r.line, r.idx = l, i
		r.key = s.keyText(l, k0)
		switch kind {
		case prefixBytes:
			r.pfx = bytesPrefix(r.key)
		case prefixNumeric:
			r.pfx = numericPrefix(r.key)
		}
	}
	return recs
}

func bytesPrefix(b []byte) uint64 {
	if len(b) >= 8 {
		return binary.BigEndian.Uint64(b)
	}
	var buf [8]byte
	copy(buf[:], b)
	return binary.BigEndian.Uint64(buf[:])
}

// numericPrefix maps a -n key to a number whose order agrees with
// numCompare wherever the two prefixes differ: the value truncated toward
// zero to three decimals (truncation is monotone), saturated when the
// integer part is too long.
func numericPrefix(b []byte) uint64 {
	neg, intp, frac, _ := number(b)
	var v int64
	if len(intp) > 15 {
		v = 1e18
	} else {
		for _, c := range intp {
			v = v*10 + int64(c-'0')
		}
		for i := 0; i < 3; i++ {
			v *= 10
			if i < len(frac) {
				v += int64(frac[i] - '0')
			}
		}
	}
	if neg {
		v = -v
	}
	return uint64(v) ^ 1<<63
}

// compareRecs orders two records: keys, then the last-resort whole-line
// comparison (unless -s or -u), then input order.
func (s *sorter) compareRecs(a, b *rec, kind int) int {
	c := 0
	if kind != prefixNone && a.pfx != b.pfx {
		c = 1
		if a.pfx < b.pfx {
			c = -1
		}
		if s.keys[0].reverse {
			c = -c
		}
		return c
	}
	k0 := s.keys[0]
	if c = k0.compare(a.key, b.key); c != 0 {
		if k0.reverse {
			return -c
		}
		return c
	}
	for _, k := range s.keys[1:] {
		if c = k.compare(s.keyText(a.line, k), s.keyText(b.line, k)); c != 0 {
			if k.reverse {
				return -c
			}
			return c
		}
	}
	if !s.stable && !s.unique {
		c = bytes.Compare(a.line, b.line)
		if s.global.reverse {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return a.idx - b.idx
}

// sortLines sorts lines in place as GNU sort orders them. Ties fall back
// to input order, so the unstable pattern-defeating quicksort gives the
// stable result without the cost of a stable sort.
func (s *sorter) sortLines(lines [][]byte) {
	recs := s.makeRecs(lines)
	kind := s.prefixKind()
	// Sort 4-byte indices, not the records: under wasm, moving and
	// passing 56-byte records dominated the time.
	idx := make([]uint32, len(recs))
	for i := range idx {
		idx[i] = uint32(i)
	}
	slices.SortFunc(idx, func(a, b uint32) int { return s.compareRecs(&recs[a], &recs[b], kind) })
	for i, j := range idx {
		lines[i] = recs[j].line
	}
}

// mergeInput is one already-sorted input of a merge.
type mergeInput struct {
	r    *bufio.Reader
	line []byte
	idx  int
}

func (m *mergeInput) next(eol byte) (bool, error) {
	l, err := m.r.ReadSlice(eol)
	if err == bufio.ErrBufferFull {
		long := append([]byte(nil), l...)
		for err == bufio.ErrBufferFull {
			l, err = m.r.ReadSlice(eol)
			long = append(long, l...)
		}
		l = long
	}
	if len(l) == 0 {
		if err == io.EOF {
			err = nil
		}
		return false, err
	}
	if l[len(l)-1] == eol {
		l = l[:len(l)-1]
	}
	m.line = append(m.line[:0], l...)
	return true, nil
}

// merge writes the merge of already-sorted inputs to w, streaming: only
// one line per input is held. With -u, only the first of a run of equal
// keys is written.
func (s *sorter) merge(inputs []io.Reader, w *bufio.Writer, eol byte) error {
	var live []*mergeInput
	for i, r := range inputs {
		m := &mergeInput{r: bufio.NewReaderSize(r, 64<<10), idx: i}
		ok, err := m.next(eol)
		if err != nil {
			return err
		}
		if ok {
			live = append(live, m)
		}
	}
	var last []byte
	haveLast := false
	for len(live) > 0 {
		best := 0
		for i := 1; i < len(live); i++ {
			c := s.compare(live[i].line, live[best].line)
			if c < 0 || c == 0 && live[i].idx < live[best].idx {
				best = i
			}
		}
		m := live[best]
		if !s.unique || !haveLast || s.keyCompare(last, m.line) != 0 {
			w.Write(m.line)
			if err := w.WriteByte(eol); err != nil {
				return writeErr{err}
			}
			if s.unique {
				last = append(last[:0], m.line...)
				haveLast = true
			}
		}
		ok, err := m.next(eol)
		if err != nil {
			return err
		}
		if !ok {
			live = slices.Delete(live, best, best+1)
		}
	}
	return nil
}

// writeErr marks a failure to write the output, as opposed to reading.
type writeErr struct{ err error }

func (e writeErr) Error() string { return e.err.Error() }

// randomHash hashes a -R key with the run's seed (FNV-1a, then a final
// avalanche) so equal keys sort together in a seed-dependent order.
func randomHash(seed uint64, b []byte) uint64 {
	h := seed ^ 0xcbf29ce484222325
	for _, c := range b {
		h ^= uint64(c)
		h *= 0x100000001b3
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

// newSeed draws a seed from the process's random source (under WASI, the
// sandbox's seeded random_get; see tool.Seed).
func newSeed() uint64 { return tool.Seed() }
