package sort

import (
	"bufio"
	"encoding/binary"
	"io"
	"math"
	"math/bits"
	"slices"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/wc"
)

// lineSet is the input: every line followed by its terminator in one
// buffer, and where each line begins. There is no slice header (and no
// pointer for the collector to follow) per line, and a line's bytes and its
// terminator are written out with one copy.
type lineSet struct {
	// data holds the lines; it has at least prefixPad bytes of capacity
	// past its length, so eight bytes can be loaded at any offset in it.
	data []byte
	// starts[i] is where line i begins; starts[count()] is len(data).
	starts []uint32
}

// prefixPad is the spare capacity of lineSet.data.
const prefixPad = 8

func (ls *lineSet) count() int { return len(ls.starts) - 1 }

// line returns line i without its terminator.
func (ls *lineSet) line(i int) []byte { return ls.data[ls.starts[i] : ls.starts[i+1]-1] }

// lsb has the lowest bit of each byte set; low the low seven bits.
const (
	lsb = 0x0101010101010101
	low = 0x7f7f7f7f7f7f7f7f
)

// splitLines finds the lines of data, every one of which ends with eol.
// It looks at eight bytes a step: under wasm, bytes.IndexByte walks a byte
// at a time.
func splitLines(data []byte, eol byte) (lineSet, error) {
	n := wc.CountByte(data, eol) + 1
	if uint64(len(data)) > math.MaxUint32-prefixPad {
		return lineSet{}, tool.ErrMemoryExhausted
	}
	if err := tool.CheckMemory(4*int64(n) + prefixPad); err != nil {
		return lineSet{}, err
	}
	data = slices.Grow(data, prefixPad)
	starts := make([]uint32, 1, n)
	pat := uint64(eol) * lsb
	i := 0
	for ; i+8 <= len(data); i += 8 {
		x := binary.LittleEndian.Uint64(data[i:]) ^ pat
		// The high bit of a byte of m is set where that byte of x is zero
		// (exactly: the low seven bits are added apart, so nothing carries
		// from one byte into the next).
		m := ^((x&low + low) | x | low)
		for m != 0 {
			starts = append(starts, uint32(i+bits.TrailingZeros64(m)>>3+1))
			m &= m - 1
		}
	}
	for ; i < len(data); i++ {
		if data[i] == eol {
			starts = append(starts, uint32(i+1))
		}
	}
	return lineSet{data: data, starts: starts}, nil
}

// rec is a line's first key: its bounds within the lineSet's data.
type rec struct {
	kb, ke uint32
}

// item is what is sorted: an order-preserving 64-bit prefix of the text
// being sorted at the current depth (the first key, or the whole line when
// keys tie), which settles most comparisons without touching the bytes;
// the length of that text; and the line's input position.
type item struct {
	pfx uint64
	idx uint32
	// n is the text's length; for a numeric key, whose length no one
	// asks, it is 1 if the prefix is the key's exact value, else 0.
	n uint32
}

// Kinds of precomputed prefix of the first key.
const (
	prefixNone    = iota
	prefixBytes   // 8 bytes of the key
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
	if k.whole() {
		return line
	}
	beg := s.begField(line, k)
	return line[beg:max(s.limField(line, k), beg)]
}

// whole reports whether k covers the whole line.
func (k *key) whole() bool {
	return k.sword == 0 && k.schar == 0 && k.eword < 0 && !k.skipSBlanks
}

// numericPrefix maps a -n key to a number whose order agrees with
// numCompare wherever the two prefixes differ: the value truncated toward
// zero to three decimals (truncation is monotone), saturated when the
// integer part is too long. It reports whether the number is the key's
// value exactly, so that equal exact prefixes mean numCompare finds the
// keys equal.
func numericPrefix(b []byte) (p uint64, exact bool) {
	neg, intp, frac, _ := number(b)
	exact = len(intp) <= 15 && len(frac) <= 3
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
	return uint64(v) ^ 1<<63, exact
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
	s    *sorter
	ls   *lineSet
	recs []rec // nil when the first key is the whole line
	kind int
	// onlyKey says there is one key; lastResort that lines whose keys
	// are equal are then ordered by their whole bytes (neither -s nor -u).
	onlyKey, lastResort bool
}

// bounds returns where the first key of line i lies in the data (with
// whole, the line itself).
func (st *sortState) bounds(i uint32, whole bool) (beg, end int) {
	if whole || st.recs == nil {
		return int(st.ls.starts[i]), int(st.ls.starts[i+1] - 1)
	}
	r := st.recs[i]
	return int(r.kb), int(r.ke)
}

func (st *sortState) key(i uint32) []byte {
	b, e := st.bounds(i, false)
	return st.ls.data[b:e]
}

func (st *sortState) line(i uint32) []byte { return st.ls.line(int(i)) }

// compare orders the lines i and j: keys, then the last-resort whole-line
// comparison (unless -s or -u), then input order. The first skip bytes of
// the first keys are known to be equal.
func (st *sortState) compare(i, j uint32, skip int) int {
	s := st.s
	k0 := s.keys[0]
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
	if !st.onlyKey {
		a, b := st.line(i), st.line(j)
		for _, k := range s.keys[1:] {
			if c = k.compare(s.keyText(a, k), s.keyText(b, k)); c != 0 {
				if k.reverse {
					return -c
				}
				return c
			}
		}
	}
	if !s.stable && !s.unique {
		c = cmpBytes(st.line(i), st.line(j))
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
	c := cmpBytes(st.line(i)[skip:], st.line(j)[skip:])
	if st.s.global.reverse {
		c = -c
	}
	if c != 0 {
		return c
	}
	return int(i) - int(j)
}

// sortLines returns the lines in the order GNU sort puts them. Where the
// first key has an order-preserving prefix, a radix sort on the prefix
// orders most lines without comparing them (for byte keys, eight more
// bytes at a time while runs of equal prefixes are large); comparisons
// settle the rest. Ties fall back to input order, so the result is stable.
func (s *sorter) sortLines(ls lineSet) []item {
	n := ls.count()
	st := &sortState{s: s, ls: &ls, kind: s.prefixKind()}
	st.onlyKey = len(s.keys) == 1
	st.lastResort = st.onlyKey && !s.stable && !s.unique
	if k0 := s.keys[0]; !k0.whole() {
		st.recs = make([]rec, n)
		for i := range n {
			l := ls.line(i)
			beg := s.begField(l, k0)
			base := ls.starts[i]
			st.recs[i] = rec{base + uint32(beg), base + uint32(max(s.limField(l, k0), beg))}
		}
	}
	items := make([]item, n)
	for i := range items {
		items[i].idx = uint32(i)
	}
	if st.kind == prefixNone {
		st.compareSort(items, 0)
	} else {
		st.sortRun(items, make([]item, n), 0, false)
	}
	return items
}

// write writes the lines in the order of items; with -u, only the first
// of each run of lines with equal keys.
func (s *sorter) write(w *bufio.Writer, ls lineSet, items []item) error {
	// Lines whose keys are the whole line, compared bytewise, are equal
	// when their bytes are.
	k0 := s.keys[0]
	wholeBytes := len(s.keys) == 1 && k0.whole() && k0.plain()
	for k, it := range items {
		i := int(it.idx)
		if s.unique && k > 0 {
			prev, cur := ls.line(int(items[k-1].idx)), ls.line(i)
			if wholeBytes && len(prev) == len(cur) && cmpBytes(prev, cur) == 0 ||
				!wholeBytes && s.keyEqual(prev, cur) {
				continue
			}
		}
		if _, err := w.Write(ls.data[ls.starts[i]:ls.starts[i+1]]); err != nil {
			return err
		}
	}
	return nil
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
	if numeric {
		st.numericPrefixes(items, reverse)
	} else {
		st.bytePrefixes(items, depth, whole, reverse)
	}
	radixSort(items, tmp)
	for lo := 0; lo < len(items); {
		hi := runEnd(items, lo)
		if hi-lo > 1 {
			run, rtmp := items[lo:hi], tmp[lo:hi]
			// The radix sorts are stable and the input was in input order:
			// a run known to tie entirely is in its final order.
			switch {
			case !numeric && longer(run, depth+8):
				st.sortRun(run, rtmp, depth+8, whole)
			case whole && sameLength(run, depth+8):
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

// bytePrefixes sets the prefix of each item to eight bytes of its text
// (with whole, its line) from depth on, zeros past the text's end,
// big-endian so that words order as the bytes do, and its n to the
// text's length.
func (st *sortState) bytePrefixes(items []item, depth int, whole, reverse bool) {
	data := st.ls.data
	var flip uint64
	if reverse {
		flip = ^uint64(0)
	}
	for i := range items {
		it := &items[i]
		beg, end := st.bounds(it.idx, whole)
		var p uint64
		if n := end - beg - depth; n > 0 {
			// data has room to load eight bytes anywhere.
			p = binary.LittleEndian.Uint64(data[beg+depth:][:8])
			if n < 8 {
				p &= 1<<(8*n) - 1
			}
			p = bits.ReverseBytes64(p)
		}
		it.pfx = p ^ flip
		it.n = uint32(end - beg)
	}
}

// numericPrefixes sets the prefix of each item to numericPrefix of its
// first key, and its n to 1 where the prefix is exact, else 0.
func (st *sortState) numericPrefixes(items []item, reverse bool) {
	data := st.ls.data
	var flip uint64
	if reverse {
		flip = ^uint64(0)
	}
	for i := range items {
		it := &items[i]
		beg, end := st.bounds(it.idx, false)
		p, exact := numericPrefix(data[beg:end])
		it.pfx = p ^ flip
		it.n = 0
		if exact {
			it.n = 1
		}
	}
}

// runEnd returns where the run of items with the prefix of items[lo] ends.
func runEnd(items []item, lo int) int {
	p := items[lo].pfx
	hi := lo + 1
	for hi < len(items) && items[hi].pfx == p {
		hi++
	}
	return hi
}

// longer reports whether the text of every item of run is longer than n
// bytes.
func longer(run []item, n int) bool {
	for _, it := range run {
		if int(it.n) <= n {
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
			if it.n == 0 { // not exact
				return false
			}
		}
		return true
	}
	// The keys end within the prefix, padded with zeros: they are equal
	// when their lengths are.
	return sameLength(run, end)
}

// sameLength reports whether the texts of run all have one length, of at
// most end bytes.
func sameLength(run []item, end int) bool {
	n := run[0].n
	if int(n) > end {
		return false
	}
	for _, it := range run[1:] {
		if it.n != n {
			return false
		}
	}
	return true
}

// compareSort sorts items by comparisons; their first keys agree on their
// first skip bytes.
func (st *sortState) compareSort(items []item, skip int) {
	slices.SortFunc(items, func(a, b item) int { return st.compare(a.idx, b.idx, skip) })
}

// radixSort sorts items stably by pfx, most significant byte first: a
// pass counts the lines by the first byte in which their prefixes differ
// (the bytes in which all agree cost nothing), moves them to their
// buckets through tmp, and each bucket is sorted the same way; a small
// bucket is sorted by insertion. No pass touches the lines' bytes.
func radixSort(items, tmp []item) {
	if len(items) <= insertionMax {
		insertionSort(items)
		return
	}
	diff := prefixDiff(items)
	if diff == 0 {
		return
	}
	var ends [256]int
	distribute(items, tmp, 56-bits.LeadingZeros64(diff)&^7, &ends)
	lo := 0
	for _, hi := range ends {
		if hi-lo > 1 {
			radixSort(items[lo:hi], tmp[lo:hi])
		}
		lo = hi
	}
}

// prefixDiff returns the bits in which some of the items' prefixes differ.
func prefixDiff(items []item) uint64 {
	var or, and uint64 = 0, ^uint64(0)
	for _, it := range items {
		or |= it.pfx
		and &= it.pfx
	}
	return or ^ and
}

// distribute sorts items stably by the byte of their prefixes at bit sh,
// through tmp, and sets ends[b] to where the bucket of byte b ends. The
// passes are a function of their own: under Go's wasm code, loops cost
// less in a small function than in one with calls and many variables.
func distribute(items, tmp []item, sh int, ends *[256]int) {
	for _, it := range items {
		ends[byte(it.pfx>>sh)]++
	}
	pos := 0
	for i, c := range ends {
		ends[i] = pos
		pos += c
	}
	for _, it := range items {
		b := byte(it.pfx >> sh)
		tmp[ends[b]] = it
		ends[b]++
	}
	copy(items, tmp)
}

// Up to insertionMax items, radixSort sorts by insertion.
const insertionMax = 24

// insertionSort sorts items stably by pfx.
func insertionSort(items []item) {
	for i := 1; i < len(items); i++ {
		it := items[i]
		j := i
		for ; j > 0 && items[j-1].pfx > it.pfx; j-- {
			items[j] = items[j-1]
		}
		items[j] = it
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
