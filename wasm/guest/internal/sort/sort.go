// Package sort implements sort: sort lines of text files by keys, with GNU
// sort's options, in the C locale's byte order.
package sort

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	UsageExit: 2,
	Options: []tool.Option{
		{Short: 'b', Long: "ignore-leading-blanks"},
		{Short: 'd', Long: "dictionary-order"},
		{Short: 'f', Long: "ignore-case"},
		{Short: 'g', Long: "general-numeric-sort"},
		{Short: 'i', Long: "ignore-nonprinting"},
		{Short: 'M', Long: "month-sort"},
		{Short: 'h', Long: "human-numeric-sort"},
		{Short: 'n', Long: "numeric-sort"},
		{Short: 'R', Long: "random-sort"},
		{Short: 'r', Long: "reverse"},
		{Short: 'V', Long: "version-sort"},
		{Long: "sort", Arg: tool.RequiredArg},
		// -c takes no argument (-cu is -c -u); --check may take one.
		{Short: 'c'},
		{Long: "check", Arg: tool.OptionalArg},
		{Short: 'C'},
		{Short: 'k', Long: "key", Arg: tool.RequiredArg},
		{Short: 'm', Long: "merge"},
		{Short: 'o', Long: "output", Arg: tool.RequiredArg},
		{Short: 's', Long: "stable"},
		{Short: 'S', Long: "buffer-size", Arg: tool.RequiredArg},
		{Short: 't', Long: "field-separator", Arg: tool.RequiredArg},
		{Short: 'T', Long: "temporary-directory", Arg: tool.RequiredArg},
		{Long: "parallel", Arg: tool.RequiredArg},
		{Long: "random-source", Arg: tool.RequiredArg},
		{Short: 'u', Long: "unique"},
		{Short: 'z', Long: "zero-terminated"},
	},
	Help: `Usage: sort [OPTION]... [FILE]...
Write sorted concatenation of all FILE(s) to standard output.

With no FILE, or when FILE is -, read standard input.

Ordering options:
  -b, --ignore-leading-blanks  ignore leading blanks
  -d, --dictionary-order      consider only blanks and alphanumeric characters
  -f, --ignore-case           fold lower case to upper case characters
  -g, --general-numeric-sort  compare according to general numerical value
  -i, --ignore-nonprinting    consider only printable characters
  -M, --month-sort            compare (unknown) < 'JAN' < ... < 'DEC'
  -h, --human-numeric-sort    compare human readable numbers (e.g., 2K 1G)
  -n, --numeric-sort          compare according to string numerical value
  -R, --random-sort           shuffle, but group identical keys
      --random-source=FILE    get random bytes from FILE
  -r, --reverse               reverse the result of comparisons
  -V, --version-sort          natural sort of (version) numbers within text

Other options:
  -c, --check, --check=diagnose-first  check for sorted input; do not sort
  -C, --check=quiet, --check=silent  like -c, but do not report first bad line
  -k, --key=KEYDEF          sort via a key; KEYDEF gives location and type
  -m, --merge               merge already sorted files; do not sort
  -o, --output=FILE         write result to FILE instead of standard output
  -s, --stable              stabilize sort by disabling last-resort comparison
  -t, --field-separator=SEP  use SEP instead of non-blank to blank transition
  -u, --unique              with -c, check for strict ordering;
                              without -c, output only the first of an equal run
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

KEYDEF is F[.C][OPTS][,F[.C][OPTS]] for start and stop position, where F is a
field number and C a character position in the field; both are origin 1, and
the stop position defaults to the line's end.  OPTS is one or more
single-letter ordering options [bdfgiMhnRrV], which override global ordering
options for that key.
`}

// key is one -k specification (or the whole line).
type key struct {
	sword, schar int // start field and char, 0-based
	eword, echar int // end field (0-based, -1 = line end) and char (0 = field end)
	skipSBlanks  bool
	skipEBlanks  bool
	ignore       func(byte) bool // -d or -i
	fold         bool
	numeric      bool
	general      bool
	human        bool
	month        bool
	version      bool
	random       bool
	seed         uint64 // for random
	reverse      bool
}

func (k *key) hasOptions() bool {
	return k.skipSBlanks || k.skipEBlanks || k.ignore != nil || k.fold || k.numeric ||
		k.general || k.human || k.month || k.version || k.random || k.reverse
}

// applyOption sets an ordering option letter; it reports false for an
// unknown letter.
func (k *key) applyOption(c byte, start bool) bool {
	switch c {
	case 'b':
		if start {
			k.skipSBlanks = true
		} else {
			k.skipEBlanks = true
		}
	case 'd':
		k.ignore = notDictionary
	case 'f':
		k.fold = true
	case 'g':
		k.general = true
	case 'i':
		k.ignore = notPrintable
	case 'M':
		k.month = true
	case 'h':
		k.human = true
	case 'n':
		k.numeric = true
	case 'R':
		k.random = true
	case 'r':
		k.reverse = true
	case 'V':
		k.version = true
	default:
		return false
	}
	return true
}

func notDictionary(c byte) bool {
	return !(c == ' ' || c == '\t' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')
}

func notPrintable(c byte) bool { return c < ' ' || c >= 0x7f }

type sorter struct {
	keys   []*key
	tab    int // field separator byte, or -1 for blank transitions
	stable bool
	unique bool
	global key
}

// Main runs sort.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	s := &sorter{tab: -1}
	check, quietCheck, merge := false, false, false
	var seed uint64
	haveSeed := false
	output := ""
	eol := byte('\n')
	var keySpecs []string
	for _, f := range flags {
		switch f.Name {
		case "c", "check":
			check = true
			switch f.Arg {
			case "quiet", "silent":
				quietCheck = true
			case "", "diagnose-first":
			default:
				env.Errorf("invalid argument %s for '--check'", tool.Quote(f.Arg))
				return env.Usage(2, "")
			}
		case "C":
			check, quietCheck = true, true
		case "k":
			keySpecs = append(keySpecs, f.Arg)
		case "m":
			merge = true
		case "random-source":
			data, err := readRandomSource(f.Arg)
			if err != nil {
				env.Errorf("%s: %s", tool.QuoteIfNeeded(f.Arg), tool.Strerror(err))
				return 2
			}
			seed, haveSeed = randomHash(0, data), true
		case "S", "T", "parallel":
		case "o":
			output = f.Arg
		case "s":
			s.stable = true
		case "t":
			if len(f.Arg) != 1 {
				if f.Arg == `\0` {
					s.tab = 0
					continue
				}
				if f.Arg == "" {
					env.Errorf("empty tab")
				} else {
					env.Errorf("multi-character tab %s", tool.Quote(f.Arg))
				}
				return 2
			}
			if s.tab >= 0 && s.tab != int(f.Arg[0]) {
				env.Errorf("incompatible tabs")
				return 2
			}
			s.tab = int(f.Arg[0])
		case "u":
			s.unique = true
		case "z":
			eol = 0
		case "sort":
			m := map[string]byte{"general-numeric": 'g', "human-numeric": 'h', "month": 'M', "numeric": 'n', "random": 'R', "version": 'V'}
			c, ok := m[f.Arg]
			if !ok {
				env.Errorf("invalid argument %s for '--sort'", tool.Quote(f.Arg))
				return env.Usage(2, "")
			}
			s.global.applyOption(c, true)
		default:
			if len(f.Name) == 1 {
				s.global.applyOption(f.Name[0], true)
				if f.Name == "b" {
					s.global.skipEBlanks = true
				}
			}
		}
	}
	for _, ks := range keySpecs {
		k, err := s.parseKey(ks)
		if err != "" {
			env.Errorf("%s", err)
			return 2
		}
		s.keys = append(s.keys, k)
	}
	if len(s.keys) == 0 {
		k := s.global
		k.eword = -1
		s.keys = []*key{&k}
	}
	if !haveSeed {
		seed = newSeed()
	}
	for _, k := range s.keys {
		k.seed = seed
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	if merge && !check {
		return s.runMerge(env, files, output, eol)
	}
	if check && len(files) > 1 {
		return env.Usage(2, "extra operand %s not allowed with -c", tool.Quote(files[1]))
	}
	defer tool.CollectNearCap()()
	var data []byte
	for _, name := range files {
		r, err := env.Open(name)
		if err != nil {
			env.Errorf("cannot read: %s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
			return 2
		}
		data, err = readInput(data, r, eol)
		r.Close()
		if err == tool.ErrMemoryExhausted {
			env.Errorf("memory exhausted")
			return 2
		}
		if err != nil {
			env.Errorf("read failed: %s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
			return 2
		}
	}
	ls, err := splitLines(data, eol)
	if err != nil {
		env.Errorf("memory exhausted")
		return 2
	}
	if check {
		for i := 1; i < ls.count(); i++ {
			c := s.compare(ls.line(i-1), ls.line(i))
			if c > 0 || s.unique && c == 0 {
				if !quietCheck {
					name := files[0]
					fmt.Fprintf(env.Stderr, "sort: %s:%d: disorder: %s\n", name, i+1, ls.line(i))
				}
				return 1
			}
		}
		return 0
	}
	// The items, their scratch and the first keys: 40 bytes a line.
	if tool.CheckMemory(40*int64(ls.count())) != nil {
		env.Errorf("memory exhausted")
		return 2
	}
	items := s.sortLines(ls)
	var w io.Writer = env.Out()
	var outFile *os.File
	if output != "" {
		f, err := os.Create(output)
		if err != nil {
			env.Errorf("open failed: %s: %s", tool.QuoteIfNeeded(output), tool.Strerror(err))
			return 2
		}
		outFile = f
		w = bufio.NewWriterSize(f, 64<<10)
	}
	bw := w.(*bufio.Writer)
	if err := s.write(bw, ls, items); err != nil {
		if outFile != nil {
			env.Errorf("write failed: %s: %s", tool.QuoteIfNeeded(output), tool.Strerror(err))
			return 2
		}
		return env.WriteFailed(err)
	}
	if outFile != nil {
		err := bw.Flush()
		if cerr := outFile.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			env.Errorf("write failed: %s: %s", tool.QuoteIfNeeded(output), tool.Strerror(err))
			return 2
		}
	}
	return 0
}

// readInput appends what r holds to data and ends it with eol if it does
// not end so; a regular file is read into room of its size at once, not
// grown by copying. It returns tool.ErrMemoryExhausted rather than grow
// the buffer past the process's memory cap.
func readInput(data []byte, r io.Reader, eol byte) ([]byte, error) {
	size := int64(64 << 10)
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 {
			size = fi.Size() + 512
		}
	}
	if int64(cap(data)-len(data)) < size {
		if err := tool.CheckMemory(int64(len(data)) + size); err != nil {
			return data, err
		}
		data = slices.Grow(data, int(size))
	}
	start := len(data)
	// Keep room for a final eol and splitLines' pad, so that neither
	// grows the buffer unchecked.
	const spare = 1 + prefixPad
	for {
		if cap(data)-len(data) <= spare {
			if err := tool.CheckMemory(2 * int64(cap(data))); err != nil {
				return data, err
			}
			data = slices.Grow(data, cap(data))
		}
		n, err := r.Read(data[len(data) : cap(data)-spare])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return data, err
		}
	}
	if len(data) > start && data[len(data)-1] != eol {
		data = append(data, eol)
	}
	return data, nil
}

// parseKey parses F[.C][OPTS][,F[.C][OPTS]].
func (s *sorter) parseKey(spec string) (*key, string) {
	k := &key{eword: -1}
	p := spec
	num := func() (int, bool) {
		i := 0
		for i < len(p) && p[i] >= '0' && p[i] <= '9' {
			i++
		}
		if i == 0 {
			return 0, false
		}
		v, err := strconv.Atoi(p[:i])
		if err != nil {
			v = 1 << 30
		}
		p = p[i:]
		return v, true
	}
	bad := func(msg string) (*key, string) {
		return nil, fmt.Sprintf("%s: invalid field specification %s", msg, tool.Quote(spec))
	}
	f, ok := num()
	if !ok {
		return nil, fmt.Sprintf("invalid number at field start: invalid count at start of %s", tool.Quote(spec))
	}
	if f == 0 {
		return bad("field number is zero")
	}
	k.sword = f - 1
	if strings.HasPrefix(p, ".") {
		p = p[1:]
		c, ok := num()
		if !ok {
			return nil, fmt.Sprintf("invalid number after '.': invalid count at start of %s", tool.Quote(p))
		}
		if c == 0 {
			return bad("character offset is zero")
		}
		k.schar = c - 1
	}
	for len(p) > 0 && p[0] != ',' {
		if !k.applyOption(p[0], true) {
			return nil, fmt.Sprintf("invalid key option %s in %s", tool.Quote(p[:1]), tool.Quote(spec))
		}
		p = p[1:]
	}
	if strings.HasPrefix(p, ",") {
		p = p[1:]
		f, ok := num()
		if !ok {
			return nil, fmt.Sprintf("invalid number after ',': invalid count at start of %s", tool.Quote(p))
		}
		if f == 0 {
			return bad("field number is zero")
		}
		k.eword = f - 1
		if strings.HasPrefix(p, ".") {
			p = p[1:]
			c, ok := num()
			if !ok {
				return nil, fmt.Sprintf("invalid number after '.': invalid count at start of %s", tool.Quote(p))
			}
			k.echar = c
		}
		for len(p) > 0 {
			if !k.applyOption(p[0], false) {
				return nil, fmt.Sprintf("invalid key option %s in %s", tool.Quote(p[:1]), tool.Quote(spec))
			}
			p = p[1:]
		}
	}
	if !k.hasOptions() {
		g := s.global
		g.sword, g.schar, g.eword, g.echar = k.sword, k.schar, k.eword, k.echar
		*k = g
	}
	return k, ""
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// begField finds where key k starts in line, as GNU's begfield does.
func (s *sorter) begField(line []byte, k *key) int {
	ptr, lim := 0, len(line)
	for sword := k.sword; ptr < lim && sword > 0; sword-- {
		if s.tab >= 0 {
			for ptr < lim && line[ptr] != byte(s.tab) {
				ptr++
			}
			if ptr < lim {
				ptr++
			}
		} else {
			for ptr < lim && isBlank(line[ptr]) {
				ptr++
			}
			for ptr < lim && !isBlank(line[ptr]) {
				ptr++
			}
		}
	}
	if k.skipSBlanks {
		for ptr < lim && isBlank(line[ptr]) {
			ptr++
		}
	}
	return min(lim, ptr+k.schar)
}

// limField finds where key k ends in line, as GNU's limfield does.
func (s *sorter) limField(line []byte, k *key) int {
	ptr, lim := 0, len(line)
	if k.eword < 0 {
		return lim
	}
	eword, echar := k.eword, k.echar
	if echar == 0 {
		eword++
	}
	for ; ptr < lim && eword > 0; eword-- {
		if s.tab >= 0 {
			for ptr < lim && line[ptr] != byte(s.tab) {
				ptr++
			}
			if ptr < lim && (eword > 1 || echar != 0) {
				ptr++
			}
		} else {
			for ptr < lim && isBlank(line[ptr]) {
				ptr++
			}
			for ptr < lim && !isBlank(line[ptr]) {
				ptr++
			}
		}
	}
	if echar != 0 {
		if k.skipEBlanks {
			for ptr < lim && isBlank(line[ptr]) {
				ptr++
			}
		}
		ptr = min(lim, ptr+echar)
	}
	return ptr
}

// compare orders two lines: keys first, then (unless -s or -u) the whole
// line bytewise.
func (s *sorter) compare(a, b []byte) int {
	if c := s.keyCompare(a, b); c != 0 || s.stable || s.unique {
		return c
	}
	c := cmpBytes(a, b)
	if s.global.reverse {
		c = -c
	}
	return c
}

func (s *sorter) keyCompare(a, b []byte) int {
	for _, k := range s.keys {
		c := k.compare(s.keyText(a, k), s.keyText(b, k))
		if c != 0 {
			if k.reverse {
				return -c
			}
			return c
		}
	}
	return 0
}

func (k *key) compare(a, b []byte) int {
	switch {
	case k.numeric:
		return numCompare(a, b)
	case k.general:
		return generalCompare(a, b)
	case k.human:
		return humanCompare(a, b)
	case k.month:
		return month(a) - month(b)
	case k.version:
		return versionCompare(a, b)
	case k.random:
		ha, hb := randomHash(k.seed, a), randomHash(k.seed, b)
		if ha != hb {
			if ha < hb {
				return -1
			}
			return 1
		}
		return bytes.Compare(a, b)
	case k.ignore != nil || k.fold:
		return k.filteredCompare(a, b)
	}
	return cmpBytes(a, b)
}

// plain reports whether the key compares its text byte by byte.
func (k *key) plain() bool {
	return !(k.numeric || k.general || k.human || k.month || k.version || k.random || k.ignore != nil || k.fold)
}

// keyEqual reports whether a and b have equal keys (keyCompare(a, b) ==
// 0), with bytes.Equal for the keys compared byte by byte.
func (s *sorter) keyEqual(a, b []byte) bool {
	for _, k := range s.keys {
		ka, kb := s.keyText(a, k), s.keyText(b, k)
		if k.plain() {
			if !bytes.Equal(ka, kb) {
				return false
			}
		} else if k.compare(ka, kb) != 0 {
			return false
		}
	}
	return true
}

func (k *key) filteredCompare(a, b []byte) int {
	i, j := 0, 0
	for {
		for k.ignore != nil && i < len(a) && k.ignore(a[i]) {
			i++
		}
		for k.ignore != nil && j < len(b) && k.ignore(b[j]) {
			j++
		}
		if i >= len(a) || j >= len(b) {
			break
		}
		ca, cb := a[i], b[j]
		if k.fold {
			ca, cb = upper(ca), upper(cb)
		}
		if ca != cb {
			return int(ca) - int(cb)
		}
		i++
		j++
	}
	switch {
	case i < len(a):
		return 1
	case j < len(b):
		return -1
	}
	return 0
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 32
	}
	return c
}

func skipBlanks(b []byte) []byte {
	for len(b) > 0 && (isBlank(b[0]) || b[0] == '\n') {
		b = b[1:]
	}
	return b
}

// number splits a decimal number at the start of b (after blanks) into
// its sign, integer digits without leading zeros, fraction digits without
// trailing zeros, and the rest of b.
func number(b []byte) (neg bool, intp, frac, rest []byte) {
	b = skipBlanks(b)
	if len(b) > 0 && b[0] == '-' {
		neg = true
		b = b[1:]
	}
	i := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	intp = bytes.TrimLeft(b[:i], "0")
	b = b[i:]
	if len(b) > 0 && b[0] == '.' {
		j := 1
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		frac = bytes.TrimRight(b[1:j], "0")
		b = b[j:]
	}
	if len(intp) == 0 && len(frac) == 0 {
		neg = false
	}
	return neg, intp, frac, b
}

func magnitude(ai, af, bi, bf []byte) int {
	if len(ai) != len(bi) {
		return len(ai) - len(bi)
	}
	if c := bytes.Compare(ai, bi); c != 0 {
		return c
	}
	return bytes.Compare(af, bf)
}

func numCompare(a, b []byte) int {
	an, ai, af, _ := number(a)
	bn, bi, bf, _ := number(b)
	switch {
	case an && !bn:
		return -1
	case !an && bn:
		return 1
	case an:
		return -magnitude(ai, af, bi, bf)
	}
	return magnitude(ai, af, bi, bf)
}

const units = "KMGTPEZYRQ"

func humanCompare(a, b []byte) int {
	an, ai, af, ar := number(a)
	bn, bi, bf, br := number(b)
	order := func(neg bool, rest []byte) int {
		o := 0
		if len(rest) > 0 {
			if rest[0] == 'k' {
				o = 1
			} else if i := bytes.IndexByte([]byte(units), rest[0]); i >= 0 {
				o = i + 1
			}
		}
		if neg {
			return -o
		}
		return o
	}
	sa, sb := sign(an, ai, af), sign(bn, bi, bf)
	if sa != sb {
		return sa - sb
	}
	if c := order(an, ar) - order(bn, br); c != 0 {
		return c
	}
	return numCompare(a, b)
}

func sign(neg bool, i, f []byte) int {
	switch {
	case len(i) == 0 && len(f) == 0:
		return 0
	case neg:
		return -1
	}
	return 1
}

// generalCompare orders by floating-point value: non-numbers first, then
// NaNs, then numbers.
func generalCompare(a, b []byte) int {
	va, oka := parseFloatPrefix(a)
	vb, okb := parseFloatPrefix(b)
	rank := func(v float64, ok bool) int {
		switch {
		case !ok:
			return 0
		case v != v:
			return 1
		}
		return 2
	}
	ra, rb := rank(va, oka), rank(vb, okb)
	if ra != rb || ra < 2 {
		return ra - rb
	}
	switch {
	case va < vb:
		return -1
	case va > vb:
		return 1
	}
	return 0
}

func parseFloatPrefix(b []byte) (float64, bool) {
	b = skipBlanks(b)
	for n := len(b); n > 0; n-- {
		if v, err := strconv.ParseFloat(string(b[:n]), 64); err == nil || isRange(err) {
			return v, true
		}
		if n > 64 {
			n = 65 // numbers are short; don't try every prefix of a long line
		}
	}
	return 0, false
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

var months = []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}

func month(b []byte) int {
	b = skipBlanks(b)
	if len(b) < 3 {
		return 0
	}
	m := strings.ToUpper(string(b[:3]))
	for i, name := range months {
		if m == name {
			return i + 1
		}
	}
	return 0
}

// readRandomSource reads up to 4 KiB of --random-source.
func readRandomSource(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, 4096)
	n, err := io.ReadFull(f, buf)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	return buf[:n], err
}

// runMerge is sort -m: merge already-sorted files without sorting.
func (s *sorter) runMerge(env *tool.Env, files []string, output string, eol byte) int {
	var inputs []io.Reader
	for _, name := range files {
		r, err := env.Open(name)
		if err != nil {
			env.Errorf("cannot read: %s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
			return 2
		}
		defer r.Close()
		inputs = append(inputs, r)
	}
	// Buffer the output in memory when it may be one of the inputs.
	var w *bufio.Writer
	var mem bytes.Buffer
	if output != "" {
		w = bufio.NewWriter(&mem)
	} else {
		w = env.Out()
	}
	if err := s.merge(inputs, w, eol); err != nil {
		if we, ok := err.(writeErr); ok {
			return env.WriteFailed(we.err)
		}
		env.Errorf("read failed: %s", tool.Strerror(err))
		return 2
	}
	if output != "" {
		w.Flush()
		if err := os.WriteFile(output, mem.Bytes(), 0o666); err != nil {
			env.Errorf("open failed: %s: %s", tool.QuoteIfNeeded(output), tool.Strerror(err))
			return 2
		}
	}
	return 0
}
