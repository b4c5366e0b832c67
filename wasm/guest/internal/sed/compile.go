package sed

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/posixre"
)

// Compile errors, worded as GNU sed words them.
const (
	msgBadBang        = "multiple `!'s"
	msgBadComma       = "unexpected `,'"
	msgBadStep        = "invalid usage of +N or ~N as first address"
	msgExcessOpen     = "unmatched `{'"
	msgExcessClose    = "unexpected `}'"
	msgExcessJunk     = "extra characters after command"
	msgExpectedSlash  = "expected \\ after `a', `c' or `i'"
	msgNoCloseAddr    = "`}' doesn't want any addresses"
	msgNoColonAddr    = ": doesn't want any addresses"
	msgNoCommand      = "missing command"
	msgOneAddr        = "command only uses one address"
	msgUntermRegex    = "unterminated address regex"
	msgUntermS        = "unterminated `s' command"
	msgUntermY        = "unterminated `y' command"
	msgUnknownSOpt    = "unknown option to `s'"
	msgExcessP        = "multiple `p' options to `s' command"
	msgExcessG        = "multiple `g' options to `s' command"
	msgExcessN        = "multiple number options to `s' command"
	msgZeroN          = "number option to `s' command may not be zero"
	msgYLen           = "strings for `y' command are different lengths"
	msgBadDelim       = "delimiter character is not a single-byte character"
	msgLine0          = "invalid usage of line address 0"
	msgColonLabel     = "\":\" lacks a label"
	msgSandbox        = "e/r/w commands disabled in sandbox mode"
	msgMissingFile    = "missing filename in r/R/w/W commands"
	msgNoModifiers    = "cannot specify modifiers on empty regexp"
	msgNoPrevRegex    = "no previous regular expression"
	msgCommentAddr    = "comments don't accept any addresses"
	msgExecNotSupport = "the e command and s///e are not supported in this sandbox"
)

type addrKind uint8

const (
	aLine  addrKind = iota + 1 // n
	aLast                      // $
	aRegex                     // /re/
	aStep                      // first~step
	aZero                      // 0 (only as 0,/re/)
	aPlus                      // +N (second address)
	aMult                      // ~N (second address)
)

type address struct {
	kind  addrKind
	n, n2 int
	re    *Regex // nil with aRegex: the last regex used
}

type rangeState uint8

const (
	rangeInactive rangeState = iota
	rangeActive
	rangeClosed
)

// command is one compiled sed command.
type command struct {
	a1, a2 *address
	neg    bool
	name   byte
	state  rangeState
	end    int // line number ending an active numeric range

	text   string // a i c: text with its final newline
	label  string // b t T :
	jump   int    // b t T: index to go to; '{': index of its '}'
	num    int    // q Q exit status, l line length (-1: default)
	hasNum bool
	fname  string // r R w W
	out    *output
	rfile  *lineReader // R
	s      *subst
	y      *ytable
}

// subst is a compiled s command.
type subst struct {
	re     *Regex // nil: the last regex used
	repl   []replPart
	global bool
	print  int // number of p flags (GNU allows p twice only with e)
	nth    int
	out    *output
	maxRef int
	plain  bool // repl has no case conversion
}

type replKind uint8

const (
	rpLit replKind = iota
	rpGroup
	rpCase
)

// Case conversions in a replacement.
const (
	caseNone = iota
	caseUpper
	caseLower
	caseUpperOne
	caseLowerOne
	caseEnd
)

type replPart struct {
	kind replKind
	lit  string
	n    int // group number or case op
}

type ytable struct {
	ascii    [256]byte // for single-byte mappings
	multi    map[rune]string
	byteOnly bool
}

// compileError is a script error with its location.
type compileError struct{ msg string }

func (e *compileError) Error() string { return e.msg }

// chunk is one -e expression or -f file in the script text.
type chunk struct {
	start, end int // offsets in parser.src
	file       string
	expr       int
}

type parser struct {
	src     string
	i       int
	chunks  []chunk
	ere     bool
	sandbox bool
	cmds    []*command
	blocks  []int
	outputs map[string]*output
	quiet   bool // #n on the first line
}

func (p *parser) fail(msg string) error {
	// Locate p.i in its chunk, as GNU reports it.
	for _, c := range p.chunks {
		if p.i <= c.end || c.end == p.chunks[len(p.chunks)-1].end {
			pos := p.i - c.start
			if pos > c.end-c.start {
				pos = c.end - c.start
			}
			if pos < 0 {
				pos = 0
			}
			if c.file != "" {
				line := 1 + strings.Count(p.src[c.start:c.start+pos], "\n")
				if pos > 0 && p.src[c.start+pos-1] == '\n' {
					line--
				}
				return &compileError{fmt.Sprintf("file %s line %d: %s", c.file, line, msg)}
			}
			return &compileError{fmt.Sprintf("-e expression #%d, char %d: %s", c.expr, pos, msg)}
		}
	}
	return &compileError{msg}
}

// failAt0 reports an error found after the whole script was read.
func (p *parser) failEnd(msg string) error {
	c := p.chunks[len(p.chunks)-1]
	if c.file != "" {
		return &compileError{fmt.Sprintf("file %s line %d: %s", c.file, strings.Count(p.src[c.start:c.end], "\n"), msg)}
	}
	return &compileError{fmt.Sprintf("-e expression #%d, char 0: %s", c.expr, msg)}
}

const eof = -1

func (p *parser) peek() int {
	if p.i >= len(p.src) {
		return eof
	}
	return int(p.src[p.i])
}

func (p *parser) next() int {
	if p.i >= len(p.src) {
		return eof
	}
	c := p.src[p.i]
	p.i++
	return int(c)
}

func isSpace(c int) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' }

func (p *parser) skipSpace() {
	for p.i < len(p.src) && isSpace(int(p.src[p.i])) {
		p.i++
	}
}

func (p *parser) skipSpaceNL() {
	for p.i < len(p.src) && (isSpace(int(p.src[p.i])) || p.src[p.i] == '\n' || p.src[p.i] == ';') {
		p.i++
	}
}

// parse compiles the whole script.
func (p *parser) parse() error {
	if strings.HasPrefix(p.src, "#n") && (len(p.src) == 2 || p.src[2] == '\n') {
		p.quiet = true
	}
	for {
		p.skipSpaceNL()
		if p.i >= len(p.src) {
			break
		}
		if err := p.command(); err != nil {
			return err
		}
	}
	if len(p.blocks) > 0 {
		return p.failEnd(msgExcessOpen)
	}
	labels := map[string]int{}
	for i, c := range p.cmds {
		if c.name == ':' {
			if _, dup := labels[c.label]; dup {
				return &compileError{fmt.Sprintf("-e expression #1, char 0: duplicate label `%s'", c.label)}
			}
			labels[c.label] = i
		}
	}
	for _, c := range p.cmds {
		switch c.name {
		case 'b', 't', 'T':
			if c.label == "" {
				c.jump = len(p.cmds)
				continue
			}
			j, ok := labels[c.label]
			if !ok {
				return &panicError{fmt.Sprintf("can't find label for jump to `%s'", c.label)}
			}
			c.jump = j
		}
	}
	return nil
}

// panicError is a fatal error GNU reports without a location, exit 4.
type panicError struct{ msg string }

func (e *panicError) Error() string { return e.msg }

func (p *parser) command() error {
	c := &command{num: -1}
	if p.peek() == '#' {
		for p.i < len(p.src) && p.src[p.i] != '\n' {
			p.i++
		}
		return nil
	}
	a1, err := p.address(true)
	if err != nil {
		return err
	}
	if a1 != nil {
		c.a1 = a1
		p.skipSpace()
		if p.peek() == ',' {
			p.i++
			p.skipSpace()
			a2, err := p.address(false)
			if err != nil {
				return err
			}
			if a2 == nil {
				if p.peek() != eof {
					p.i++
				}
				return p.fail(msgBadComma)
			}
			if a2.kind == aZero {
				a2.kind = aLine
			}
			c.a2 = a2
		}
		if a1.kind == aZero && (c.a2 == nil || c.a2.kind != aRegex) {
			p.skipSpace()
			if p.peek() != eof {
				p.i++
			}
			return p.fail(msgLine0)
		}
		if a1.kind == aZero {
			c.state = rangeActive
		}
	}
	p.skipSpace()
	if p.peek() == '!' {
		p.i++
		c.neg = true
		p.skipSpace()
		if p.peek() == '!' {
			p.i++
			return p.fail(msgBadBang)
		}
	}
	ch := p.next()
	if ch == eof || ch == '\n' || ch == ';' {
		return p.fail(msgNoCommand)
	}
	c.name = byte(ch)
	oneAddr := func() error {
		if c.a2 != nil {
			return p.fail(msgOneAddr)
		}
		return nil
	}
	switch ch {
	case '#':
		if c.a1 != nil {
			return p.fail(msgCommentAddr)
		}
		for p.i < len(p.src) && p.src[p.i] != '\n' {
			p.i++
		}
		return nil
	case '{':
		p.blocks = append(p.blocks, len(p.cmds))
		p.cmds = append(p.cmds, c)
		return nil
	case '}':
		if len(p.blocks) == 0 {
			return p.fail(msgExcessClose)
		}
		if c.a1 != nil {
			return p.fail(msgNoCloseAddr)
		}
		open := p.blocks[len(p.blocks)-1]
		p.blocks = p.blocks[:len(p.blocks)-1]
		p.cmds[open].jump = len(p.cmds) + 1
		p.cmds = append(p.cmds, c)
		return p.endCmd()
	case ':':
		if c.a1 != nil {
			return p.fail(msgNoColonAddr)
		}
		p.skipSpace()
		c.label = p.label()
		if c.label == "" {
			return p.fail(msgColonLabel)
		}
		p.cmds = append(p.cmds, c)
		if p.peek() == ';' {
			p.i++
		}
		return nil
	case 'a', 'i', 'c':
		text, err := p.text()
		if err != nil {
			return err
		}
		c.text = text
	case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		if err := p.endCmd(); err != nil {
			return err
		}
	case 'l', 'L', 'q', 'Q':
		if ch == 'q' || ch == 'Q' {
			if err := oneAddr(); err != nil {
				return err
			}
		}
		if ch == 'L' {
			return p.fail(fmt.Sprintf("unknown command: `%c'", ch))
		}
		p.skipSpace()
		if d := p.peek(); d >= '0' && d <= '9' {
			n := 0
			for d = p.peek(); d >= '0' && d <= '9'; d = p.peek() {
				n = n*10 + d - '0'
				if n > 1<<30 {
					n = 1 << 30
				}
				p.i++
			}
			c.num, c.hasNum = n, true
		}
		if err := p.endCmd(); err != nil {
			return err
		}
	case 'b', 't', 'T':
		p.skipSpace()
		c.label = p.label()
		if p.peek() == ';' {
			p.i++
		}
	case 'r', 'R', 'w', 'W':
		if p.sandbox {
			return p.fail(msgSandbox)
		}
		p.skipSpace()
		name := p.restOfLine()
		if name == "" {
			return p.fail(msgMissingFile)
		}
		c.fname = name
		if ch == 'w' || ch == 'W' {
			c.out = p.output(name)
		}
		if ch == 'R' {
			c.rfile = &lineReader{name: name}
		}
	case 's':
		if err := p.subst(c); err != nil {
			return err
		}
	case 'y':
		if err := p.ycmd(c); err != nil {
			return err
		}
	case 'e':
		return p.fail(msgExecNotSupport)
	case 'v':
		p.skipSpace()
		p.label()
		if p.peek() == ';' {
			p.i++
		}
		return nil
	default:
		return p.fail(fmt.Sprintf("unknown command: `%s'", string(rune(ch))))
	}
	p.cmds = append(p.cmds, c)
	return nil
}

// output returns the shared output for a w file name.
func (p *parser) output(name string) *output {
	if o, ok := p.outputs[name]; ok {
		return o
	}
	o := &output{name: name}
	p.outputs[name] = o
	return o
}

// endCmd consumes what may follow a command: spaces, then ';', a newline,
// the end, or a '}' or '#' left for the next command.
func (p *parser) endCmd() error {
	p.skipSpace()
	switch p.peek() {
	case eof, '\n', ';':
		if p.peek() != eof {
			p.i++
		}
		return nil
	case '}', '#':
		return nil
	}
	p.i++
	return p.fail(msgExcessJunk)
}

func (p *parser) label() string {
	start := p.i
	for p.i < len(p.src) {
		c := p.src[p.i]
		if c == '\n' || c == ';' || c == '}' || isSpace(int(c)) {
			break
		}
		p.i++
	}
	l := p.src[start:p.i]
	p.skipSpace()
	return l
}

func (p *parser) restOfLine() string {
	start := p.i
	for p.i < len(p.src) && p.src[p.i] != '\n' {
		p.i++
	}
	s := p.src[start:p.i]
	if p.i < len(p.src) {
		p.i++
	}
	return s
}

// text reads the text of a, i or c in the classic or one-line form.
func (p *parser) text() (string, error) {
	p.skipSpace()
	ch := p.next()
	if ch == eof || ch == '\n' {
		return "", p.fail(msgExpectedSlash)
	}
	var b strings.Builder
	if ch == '\\' {
		ch = p.next()
		if ch == eof || ch == '\n' && p.peek() == eof {
			return "", nil
		}
		if ch != '\n' {
			p.i--
		}
	} else {
		p.i--
	}
	for {
		ch = p.next()
		if ch == eof || ch == '\n' {
			break
		}
		if ch == '\\' {
			ch = p.next()
			if ch == eof {
				break
			}
			if r, n, ok := posixre.CharEscape(p.src[p.i-2:]); ok {
				b.WriteRune(r)
				p.i += n - 2
				continue
			}
		}
		b.WriteByte(byte(ch))
	}
	b.WriteByte('\n')
	return b.String(), nil
}

// address parses an address if one starts at p.i.
func (p *parser) address(first bool) (*address, error) {
	c := p.peek()
	switch {
	case c >= '0' && c <= '9':
		n := p.number()
		if p.peek() == '~' && first {
			p.i++
			step := p.number()
			return &address{kind: aStep, n: n, n2: step}, nil
		}
		if n == 0 && first {
			return &address{kind: aZero}, nil
		}
		if n == 0 {
			return &address{kind: aZero}, nil
		}
		return &address{kind: aLine, n: n}, nil
	case c == '$':
		p.i++
		return &address{kind: aLast}, nil
	case c == '+' || c == '~':
		if first {
			p.i += 2
			if p.i > len(p.src) {
				p.i = len(p.src)
			}
			return nil, p.fail(msgBadStep)
		}
		p.i++
		if d := p.peek(); d < '0' || d > '9' {
			return nil, p.fail(msgBadComma)
		}
		n := p.number()
		if c == '+' {
			return &address{kind: aPlus, n: n}, nil
		}
		return &address{kind: aMult, n: n}, nil
	case c == '/' || c == '\\':
		p.i++
		delim := byte('/')
		if c == '\\' {
			d := p.next()
			if d == eof || d == '\n' || d == '\\' {
				return nil, p.fail(msgUntermRegex)
			}
			delim = byte(d)
		}
		pat, ok := p.delimited(delim, true)
		if !ok {
			return nil, p.fail(msgUntermRegex)
		}
		icase, multi := false, false
		for {
			switch p.peek() {
			case 'I':
				icase = true
				p.i++
				continue
			case 'M':
				multi = true
				p.i++
				continue
			}
			break
		}
		a := &address{kind: aRegex}
		if pat == "" {
			if icase || multi {
				return nil, p.fail(msgNoModifiers)
			}
			return a, nil
		}
		re, err := compileRegex(pat, p.ere, icase, multi)
		if err != nil {
			return nil, p.fail(err.Error())
		}
		a.re = re
		return a, nil
	}
	return nil, nil
}

func (p *parser) number() int {
	n := 0
	for d := p.peek(); d >= '0' && d <= '9'; d = p.peek() {
		n = n*10 + d - '0'
		if n > 1<<40 {
			n = 1 << 40
		}
		p.i++
	}
	return n
}

// delimited reads up to an unescaped delim and returns the text between
// with "\delim" turned into delim (for a regex, "\n" stays an escape the
// regex parser decodes). It reports false at a newline or the end.
func (p *parser) delimited(delim byte, regex bool) (string, bool) {
	var b strings.Builder
	for {
		ch := p.next()
		switch {
		case ch == eof:
			return "", false
		case ch == '\n':
			p.i-- // GNU does not count the newline
			return "", false
		case ch == int(delim):
			return b.String(), true
		case ch == '[' && regex:
			if !p.bracketText(&b) {
				return "", false
			}
		case ch == '\\':
			d := p.next()
			switch {
			case d == eof:
				return "", false
			case d == int(delim):
				if delim == '&' && !regex {
					b.WriteString(`\&`)
				} else if delim == 'n' && regex {
					b.WriteString(`\n`)
				} else {
					b.WriteByte(delim)
				}
			case d == '\n' && regex:
				b.WriteString(`\n`)
			default:
				b.WriteByte('\\')
				b.WriteByte(byte(d))
			}
		default:
			b.WriteByte(byte(ch))
		}
	}
}

func (p *parser) subst(c *command) error {
	d := p.next()
	if d == eof || d == '\n' || d == '\\' {
		return p.fail(msgUntermS)
	}
	if d >= utf8.RuneSelf {
		return p.fail(msgBadDelim)
	}
	delim := byte(d)
	pat, ok := p.delimited(delim, true)
	if !ok {
		return p.fail(msgUntermS)
	}
	rep, ok := p.delimited(delim, false)
	if !ok {
		return p.fail(msgUntermS)
	}
	s := &subst{}
	c.s = s
	icase, multi := false, false
flags:
	for {
		ch := p.next()
		switch {
		case ch == 'g':
			if s.global {
				return p.fail(msgExcessG)
			}
			s.global = true
		case ch == 'p':
			if s.print > 0 {
				return p.fail(msgExcessP)
			}
			s.print++
		case ch == 'i' || ch == 'I':
			icase = true
		case ch == 'm' || ch == 'M':
			multi = true
		case ch == 'e':
			return p.fail(msgExecNotSupport)
		case ch >= '0' && ch <= '9':
			if s.nth != 0 {
				return p.fail(msgExcessN)
			}
			p.i--
			n := p.number()
			if n == 0 {
				return p.fail(msgZeroN)
			}
			s.nth = n
		case ch == 'w':
			if p.sandbox {
				return p.fail(msgSandbox)
			}
			p.skipSpace()
			name := p.restOfLine()
			if name == "" {
				return p.fail(msgMissingFile)
			}
			s.out = p.output(name)
			break flags
		case ch == eof || ch == '\n' || ch == ';':
			break flags
		case ch == '}' || ch == '#':
			p.i--
			break flags
		case isSpace(ch):
			if err := p.endCmd(); err != nil {
				return err
			}
			break flags
		default:
			return p.fail(msgUnknownSOpt)
		}
	}
	if pat != "" {
		re, err := compileRegex(pat, p.ere, icase, multi)
		if err != nil {
			return p.fail(err.Error())
		}
		s.re = re
	} else if icase || multi {
		return p.fail(msgNoModifiers)
	}
	parts, maxRef := parseReplacement(rep)
	s.repl, s.maxRef = parts, maxRef
	s.plain = true
	for _, part := range parts {
		if part.kind == rpCase {
			s.plain = false
		}
	}
	if s.re != nil && maxRef > s.re.NumSubexp() {
		return p.fail(fmt.Sprintf("invalid reference \\%d on `s' command's RHS", maxRef))
	}
	return nil
}

// parseReplacement splits an s command's replacement into literal text,
// group references and case conversions.
func parseReplacement(rep string) ([]replPart, int) {
	var parts []replPart
	var lit strings.Builder
	maxRef := 0
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, replPart{kind: rpLit, lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(rep); i++ {
		c := rep[i]
		if c == '&' {
			flush()
			parts = append(parts, replPart{kind: rpGroup, n: 0})
			continue
		}
		if c != '\\' || i+1 >= len(rep) {
			lit.WriteByte(c)
			continue
		}
		i++
		d := rep[i]
		switch {
		case d >= '0' && d <= '9':
			flush()
			n := int(d - '0')
			if n > maxRef {
				maxRef = n
			}
			parts = append(parts, replPart{kind: rpGroup, n: n})
		case d == 'L' || d == 'U' || d == 'l' || d == 'u' || d == 'E':
			flush()
			op := map[byte]int{'U': caseUpper, 'L': caseLower, 'u': caseUpperOne, 'l': caseLowerOne, 'E': caseEnd}[d]
			parts = append(parts, replPart{kind: rpCase, n: op})
		case d == '\n':
			lit.WriteByte('\n')
		default:
			if r, n, ok := posixre.CharEscape(rep[i-1:]); ok {
				lit.WriteRune(r)
				i += n - 2
				continue
			}
			lit.WriteByte(d)
		}
	}
	flush()
	return parts, maxRef
}

func (p *parser) ycmd(c *command) error {
	d := p.next()
	if d == eof || d == '\n' || d == '\\' {
		return p.fail(msgUntermY)
	}
	delim := byte(d)
	src, ok := p.delimited(delim, false)
	if !ok {
		return p.fail(msgUntermY)
	}
	dst, ok := p.delimited(delim, false)
	if !ok {
		return p.fail(msgUntermY)
	}
	from, to := yDecode(src), yDecode(dst)
	if len(from) != len(to) {
		return p.fail(msgYLen)
	}
	t := &ytable{byteOnly: true}
	for i := range t.ascii {
		t.ascii[i] = byte(i)
	}
	for i, r := range from {
		if r >= utf8.RuneSelf || to[i] >= utf8.RuneSelf {
			t.byteOnly = false
		}
	}
	if t.byteOnly {
		for i, r := range from {
			t.ascii[r] = byte(to[i])
		}
	} else {
		t.multi = map[rune]string{}
		for i, r := range from {
			if _, seen := t.multi[r]; !seen {
				t.multi[r] = string(to[i])
			}
		}
	}
	c.y = t
	return p.endCmd()
}

// yDecode decodes the escapes of a y command's string into runes.
func yDecode(s string) []rune {
	var out []rune
	for i := 0; i < len(s); {
		if s[i] == '\\' && i+1 < len(s) {
			if s[i+1] == '\\' {
				out = append(out, '\\')
				i += 2
				continue
			}
			if r, n, ok := posixre.CharEscape(s[i:]); ok {
				out = append(out, r)
				i += n
				continue
			}
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		out = append(out, r)
		i += n
	}
	return out
}

// bracketText copies a bracket expression (after its '[') into b: inside
// one, neither the delimiter nor a backslash is special.
func (p *parser) bracketText(b *strings.Builder) bool {
	b.WriteByte('[')
	start := p.i
	if p.peek() == '^' {
		p.i++
	}
	if p.peek() == ']' {
		p.i++
	}
	for {
		c := p.peek()
		switch {
		case c == eof || c == '\n':
			return false
		case c == ']':
			p.i++
			b.WriteString(p.src[start:p.i])
			return true
		case c == '[' && p.i+1 < len(p.src) && strings.IndexByte(":=.", p.src[p.i+1]) >= 0:
			end := strings.Index(p.src[p.i+2:], string(p.src[p.i+1])+"]")
			if end < 0 || strings.IndexByte(p.src[p.i+2:p.i+2+end], '\n') >= 0 {
				p.i++
				continue
			}
			p.i += 2 + end + 2
		default:
			p.i++
		}
	}
}
