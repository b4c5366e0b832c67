// Package rg is ripgrep's command line: a recursive regular-expression
// search that respects .gitignore, .ignore and .rgignore files, skips
// hidden and binary files, and prints as ripgrep 13 does when its output
// is not a terminal (no colors, no headings, no line numbers unless -n).
package rg

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// UpstreamVersion is the ripgrep release whose behaviour rg follows.
const UpstreamVersion = "13.0.0"

const usage = `USAGE:
    
    rg [OPTIONS] PATTERN [PATH ...]
    rg [OPTIONS] -e PATTERN ... [PATH ...]
    rg [OPTIONS] -f PATTERNFILE ... [PATH ...]
    rg [OPTIONS] --files [PATH ...]
    rg [OPTIONS] --type-list
    command | rg [OPTIONS] PATTERN
    rg [OPTIONS] --help
    rg [OPTIONS] --version
`

// Main is the rg command.
func Main(env *tool.Env) (code int) {
	defer func() {
		if r := recover(); r != nil {
			env.Out().Flush()
			fmt.Fprintf(env.Stderr, "rg: %v\n", r)
			code = 2
		}
	}()
	o, err := parseArgs(env.Args[1:])
	if err != nil {
		var h *helpRequest
		if errors.As(err, &h) {
			if h.version {
				fmt.Fprintf(env.Out(), "ripgrep %s (wasmsand %s)\n", UpstreamVersion, tool.Version)
			} else {
				io.WriteString(env.Out(), helpText)
			}
			return 0
		}
		fmt.Fprintf(env.Stderr, "error: %s\n\n%s\nFor more information try --help\n", err, usage)
		return 2
	}
	r := &run{env: env, o: o, out: env.Out(), start: time.Now()}
	return r.main()
}

// run is one invocation.
type run struct {
	env   *tool.Env
	o     *options
	out   *bufio.Writer
	m     *matcher
	start time.Time

	withName   bool
	heading    bool // print the path above each file's lines
	lineNum    bool
	printedAny bool // a line was printed: context groups need "--"
	matched    bool // some file matched (or was listed)
	failed     bool // an error was reported
	stop       bool // --quiet found a match
	searched   bool // some file was searched
	headed     bool // a --heading was printed

	total stats // --json summary
}

// stats are what --json reports per file and in total.
type stats struct {
	elapsed        time.Duration
	searches       int
	withMatch      int
	bytesSearched  int
	bytesPrinted   int
	matchedLines   int
	matches        int
	firstBinaryOff int // -1 if none
}

func (r *run) errorf(path string, err error) {
	r.failed = true
	if r.o.noMessages {
		return
	}
	r.out.Flush()
	fmt.Fprintf(r.env.Stderr, "%s: %s\n", path, osErrText(err))
}

// osErrText words err as Rust's io::Error does: "No such file or
// directory (os error 2)".
func osErrText(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		if n, ok := linuxErrno[errno]; ok {
			return fmt.Sprintf("%s (os error %d)", tool.Strerror(err), n)
		}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory (os error 2)"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied (os error 13)"
	}
	return tool.Strerror(err)
}

// linuxErrno numbers errors as Linux does, whatever the platform's values.
var linuxErrno = map[syscall.Errno]int{
	syscall.EPERM: 1, syscall.ENOENT: 2, syscall.EIO: 5, syscall.EBADF: 9,
	syscall.EACCES: 13, syscall.ENOTDIR: 20, syscall.EISDIR: 21, syscall.EINVAL: 22,
	syscall.EMFILE: 24, syscall.ELOOP: 40, syscall.ENAMETOOLONG: 36,
}

func (r *run) main() int {
	o := r.o
	if o.typeList {
		names := make([]string, 0, len(fileTypes))
		for n := range fileTypes {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(r.out, "%s: %s\n", n, strings.Join(fileTypes[n], ", "))
		}
		return 0
	}
	w := &walker{o: o, visit: r.visit, errf: r.errorf}
	w.cwd, _ = os.Getwd()
	for _, sel := range []struct {
		names []string
		rs    **ruleset
	}{{o.types, &w.typeSel}, {o.notTypes, &w.typeNot}} {
		for _, t := range sel.names {
			globs, ok := fileTypes[t]
			if !ok {
				fmt.Fprintf(r.env.Stderr, "unrecognized file type: %s\n", t)
				return 2
			}
			if *sel.rs == nil {
				*sel.rs = &ruleset{}
			}
			for _, g := range globs {
				(*sel.rs).add(g, false)
			}
		}
	}
	if len(o.globs) > 0 {
		w.globs = &ruleset{}
		for _, g := range o.globs {
			w.globs.add(g.glob, g.foldCase)
			if !strings.HasPrefix(g.glob, "!") {
				w.posGlob = true
			}
		}
	}
	if !o.files {
		patterns := o.patterns
		for _, f := range o.patternFiles {
			var b []byte
			var err error
			if f == "-" {
				b, err = io.ReadAll(r.env.Stdin)
			} else {
				b, err = os.ReadFile(f)
			}
			if err != nil {
				fmt.Fprintf(r.env.Stderr, "%s: %s\n", f, osErrText(err))
				return 2
			}
			text := strings.TrimSuffix(string(b), "\n")
			if text != "" || len(b) > 0 {
				patterns = append(patterns, strings.Split(text, "\n")...)
			}
		}
		m, err := newMatcher(o, patterns)
		if err != nil {
			fmt.Fprintln(r.env.Stderr, err)
			return 2
		}
		r.m = m
	}

	paths := o.paths
	var stdin []byte
	useStdin := false
	if len(paths) == 0 && !o.files {
		stdin, useStdin = stdinInput(r.env.Stdin)
	}
	r.withName = len(paths) > 1
	if len(paths) == 0 && !useStdin {
		r.withName = true
	}
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			r.withName = true
		}
	}
	if o.withFilename >= 0 {
		r.withName = o.withFilename == 1
	}
	r.lineNum = o.lineNumber == 1 || o.column || o.vimgrep
	if o.lineNumber == 0 {
		r.lineNum = false
	}
	if o.vimgrep {
		o.column = true
		if o.withFilename < 0 {
			r.withName = true
		}
	}
	r.heading = o.heading && r.withName && !o.vimgrep

	switch {
	case useStdin:
		r.search("<stdin>", stdin, true)
	case len(paths) == 0:
		w.walkRoot("")
	default:
		for _, p := range paths {
			if r.stop {
				break
			}
			if p == "-" {
				r.searchReader("<stdin>", r.env.Stdin)
				continue
			}
			if !w.walkRoot(p) {
				break
			}
		}
	}
	if o.json && !o.files {
		r.summary()
	}
	if !o.files && !r.searched && !r.failed && !r.stop {
		r.failed = true
		if !o.noMessages {
			r.out.Flush()
			fmt.Fprint(r.env.Stderr, "No files were searched, which means ripgrep probably applied a filter you didn't expect.\nRunning with --debug will show why files are being skipped.\n")
		}
	}
	if o.quiet && r.matched {
		return 0
	}
	switch {
	case r.failed:
		return 2
	case r.matched:
		return 0
	}
	return 1
}

// stdinInput decides whether standard input is what to search when no
// path is given, as ripgrep does: a pipe or a file is, a terminal or
// /dev/null is not. A host stream with no inode (the sandbox's input when
// a command has none) counts only if it holds something: WASI cannot say
// whether such a stream is a pipe.
func stdinInput(in io.Reader) (data []byte, ok bool) {
	f, isFile := in.(*os.File)
	if !isFile {
		if in == nil {
			return nil, false
		}
		data, err := io.ReadAll(in)
		return data, err == nil
	}
	fi, err := f.Stat()
	if err != nil {
		return nil, false
	}
	if !fi.Mode().IsRegular() && fi.Mode()&fs.ModeNamedPipe == 0 {
		return nil, false
	}
	data, err = io.ReadAll(f)
	if err != nil {
		return nil, false
	}
	if st, isStat := fi.Sys().(*syscall.Stat_t); isStat && st.Ino == 0 && len(data) == 0 {
		return nil, false
	}
	return data, true
}

// visit searches (or, with --files, lists) one file found by the walk.
func (r *run) visit(path string, explicit bool) bool {
	if r.stop {
		return false
	}
	if r.o.files {
		r.matched = true
		r.out.WriteString(path)
		r.out.WriteByte(r.term())
		return true
	}
	data, err := os.ReadFile(path)
	if err != nil {
		r.errorf(path, err)
		return true
	}
	r.search(path, data, explicit)
	return !r.stop
}

func (r *run) term() byte {
	if r.o.null {
		return 0
	}
	return '\n'
}

func (r *run) searchReader(name string, in io.Reader) {
	data, err := io.ReadAll(in)
	if err != nil {
		r.errorf(name, err)
		return
	}
	r.search(name, data, true)
}

// A line of the file being searched.
type line struct {
	start, end int // the text, without its terminator
	next       int // where the following line starts
}

func splitLines(data []byte) []line {
	var ls []line
	for pos := 0; pos < len(data); {
		i := bytes.IndexByte(data[pos:], '\n')
		if i < 0 {
			ls = append(ls, line{pos, len(data), len(data)})
			break
		}
		ls = append(ls, line{pos, pos + i, pos + i + 1})
		pos += i + 1
	}
	return ls
}

// search searches one file's contents and prints what the options ask.
func (r *run) search(path string, data []byte, explicit bool) {
	o := r.o
	began := time.Now()
	r.searched = true
	st := stats{searches: 1, bytesSearched: len(data), firstBinaryOff: -1}
	binary := false
	if nul := bytes.IndexByte(data, 0); nul >= 0 && !o.text {
		if !explicit && !o.binary {
			return
		}
		binary = true
		st.firstBinaryOff = nul
		data = bytes.ReplaceAll(data, []byte{0}, []byte{'\n'})
	}
	lines := splitLines(data)
	isMatch := func(i int) bool {
		l := lines[i]
		return r.m.match(data[l.start:l.end]) != o.invert
	}

	// Modes that only count or list.
	switch {
	case o.quiet || o.filesWith || o.filesWithout || o.count || o.countMatches:
		n := 0
		for i := range lines {
			if o.maxCount >= 0 && int64(n) >= o.maxCount {
				break
			}
			if !isMatch(i) {
				continue
			}
			if (o.countMatches || o.count && o.onlyMatching) && !o.invert {
				l := lines[i]
				n += len(r.m.find(data[l.start:l.end], -1))
			} else {
				n++
			}
			if o.quiet || o.filesWith || o.filesWithout {
				break
			}
		}
		switch {
		case o.quiet:
			if n > 0 {
				r.matched, r.stop = true, true
			}
		case o.filesWithout:
			if n == 0 {
				r.matched = true
				r.out.WriteString(path)
				r.out.WriteByte(r.term())
			}
		case o.filesWith:
			if n > 0 {
				r.matched = true
				r.out.WriteString(path)
				r.out.WriteByte(r.term())
			}
		default:
			if n > 0 {
				r.matched = true
				if r.withName {
					r.out.WriteString(path)
					if o.null {
						r.out.WriteByte(0)
					} else {
						r.out.WriteByte(':')
					}
				}
				r.out.WriteString(strconv.Itoa(n))
				r.out.WriteByte('\n')
			}
		}
		return
	}

	if binary && !o.json {
		for i := range lines {
			if isMatch(i) {
				r.matched = true
				if r.withName {
					fmt.Fprintf(r.out, "%s: ", path)
				}
				fmt.Fprintf(r.out, "binary file matches (found \"\\0\" byte around offset %d)\n", st.firstBinaryOff)
				return
			}
		}
		return
	}

	p := &printer{r: r, path: path, data: data, st: &st}
	lastPrinted := -1
	afterLeft := 0
	count := int64(0)
	for i := range lines {
		limitReached := o.maxCount >= 0 && count >= o.maxCount
		if limitReached && afterLeft == 0 {
			break
		}
		m := isMatch(i)
		if m && !limitReached {
			count++
			// Leading context, then the match.
			from := max(i-o.before, lastPrinted+1)
			gap := from > lastPrinted+1 || lastPrinted < 0 && !r.heading
			if r.printedAny && (o.before > 0 || o.after > 0) && gap && !o.json {
				r.out.WriteString(o.contextSep)
				r.out.WriteByte('\n')
			}
			for j := from; j < i; j++ {
				p.context(j, lines[j])
			}
			p.match(i, lines[i])
			lastPrinted = i
			afterLeft = o.after
			continue
		}
		if afterLeft > 0 {
			if m {
				p.match(i, lines[i])
			} else {
				p.context(i, lines[i])
			}
			lastPrinted = i
			afterLeft--
		}
	}
	st.elapsed = time.Since(began)
	if count > 0 {
		r.matched = true
		if o.json {
			p.end()
			r.total.add(&st)
		}
	}
}

func (s *stats) add(t *stats) {
	s.elapsed += t.elapsed
	s.searches += t.searches
	s.withMatch += t.withMatch
	s.bytesSearched += t.bytesSearched
	s.bytesPrinted += t.bytesPrinted
	s.matchedLines += t.matchedLines
	s.matches += t.matches
}

// printer prints the lines of one file.
type printer struct {
	r     *run
	path  string
	data  []byte
	st    *stats
	begun bool
}

func (p *printer) prefix(n int, col int, sep byte) {
	r := p.r
	if r.heading {
		if !p.begun {
			p.begun = true
			if r.headed {
				r.out.WriteByte('\n')
			}
			r.headed = true
			r.out.WriteString(p.path)
			r.out.WriteByte('\n')
		}
	} else if r.withName {
		r.out.WriteString(p.path)
		if r.o.null {
			r.out.WriteByte(0)
		} else {
			r.out.WriteByte(sep)
		}
	}
	if r.lineNum {
		r.out.WriteString(strconv.Itoa(n + 1))
		r.out.WriteByte(sep)
	}
	if r.o.column && col > 0 {
		r.out.WriteString(strconv.Itoa(col))
		r.out.WriteByte(sep)
	}
}

func (p *printer) text(b []byte) {
	p.r.out.Write(b)
	p.r.out.WriteByte('\n')
}

func (p *printer) context(n int, l line) {
	p.r.printedAny = true
	if p.r.o.json {
		p.jsonLine("context", n, l, nil)
		return
	}
	p.prefix(n, 0, '-')
	p.text(p.data[l.start:l.end])
}

func (p *printer) match(n int, l line) {
	r := p.r
	o := r.o
	r.printedAny = true
	text := p.data[l.start:l.end]
	var spans [][2]int
	if !o.invert {
		spans = r.m.find(text, -1)
	}
	p.st.matchedLines++
	p.st.withMatch = 1
	if o.invert {
		p.st.matches++
	} else {
		p.st.matches += len(spans)
	}
	if o.json {
		p.jsonLine("match", n, l, spans)
		return
	}
	switch {
	case o.onlyMatching:
		for _, s := range spans {
			p.prefix(n, s[0]+1, ':')
			if o.replace != nil {
				p.text(r.m.expand(*o.replace, text[s[0]:s[1]]))
			} else {
				p.text(text[s[0]:s[1]])
			}
		}
	case o.vimgrep && len(spans) > 0:
		for _, s := range spans {
			p.prefix(n, s[0]+1, ':')
			p.text(p.replaced(text, spans))
		}
	default:
		col := 0
		if len(spans) > 0 {
			col = spans[0][0] + 1
		} else if o.column {
			col = 1
		}
		p.prefix(n, col, ':')
		p.text(p.replaced(text, spans))
	}
}

// replaced is text with --replace applied to the matches in spans.
func (p *printer) replaced(text []byte, spans [][2]int) []byte {
	o := p.r.o
	if o.replace == nil || len(spans) == 0 {
		return text
	}
	var b []byte
	last := 0
	for _, s := range spans {
		b = append(b, text[last:s[0]]...)
		b = append(b, p.r.m.expand(*o.replace, text[s[0]:s[1]])...)
		last = s[1]
	}
	return append(b, text[last:]...)
}
