package shell

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A word expands into fields. While it expands, each byte carries two
// flags: quoted (never split, never a glob metacharacter) and split
// (the byte came from an unquoted expansion, so IFS splits on it).
type xbuf struct {
	b     []byte
	quote []bool
	split []bool
	marks []xmark
}

// xmark is a position in an xbuf where something happens that bytes
// cannot say: a field break between "$@" elements, or a quoted empty
// string that makes a field exist.
type xmark struct {
	pos  int
	kind uint8
}

const (
	markBreak     uint8 = iota + 1 // end the field here ("$@" elements)
	markEmpty                      // a field exists here even if empty ("")
	markStarBreak                  // a break between unquoted $* elements
)

func (x *xbuf) add(s string, quoted, split bool) {
	x.b = append(x.b, s...)
	for i := 0; i < len(s); i++ {
		x.quote = append(x.quote, quoted)
		x.split = append(x.split, split)
	}
}

func (x *xbuf) mark(kind uint8) { x.marks = append(x.marks, xmark{len(x.b), kind}) }

// appendBuf appends y, with its quoting and marks, to x.
func (x *xbuf) appendBuf(y *xbuf) {
	off := len(x.b)
	x.b = append(x.b, y.b...)
	x.quote = append(x.quote, y.quote...)
	x.split = append(x.split, y.split...)
	for _, m := range y.marks {
		x.marks = append(x.marks, xmark{off + m.pos, m.kind})
	}
}

// joinBreaks turns the field breaks between "$@" elements into quoted
// spaces, for the places that make one string and split no fields
// (assignments, here-strings, patterns, case words): bash joins "$@"
// with a space there, whatever IFS holds, and $* with the first
// character of IFS.
func (x *xbuf) joinBreaks(r *Interp) {
	n := 0
	star := ""
	for _, m := range x.marks {
		if m.kind == markBreak || m.kind == markStarBreak {
			n++
		}
		if m.kind == markStarBreak && star == "" {
			star = r.ifsJoiner()
		}
	}
	if n == 0 {
		return
	}
	b := make([]byte, 0, len(x.b)+n)
	quote := make([]bool, 0, len(x.b)+n)
	split := make([]bool, 0, len(x.b)+n)
	pos := 0
	for _, m := range x.marks {
		if m.kind != markBreak && m.kind != markStarBreak {
			continue
		}
		b, quote, split = append(b, x.b[pos:m.pos]...), append(quote, x.quote[pos:m.pos]...), append(split, x.split[pos:m.pos]...)
		// the IFS character joining $* is unquoted: a pattern char in
		// a pattern (${x#$*} with IFS=?)
		sep, q := " ", true
		if m.kind == markStarBreak {
			sep, q = star, false
		}
		for i := 0; i < len(sep); i++ {
			b, quote, split = append(b, sep[i]), append(quote, q), append(split, false)
		}
		pos = m.pos
	}
	x.b = append(b, x.b[pos:]...)
	x.quote = append(quote, x.quote[pos:]...)
	x.split = append(split, x.split[pos:]...)
	x.marks = nil
}

// field is one expanded field with the quoted flag of each byte.
type field struct {
	b     []byte
	quote []bool
}

// expandWords expands words as command arguments: brace expansion, then
// every expansion, word splitting and pathname expansion.
func (r *Interp) expandWords(words []*syntax.Word) []string {
	var out []string
	for _, w := range words {
		if s, ok := plainLit(w); ok {
			out = append(out, s)
			continue
		}
		for _, bw := range r.braceExpand(w) {
			for _, f := range r.fields(bw, true) {
				out = r.globField(out, f)
				if r.exiting {
					return out
				}
			}
		}
		if len(out) > r.sh.cfg.Limits.MaxWords {
			r.fail(1, "expansion would produce more than %d words", r.sh.cfg.Limits.MaxWords)
		}
	}
	return out
}

// assignLike reports whether w starts as an assignment does: a name and
// an = in a literal.
func assignLike(w *syntax.Word) bool {
	if len(w.Parts) == 0 {
		return false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return false
	}
	name, _, ok := strings.Cut(l.Value, "=")
	return ok && validName(strings.TrimSuffix(name, "+"))
}

// plainLit returns the value of a word that is one literal with nothing
// to expand: the common case, kept fast.
func plainLit(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok || strings.ContainsAny(l.Value, "\\*?[{~]") {
		return "", false
	}
	return l.Value, true
}

// fields expands one word (after brace expansion) into fields, split on
// IFS when split is true.
func (r *Interp) fields(w *syntax.Word, split bool) []field {
	var x xbuf
	// Outside posix mode bash expands tildes after = and : in every word
	// that looks like an assignment (echo PATH=~/bin:~/x).
	r.expandPartsMode(&x, w.Parts, false, true, !r.opts.posix && assignLike(w))
	if !split {
		x.joinBreaks(r)
		return []field{{b: x.b, quote: x.quote}}
	}
	return r.splitFields(&x)
}

// splitFields splits an expanded word on IFS, bash's way: IFS whitespace
// runs separate fields and are trimmed at the ends; each other IFS
// character ends a field, so two in a row make an empty one.
func (r *Interp) splitFields(x *xbuf) []field {
	ifs, ok := r.getScalar("IFS")
	if !ok {
		ifs = " \t\n"
	}
	var out []field
	var cur field
	has := false     // cur exists (content or a quoted empty string)
	wsEnded := false // whitespace just ended a field
	mi := 0
	emit := func() {
		out = append(out, cur)
		cur = field{}
		has = false
	}
	for i := 0; i <= len(x.b); i++ {
		for mi < len(x.marks) && x.marks[mi].pos == i {
			switch x.marks[mi].kind {
			case markBreak, markStarBreak:
				// Unquoted elements split as if joined with the first
				// IFS character: an empty one is a field only when that
				// character is not whitespace.
				if has {
					emit()
				} else if ifs != "" && strings.IndexByte(" \t\n", ifs[0]) < 0 {
					out = append(out, field{})
				}
				wsEnded = false
			case markEmpty:
				has = true
			}
			mi++
		}
		if i == len(x.b) {
			break
		}
		c := x.b[i]
		if x.split[i] && !x.quote[i] && ifs != "" && strings.IndexByte(ifs, c) >= 0 {
			if c == ' ' || c == '\t' || c == '\n' {
				if has {
					emit()
					wsEnded = true
				}
				continue
			}
			if has {
				emit()
			} else if !wsEnded {
				out = append(out, field{})
			}
			wsEnded = false
			continue
		}
		cur.b = append(cur.b, c)
		cur.quote = append(cur.quote, x.quote[i])
		has = true
		wsEnded = false
	}
	if has {
		out = append(out, cur)
	}
	return out
}

// globField adds the pathname expansion of f to out.
func (r *Interp) globField(out []string, f field) []string {
	if r.opts.noglob || !hasGlobMeta(f, r.opts.extglob) {
		return append(out, string(f.b))
	}
	pat := escapePattern(f)
	matches, err := globExpand(pat, r.globOptions(), r.globFS())
	if err != nil && ctxDone(r.ctx) {
		panic(&exitError{status: 124, fatal: true})
	}
	if err == nil && len(matches) > 0 {
		return append(out, matches...)
	}
	switch {
	case r.opts.nullglob:
		return out
	case r.opts.failglob:
		r.errorf("no match: %s", string(f.b))
		r.status = 1
		r.exiting = !r.interactiveLike() && false
		panic(errDiscard)
	}
	return append(out, string(f.b))
}

// hasGlobMeta reports whether an unquoted byte of f is a pattern
// character.
func hasGlobMeta(f field, extglob bool) bool {
	for i := 0; i < len(f.b); i++ {
		c := f.b[i]
		if f.quote[i] {
			continue
		}
		switch c {
		case '\\':
			i++ // an unquoted backslash quotes the next byte
		case '*', '?', '[':
			return true
		case '(':
			if i > 0 && !f.quote[i-1] && strings.IndexByte("?*+@!", f.b[i-1]) >= 0 {
				return true
			}
		}
	}
	return false
}

// escapePattern turns a field into a pattern where quoted bytes are
// backslash-escaped (they match themselves). An unquoted backslash, even
// one an expansion produced, quotes the next character, as in bash
// (x='ab\cd*'; echo $x matches abcdefg).
func escapePattern(f field) string {
	var sb strings.Builder
	for i, c := range f.b {
		if f.quote[i] {
			sb.WriteByte('\\')
		}
		sb.WriteByte(c)
	}
	return sb.String()
}

// expandString expands a word without splitting or globbing: for
// assignments, case words, [[ ]] operands, here-strings.
func (r *Interp) expandString(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	if s, ok := plainLit(w); ok {
		return s
	}
	var x xbuf
	r.expandParts(&x, w.Parts, false, false)
	x.joinBreaks(r)
	return string(x.b)
}

// expandAssignValue expands the value of an assignment: like
// expandString, with tildes expanded after = and each unquoted ':'.
func (r *Interp) expandAssignValue(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	if s, ok := plainLit(w); ok {
		return s
	}
	var x xbuf
	r.expandPartsMode(&x, w.Parts, false, false, true)
	x.joinBreaks(r)
	return string(x.b)
}

// expandPattern expands a word used as a pattern: quoted parts are
// escaped so they match literally.
func (r *Interp) expandPattern(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	var x xbuf
	r.expandParts(&x, w.Parts, false, true) // with tilde expansion
	x.joinBreaks(r)
	return escapePattern(field{b: x.b, quote: x.quote})
}

// expandHeredoc expands a here-document body: parameters, command
// substitutions and arithmetic, with backslash quoting only $ ` \ and
// newline.
func (r *Interp) expandHeredoc(w *syntax.Word) string {
	var x xbuf
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			x.add(unescapeDquote(l.Value, true), true, false)
			continue
		}
		if pe, ok := p.(*syntax.ParamExp); ok {
			saved := r.paramInHdoc
			r.paramInHdoc = true
			r.expandParam(&x, pe, true)
			r.paramInHdoc = saved
			continue
		}
		r.expandParts(&x, []syntax.WordPart{p}, true, false)
	}
	x.joinBreaks(r)
	return string(x.b)
}

// expandParts appends the expansion of parts to x. quoted is true inside
// double quotes; first is true for the start of a word (tilde
// expansion).
func (r *Interp) expandParts(x *xbuf, parts []syntax.WordPart, quoted, first bool) {
	r.expandPartsMode(x, parts, quoted, first, false)
}

func (r *Interp) expandPartsMode(x *xbuf, parts []syntax.WordPart, quoted, first, assign bool) {
	for i, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if quoted {
				x.add(unescapeDquote(v, false), true, false)
				continue
			}
			if (first && i == 0) || assign {
				// in a word that looks like an assignment (first set),
				// the ~ after its first = expands; in a value, no =
				eqAt := -1
				if first && i == 0 && assign {
					eqAt = strings.IndexByte(v, '=')
				}
				v = r.expandTildes(x, v, i == 0, assign, i+1 < len(parts), eqAt)
			}
			addUnquotedLit(x, v)
		case *syntax.SglQuoted:
			v := p.Value
			if p.Dollar {
				v = ansiC(v)
			}
			x.add(v, true, false)
			if v == "" {
				x.mark(markEmpty)
			}
		case *syntax.DblQuoted:
			if len(p.Parts) == 0 {
				x.mark(markEmpty)
				continue
			}
			// "$@" with no parameters makes no field at all, nor does
			// "$x$@" when the rest expands to nothing.
			if isQuotedAtOnly(p) {
				r.expandParts(x, p.Parts, true, false)
				continue
			}
			if len(r.params) > 0 || !hasBareAt(p) {
				x.mark(markEmpty)
				r.expandParts(x, p.Parts, true, false)
				continue
			}
			pos, mi := len(x.b), len(x.marks)
			r.expandParts(x, p.Parts, true, false)
			if len(x.b) > pos || hasLitText(p) {
				x.marks = slices.Insert(x.marks, mi, xmark{pos, markEmpty})
			} else {
				x.marks = x.marks[:mi] // the empty "$x" in it makes no field either
			}
		case *syntax.ParamExp:
			r.expandParam(x, p, quoted)
		case *syntax.CmdSubst:
			out := r.cmdSubst(p)
			x.add(out, quoted, !quoted)
		case *syntax.ArithmExp:
			v, ok := r.arithNode(p.X, arithStart(p), p.Right.Offset())
			if !ok {
				panic(errDiscard)
			}
			x.add(strconv.FormatInt(v, 10), quoted, !quoted)
		case *syntax.ProcSubst:
			x.add(r.procSubst(p), quoted, false)
		case *syntax.ExtGlob:
			x.add(p.Op.String()+p.Pattern.Value+")", quoted, false)
		case *syntax.BraceExp:
			// Left over when brace expansion did not apply.
			var sb strings.Builder
			syntax.NewPrinter().Print(&sb, &syntax.Word{Parts: []syntax.WordPart{p}})
			x.add(sb.String(), quoted, false)
		default:
			r.fail(2, "unsupported word part %T", p)
		}
	}
}

// arithStart is the offset of the expression inside $(( )) or $[ ].
func arithStart(p *syntax.ArithmExp) uint {
	if p.Bracket {
		return p.Left.Offset() + 2
	}
	return p.Left.Offset() + 3
}

// isQuotedAtOnly reports whether a double-quoted part is exactly "$@" or
// "${a[@]}" (possibly with operators), which may expand to no field.
func isQuotedAtOnly(q *syntax.DblQuoted) bool {
	if len(q.Parts) != 1 {
		return false
	}
	pe, ok := q.Parts[0].(*syntax.ParamExp)
	if !ok || pe.Length || pe.Excl && pe.Names == 0 && pe.Index == nil {
		return false
	}
	if pe.Param != nil && pe.Param.Value == "@" {
		return true
	}
	if pe.Excl && pe.Names == syntax.NamesPrefixWords {
		return true
	}
	if pe.Index != nil {
		if w, ok := pe.Index.(*syntax.Word); ok && w.Lit() == "@" {
			return true
		}
	}
	return false
}

// addUnquotedLit adds a literal written outside quotes: a backslash
// quotes the next byte.
func addUnquotedLit(x *xbuf, v string) {
	if strings.IndexByte(v, '\\') < 0 {
		x.add(v, false, false)
		return
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '\\' && i+1 < len(v) {
			i++
			if v[i] == '\n' {
				continue
			}
			x.add(v[i:i+1], true, false)
			continue
		}
		x.add(v[i:i+1], false, false)
	}
}

// unescapeDquote removes the backslashes that quote $ ` " \ and newline
// inside double quotes (only $ ` \ and newline in a here-document).
func unescapeDquote(v string, heredoc bool) string {
	if strings.IndexByte(v, '\\') < 0 {
		return v
	}
	var sb strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '\\' && i+1 < len(v) {
			n := v[i+1]
			switch {
			case n == '\n':
				i++
				continue
			case n == '$' || n == '`' || n == '\\' || (n == '"' && !heredoc):
				sb.WriteByte(n)
				i++
				continue
			}
		}
		sb.WriteByte(c)
	}
	return sb.String()
}

// unescapeAll removes backslashes as outside quotes: \c is c, and a
// backslash-newline is nothing.
func unescapeAll(v string) string {
	if strings.IndexByte(v, '\\') < 0 {
		return v
	}
	var sb strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) {
			i++
			if v[i] == '\n' {
				continue
			}
		}
		sb.WriteByte(v[i])
	}
	return sb.String()
}

// tildePrefix expands the tilde prefix that starts s (up to a '/', or a
// ':' in assignments): the directory and the rest of s, joined by a NUL.
// more says that other parts of the word follow s.
func (r *Interp) tildePrefix(s string, assign, more bool) (string, bool) {
	// s starts with ~; it ends at the first '/' (or ':' in assignments).
	end := strings.IndexByte(s, '/')
	if assign {
		if j := strings.IndexByte(s, ':'); j >= 0 && (end < 0 || j < end) {
			end = j
		}
	}
	if end < 0 {
		if more {
			return "", false
		}
		end = len(s)
	}
	user := s[1:end]
	var home string
	switch user {
	case "":
		h, ok := r.getScalar("HOME")
		if !ok {
			home = "/home/user"
		} else {
			home = h
		}
	case "+":
		home, _ = r.getScalar("PWD")
	case "-":
		h, ok := r.getScalar("OLDPWD")
		if !ok {
			return "", false
		}
		home = h
	case "user":
		home = "/home/user"
	case "root":
		home = "/root"
	default:
		d, ok := r.dirStackEntry(user)
		if !ok {
			return "", false
		}
		home = d
	}
	return home + "\x00" + s[end:], true
}

// expandTildes expands a leading ~ (and, in assignments, each ~ after an
// unquoted ':' or the first '='), adding quoted text for what it
// replaced. more says that other parts of the word follow v: a tilde
// prefix that runs on into them (~$USER, ~"x") is not expanded.
func (r *Interp) expandTildes(x *xbuf, v string, atStart, assign, more bool, eqAt int) string {
	expand1 := func(s string) (string, bool) { return r.tildePrefix(s, assign, more) }
	if atStart && strings.HasPrefix(v, "~") {
		if out, ok := expand1(v); ok {
			home, rest, _ := strings.Cut(out, "\x00")
			x.add(home, true, false)
			if !assign {
				return rest
			}
			v = rest
		}
	}
	if !assign || !strings.Contains(v, "~") {
		return v
	}
	// In an assignment value: after each ':' (and the word's first '=').
	var sb strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '~' && i > 0 && (v[i-1] == ':' || i-1 == eqAt) {
			if out, ok := expand1(v[i:]); ok {
				eqAt = -1
				home, rest, _ := strings.Cut(out, "\x00")
				addUnquotedLit(x, sb.String())
				sb.Reset()
				x.add(home, true, false)
				v = rest
				i = -1
				continue
			}
		}
		sb.WriteByte(v[i])
	}
	return sb.String()
}

// ansiC decodes the escapes of a $'...' string.
func ansiC(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	// bash's strings end at a NUL.
	out := ansiCFull(s)
	if i := strings.IndexByte(out, 0); i >= 0 {
		out = out[:i]
	}
	return out
}

func ansiCFull(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'a':
			sb.WriteByte(7)
		case 'b':
			sb.WriteByte(8)
		case 'e', 'E':
			sb.WriteByte(27)
		case 'f':
			sb.WriteByte(12)
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'v':
			sb.WriteByte(11)
		case '\\', '\'', '"', '?':
			sb.WriteByte(e)
		case 'c':
			if i+1 < len(s) {
				i++
				if s[i] == '?' {
					sb.WriteByte(0x7f)
				} else {
					sb.WriteByte(s[i] & 0x1f)
				}
				if s[i] == '\\' && i+1 < len(s) && s[i+1] == '\\' {
					i++ // \c\\ is control-backslash
				}
			} else {
				sb.WriteString("\\c")
			}
		case 'x', 'u', 'U':
			if e == 'x' && i+1 < len(s) && s[i+1] == '{' {
				// \x{HHH}: every hex digit, the low byte of the value,
				// and a } after them goes too
				v, j := 0, i+2
				for ; j < len(s) && isHex(s[j]); j++ {
					v = (v*16 + hexDigit(s[j])) & 0xff
				}
				sb.WriteByte(byte(v))
				if j < len(s) && s[j] == '}' {
					j++
				}
				i = j - 1
				continue
			}
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			j := i + 1
			for j < len(s) && j-i-1 < max && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				sb.WriteByte('\\')
				sb.WriteByte(e)
				continue
			}
			v, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			if e == 'x' {
				sb.WriteByte(byte(v))
			} else {
				sb.WriteRune(rune(v))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 32)
			sb.WriteByte(byte(v))
			i = j - 1
		default:
			sb.WriteByte('\\')
			sb.WriteByte(e)
		}
	}
	return sb.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// braceExpand performs brace expansion on w, giving one or more words.
func (r *Interp) braceExpand(w *syntax.Word) []*syntax.Word {
	hasBrace := false
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.Contains(l.Value, "{") {
			hasBrace = true
			break
		}
	}
	if !hasBrace || r.opts.noBrace {
		return []*syntax.Word{w}
	}
	cp := &syntax.Word{Parts: make([]syntax.WordPart, len(w.Parts))}
	for i, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			c := *l
			p = &c
		}
		cp.Parts[i] = p
	}
	if !syntax.SplitBraces(cp) {
		return []*syntax.Word{w}
	}
	if n := braceCount(cp); n > float64(r.sh.cfg.Limits.MaxWords) {
		r.fail(1, "brace expansion would produce %s words (limit %d)", approxCount(n), r.sh.cfg.Limits.MaxWords)
	}
	var out []*syntax.Word
	r.braceWords(cp, &out)
	return out
}

func (r *Interp) braceWords(w *syntax.Word, out *[]*syntax.Word) {
	for i, p := range w.Parts {
		be, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		var items []*syntax.Word
		if be.Sequence {
			items = braceSequence(be)
			if items == nil {
				// Not a valid sequence: the text stays.
				var sb strings.Builder
				syntax.NewPrinter().Print(&sb, &syntax.Word{Parts: []syntax.WordPart{be}})
				items = []*syntax.Word{{Parts: []syntax.WordPart{&syntax.Lit{Value: sb.String()}}}}
			}
		} else {
			items = be.Elems
		}
		for _, it := range items {
			parts := make([]syntax.WordPart, 0, len(w.Parts)+len(it.Parts))
			parts = append(parts, w.Parts[:i]...)
			parts = append(parts, it.Parts...)
			parts = append(parts, w.Parts[i+1:]...)
			// Brace expansion comes before parameter expansion in bash:
			// $var{x,y} is $varx $vary, and the name runs on through the
			// literals after it.
			for i > 0 && i < len(parts) && len(it.Parts) > 0 {
				pe, lit, ok := joinParamName(parts[i-1], parts[i])
				if !ok {
					break
				}
				parts[i-1] = pe
				if lit != nil {
					parts[i] = lit
					break
				}
				parts = append(parts[:i], parts[i+1:]...)
			}
			r.braceWords(&syntax.Word{Parts: parts}, out)
			if len(*out) > r.sh.cfg.Limits.MaxWords {
				r.fail(1, "brace expansion would produce more than %d words", r.sh.cfg.Limits.MaxWords)
			}
		}
		return
	}
	*out = append(*out, w)
}

// joinParamName joins a $name written without braces and the literal that
// brace expansion put right after it: the name runs on into the literal's
// leading name characters. lit is what is left of the literal, or nil.
func joinParamName(prev, next syntax.WordPart) (*syntax.ParamExp, *syntax.Lit, bool) {
	pe, ok := prev.(*syntax.ParamExp)
	l, ok2 := next.(*syntax.Lit)
	if !ok || !ok2 || !pe.Short || pe.Param == nil || !validName(pe.Param.Value) || pe.Index != nil {
		return nil, nil, false
	}
	n := 0
	for n < len(l.Value) {
		c := l.Value[n]
		if c != '_' && !('a' <= c && c <= 'z') && !('A' <= c && c <= 'Z') && !('0' <= c && c <= '9') {
			break
		}
		n++
	}
	if n == 0 {
		return nil, nil, false
	}
	cp := *pe
	param := *pe.Param
	param.Value += l.Value[:n]
	cp.Param = &param
	if n == len(l.Value) {
		return &cp, nil, true
	}
	rest := *l
	rest.Value = l.Value[n:]
	return &cp, &rest, true
}

// braceSequence generates {x..y[..incr]}.
func braceSequence(be *syntax.BraceExp) []*syntax.Word {
	if len(be.Elems) < 2 {
		return nil
	}
	from, to := be.Elems[0].Lit(), be.Elems[1].Lit()
	step := int64(1)
	if len(be.Elems) > 2 {
		s, err := strconv.ParseInt(be.Elems[2].Lit(), 10, 64)
		if err != nil {
			return nil
		}
		step = s
	}
	if step < 0 {
		step = -step
	}
	if step == 0 {
		step = 1
	}
	lit := func(s string) *syntax.Word { return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s}}} }
	var out []*syntax.Word
	x, err1 := strconv.ParseInt(from, 10, 64)
	y, err2 := strconv.ParseInt(to, 10, 64)
	if err1 == nil && err2 == nil {
		width := 0
		pad := func(s string) bool {
			s = strings.TrimPrefix(s, "-")
			return len(s) > 1 && s[0] == '0'
		}
		if pad(from) || pad(to) {
			width = max(len(from), len(to))
		}
		// the distance as unsigned: near the ends of int64, y-x and
		// v+step would overflow and the loop never end
		dist := uint64(y) - uint64(x)
		if x > y {
			dist = uint64(x) - uint64(y)
		}
		n := dist / uint64(step)
		if n > DefaultMaxWords {
			return []*syntax.Word{lit("")}
		}
		v := x
		for i := uint64(0); i <= n; i++ {
			s := strconv.FormatInt(v, 10)
			if width > 0 {
				neg := v < 0
				d := strings.TrimPrefix(s, "-")
				w := width
				if neg {
					w--
				}
				for len(d) < w {
					d = "0" + d
				}
				if neg {
					d = "-" + d
				}
				s = d
			}
			out = append(out, lit(s))
			if x <= y {
				v += step
			} else {
				v -= step
			}
		}
		return out
	}
	if len(from) == 1 && len(to) == 1 && isLetter(from[0]) && isLetter(to[0]) {
		a, b := int64(from[0]), int64(to[0])
		for v := a; (a <= b && v <= b) || (a > b && v >= b); {
			if v == '\\' {
				// bash's quote removal leaves an empty word
				out = append(out, &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{}}})
			} else {
				out = append(out, lit(string(rune(v))))
			}
			if a <= b {
				v += step
			} else {
				v -= step
			}
		}
		return out
	}
	return nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// braceCount is how many words brace expansion of w makes, counted
// before making them.
func braceCount(w *syntax.Word) float64 {
	total := 1.0
	for _, p := range w.Parts {
		b, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		n := 1.0
		if b.Sequence {
			if items := braceSequenceSize(b); items >= 0 {
				n = items
			}
		} else {
			n = 0
			for _, e := range b.Elems {
				n += braceCount(e)
			}
		}
		total *= n
		if total > 1e15 {
			return total
		}
	}
	return total
}

// braceSequenceSize counts {x..y..s} without generating it; -1 if it is
// not a valid sequence.
func braceSequenceSize(b *syntax.BraceExp) float64 {
	if len(b.Elems) < 2 {
		return -1
	}
	from, to := b.Elems[0].Lit(), b.Elems[1].Lit()
	step := 1.0
	if len(b.Elems) > 2 {
		s, err := strconv.ParseFloat(b.Elems[2].Lit(), 64)
		if err != nil {
			return -1
		}
		if s != 0 {
			step = max(s, -s)
		}
	}
	x, err1 := strconv.ParseFloat(from, 64)
	y, err2 := strconv.ParseFloat(to, 64)
	if err1 != nil || err2 != nil {
		if len(from) == 1 && len(to) == 1 {
			x, y = float64(from[0]), float64(to[0])
		} else {
			return -1
		}
	}
	return float64(int64(max(x-y, y-x)/step)) + 1
}

func approxCount(n float64) string {
	if n >= 1e15 {
		return "more than 10^15"
	}
	return strconv.FormatFloat(n, 'f', 0, 64)
}

// hexDigit is the value of the hex digit c.
func hexDigit(c byte) int {
	switch {
	case c >= 'a':
		return int(c-'a') + 10
	case c >= 'A':
		return int(c-'A') + 10
	}
	return int(c - '0')
}

// hasBareAt reports whether q holds a plain $@ or ${@} among its parts.
func hasBareAt(q *syntax.DblQuoted) bool {
	for _, p := range q.Parts {
		if pe, ok := p.(*syntax.ParamExp); ok && pe.Param != nil && pe.Param.Value == "@" &&
			!pe.Length && !pe.Excl && pe.Exp == nil && pe.Repl == nil && pe.Slice == nil && pe.Index == nil && pe.Names == 0 {
			return true
		}
	}
	return false
}

// hasLitText reports whether q holds literal text.
func hasLitText(q *syntax.DblQuoted) bool {
	for _, p := range q.Parts {
		if l, ok := p.(*syntax.Lit); ok && l.Value != "" {
			return true
		}
	}
	return false
}
