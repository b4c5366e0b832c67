package sort

import (
	"bufio"
	"encoding/binary"
	"io"
	"math/bits"
	"slices"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// rec is one input line's first key, located once so comparisons do not
// rescan fields: its bounds within the line (the record holds no pointer,
// so the garbage collector never scans the records).
type rec struct {
	kb, ke uint32
}

// item is what is sorted: an order-preserving 64-bit prefix of the first
// key at the current depth, which settles most comparisons without
// touching the bytes, and the line's input position.
type item struct {
	pfx uint64 // valid when the sorter's prefix kind is not prefixNone
	idx uint32
}

// Kinds of precomputed prefix of the first key.
const (
	prefixNone    = iota
	prefixBytes   // 8 bytes of the key, big-endian
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

// cmpBytes is bytes.Compare eight bytes at a time: under wasm,
// bytes.Compare is a loop over single bytes.
func cmpBytes(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		x, y := binary.LittleEndian.Uint64(a[i:]), binary.LittleEndian.Uint64(b[i:])
		if x != y {
			sh := bits.TrailingZeros64(x^y) &^ 7
			return int(byte(x>>sh)) - int(byte(y>>sh))
		}
	}
	for ; i < n; i++ {
		if a[i] != b[i] {
			return int(a[i]) - int(b[i])
		}
	}
	return len(a) - len(b)
}

// sortState is one sort of lines: the lines, their first keys and the
// kind of prefix.
type sortState struct {
	s     *sorter
	lines [][]byte
	recs  []rec
	kind  int
	// onlyKey says there is one key; lastResort that lines whose keys
	// are equal are then ordered by their whole bytes (neither -s nor -u).
	onlyKey, lastResort bool
}

func (st *sortState) key(i uint32) []byte {
	r := st.recs[i]
	return st.lines[i][r.kb:r.ke]
}

// compare orders the lines i and j: keys, then the last-resort whole-line
// comparison (unless -s or -u), then input order. The first skip bytes of
// the first keys are known to be equal.
func (st *sortState) compare(i, j uint32, skip int) int {
	s := st.s
	k0 := s.keys[0]
	a, b := st.lines[i], st.lines[j]
	var c int
	if st.kind == prefixBytes {
		c = cmpBytes(st.key(i)[skip:], st.key(j)[skip:])
	} else {
		c = k0.compare(st.key(i), st.key(j))
	}
	if c != 0 {
		if k0.reverse {
			return -c
		}
		return c
	}
	for _, k := range s.keys[1:] {
		if c = k.compare(s.keyText(a, k), s.keyText(b, k)); c != 0 {
			if k.reverse {
				return -c
			}
			return c
		}
	}
	if !s.stable && !s.unique {
		c = cmpBytes(a, b)
		if s.global.reverse {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return int(i) - int(j)
}

// compareLines orders lines whose keys are equal: their bytes from skip
// on, then input order.
func (st *sortState) compareLines(i, j uint32, skip int) int {
	c := cmpBytes(st.lines[i][skip:], st.lines[j][skip:])
	if st.s.global.reverse {
		c = -c
	}
	if c != 0 {
		return c
	}
	return int(i) - int(j)
}

// sortLines sorts lines in place as GNU sort orders them. Where the first
// key has an order-preserving prefix, a radix sort on the prefix orders
// most lines without comparing them (for byte keys, eight more bytes at a
// time while runs of equal prefixes are large); comparisons settle the
// rest. Ties fall back to input order, so the result is stable.
func (s *sorter) sortLines(lines [][]byte) {
	st := &sortState{s: s, lines: lines, recs: make([]rec, len(lines)), kind: s.prefixKind()}
	st.onlyKey = len(s.keys) == 1
	st.lastResort = st.onlyKey && !s.stable && !s.unique
	k0 := s.keys[0]
	whole := k0.sword == 0 && k0.schar == 0 && k0.eword < 0 && !k0.skipSBlanks
	for i, l := range lines {
		if whole {
			st.recs[i] = rec{0, uint32(len(l))}
			continue
		}
		beg := s.begField(l, k0)
		st.recs[i] = rec{uint32(beg), uint32(max(s.limField(l, k0), beg))}
	}
	items := make([]item, len(lines))
	for i := range items {
		items[i].idx = uint32(i)
	}
	if st.kind == prefixNone {
		st.compareSort(items, 0)
	} else {
		st.sortRun(items, make([]item, len(items)), 0, false)
	}
	// Permute lines in place, cycle by cycle, marking placed items.
	const placed = ^uint32(0)
	for i := range items {
		if items[i].idx == placed {
			continue
		}
		first := lines[i]
		j := i
		for {
			k := items[j].idx
			items[j].idx = placed
			if int(k) == i {
				lines[j] = first
				break
			}
			lines[j] = lines[k]
			j = int(k)
		}
	}
}

// Below smallRun lines, a run is sorted by comparisons.
const smallRun = 64

// sortRun sorts items, whose first keys agree on their first depth bytes
// (for a numeric prefix, depth is 0), with tmp as scratch of the same
// length. With whole, the items' keys are all equal and they are sorted
// by their whole lines, which agree on their first depth bytes.
func (st *sortState) sortRun(items, tmp []item, depth int, whole bool) {
	if len(items) < smallRun {
		if whole {
			slices.SortFunc(items, func(a, b item) int { return st.compareLines(a.idx, b.idx, depth) })
		} else {
			st.compareSort(items, depth)
		}
		return
	}
	reverse := st.s.keys[0].reverse
	numeric := st.kind == prefixNumeric && !whole
	if whole {
		reverse = st.s.global.reverse
	}
	for i := range items {
		it := &items[i]
		var key []byte
		if whole {
			key = st.lines[it.idx]
		} else {
			key = st.key(it.idx)
		}
		var p uint64
		if numeric {
			p = numericPrefix(key)
		} else {
			p = bytesPrefix(key[min(depth, len(key)):])
		}
		if reverse {
			p = ^p
		}
		it.pfx = p
	}
	radixSort(items, tmp)
	for lo := 0; lo < len(items); {
		hi := lo + 1
		for hi < len(items) && items[hi].pfx == items[lo].pfx {
			hi++
		}
		if hi-lo > 1 {
			run, rtmp := items[lo:hi], tmp[lo:hi]
			// The radix sorts are stable and the input was in input order:
			// a run known to tie entirely is in its final order.
			switch {
			case !numeric && st.longer(run, depth+8, whole):
				st.sortRun(run, rtmp, depth+8, whole)
			case whole && st.sameLength(run, depth+8, true):
				// Identical lines.
			case !whole && st.onlyKey && st.keysEqual(run, depth+8):
				if st.lastResort {
					st.sortRun(run, rtmp, 0, true)
				}
			case whole:
				slices.SortFunc(run, func(a, b item) int { return st.compareLines(a.idx, b.idx, depth) })
			default:
				st.compareSort(run, depth)
			}
		}
		lo = hi
	}
}

// longer reports whether every key of run (with whole, every line) is
// longer than n bytes.
func (st *sortState) longer(run []item, n int, whole bool) bool {
	for _, it := range run {
		k := st.lines[it.idx]
		if !whole {
			k = st.key(it.idx)
		}
		if len(k) <= n {
			return false
		}
	}
	return true
}

// keysEqual reports whether the first keys of a run of items with equal
// prefixes are known to be equal; for byte keys, the prefixes cover the
// keys' first end bytes.
func (st *sortState) keysEqual(run []item, end int) bool {
	if st.kind == prefixNumeric {
		for _, it := range run {
			if !numericExact(st.key(it.idx)) {
				return false
			}
		}
		return true
	}
	// The keys end within the prefix, padded with zeros: they are equal
	// when their lengths are.
	return st.sameLength(run, end, false)
}

// sameLength reports whether the keys of run (with whole, its lines) all
// have one length, of at most end bytes.
func (st *sortState) sameLength(run []item, end int, whole bool) bool {
	length := func(i uint32) int {
		if whole {
			return len(st.lines[i])
		}
		return len(st.key(i))
	}
	n := length(run[0].idx)
	if n > end {
		return false
	}
	for _, it := range run[1:] {
		if length(it.idx) != n {
			return false
		}
	}
	return true
}

// numericExact reports whether numericPrefix represents the value of b
// exactly, so equal prefixes mean numCompare finds the keys equal.
func numericExact(b []byte) bool {
	_, intp, frac, _ := number(b)
	return len(intp) <= 15 && len(frac) <= 3
}

// compareSort sorts items by comparisons; their first keys agree on their
// first skip bytes.
func (st *sortState) compareSort(items []item, skip int) {
	slices.SortFunc(items, func(a, b item) int { return st.compare(a.idx, b.idx, skip) })
}

// radixSort sorts items stably by pfx, a byte at a time from the lowest,
// skipping the bytes in which all prefixes agree.
func radixSort(items, tmp []item) {
	var or, and uint64 = 0, ^uint64(0)
	for _, it := range items {
		or |= it.pfx
		and &= it.pfx
	}
	diff := or ^ and // the bits in which some prefixes differ
	src, dst := items, tmp
	for sh := uint(0); sh < 64; sh += 8 {
		if diff>>sh&0xff == 0 {
			continue
		}
		var count [256]int
		for _, it := range src {
			count[byte(it.pfx>>sh)]++
		}
		pos := 0
		for i, c := range count {
			count[i] = pos
			pos += c
		}
		for _, it := range src {
			b := byte(it.pfx >> sh)
			dst[count[b]] = it
			count[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &items[0] {
		copy(items, src)
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
		if !s.unique || !haveLast || !s.keyEqual(last, m.line) {
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
