package sed

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// output is a destination of sed's writes: standard output, an in-place
// temporary file or a w file. missingNL records that the last line
// written lacked its newline, which is added before anything else goes
// out, as GNU sed does.
type output struct {
	name      string
	w         *bufio.Writer
	f         *os.File
	missingNL bool
	delim     byte
	unbuf     bool
}

func (o *output) fixNL() {
	if o.missingNL {
		o.w.WriteByte(o.delim)
		o.missingNL = false
	}
}

// line writes b and, if nl, the line delimiter.
func (o *output) line(b []byte, nl bool) {
	o.fixNL()
	o.w.Write(b)
	if nl {
		o.w.WriteByte(o.delim)
	} else {
		o.missingNL = true
	}
	if o.unbuf {
		o.w.Flush()
	}
}

func (o *output) text(s string) {
	o.fixNL()
	o.w.WriteString(s)
	if o.unbuf {
		o.w.Flush()
	}
}

// fatalError ends the run at once with status code after printing msg.
type fatalError struct {
	msg  string
	code int
}

func (e *fatalError) Error() string { return e.msg }

// input reads lines from the input files in turn.
type input struct {
	env    *tool.Env
	names  []string
	next   int // index of the next file to open
	r      *bufio.Reader
	c      io.Closer
	name   string // current file, "-" for standard input
	delim  byte
	status int // 2 once a file could not be read
}

// open opens the next readable file; false when none is left.
func (in *input) open() (bool, error) {
	for in.next < len(in.names) {
		name := in.names[in.next]
		in.next++
		if name == "-" {
			in.r, in.c, in.name = bufio.NewReaderSize(in.env.Stdin, 64<<10), nil, "-"
			return true, nil
		}
		f, err := os.Open(name)
		if err != nil {
			in.env.Errorf("can't read %s: %s", name, tool.Strerror(err))
			in.status = 2
			continue
		}
		in.r, in.c, in.name = bufio.NewReaderSize(f, 64<<10), f, name
		return true, nil
	}
	return false, nil
}

func (in *input) closeCur() {
	if in.c != nil {
		in.c.Close()
	}
	in.r, in.c = nil, nil
}

// read reads the next line into dst (replacing its contents). nl reports
// whether the line ended with the delimiter.
func (in *input) read(dst []byte) (line []byte, nl, ok bool, err error) {
	for {
		if in.r == nil {
			more, err := in.open()
			if !more || err != nil {
				return dst, false, false, err
			}
		}
		dst = dst[:0]
		for {
			chunk, err := in.r.ReadSlice(in.delim)
			dst = append(dst, chunk...)
			if err == nil {
				return dst[:len(dst)-1], true, true, nil
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != io.EOF {
				in.closeCur()
				return dst, false, false, readError(in, err)
			}
			break
		}
		if len(dst) > 0 {
			return dst, false, true, nil
		}
		in.closeCur()
	}
}

func readError(in *input, err error) error {
	return &fatalError{fmt.Sprintf("read error on %s: %s", in.displayName(), tool.Strerror(err)), exitPanic}
}

func (in *input) displayName() string {
	if in.name == "-" {
		return "stdin"
	}
	return in.name
}

// atEOF reports whether no line is left in this input.
func (in *input) atEOF() (bool, error) {
	for {
		if in.r != nil {
			_, err := in.r.Peek(1)
			if err == nil {
				return false, nil
			}
			if err != io.EOF {
				in.closeCur()
				return true, readError(in, err)
			}
			in.closeCur()
		}
		more, err := in.open()
		if err != nil || !more {
			return true, err
		}
	}
}

// appendItem is output queued for the end of the cycle by a, r and R.
type appendItem struct {
	text string
	file string
	isR  bool
}

// machine runs a compiled script.
type machine struct {
	env     *tool.Env
	cmds    []*command
	quiet   bool
	posix   bool
	lineLen int
	delim   byte
	out     *output // current main output
	stdout  *output
	outputs map[string]*output

	in      *input
	ps, hs  []byte
	scratch []byte
	nl      bool // the pattern space's line ended with a delimiter
	hsNL    bool // the same for the hold space (GNU keeps it per buffer)
	lineNo  int
	tflag   bool
	appends []appendItem
	lastRe  *Regex
	caps    []int
	exit    int
	quit    bool
	fast    *fastSubst // set when the script is one plain literal s///g
	sub     substRun
}

// errNoPrevRegex is the runtime error for an empty regex with none before.
var errNoPrevRegex = &fatalError{"-e expression #1, char 0: " + msgNoPrevRegex, 1}

func (m *machine) regex(r *Regex) (*Regex, error) {
	if r == nil {
		if m.lastRe == nil {
			return nil, errNoPrevRegex
		}
		return m.lastRe, nil
	}
	m.lastRe = r
	return r, nil
}

// runInput processes every line of in. It returns when the input ends or
// a q or Q command ran.
func (m *machine) runInput() error {
	// Line numbers and ranges start afresh for each input unit (each
	// file under -s and -i), as with GNU sed.
	m.lineNo = 0
	for _, c := range m.cmds {
		c.state = rangeInactive
		if c.a1 != nil && c.a1.kind == aZero {
			c.state = rangeActive
		}
	}
	if m.fast != nil {
		return m.runFast()
	}
	for !m.quit {
		line, nl, ok, err := m.in.read(m.ps)
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		m.ps, m.nl = line, nl
		m.lineNo++
		m.tflag = false
		if err := m.cycle(); err != nil {
			return err
		}
	}
	return nil
}

// cycle runs the script on the pattern space, restarting for D.
func (m *machine) cycle() error {
	for {
		restart, autoprint, err := m.execute()
		if err != nil {
			return err
		}
		if autoprint && !m.quiet {
			m.out.line(m.ps, m.nl)
		}
		if len(m.appends) > 0 || m.out.unbuf { // else a call a line for nothing
			if err := m.flushAppends(); err != nil {
				return err
			}
		}
		if !restart || m.quit {
			return nil
		}
	}
}

func (m *machine) flushAppends() error {
	for _, a := range m.appends {
		switch {
		case a.file == "":
			m.out.text(a.text)
		case a.isR:
			m.out.text(a.text)
		default:
			if err := m.copyFile(a.file); err != nil {
				return err
			}
		}
	}
	m.appends = m.appends[:0]
	if m.out.unbuf {
		m.out.w.Flush()
	}
	return nil
}

// copyFile copies a file named by r to the output; a file that cannot be
// read is silently ignored, as GNU sed does.
func (m *machine) copyFile(name string) error {
	var r io.Reader
	if name == "/dev/stdin" || name == "-" {
		r = m.env.Stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil
		}
		defer f.Close()
		r = f
	}
	m.out.fixNL()
	// A read error part way (a directory, say) ends the copy quietly too.
	io.Copy(m.out.w, r)
	return nil
}

// matchAddr evaluates one address against the current line.
func (m *machine) matchAddr(a *address) (bool, error) {
	switch a.kind {
	case aLine:
		return m.lineNo == a.n, nil
	case aLast:
		return m.in.atEOF()
	case aStep:
		if a.n2 <= 0 {
			return m.lineNo == a.n, nil
		}
		return m.lineNo >= a.n && (m.lineNo-a.n)%a.n2 == 0, nil
	case aRegex:
		re, err := m.regex(a.re)
		if err != nil {
			return false, err
		}
		return re.Match(m.ps)
	case aZero:
		return false, nil
	}
	return false, nil
}

// selected reports whether c applies to the current line.
func (m *machine) selected(c *command) (bool, error) {
	ok, err := m.selectedRaw(c)
	return ok != c.neg, err
}

func (m *machine) selectedRaw(c *command) (bool, error) {
	if c.a1 == nil {
		return true, nil
	}
	if c.a2 == nil {
		return m.matchAddr(c.a1)
	}
	// A range whose first address is a line number can run only once:
	// it closes for good when it ends.
	ended := rangeInactive
	if c.a1.kind == aLine || c.a1.kind == aZero {
		ended = rangeClosed
	}
	switch c.state {
	case rangeActive:
		switch c.a2.kind {
		case aMult, aPlus:
			// GNU ends an addr1,+N or addr1,~N range on the first line
			// at or past its end, which it still matches.
			if m.lineNo >= c.end {
				c.state = ended
			}
			return true, nil
		case aLine:
			if m.lineNo > c.end {
				// Skipped past the end: the range is over; see if it
				// starts again here.
				c.state = ended
				if ended == rangeClosed {
					return false, nil
				}
				return m.selectedRaw(c)
			}
			if m.lineNo == c.end {
				c.state = ended
			}
			return true, nil
		case aLast:
			last, err := m.in.atEOF()
			if last {
				c.state = ended
			}
			return true, err
		case aRegex:
			re, err := m.regex(c.a2.re)
			if err != nil {
				return false, err
			}
			ok, err := re.Match(m.ps)
			if ok {
				c.state = ended
			}
			return true, err
		}
	case rangeClosed:
		return false, nil
	}
	if c.a1.kind == aLine {
		// GNU starts a range on the first line at or past its first
		// address, in case the command did not run on that very line.
		if m.lineNo < c.a1.n {
			return false, nil
		}
		if m.lineNo > c.a1.n && c.a2.kind == aLine && m.lineNo > c.a2.n {
			c.state = rangeClosed
			return false, nil
		}
	} else if ok, err := m.matchAddr(c.a1); !ok || err != nil {
		return false, err
	}
	c.state = ended // until the second address says otherwise
	switch c.a2.kind {
	case aLine:
		if c.a2.n > m.lineNo {
			c.state, c.end = rangeActive, c.a2.n
		}
	case aPlus:
		if c.a2.n > 0 {
			c.state, c.end = rangeActive, m.lineNo+c.a2.n
		}
	case aMult:
		if c.a2.n > 0 {
			c.state, c.end = rangeActive, (m.lineNo/c.a2.n+1)*c.a2.n
		}
	case aLast:
		last, err := m.in.atEOF()
		if err != nil {
			return false, err
		}
		if !last {
			c.state = rangeActive
		}
	case aRegex:
		c.state = rangeActive
	}
	return true, nil
}

// execute runs the script once over the pattern space. restart asks for a
// new cycle without reading input (D); autoprint says whether the end of
// the cycle prints the pattern space.
func (m *machine) execute() (restart, autoprint bool, err error) {
	cmds := m.cmds
	for pc := 0; pc < len(cmds); pc++ {
		c := cmds[pc]
		ok, err := m.selected(c)
		if err != nil {
			return false, false, err
		}
		if !ok {
			if c.name == '{' {
				pc = c.jump - 1
			}
			continue
		}
		switch c.name {
		case '{', '}', ':':
		case '=':
			m.out.text(strconv.Itoa(m.lineNo))
			m.out.w.WriteByte(m.delim)
		case 'a':
			m.appends = append(m.appends, appendItem{text: c.text})
		case 'i':
			m.insertText(c.text)
		case 'c':
			if c.a2 == nil || c.state != rangeActive {
				m.insertText(c.text)
			}
			return false, false, nil
		case 'd':
			return false, false, nil
		case 'D':
			i := bytes.IndexByte(m.ps, m.delim)
			if i < 0 {
				return false, false, nil
			}
			m.ps = append(m.ps[:0], m.ps[i+1:]...)
			return true, false, nil
		case 'e':
		case 'F':
			m.out.text(m.in.name)
			m.out.w.WriteByte(m.delim)
		case 'g':
			m.ps = append(m.ps[:0], m.hs...)
			m.nl = m.hsNL
		case 'G':
			m.ps = append(m.ps, m.delim)
			m.ps = append(m.ps, m.hs...)
			m.nl = m.hsNL
		case 'h':
			m.hs = append(m.hs[:0], m.ps...)
			m.hsNL = m.nl
		case 'H':
			m.hs = append(m.hs, m.delim)
			m.hs = append(m.hs, m.ps...)
			m.hsNL = m.nl
		case 'x':
			m.ps, m.hs = m.hs, m.ps
			m.nl, m.hsNL = m.hsNL, m.nl
		case 'l':
			n := m.lineLen
			if c.hasNum {
				n = c.num
			}
			m.list(n)
		case 'n':
			last, err := m.in.atEOF()
			if err != nil {
				return false, false, err
			}
			if last {
				m.quit = true
				return false, !m.posix, nil
			}
			if !m.quiet {
				m.out.line(m.ps, m.nl)
			}
			if err := m.flushAppends(); err != nil {
				return false, false, err
			}
			if err := m.readNext(false); err != nil {
				return false, false, err
			}
		case 'N':
			last, err := m.in.atEOF()
			if err != nil {
				return false, false, err
			}
			if last {
				m.quit = true
				return false, !m.posix, nil
			}
			if err := m.flushAppends(); err != nil {
				return false, false, err
			}
			if err := m.readNext(true); err != nil {
				return false, false, err
			}
		case 'p':
			m.out.line(m.ps, m.nl)
		case 'P':
			i := bytes.IndexByte(m.ps, m.delim)
			if i < 0 {
				m.out.line(m.ps, m.nl)
			} else {
				m.out.line(m.ps[:i], true)
			}
		case 'q':
			m.quit = true
			if c.hasNum {
				m.exit = c.num
			}
			// GNU ends the line with a delimiter even if the input
			// line had none.
			m.nl = true
			return false, true, nil
		case 'Q':
			m.quit = true
			if c.hasNum {
				m.exit = c.num
			}
			m.appends = m.appends[:0]
			return false, false, nil
		case 'r':
			m.appends = append(m.appends, appendItem{file: c.fname})
		case 'R':
			if line, ok := c.rfile.readLine(m.env); ok {
				m.appends = append(m.appends, appendItem{text: line, file: c.fname, isR: true})
			}
		case 's':
			if err := m.subst(c.s); err != nil {
				return false, false, err
			}
		case 't':
			if m.tflag {
				m.tflag = false
				pc = c.jump - 1
			}
		case 'T':
			if !m.tflag {
				pc = c.jump - 1
			} else {
				m.tflag = false
			}
		case 'b':
			pc = c.jump - 1
		case 'w':
			c.out.line(m.ps, m.nl)
		case 'W':
			if i := bytes.IndexByte(m.ps, m.delim); i >= 0 {
				c.out.line(m.ps[:i], true)
			} else {
				c.out.line(m.ps, m.nl)
			}
		case 'y':
			m.translate(c.y)
		case 'z':
			m.ps = m.ps[:0]
		}
	}
	return false, true, nil
}

// insertText writes the text of i or c: GNU ends it with the line
// delimiter (NUL under -z) in place of its newline.
func (m *machine) insertText(text string) {
	if text == "" {
		return
	}
	m.out.text(text[:len(text)-1])
	m.out.w.WriteByte(m.delim)
}

// readNext reads the next line into the pattern space, appending it
// after a delimiter for N.
func (m *machine) readNext(appendIt bool) error {
	var line []byte
	var nl, ok bool
	var err error
	if appendIt {
		m.scratch, nl, ok, err = m.in.read(m.scratch)
		line = m.scratch
	} else {
		line, nl, ok, err = m.in.read(m.ps)
	}
	if err != nil || !ok {
		return err
	}
	m.lineNo++
	m.nl = nl
	if appendIt {
		m.ps = append(m.ps, m.delim)
		m.ps = append(m.ps, line...)
	} else {
		m.ps = line
	}
	return nil
}

// list writes the pattern space unambiguously (the l command), wrapping
// lines at width characters (0 or 1: no wrapping).
func (m *machine) list(width int) {
	o := m.out
	o.fixNL()
	col := 0
	var esc [8]byte
	emit := func(s []byte) {
		if width > 0 && col+len(s) > width-1 {
			o.w.WriteString("\\\n")
			col = 0
		}
		o.w.Write(s)
		col += len(s)
	}
	for _, c := range m.ps {
		var s []byte
		switch c {
		case '\\':
			s = append(esc[:0], '\\', '\\')
		case '\a':
			s = append(esc[:0], '\\', 'a')
		case '\b':
			s = append(esc[:0], '\\', 'b')
		case '\f':
			s = append(esc[:0], '\\', 'f')
		case '\n':
			s = append(esc[:0], '\\', 'n')
		case '\r':
			s = append(esc[:0], '\\', 'r')
		case '\t':
			s = append(esc[:0], '\\', 't')
		case '\v':
			s = append(esc[:0], '\\', 'v')
		default:
			if c < ' ' || c >= 0x7f {
				s = append(esc[:0], '\\', '0'+c>>6, '0'+(c>>3)&7, '0'+c&7)
			} else {
				s = append(esc[:0], c)
			}
		}
		emit(s)
	}
	o.w.WriteByte('$')
	o.w.WriteByte(m.delim)
}

// translate applies a y command.
func (m *machine) translate(t *ytable) {
	if t.byteOnly {
		for i, c := range m.ps {
			if c < utf8.RuneSelf {
				m.ps[i] = t.ascii[c]
			}
		}
		return
	}
	out := m.scratch[:0]
	for i := 0; i < len(m.ps); {
		r, n := utf8.DecodeRune(m.ps[i:])
		if s, ok := t.multi[r]; ok && !(r == utf8.RuneError && n == 1) {
			out = append(out, s...)
		} else {
			out = append(out, m.ps[i:i+n]...)
		}
		i += n
	}
	m.scratch = m.ps
	m.ps = out
}

// substRun is the state of one s command while it builds its result; the
// machine keeps one so that running s allocates nothing per line.
type substRun struct {
	s     *subst
	ps    []byte
	out   []byte
	last  int // end of the text copied so far
	count int
	done  bool
}

// match handles one match: it copies the text before it and the
// replacement, and says whether to look for more.
func (r *substRun) match(caps []int) bool {
	r.count++
	if r.count < r.s.nth {
		return true
	}
	out, ps := r.out, r.ps
	out = append(out, ps[r.last:caps[0]]...)
	if r.s.plain {
		// No case conversion: copy the parts as they are.
		for _, p := range r.s.repl {
			if p.kind == rpLit {
				out = append(out, p.lit...)
			} else if 2*p.n+1 < len(caps) && caps[2*p.n] >= 0 {
				out = append(out, ps[caps[2*p.n]:caps[2*p.n+1]]...)
			}
		}
		r.out = out
		r.last = caps[1]
		r.done = true
		return r.s.global
	}
	var cs caseState
	for _, p := range r.s.repl {
		switch p.kind {
		case rpLit:
			out = cs.append(out, p.lit)
		case rpGroup:
			if 2*p.n+1 < len(caps) && caps[2*p.n] >= 0 {
				out = cs.appendBytes(out, ps[caps[2*p.n]:caps[2*p.n+1]])
			}
		case rpCase:
			cs.set(p.n)
		}
	}
	r.out = out
	r.last = caps[1]
	r.done = true
	return r.s.global
}

// subst runs an s command.
func (m *machine) subst(s *subst) error {
	re, err := m.regex(s.re)
	if err != nil {
		return err
	}
	if s.maxRef > re.NumSubexp() {
		return &fatalError{fmt.Sprintf("-e expression #1, char 0: invalid reference \\%d on `s' command's RHS", s.maxRef), 1}
	}
	ncap := 2 * (re.NumSubexp() + 1)
	if s.maxRef == 0 && !hasGroupZero(s.repl) {
		ncap = 2
	}
	r := &m.sub
	if !s.global && s.nth <= 1 {
		n := 2 * (re.NumSubexp() + 1)
		if cap(m.caps) < n {
			m.caps = make([]int, n)
		}
		caps := m.caps[:n]
		ok, err := re.FindSubmatch(m.ps, caps)
		if err != nil {
			return &fatalError{err.Error(), exitPanic}
		}
		if !ok {
			return nil // most lines: nothing to set up
		}
		*r = substRun{s: s, ps: m.ps, out: m.scratch[:0]}
		r.match(caps)
	} else {
		*r = substRun{s: s, ps: m.ps, out: m.scratch[:0]}
		if err := re.ForEachSubmatch(m.ps, ncap, r.match); err != nil {
			return &fatalError{err.Error(), exitPanic}
		}
	}
	if !r.done {
		return nil
	}
	out := append(r.out, m.ps[r.last:]...)
	r.ps, r.out = nil, nil
	m.scratch = m.ps
	m.ps = out
	m.tflag = true
	if s.print > 0 {
		m.out.line(m.ps, m.nl)
	}
	if s.out != nil {
		s.out.line(m.ps, m.nl)
	}
	return nil
}

func hasGroupZero(parts []replPart) bool {
	for _, p := range parts {
		if p.kind == rpGroup {
			return true
		}
	}
	return false
}

// caseState tracks \U \L \u \l \E while building a replacement.
type caseState struct {
	mode int // caseNone, caseUpper, caseLower
	one  int // caseNone, caseUpperOne, caseLowerOne
}

func (c *caseState) set(op int) {
	switch op {
	case caseUpper, caseLower:
		c.mode = op
		c.one = caseNone
	case caseUpperOne, caseLowerOne:
		c.one = op
	case caseEnd:
		c.mode, c.one = caseNone, caseNone
	}
}

func (c *caseState) append(out []byte, s string) []byte {
	if c.mode == caseNone && c.one == caseNone {
		return append(out, s...)
	}
	for _, r := range s {
		out = c.appendRune(out, r)
	}
	return out
}

func (c *caseState) appendBytes(out []byte, b []byte) []byte {
	if c.mode == caseNone && c.one == caseNone {
		return append(out, b...)
	}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			out = append(out, b[i])
			i++
			continue
		}
		out = c.appendRune(out, r)
		i += n
	}
	return out
}

func (c *caseState) appendRune(out []byte, r rune) []byte {
	switch {
	case c.one == caseUpperOne:
		r = unicode.ToUpper(r)
		c.one = caseNone
	case c.one == caseLowerOne:
		r = unicode.ToLower(r)
		c.one = caseNone
	case c.mode == caseUpper:
		r = unicode.ToUpper(r)
	case c.mode == caseLower:
		r = unicode.ToLower(r)
	}
	return utf8.AppendRune(out, r)
}

// lineReader reads an R command's file one line per use.
type lineReader struct {
	name string
	r    *bufio.Reader
	done bool
}

func (l *lineReader) readLine(env *tool.Env) (string, bool) {
	if l.done {
		return "", false
	}
	if l.r == nil {
		var src io.Reader
		if l.name == "/dev/stdin" || l.name == "-" {
			src = env.Stdin
		} else {
			f, err := os.Open(l.name)
			if err != nil {
				l.done = true
				return "", false
			}
			src = f
		}
		l.r = bufio.NewReader(src)
	}
	s, err := l.r.ReadString('\n')
	if err != nil {
		l.done = true
		if s == "" {
			return "", false
		}
	}
	return s, true
}
