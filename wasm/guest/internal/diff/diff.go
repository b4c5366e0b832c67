// Package diff implements the diff command: compare files line by line
// and print the differences in normal, unified or context format, as GNU
// diffutils' diff does, including recursive directory comparison.
package diff

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"io"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const help = `Usage: diff [OPTION]... FILES
Compare FILES line by line.

Mandatory arguments to long options are mandatory for short options too.
      --normal                  output a normal diff (the default)
  -q, --brief                   report only when files differ
  -s, --report-identical-files  report when two files are the same
  -c, -C NUM, --context[=NUM]   output NUM (default 3) lines of copied context
  -u, -U NUM, --unified[=NUM]   output NUM (default 3) lines of unified context
  -p, --show-c-function         show which C function each change is in
  -r, --recursive                 recursively compare any subdirectories found
  -N, --new-file                  treat absent files as empty
  -x, --exclude=PAT               exclude files that match PAT
  -i, --ignore-case               ignore case differences in file contents
  -E, --ignore-tab-expansion      ignore changes due to tab expansion
  -Z, --ignore-trailing-space     ignore white space at line end
  -b, --ignore-space-change       ignore changes in the amount of white space
  -w, --ignore-all-space          ignore all white space
  -B, --ignore-blank-lines        ignore changes where lines are all blank
      --strip-trailing-cr         strip trailing carriage return on input
  -a, --text                      treat all files as text
      --label LABEL             use LABEL instead of file name and timestamp
                                  (can be repeated)
  -d, --minimal            try hard to find a smaller set of changes
      --color[=WHEN]       accepted; output is never colored
      --help               display this help and exit
  -v, --version            output version information and exit

FILES are 'FILE1 FILE2' or 'DIR1 DIR2' or 'DIR FILE' or 'FILE DIR'.
If a FILE is '-', read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.
`

var spec = tool.Spec{
	Options: []tool.Option{
		{Long: "normal"},
		{Short: 'q', Long: "brief"},
		{Short: 's', Long: "report-identical-files"},
		{Short: 'c'},
		{Short: 'C', Arg: tool.RequiredArg},
		{Long: "context", Arg: tool.OptionalArg},
		{Short: 'u'},
		{Short: 'U', Arg: tool.RequiredArg},
		{Long: "unified", Arg: tool.OptionalArg},
		{Short: 'p', Long: "show-c-function"},
		{Short: 'r', Long: "recursive"},
		{Short: 'N', Long: "new-file"},
		{Short: 'x', Long: "exclude", Arg: tool.RequiredArg},
		{Short: 'i', Long: "ignore-case"},
		{Short: 'E', Long: "ignore-tab-expansion"},
		{Short: 'Z', Long: "ignore-trailing-space"},
		{Short: 'b', Long: "ignore-space-change"},
		{Short: 'w', Long: "ignore-all-space"},
		{Short: 'B', Long: "ignore-blank-lines"},
		{Long: "strip-trailing-cr"},
		{Short: 'a', Long: "text"},
		{Long: "label", Arg: tool.RequiredArg},
		{Short: 'd', Long: "minimal"},
		{Long: "color", Arg: tool.OptionalArg},
		{Short: 'v'},
	},
	Help:      help,
	UsageExit: 2,
}

type format int

const (
	fmtNormal format = iota
	fmtUnified
	fmtContext
)

// options are the settings of one diff run.
type options struct {
	format      format
	context     int
	brief       bool
	identical   bool
	recursive   bool
	newFile     bool
	funcLines   bool
	ignoreCase  bool
	ignoreAll   bool
	ignoreSpace bool
	ignoreTrail bool
	ignoreTab   bool
	ignoreBlank bool
	stripCR     bool
	text        bool
	minimal     bool
	labels      []string
	excludes    []string
	switches    string // the options as given, for "diff -r" headers
	// ctimeHeaders: context-format headers show times as ctime(3) does,
	// which GNU diff does in the C locale.
	ctimeHeaders bool
}

// hardLocale reports whether the environment selects a locale other than
// C (or POSIX) for a category.
func hardLocale(env *tool.Env, category string) bool {
	for _, k := range []string{"LC_ALL", category, "LANG"} {
		if v := env.Env(k); v != "" {
			return v != "C" && v != "POSIX"
		}
	}
	return false
}

// Main runs diff.
func Main(env *tool.Env) int {
	flags, ops, code, done := parse(env, &spec)
	if done {
		return code
	}
	o := &options{context: 3}
	for _, f := range flags {
		switch f.Name {
		case "normal":
			o.format = fmtNormal
		case "q":
			o.brief = true
		case "s":
			o.identical = true
		case "c":
			o.format = fmtContext
		case "u":
			o.format = fmtUnified
		case "C", "U", "context", "unified":
			o.format = fmtContext
			if f.Name == "U" || f.Name == "unified" {
				o.format = fmtUnified
			}
			if f.HasArg {
				n, err := strconv.Atoi(f.Arg)
				if err != nil || n < 0 {
					return usage(env, "invalid context length %s", tool.Quote(f.Arg))
				}
				o.context = n
			}
		case "p":
			o.funcLines = true
		case "r":
			o.recursive = true
		case "N":
			o.newFile = true
		case "x":
			o.excludes = append(o.excludes, f.Arg)
		case "i":
			o.ignoreCase = true
		case "E":
			o.ignoreTab = true
		case "Z":
			o.ignoreTrail = true
		case "b":
			o.ignoreSpace = true
		case "w":
			o.ignoreAll = true
		case "B":
			o.ignoreBlank = true
		case "strip-trailing-cr":
			o.stripCR = true
		case "a":
			o.text = true
		case "label":
			o.labels = append(o.labels, f.Arg)
		case "d":
			o.minimal = true
		case "v":
			return env.PrintVersion()
		}
	}
	if len(o.labels) > 2 {
		return usage(env, "too many file label options")
	}
	switch len(ops) {
	case 0:
		return usage(env, "missing operand after %s", tool.Quote(env.Name()))
	case 1:
		return usage(env, "missing operand after %s", tool.Quote(ops[0]))
	case 2:
	default:
		return usage(env, "extra operand %s", tool.Quote(ops[2]))
	}
	o.switches = switchString(env.Args[1:])
	o.ctimeHeaders = !hardLocale(env, "LC_TIME")
	d := &differ{env: env, o: o, w: env.Out()}
	return d.top(ops[0], ops[1])
}

// parse parses the command line; mistakes are reported the diffutils way,
// with the "diff: " prefix on the "Try" line too.
func parse(env *tool.Env, spec *tool.Spec) (flags []tool.Flag, ops []string, code int, done bool) {
	var msg bytes.Buffer
	sub := *env
	sub.Stderr = &msg
	flags, ops, code, done = spec.Parse(&sub)
	if !done {
		return flags, ops, 0, false
	}
	if code == 0 {
		sub.Out().Flush()
		return nil, nil, 0, true
	}
	for _, l := range strings.SplitAfter(msg.String(), "\n") {
		if strings.HasPrefix(l, "Try ") {
			l = env.Name() + ": " + l
		}
		io.WriteString(env.Stderr, l)
	}
	return nil, nil, code, true
}

func usage(env *tool.Env, format string, a ...any) int {
	env.Errorf(format, a...)
	env.Errorf("Try '%s --help' for more information.", env.Name())
	return 2
}

// switchString rebuilds the options of the command line (without the
// operands), as GNU diff shows them in "diff -r" headers.
func switchString(args []string) string {
	var parts []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		parts = append(parts, a)
		if a[1] == '-' {
			name, _, hasVal := strings.Cut(a[2:], "=")
			if !hasVal && (name == "label" || name == "exclude") && i+1 < len(args) {
				i++
				parts = append(parts, args[i])
			}
			continue
		}
		for j := 1; j < len(a); j++ {
			if c := a[j]; c == 'x' {
				if j == len(a)-1 && i+1 < len(args) {
					i++
					parts = append(parts, args[i])
				}
				break
			}
			if c := a[j]; c == 'C' || c == 'U' {
				break
			}
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " " + strings.Join(parts, " ")
}

// differ compares files and directories and writes the differences.
type differ struct {
	env    *tool.Env
	o      *options
	w      io.Writer
	status int
}

func (d *differ) trouble(format string, a ...any) {
	d.env.Errorf(format, a...)
	d.status = 2
}

func (d *differ) differ() {
	if d.status == 0 {
		d.status = 1
	}
}

// stat describes an operand: nil info means it does not exist.
func statOperand(name string) (os.FileInfo, error) {
	if name == "-" {
		return nil, nil
	}
	return os.Stat(name)
}

// top compares the two operands.
func (d *differ) top(a, b string) int {
	ia, ea := statOperand(a)
	ib, eb := statOperand(b)
	if ea != nil && !(d.o.newFile && os.IsNotExist(ea) && eb == nil) {
		d.trouble("%s: %s", a, tool.Strerror(ea))
	}
	if eb != nil && !(d.o.newFile && os.IsNotExist(eb) && ea == nil) {
		d.trouble("%s: %s", b, tool.Strerror(eb))
	}
	if d.status == 2 {
		return 2
	}
	aDir := ia != nil && ia.IsDir()
	bDir := ib != nil && ib.IsDir()
	switch {
	case aDir && bDir:
		d.dirs(a, b, "")
	case aDir && a != "-":
		if b == "-" {
			d.trouble("cannot compare '-' to a directory")
			return 2
		}
		d.files(path.Join(a, path.Base(b)), b, false)
	case bDir && b != "-":
		if a == "-" {
			d.trouble("cannot compare '-' to a directory")
			return 2
		}
		d.files(a, path.Join(b, path.Base(a)), false)
	default:
		d.files(a, b, false)
	}
	return d.status
}

// excluded reports whether a base name matches an -x pattern.
func (d *differ) excluded(name string) bool {
	for _, p := range d.o.excludes {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// readNames lists a directory; a missing directory under -N is empty.
func (d *differ) readNames(dir string, missing bool) ([]string, map[string]os.FileMode, bool) {
	if missing {
		return nil, nil, true
	}
	f, err := os.Open(dir)
	if err != nil {
		d.trouble("%s: %s", dir, tool.Strerror(err))
		return nil, nil, false
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		d.trouble("%s: %s", dir, tool.Strerror(err))
		return nil, nil, false
	}
	names := make([]string, 0, len(ents))
	types := make(map[string]os.FileMode, len(ents))
	for _, e := range ents {
		if d.excluded(e.Name()) {
			continue
		}
		names = append(names, e.Name())
		types[e.Name()] = e.Type()
	}
	sort.Strings(names)
	return names, types, true
}

// dirs compares two directories; missing names a side that does not
// exist (under -N): "a", "b" or "".
func (d *differ) dirs(a, b string, missing string) {
	na, _, okA := d.readNames(a, missing == "a")
	nb, _, okB := d.readNames(b, missing == "b")
	if !okA || !okB {
		return
	}
	i, j := 0, 0
	for i < len(na) || j < len(nb) {
		var name string
		inA, inB := false, false
		switch {
		case j == len(nb) || (i < len(na) && na[i] < nb[j]):
			name, inA = na[i], true
			i++
		case i == len(na) || nb[j] < na[i]:
			name, inB = nb[j], true
			j++
		default:
			name, inA, inB = na[i], true, true
			i++
			j++
		}
		pa, pb := path.Join(a, name), path.Join(b, name)
		if a == "." || strings.HasSuffix(a, "/") {
			pa = a + "/" + name
			if strings.HasSuffix(a, "/") {
				pa = a + name
			}
		}
		if b == "." || strings.HasSuffix(b, "/") {
			pb = b + "/" + name
			if strings.HasSuffix(b, "/") {
				pb = b + name
			}
		}
		if !inA || !inB {
			if !d.o.newFile {
				dir := a
				if inB {
					dir = b
				}
				fmt.Fprintf(d.w, "Only in %s: %s\n", dir, name)
				d.differ()
				continue
			}
			present := pa
			if inB {
				present = pb
			}
			fi, err := os.Stat(present)
			if err != nil {
				d.trouble("%s: %s", present, tool.Strerror(err))
				continue
			}
			if fi.IsDir() {
				if d.o.recursive {
					m := "b"
					if inB {
						m = "a"
					}
					d.dirs(pa, pb, m)
				} else {
					fmt.Fprintf(d.w, "Only in %s: %s\n", map[bool]string{true: b, false: a}[inB], name)
					d.differ()
				}
				continue
			}
			d.files(pa, pb, true)
			continue
		}
		fa, errA := os.Stat(pa)
		fb, errB := os.Stat(pb)
		if errA != nil {
			d.trouble("%s: %s", pa, tool.Strerror(errA))
			continue
		}
		if errB != nil {
			d.trouble("%s: %s", pb, tool.Strerror(errB))
			continue
		}
		switch {
		case fa.IsDir() && fb.IsDir():
			if d.o.recursive {
				d.dirs(pa, pb, "")
			} else {
				fmt.Fprintf(d.w, "Common subdirectories: %s and %s\n", pa, pb)
			}
		case fa.IsDir() != fb.IsDir():
			ka, kb := kind(fa), kind(fb)
			fmt.Fprintf(d.w, "File %s is a %s while file %s is a %s\n", pa, ka, pb, kb)
			d.differ()
		default:
			d.files(pa, pb, true)
		}
	}
}

func kind(fi os.FileInfo) string {
	switch {
	case fi.IsDir():
		return "directory"
	case fi.Mode().IsRegular():
		if fi.Size() == 0 {
			return "regular empty file"
		}
		return "regular file"
	case fi.Mode()&os.ModeSymlink != 0:
		return "symbolic link"
	case fi.Mode()&os.ModeNamedPipe != 0:
		return "fifo"
	}
	return "special file"
}

// input is one side of a file comparison.
type input struct {
	name  string
	label string
	data  []byte
	mtime time.Time
	lines [][]byte // each with its newline, the last maybe without
}

func (d *differ) load(name string, absent bool) (*input, bool) {
	in := &input{name: name}
	if absent {
		in.mtime = time.Unix(0, 0)
		return in, true
	}
	if name == "-" {
		data, err := io.ReadAll(d.env.Stdin)
		if err != nil {
			d.trouble("-: %s", tool.Strerror(err))
			return nil, false
		}
		in.data = data
		in.mtime = time.Now()
		if f, ok := d.env.Stdin.(*os.File); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
				in.mtime = fi.ModTime()
			}
		}
		return in, true
	}
	f, err := os.Open(name)
	if err == nil {
		var fi os.FileInfo
		if fi, err = f.Stat(); err == nil {
			in.mtime = fi.ModTime()
			in.data, err = readAll(f, fi.Size())
		}
		f.Close()
	}
	if err != nil {
		d.trouble("%s: %s", name, tool.Strerror(err))
		return nil, false
	}
	return in, true
}

// readAll reads r to the end into a buffer sized for the expected size.
func readAll(r io.Reader, size int64) ([]byte, error) {
	b := make([]byte, 0, max(size, 0)+512)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// files compares two files; inDir is set when they come from a directory
// comparison (which prints a "diff" header line before differences).
func (d *differ) files(a, b string, inDir bool) {
	_, errA := os.Stat(a)
	_, errB := os.Stat(b)
	absentA := a != "-" && errA != nil && d.o.newFile && os.IsNotExist(errA)
	absentB := b != "-" && errB != nil && d.o.newFile && os.IsNotExist(errB)
	fa, ok := d.load(a, absentA)
	if !ok {
		return
	}
	fb, ok := d.load(b, absentB)
	if !ok {
		return
	}
	if len(d.o.labels) > 0 {
		fa.label = d.o.labels[0]
	}
	if len(d.o.labels) > 1 {
		fb.label = d.o.labels[1]
	}
	if bytes.Equal(fa.data, fb.data) {
		if d.o.identical {
			fmt.Fprintf(d.w, "Files %s and %s are identical\n", a, b)
		}
		return
	}
	if !d.o.text && (isBinary(fa.data) || isBinary(fb.data)) {
		if d.o.brief {
			fmt.Fprintf(d.w, "Files %s and %s differ\n", a, b)
		} else {
			fmt.Fprintf(d.w, "Binary files %s and %s differ\n", a, b)
		}
		d.differ()
		return
	}
	if d.o.brief && d.plainKeys() && !d.o.ignoreBlank {
		// Different bytes compared as they are: no need for the script.
		fmt.Fprintf(d.w, "Files %s and %s differ\n", a, b)
		d.differ()
		return
	}
	fa.lines = splitLines(fa.data)
	fb.lines = splitLines(fb.data)
	script := d.analyze(fa, fb)
	if len(script) == 0 {
		if d.o.identical {
			fmt.Fprintf(d.w, "Files %s and %s are identical\n", a, b)
		}
		return
	}
	if d.o.ignoreBlank {
		if !d.markIgnorable(fa, fb, script) {
			if d.o.identical {
				fmt.Fprintf(d.w, "Files %s and %s are identical\n", a, b)
			}
			return
		}
	}
	d.differ()
	if d.o.brief {
		fmt.Fprintf(d.w, "Files %s and %s differ\n", a, b)
		return
	}
	if inDir {
		fmt.Fprintf(d.w, "diff%s %s %s\n", d.o.switches, a, b)
	}
	p := &printer{w: d.w, o: d.o, a: fa, b: fb}
	p.print(script)
}

// isBinary reports whether data looks binary: a NUL byte near the start.
func isBinary(data []byte) bool {
	if len(data) > 32<<10 {
		data = data[:32<<10]
	}
	return bytes.IndexByte(data, 0) >= 0
}

func splitLines(data []byte) [][]byte {
	n := bytes.Count(data, nl)
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	lines := make([][]byte, 0, n)
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			lines = append(lines, data)
			break
		}
		lines = append(lines, data[:i+1:i+1])
		data = data[i+1:]
	}
	return lines
}

var nl = []byte{'\n'}

// analyze computes the edit script, comparing lines as the options say.
// Like GNU diff it first sets aside the identical leading and trailing
// lines (keeping as many as the context shows, so that changes can still
// slide into them), which also decides where a change among repeated
// lines lands.
func (d *differ) analyze(a, b *input) []change {
	la, lb := a.lines, b.lines
	horizon := 0
	if d.o.format != fmtNormal {
		horizon = d.o.context
	}
	n := min(len(la), len(lb))
	prefix := 0
	for prefix < n && bytes.Equal(la[prefix], lb[prefix]) {
		prefix++
	}
	prefix = max(0, prefix-horizon)
	suffix := 0
	for suffix < n-prefix && bytes.Equal(la[len(la)-1-suffix], lb[len(lb)-1-suffix]) {
		suffix++
	}
	suffix = max(0, suffix-horizon)
	la, lb = la[prefix:len(la)-suffix], lb[prefix:len(lb)-suffix]
	classes := newClassTable(len(la) + len(lb))
	plain := d.plainKeys()
	var scratch []byte
	var eq [2][]int32
	for f, lines := range [2][][]byte{la, lb} {
		e := make([]int32, len(lines))
		for i, l := range lines {
			if plain {
				e[i] = classes.class(l, false)
				continue
			}
			scratch = d.key(scratch[:0], l)
			e[i] = classes.class(scratch, true)
		}
		eq[f] = e
	}
	script := compare(eq[0], eq[1], classes.n, d.o.minimal)
	for i := range script {
		script[i].line0 += prefix
		script[i].line1 += prefix
	}
	return script
}

// plainKeys reports whether lines compare as they are, newline included.
func (d *differ) plainKeys() bool {
	o := d.o
	return !o.ignoreCase && !o.ignoreAll && !o.ignoreSpace && !o.ignoreTrail && !o.ignoreTab && !o.stripCR
}

// classTable numbers distinct lines: an open-addressing hash table of
// class numbers, much faster than a Go map keyed by strings for millions
// of lines. Class c's hash and key are hashes[c] and keys[c].
type classTable struct {
	seed   uint64
	slots  []int32 // 0 = empty
	mask   uint64
	n      int // classes handed out
	hashes []uint64
	keys   [][]byte
	arena  []byte // copies of keys that are not the file's own bytes
}

func newClassTable(lines int) *classTable {
	t := &classTable{seed: maphash.Bytes(maphash.MakeSeed(), nil), hashes: []uint64{0}, keys: [][]byte{nil}}
	t.resize(max(16, lines/2))
	return t
}

func (t *classTable) resize(n int) {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	t.slots = make([]int32, size)
	t.mask = uint64(size - 1)
	for c := 1; c <= t.n; c++ {
		i := t.hashes[c] & t.mask
		for t.slots[i] != 0 {
			i = (i + 1) & t.mask
		}
		t.slots[i] = int32(c)
	}
}

// hashBytes hashes b eight bytes at a time with multiply-and-mix steps:
// cheap under WebAssembly, where the runtime's hash lacks AES help.
func hashBytes(seed uint64, b []byte) uint64 {
	const m1, m2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9
	h := seed ^ uint64(len(b))*m1
	for len(b) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(b)) * m2
		h ^= h >> 31
		b = b[8:]
	}
	if len(b) > 0 {
		var w uint64
		for i, c := range b {
			w |= uint64(c) << (8 * i)
		}
		h = (h ^ w) * m2
		h ^= h >> 31
	}
	h *= m1
	return h ^ h>>29
}

// class returns the class of key, allocating a new one for a key not seen
// before. copyKey says key's bytes are reused by the caller.
func (t *classTable) class(key []byte, copyKey bool) int32 {
	h := hashBytes(t.seed, key)
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		c := t.slots[i]
		if c == 0 {
			if copyKey {
				start := len(t.arena)
				t.arena = append(t.arena, key...)
				key = t.arena[start:len(t.arena):len(t.arena)]
			}
			t.n++
			t.hashes = append(t.hashes, h)
			t.keys = append(t.keys, key)
			t.slots[i] = int32(t.n)
			if 2*t.n > len(t.slots) {
				t.resize(2 * t.n)
			}
			return int32(t.n)
		}
		if t.hashes[c] == h && bytes.Equal(t.keys[c], key) {
			return c
		}
	}
}

// key appends to dst the form of line that comparison sees.
func (d *differ) key(dst, line []byte) []byte {
	o := d.o
	hasNL := len(line) > 0 && line[len(line)-1] == '\n'
	if hasNL {
		line = line[:len(line)-1]
	}
	if o.stripCR && len(line) > 0 && line[len(line)-1] == '\r' {
		line = line[:len(line)-1]
	}
	plain := !o.ignoreCase && !o.ignoreAll && !o.ignoreSpace && !o.ignoreTrail && !o.ignoreTab
	if plain {
		dst = append(dst, line...)
	} else {
		if o.ignoreTrail || o.ignoreSpace {
			line = bytes.TrimRight(line, " \t\r\v\f")
		}
		space := false
		col := 0
		for _, c := range line {
			if isSpace(c) {
				if o.ignoreAll {
					continue
				}
				if o.ignoreSpace {
					space = true
					continue
				}
				if o.ignoreTab && c == '\t' {
					n := 8 - col%8
					for range n {
						dst = append(dst, ' ')
					}
					col += n
					continue
				}
			}
			if space {
				dst = append(dst, ' ')
				space = false
			}
			if o.ignoreCase && 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			col++
		}
	}
	if hasNL || o.ignoreAll || o.ignoreSpace || o.ignoreTrail {
		dst = append(dst, '\n')
	}
	return dst
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r'
}

// markIgnorable flags the changes -B ignores: those whose lines are all
// blank. It reports whether any change remains.
func (d *differ) markIgnorable(a, b *input, script []change) bool {
	any := false
	for i := range script {
		c := &script[i]
		blank := true
		for _, l := range a.lines[c.line0 : c.line0+c.deleted] {
			blank = blank && d.isBlank(l)
		}
		for _, l := range b.lines[c.line1 : c.line1+c.inserted] {
			blank = blank && d.isBlank(l)
		}
		c.ignore = blank
		any = any || !blank
	}
	return any
}

func (d *differ) isBlank(l []byte) bool {
	if d.o.ignoreAll || d.o.ignoreSpace || d.o.ignoreTrail {
		return len(bytes.Trim(l, " \t\r\v\f\n")) == 0
	}
	return len(l) == 0 || (len(l) == 1 && l[0] == '\n')
}
