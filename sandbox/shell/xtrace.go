package shell

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// set -x: the trace lines, where they go ($BASH_XTRACEFD) and how bash
// quotes the words in them.

// xtracePrefix is $PS4 expanded, its first character repeated for
// nesting as bash does (indirection_level_string).
func (r *Interp) xtracePrefix() string {
	ps4, ok := r.getScalar("PS4")
	if !ok {
		return ""
	}
	if ps4 != "" {
		saved := r.opts.xtrace
		r.opts.xtrace = false
		if f, err := syntax.NewParser().Document(strings.NewReader(ps4)); err == nil {
			ps4 = r.expandString(f)
		}
		r.opts.xtrace = saved
		ps4 = r.promptExpand(ps4)
	}
	if ps4 == "" {
		return ""
	}
	// The first character repeats once per level of $(..), eval,
	// source and trap.
	first := ps4[:1]
	if c, n := utf8.DecodeRuneInString(ps4); c != utf8.RuneError && n > 1 {
		first = ps4[:n]
	}
	return strings.Repeat(first, r.xtraceLevel) + ps4
}

// xtrace writes one line of set -x output: $PS4, then line.
func (r *Interp) xtrace(line string) {
	r.xtraceWrite(r.xtracePrefix() + line + "\n")
}

// xtraceWrite writes trace output to the fd $BASH_XTRACEFD names, or
// to stderr.
func (r *Interp) xtraceWrite(s string) {
	fd := 2
	if v, ok := r.getScalar("BASH_XTRACEFD"); ok && v != "" {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 && r.fds.get(n) != nil {
			fd = n
		}
	}
	if d := r.fds.get(fd); d != nil {
		d.write(r.ctxOrBackground(), []byte(s))
	}
}

// setXtraceFd checks a value assigned to BASH_XTRACEFD as bash's
// sv_xtracefd does.
func (r *Interp) setXtraceFd(value string) {
	if value == "" {
		return
	}
	if n, err := strconv.Atoi(value); err != nil || n < 0 || r.fds.get(n) == nil {
		r.errorf("BASH_XTRACEFD: %s: invalid value for trace file descriptor", value)
	}
}

// unsetXtraceFd is unset BASH_XTRACEFD: bash closes the trace fd and
// traces to stderr again.
func (r *Interp) unsetXtraceFd() {
	v, ok := r.getScalar("BASH_XTRACEFD")
	if !ok || v == "" {
		return
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 && r.fds.get(n) != nil {
		r.fds.close(n)
	}
}

// nestedEval runs f one xtrace level deeper, as bash's parse_and_execute
// does for eval, source, traps and mapfile's callback.
func (r *Interp) nestedEval(f func()) {
	r.xtraceLevel++
	defer func() { r.xtraceLevel-- }()
	f()
}

func (r *Interp) xtraceCall(assigns []*syntax.Assign, args []string) {
	var parts []string
	for _, a := range args {
		parts = append(parts, xtraceQuote(a))
	}
	r.xtrace(strings.Join(parts, " "))
}

// xtraceAssign traces one assignment as bash's xtrace_print_assignment:
// lhs is the name as written (with its subscript and + for +=).
func (r *Interp) xtraceAssign(lhs, value string) {
	if !r.opts.xtrace {
		return
	}
	if value != "" {
		value = xtraceQuoteWord(value)
	}
	r.xtrace(lhs + "=" + value)
}

// assignLHS is the left side of an assignment as bash traces it.
func (r *Interp) assignLHS(as *syntax.Assign) string {
	lhs := as.Name.Value
	if as.Index != nil {
		lhs += "[" + r.curText(as.Index) + "]"
	}
	if as.Append {
		lhs += "+"
	}
	return lhs
}

// xtraceQuote quotes a word for xtrace output as bash does.
func xtraceQuote(s string) string {
	if s == "" {
		return "''"
	}
	return xtraceQuoteWord(s)
}

// xtraceQuoteWord is bash's choice for a traced word: single quotes if it
// has shell metacharacters, $'..' if it has characters that do not
// print, else the word itself.
func xtraceQuoteWord(s string) string {
	if shellMetas(s) {
		if s == "'" {
			return `\'`
		}
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	if ansicShouldQuote(s) {
		return ansiCQuote(s)
	}
	return s
}

// shellMetas is bash's sh_contains_shell_metas.
func shellMetas(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\'', '"', '\\', '|', '&', ';', '(', ')', '<', '>', '!', '{', '}', '*', '[', '?', ']', '^', '$', '`':
			return true
		case '~':
			if i == 0 || s[i-1] == '=' || s[i-1] == ':' {
				return true
			}
		case '#':
			if i == 0 {
				return true
			}
		}
	}
	return false
}

// ansicShouldQuote is bash's ansic_shouldquote: a character that does
// not print.
func ansicShouldQuote(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			if c < 0x20 || c == 0x7f {
				return true
			}
			i++
			continue
		}
		ru, n := utf8.DecodeRuneInString(s[i:])
		if ru == utf8.RuneError || !unicode.IsPrint(ru) {
			return true
		}
		i += n
	}
	return false
}
