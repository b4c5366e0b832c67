// Package grep implements grep: print lines that match patterns, with GNU
// grep's options and exit statuses (0 selected, 1 none, 2 trouble).
package grep

import (
	"bufio"
	"bytes"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/posixre"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/wc"
)

var spec = tool.Spec{
	UsageExit: 2,
	Options: []tool.Option{
		{Short: 'E', Long: "extended-regexp"},
		{Short: 'F', Long: "fixed-strings"},
		{Short: 'G', Long: "basic-regexp"},
		{Short: 'P', Long: "perl-regexp"},
		{Short: 'e', Long: "regexp", Arg: tool.RequiredArg},
		{Short: 'f', Long: "file", Arg: tool.RequiredArg},
		{Short: 'i', Long: "ignore-case"},
		{Short: 'y'},
		{Long: "no-ignore-case"},
		{Short: 'w', Long: "word-regexp"},
		{Short: 'x', Long: "line-regexp"},
		{Short: 'z', Long: "null-data"},
		{Short: 's', Long: "no-messages"},
		{Short: 'v', Long: "invert-match"},
		{Short: 'm', Long: "max-count", Arg: tool.RequiredArg},
		{Short: 'b', Long: "byte-offset"},
		{Short: 'n', Long: "line-number"},
		{Long: "line-buffered"},
		{Short: 'H', Long: "with-filename"},
		{Short: 'h', Long: "no-filename"},
		{Long: "label", Arg: tool.RequiredArg},
		{Short: 'o', Long: "only-matching"},
		{Short: 'q', Long: "quiet"},
		{Long: "silent"},
		{Long: "binary-files", Arg: tool.RequiredArg},
		{Short: 'a', Long: "text"},
		{Short: 'I'},
		{Short: 'd', Long: "directories", Arg: tool.RequiredArg},
		{Short: 'D', Long: "devices", Arg: tool.RequiredArg},
		{Short: 'r', Long: "recursive"},
		{Short: 'R', Long: "dereference-recursive"},
		{Long: "include", Arg: tool.RequiredArg},
		{Long: "exclude", Arg: tool.RequiredArg},
		{Long: "exclude-from", Arg: tool.RequiredArg},
		{Long: "exclude-dir", Arg: tool.RequiredArg},
		{Short: 'L', Long: "files-without-match"},
		{Short: 'l', Long: "files-with-matches"},
		{Short: 'c', Long: "count"},
		{Short: 'T', Long: "initial-tab"},
		{Short: 'Z', Long: "null"},
		{Short: 'A', Long: "after-context", Arg: tool.RequiredArg},
		{Short: 'B', Long: "before-context", Arg: tool.RequiredArg},
		{Short: 'C', Long: "context", Arg: tool.RequiredArg},
		{Long: "color", Arg: tool.OptionalArg},
		{Long: "colour", Arg: tool.OptionalArg},
		{Short: 'U', Long: "binary"},
		{Short: '0'}, {Short: '1'}, {Short: '2'}, {Short: '3'}, {Short: '4'},
		{Short: '5'}, {Short: '6'}, {Short: '7'}, {Short: '8'}, {Short: '9'},
	},
	Help: `Usage: grep [OPTION]... PATTERNS [FILE]...
Search for PATTERNS in each FILE.
Example: grep -i 'hello world' menu.h main.c
PATTERNS can contain multiple patterns separated by newlines.

Pattern selection and interpretation:
  -E, --extended-regexp     PATTERNS are extended regular expressions
  -F, --fixed-strings       PATTERNS are strings
  -G, --basic-regexp        PATTERNS are basic regular expressions
  -e, --regexp=PATTERNS     use PATTERNS for matching
  -f, --file=FILE           take PATTERNS from FILE
  -i, --ignore-case         ignore case distinctions in patterns and data
      --no-ignore-case      do not ignore case distinctions (default)
  -w, --word-regexp         match only whole words
  -x, --line-regexp         match only whole lines
  -z, --null-data           a data line ends in 0 byte, not newline

Miscellaneous:
  -s, --no-messages         suppress error messages
  -v, --invert-match        select non-matching lines
  -V, --version             display version information and exit
      --help                display this help text and exit

Output control:
  -m, --max-count=NUM       stop after NUM selected lines
  -b, --byte-offset         print the byte offset with output lines
  -n, --line-number         print line number with output lines
  -H, --with-filename       print file name with output lines
  -h, --no-filename         suppress the file name prefix on output
      --label=LABEL         use LABEL as the standard input file name prefix
  -o, --only-matching       show only nonempty parts of lines that match
  -q, --quiet, --silent     suppress all normal output
      --binary-files=TYPE   assume that binary files are TYPE;
                            TYPE is 'binary', 'text', or 'without-match'
  -a, --text                equivalent to --binary-files=text
  -I                        equivalent to --binary-files=without-match
  -d, --directories=ACTION  how to handle directories;
                            ACTION is 'read', 'recurse', or 'skip'
  -r, --recursive           like --directories=recurse
  -R, --dereference-recursive  likewise, but follow all symlinks
      --include=GLOB        search only files that match GLOB (a file pattern)
      --exclude=GLOB        skip files that match GLOB
      --exclude-from=FILE   skip files that match any file pattern from FILE
      --exclude-dir=GLOB    skip directories that match GLOB
  -L, --files-without-match  print only names of FILEs with no selected lines
  -l, --files-with-matches  print only names of FILEs with selected lines
  -c, --count               print only a count of selected lines per FILE
  -T, --initial-tab         make tabs line up (if needed)
  -Z, --null                print 0 byte after FILE name

Context control:
  -B, --before-context=NUM  print NUM lines of leading context
  -A, --after-context=NUM   print NUM lines of trailing context
  -C, --context=NUM         print NUM lines of output context
  -NUM                      same as --context=NUM

When FILE is '-', read standard input.  With no FILE, read '.' if
recursive, '-' otherwise.  With fewer than two FILEs, assume -h.
Exit status is 0 if any line is selected, 1 otherwise;
if any error occurs and -q is not given, the exit status is 2.
`}

type binaryMode uint8

const (
	binaryBinary binaryMode = iota
	binaryText
	binaryWithout
)

type listMode uint8

const (
	listNone listMode = iota
	listMatches
	listNonMatches
)

// grep holds one run's settings and results.
type grep struct {
	env      *tool.Env
	out      *bufio.Writer
	re       *posixre.Regexp
	lit      []byte // a string every match contains, if known
	litExact bool   // containing lit is the whole test
	// lits: two to four plain strings, the patterns; containing any of
	// them is the whole test.
	lits     [][]byte
	invert   bool
	count    bool
	list     listMode
	only     bool
	quiet    bool
	noMsgs   bool
	lineNum  bool
	byteOff  bool
	names    bool
	nullName bool
	initTab  bool
	maxCount int64
	before   int
	after    int
	eol      byte
	binary   binaryMode
	recurse  bool
	deref    bool
	skipDirs bool
	label    string
	include  []string
	exclude  []string
	exclDirs []string
	// bareDot is set for the implicit "." of a bare grep -r, whose file
	// names GNU prints without the "./" prefix.
	bareDot bool
	printed bool // some line was output, for context separators

	matched  bool // some line was selected
	errors   bool
	done     bool // -q found a match: stop everything
	writeErr error
}

// Main runs grep.
func Main(env *tool.Env) int {
	// GNU accepts -V for --version.
	args := make([]string, 0, len(env.Args))
	for i, a := range env.Args {
		if i > 0 && a == "-V" {
			a = "--version"
		}
		if a == "--" {
			args = append(args, env.Args[i:]...)
			break
		}
		args = append(args, a)
	}
	sub := *env
	sub.Args = args
	flags, operands, code, done := spec.Parse(&sub)
	if done {
		return code
	}
	g := &grep{env: env, out: env.Out(), eol: '\n', maxCount: -1, label: "(standard input)"}
	var patterns []string
	havePatterns := false
	opts := posixre.Options{}
	withName, noName := false, false
	context := -1
	ctxDigits := ""
	lastWasDigit := false
	for _, f := range flags {
		if len(f.Name) == 1 && f.Name[0] >= '0' && f.Name[0] <= '9' {
			if !lastWasDigit {
				ctxDigits = ""
			}
			ctxDigits += f.Name
			n, _ := strconv.Atoi(ctxDigits)
			context = n
			lastWasDigit = true
			continue
		}
		lastWasDigit = false
		switch f.Name {
		case "E":
			opts.Extended, opts.Fixed = true, false
		case "F":
			opts.Fixed, opts.Extended = true, false
		case "G":
			opts.Fixed, opts.Extended = false, false
		case "P":
			env.Errorf("Perl matching not supported in a --disable-perl-regexp build")
			return 2
		case "e":
			patterns = append(patterns, strings.Split(f.Arg, "\n")...)
			havePatterns = true
		case "f":
			data, err := readPatternFile(env, f.Arg)
			if err != nil {
				env.Errorf("%s: %s", f.Arg, tool.Strerror(err))
				return 2
			}
			s := string(data)
			if s != "" {
				s = strings.TrimSuffix(s, "\n")
				patterns = append(patterns, strings.Split(s, "\n")...)
			}
			havePatterns = true
		case "i", "y":
			opts.IgnoreCase = true
		case "no-ignore-case":
			opts.IgnoreCase = false
		case "w":
			opts.Word = true
		case "x":
			opts.Line = true
		case "z":
			g.eol = 0
		case "s":
			g.noMsgs = true
		case "v":
			g.invert = true
		case "m":
			n, err := strconv.ParseInt(f.Arg, 10, 64)
			if err != nil {
				env.Errorf("invalid max count")
				return 2
			}
			g.maxCount = n
		case "b":
			g.byteOff = true
		case "n":
			g.lineNum = true
		case "H":
			withName, noName = true, false
		case "h":
			noName, withName = true, false
		case "label":
			g.label = f.Arg
		case "o":
			g.only = true
		case "q", "silent":
			g.quiet = true
		case "binary-files":
			switch f.Arg {
			case "binary":
				g.binary = binaryBinary
			case "text":
				g.binary = binaryText
			case "without-match":
				g.binary = binaryWithout
			default:
				env.Errorf("unknown binary-files type")
				return 2
			}
		case "a":
			g.binary = binaryText
		case "I":
			g.binary = binaryWithout
		case "d":
			switch f.Arg {
			case "read":
				g.recurse, g.skipDirs = false, false
			case "recurse":
				g.recurse = true
			case "skip":
				g.skipDirs = true
			default:
				env.Errorf("invalid argument %s for '--directories'", tool.Quote(f.Arg))
				return env.Usage(2, "")
			}
		case "r":
			g.recurse = true
		case "R":
			g.recurse, g.deref = true, true
		case "include":
			g.include = append(g.include, f.Arg)
		case "exclude":
			g.exclude = append(g.exclude, f.Arg)
		case "exclude-from":
			data, err := os.ReadFile(f.Arg)
			if err != nil {
				env.Errorf("%s: %s", f.Arg, tool.Strerror(err))
				return 2
			}
			g.exclude = append(g.exclude, strings.Fields(string(data))...)
		case "exclude-dir":
			g.exclDirs = append(g.exclDirs, f.Arg)
		case "L":
			g.list = listNonMatches
		case "l":
			g.list = listMatches
		case "c":
			g.count = true
		case "T":
			g.initTab = true
		case "Z":
			g.nullName = true
		case "A", "B", "C":
			n, err := strconv.Atoi(f.Arg)
			if err != nil || n < 0 {
				env.Errorf("%s: invalid context length argument", f.Arg)
				return 2
			}
			switch f.Name {
			case "A":
				g.after = n
			case "B":
				g.before = n
			default:
				context = n
			}
		}
	}
	if context >= 0 {
		for _, f := range flags {
			if f.Name == "A" || f.Name == "B" {
				goto explicit
			}
		}
		g.before, g.after = context, context
	explicit:
		if g.before == 0 {
			g.before = context
		}
		if g.after == 0 {
			g.after = context
		}
	}
	if !havePatterns {
		if len(operands) == 0 {
			io.WriteString(env.Stderr, "Usage: grep [OPTION]... PATTERNS [FILE]...\n")
			return env.Usage(2, "")
		}
		patterns = strings.Split(operands[0], "\n")
		operands = operands[1:]
	}
	if len(patterns) == 0 {
		// An empty pattern file matches nothing.
		patterns = nil
	}
	var err error
	if len(patterns) > 0 {
		g.re, err = posixre.Compile(patterns, opts)
		if err != nil {
			env.Errorf("%s", err)
			return 2
		}
		if lit, exact := requiredLiteral(patterns, opts); lit != "" && strings.IndexByte(lit, g.eol) < 0 {
			g.lit, g.litExact = []byte(lit), exact
		}
		g.lits = plainStrings(patterns, opts, g.eol)
	}
	if len(operands) == 0 {
		if g.recurse {
			operands = []string{"."}
			g.bareDot = true
		} else {
			operands = []string{"-"}
		}
	}
	g.names = (len(operands) > 1 || g.recurse) && !noName || withName
	if g.quiet {
		g.list = listNone
		g.count = false
	}
	for _, name := range operands {
		if g.done {
			break
		}
		g.operand(name)
		if g.writeErr != nil {
			return env.WriteFailed(g.writeErr)
		}
	}
	switch {
	case g.quiet && g.matched:
		return 0
	case g.errors:
		return 2
	case g.matched:
		return 0
	}
	return 1
}

func readPatternFile(env *tool.Env, name string) ([]byte, error) {
	r, err := env.Open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

func (g *grep) errorf(format string, a ...any) {
	g.errors = true
	if !g.noMsgs {
		g.env.Errorf(format, a...)
	}
}

func (g *grep) operand(name string) {
	if name == "-" {
		g.file(g.label, g.env.Stdin)
		return
	}
	fi, err := os.Stat(name)
	if err != nil {
		if lfi, lerr := os.Lstat(name); lerr == nil && lfi.Mode()&fs.ModeSymlink != 0 && g.recurse {
			err = nil
			fi = lfi
		}
	}
	if err != nil {
		g.errorf("%s: %s", name, tool.Strerror(err))
		return
	}
	if fi.IsDir() {
		switch {
		case g.recurse:
			g.walk(name)
		case g.skipDirs:
		default:
			g.errorf("%s: Is a directory", name)
		}
		return
	}
	g.openFile(name, name)
}

func (g *grep) openFile(path, shown string) {
	f, err := os.Open(path)
	if err != nil {
		g.errorf("%s: %s", shown, tool.Strerror(err))
		return
	}
	defer f.Close()
	g.file(shown, f)
}

// walk searches a directory tree in name order.
func (g *grep) walk(root string) {
	var visit func(dir string)
	visit = func(dir string) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			g.errorf("%s: %s", dir, tool.Strerror(err))
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		for _, e := range entries {
			if g.done || g.writeErr != nil {
				return
			}
			var p string
			if dir == "." && g.bareDot {
				p = e.Name()
			} else if strings.HasSuffix(dir, "/") {
				p = dir + e.Name()
			} else {
				p = dir + "/" + e.Name()
			}
			mode := e.Type()
			if mode&fs.ModeSymlink != 0 {
				if !g.deref {
					continue
				}
				fi, err := os.Stat(p)
				if err != nil {
					g.errorf("%s: %s", p, tool.Strerror(err))
					continue
				}
				mode = fi.Mode().Type()
			}
			if mode.IsDir() {
				if matchAny(g.exclDirs, e.Name()) {
					continue
				}
				visit(p)
				continue
			}
			if !mode.IsRegular() {
				continue
			}
			if !g.wanted(e.Name()) {
				continue
			}
			g.openFile(p, p)
		}
	}
	visit(root)
}

func (g *grep) wanted(base string) bool {
	if matchAny(g.exclude, base) {
		return false
	}
	if len(g.include) > 0 && !matchAny(g.include, base) {
		return false
	}
	return true
}

func matchAny(globs []string, name string) bool {
	for _, gl := range globs {
		if ok, _ := path.Match(gl, name); ok {
			return true
		}
	}
	return false
}

// file searches one input stream.
func (g *grep) file(name string, r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	binary := false
	if g.binary != binaryText {
		if peek, _ := br.Peek(32 << 10); bytes.IndexByte(peek, 0) >= 0 && g.eol != 0 {
			binary = true
		}
		if binary && g.binary == binaryWithout {
			if g.list == listNonMatches {
				g.writeName(name)
			}
			return
		}
	}
	out := g.out
	var (
		lineNo    int64
		offset    int64
		selected  int64
		lastOut   int64 = -1 // number of the last line printed
		afterLeft int
		history   []histLine // the last g.before lines, for leading context
		silent    = g.quiet || g.count || g.list != listNone || binary
	)
	// Selected lines printed as they are, with nothing before them.
	plain := !silent && !g.only && !g.names && !g.lineNum && !g.byteOff &&
		g.before == 0 && g.after == 0
	if (silent || plain) && g.re != nil && g.maxCount < 0 {
		// Containing a string is the whole test and nothing is printed.
		counted := !plain && (g.lits != nil || g.lit != nil && g.litExact)
		// Only which lines match matters: search whole buffers of lines,
		// leaving the rest (a last line without its end) to the loop
		// below.
		for !g.done {
			// What is buffered, or one read's worth: never wait for more
			// input than a line needs.
			buf, err := br.Peek(max(br.Buffered(), 1))
			end := bytes.LastIndexByte(buf, g.eol) + 1
			if end == 0 {
				if err != nil || len(buf) >= br.Size() {
					break
				}
				if _, err := br.Peek(len(buf) + 1); err != nil {
					break
				}
				continue
			}
			var m, n int
			if counted {
				m, n = g.countStrings(buf[:end])
			} else if m, n, err = g.block(buf[:end], plain); err != nil {
				g.errorf("%s", err)
				g.done = true
				return
			}
			if g.invert {
				m = n - m
			}
			lineNo += int64(n)
			offset += int64(end)
			selected += int64(m)
			br.Discard(end)
			if selected > 0 {
				g.matched = true
				if g.quiet {
					g.done = true
					return
				}
				if g.list != listNone {
					break
				}
			}
		}
	}
	for selected == 0 || g.list == listNone {
		if g.lit != nil && !g.invert && afterLeft == 0 && g.before == 0 {
			n, off := g.skipToLiteral(br)
			lineNo += n
			offset += off
		}
		line, err := br.ReadSlice(g.eol)
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer: gather it whole.
			long := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice(g.eol)
				long = append(long, line...)
			}
			line = long
		}
		if len(line) == 0 {
			if err != nil && err != io.EOF {
				g.errorf("%s: %s", name, tool.Strerror(err))
			}
			break
		}
		lineNo++
		body := line
		if body[len(body)-1] == g.eol {
			body = body[:len(body)-1]
		}
		var ok bool
		if g.lit != nil && (g.litExact || !bytes.Contains(body, g.lit)) {
			ok = bytes.Contains(body, g.lit)
		} else if g.re != nil {
			var merr error
			ok, merr = g.re.Match(body)
			if merr != nil {
				g.errorf("%s", merr)
				g.done = true
				return
			}
		}
		if ok != g.invert {
			selected++
			g.matched = true
			if g.quiet {
				g.done = true
				return
			}
			if g.list != listNone {
				break
			}
			if !silent {
				// Separator between non-adjacent groups.
				if (g.before > 0 || g.after > 0) && (lastOut >= 0 && lineNo-int64(len(history)) > lastOut+1 || lastOut < 0 && g.printed) {
					out.WriteString("--\n")
				}
				g.printed = true
				for _, h := range history {
					g.prefix(name, h.no, h.off, '-')
					out.Write(h.text)
					out.WriteByte(g.eol)
				}
				history = history[:0]
				g.emitSelected(name, lineNo, offset, body)
				lastOut = lineNo
				afterLeft = g.after
			}
			if g.maxCount >= 0 && selected >= g.maxCount {
				// Trailing context still prints after the last match.
				offset += int64(len(line))
				for afterLeft > 0 && !silent {
					line, err := br.ReadSlice(g.eol)
					if len(line) == 0 {
						break
					}
					lineNo++
					b := bytes.TrimSuffix(line, []byte{g.eol})
					g.prefix(name, lineNo, offset, '-')
					out.Write(b)
					out.WriteByte(g.eol)
					offset += int64(len(line))
					afterLeft--
					if err != nil {
						break
					}
				}
				break
			}
		} else if !silent {
			if afterLeft > 0 {
				g.prefix(name, lineNo, offset, '-')
				out.Write(body)
				out.WriteByte(g.eol)
				lastOut = lineNo
				afterLeft--
			} else if g.before > 0 {
				if len(history) == g.before {
					copy(history, history[1:])
					history = history[:len(history)-1]
				}
				history = append(history, histLine{no: lineNo, off: offset, text: append([]byte(nil), body...)})
			}
		}
		offset += int64(len(line))
		if _, werr := out.Write(nil); werr != nil {
			g.writeErr = werr
			return
		}
		if err != nil {
			if err != io.EOF {
				g.errorf("%s: %s", name, tool.Strerror(err))
			}
			break
		}
	}
	switch {
	case g.count:
		if g.names {
			g.writeNameSep(name, ':')
		}
		out.WriteString(strconv.FormatInt(selected, 10))
		out.WriteByte('\n')
	case g.list == listMatches && selected > 0:
		g.writeName(name)
	case g.list == listNonMatches && selected == 0:
		g.writeName(name)
	}
	if binary && selected > 0 && !g.quiet && !g.count && g.list == listNone {
		out.Flush()
		g.env.Errorf("%s: binary file matches", name)
	}
}

type histLine struct {
	no, off int64
	text    []byte
}

func (g *grep) writeName(name string) {
	g.out.WriteString(name)
	if g.nullName {
		g.out.WriteByte(0)
	} else {
		g.out.WriteByte('\n')
	}
}

func (g *grep) writeNameSep(name string, sep byte) {
	g.out.WriteString(name)
	if g.nullName {
		g.out.WriteByte(0)
	} else {
		g.out.WriteByte(sep)
	}
}

// prefix writes "name:", "lineno:" and "offset:" as asked, with sep ':'
// for selected lines and '-' for context.
func (g *grep) prefix(name string, lineNo, off int64, sep byte) {
	if g.names {
		g.writeNameSep(name, sep)
	}
	if g.lineNum {
		g.out.WriteString(strconv.FormatInt(lineNo, 10))
		g.out.WriteByte(sep)
	}
	if g.byteOff {
		g.out.WriteString(strconv.FormatInt(off, 10))
		g.out.WriteByte(sep)
	}
	if g.initTab && (g.names || g.lineNum || g.byteOff) {
		g.out.WriteByte('\t')
	}
}

func (g *grep) emitSelected(name string, lineNo, off int64, body []byte) {
	if !g.only {
		g.prefix(name, lineNo, off, ':')
		g.out.Write(body)
		g.out.WriteByte(g.eol)
		return
	}
	if g.invert || g.re == nil {
		return
	}
	err := g.re.FindAll(body, func(s, e int) bool {
		g.prefix(name, lineNo, off+int64(s), ':')
		g.out.Write(body[s:e])
		g.out.WriteByte(g.eol)
		return true
	})
	if err != nil {
		g.errorf("%s", err)
	}
}

// countStrings returns how many lines of b (whole lines each ending in
// g.eol) hold g.lit, or one of g.lits, in one pass, and how many lines
// there are: counted only for -v, which selects the others, since lines
// that are not printed need no numbers.
func (g *grep) countStrings(b []byte) (matched, lines int) {
	if g.invert {
		lines = wc.CountByte(b, g.eol)
	}
	if g.lits != nil {
		return wc.CountLinesWithAny(b, g.lits, g.eol), lines
	}
	return wc.CountLinesWith(b, g.lit, g.eol), lines
}

// block searches b, whole lines each ending in g.eol, and returns how
// many lines match and how many there are; emit prints the selected
// lines (under -v, those without a match). Where the pattern needs a
// literal, it looks for the literal and tests only the lines holding it;
// otherwise the automaton runs over the whole buffer; lines it cannot
// decide are tested one by one.
func (g *grep) block(b []byte, emit bool) (matched, lines int, err error) {
	if g.lit == nil && !emit {
		if m, n, ok := g.re.CountLines(b, g.eol); ok {
			return m, n, nil
		}
	}
	// write prints the lines b[lo:hi] that hold a match (rejected false)
	// or lack one (rejected true), when those are the selected ones.
	write := func(lo, hi int, rejected bool) {
		if emit && hi > lo && rejected == g.invert {
			g.out.Write(b[lo:hi])
		}
	}
	pos := 0
	for pos < len(b) {
		var ls, le int // a line to test, le at its eol
		switch {
		case g.lit != nil:
			// Lines are counted once, at the end; a line's start is
			// sought only if it is printed or tested.
			k := wc.Index(b[pos:], g.lit)
			if k < 0 {
				write(pos, len(b), true)
				return matched, wc.CountByte(b, g.eol), nil
			}
			k += pos
			le = k + wc.IndexByte(b[k:], g.eol)
			if emit || !g.litExact {
				ls = bytes.LastIndexByte(b[pos:k], g.eol) + pos + 1
				write(pos, ls, true)
			}
		default:
			s, e, skipped, ok := g.re.FirstLine(b[pos:], g.eol)
			if ok {
				lines += skipped
				if s < 0 {
					write(pos, len(b), true)
					return matched, lines, nil
				}
				matched++
				lines++
				write(pos, pos+s, true)
				write(pos+s, pos+e, false)
				pos += e
				continue
			}
			if s >= 0 {
				// The automaton cannot decide this line: test it below.
				lines += skipped
				write(pos, pos+s, true)
				ls, le = pos+s, pos+e-1
				break
			}
			ls, le = pos, pos+bytes.IndexByte(b[pos:], g.eol)
		}
		ok := g.litExact
		if !ok {
			if ok, err = g.re.Match(b[ls:le]); err != nil {
				return matched, lines, err
			}
		}
		lines++
		if ok {
			matched++
		}
		write(ls, le+1, !ok)
		pos = le + 1
	}
	if g.lit != nil {
		lines = wc.CountByte(b, g.eol)
	}
	return matched, lines, nil
}

// skipToLiteral discards the buffered whole lines that cannot match
// because they lack g.lit, stopping at the line holding its next
// occurrence (or where only a partial line is left), and returns how many
// lines and bytes it skipped.
func (g *grep) skipToLiteral(br *bufio.Reader) (lines, bytesSkipped int64) {
	for {
		n := br.Buffered()
		if n == 0 {
			if _, err := br.Peek(1); err != nil {
				return
			}
			continue
		}
		buf, _ := br.Peek(n)
		if i := wc.Index(buf, g.lit); i >= 0 {
			ls := bytes.LastIndexByte(buf[:i], g.eol) + 1
			lines += int64(wc.CountByte(buf[:ls], g.eol))
			bytesSkipped += int64(ls)
			br.Discard(ls)
			return
		}
		last := bytes.LastIndexByte(buf, g.eol)
		if last < 0 {
			return
		}
		lines += int64(wc.CountByte(buf[:last+1], g.eol))
		bytesSkipped += int64(last + 1)
		br.Discard(last + 1)
		if rest := br.Buffered(); rest > 0 {
			// Keep the partial last line and read more behind it.
			if _, err := br.Peek(rest + 1); err != nil {
				return
			}
		}
	}
}

// Egrep runs grep -E, as GNU's egrep script does.
func Egrep(env *tool.Env) int { return withFlag(env, "-E") }

// Fgrep runs grep -F, as GNU's fgrep script does.
func Fgrep(env *tool.Env) int { return withFlag(env, "-F") }

func withFlag(env *tool.Env, flag string) int {
	sub := *env
	sub.Args = append([]string{"grep", flag}, env.Args[1:]...)
	return tool.Run(Main, &sub)
}
