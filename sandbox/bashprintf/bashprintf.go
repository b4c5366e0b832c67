// Package bashprintf formats text exactly like the printf builtin of bash
// 5.2 running on glibc, so that a shell embedded in the sandbox prints the
// same bytes, diagnostics and exit status as the real one.
//
// It covers the conversions d i o u x X c s b q Q e E f F g G a A n % and
// %(fmt)T with the flags "#'-+ 0", literal and '*' field widths and
// precisions, the reuse of the format until all arguments are consumed,
// bash's argument parsing (decimal, octal, hexadecimal, 'c character values,
// clamping with a warning on overflow, partial values and status 1 for
// invalid numbers), backslash escapes in the format and in %b arguments, and
// bash's %q quoting. Floating-point conversions use the x86 80-bit long
// double that bash uses on amd64: arguments are rounded to a 64-bit
// significand and printed exactly, as glibc does.
//
// The C/POSIX locale is the default; Options.UTF8 selects the behaviour of
// a UTF-8 locale such as C.UTF-8 (character values, \u escapes and %q).
// Options.Command also parses printf's own options (-v VAR, --, --help).
//
// The tests compare thousands of generated cases with the real bash 5.2
// when it is installed (LC_ALL=C and C.UTF-8, two time zones).
//
// Deliberate differences from bash:
//   - glibc keeps multibyte conversion state between calls, so after an
//     argument like "'\xc3" (an incomplete UTF-8 sequence) bash decodes the
//     next 'c argument differently; this package decodes each independently.
//   - Character classes in UTF-8 mode come from Go's Unicode tables, which
//     may be a newer Unicode version than glibc's.
//   - Output larger than Options.MaxOutput (when set) is cut short with an
//     error instead of being written.
//   - A write error (bash: "write error: ...") cannot happen: the output is
//     returned as a string.
package bashprintf

import (
	"strconv"
	"time"
)

// Options configures the parts of printf that depend on the environment.
// The zero value formats in the C locale, in time.Local, with the real clock
// and no output limit.
type Options struct {
	// Now returns the current time, used by %(fmt)T for the argument -1 and
	// when no argument is left. Nil means time.Now.
	Now func() time.Time
	// Start is the shell's start time, used by %(fmt)T for the argument -2.
	// The zero value means the time Now returns.
	Start time.Time
	// Location is the time zone of %(fmt)T. Nil means time.Local.
	Location *time.Location
	// UTF8 selects a UTF-8 locale instead of the C locale.
	UTF8 bool
	// MaxOutput, when positive, bounds the bytes one call may produce;
	// printf stops with an error and status 1 when a conversion would
	// exceed it (for example "%2000000000d").
	MaxOutput int
	// Assign, when not nil, is called by the %n conversion to set the shell
	// variable name to the number of bytes written so far in the current
	// pass over the format.
	Assign func(name, value string)
}

// Format formats like bash 5.2's printf builtin in the C locale with
// default Options: the format is reused until all args are consumed (and
// used at least once), and missing args read as "" or 0. out is what printf
// writes to stdout; errs are the diagnostics bash would print to stderr,
// each without the "bash: " prefix and newline (for example
// "printf: abc: invalid number"); status is printf's exit status.
func Format(format string, args []string) (out string, errs []string, status int) {
	var o Options
	return o.Format(format, args)
}

// Format is like the package-level Format but uses the settings in o.
func (o *Options) Format(format string, args []string) (out string, errs []string, status int) {
	p := printer{opts: o, args: args}
	status = p.run(format)
	return string(p.out), p.errs, status
}

// printer holds the state of one printf invocation.
type printer struct {
	opts     *Options
	out      []byte
	errs     []string
	args     []string
	ai       int  // index of the next argument
	convErr  bool // an argument was not a valid number
	tw       int  // bytes written in the current pass (for %n)
	overflow bool // MaxOutput was reached
	now      time.Time
	haveNow  bool
	buf      []byte // scratch space for conversions
}

func (p *printer) errorf(msg string) { p.errs = append(p.errs, "printf: "+msg) }

func (p *printer) warnf(msg string) { p.errs = append(p.errs, "printf: warning: "+msg) }

// room reports whether n more bytes fit under MaxOutput, recording the
// failure when they do not.
func (p *printer) room(n int) bool {
	if p.opts.MaxOutput <= 0 || len(p.out)+n <= p.opts.MaxOutput {
		return true
	}
	if !p.overflow {
		p.overflow = true
		p.errorf("output exceeds " + strconv.Itoa(p.opts.MaxOutput) + " bytes; print less at a time")
	}
	return false
}

func (p *printer) putByte(c byte) {
	p.out = append(p.out, c)
	p.tw++
}

func (p *printer) putString(s string) {
	p.out = append(p.out, s...)
	p.tw += len(s)
}

func (p *printer) pad(c byte, n int) {
	for ; n > 0; n-- {
		p.out = append(p.out, c)
	}
}

// Flags accepted between % and the field width (bash's SKIP1).
func isFlag(c byte) bool {
	switch c {
	case '#', '\'', '-', '+', ' ', '0':
		return true
	}
	return false
}

// Length modifiers bash accepts and ignores (bash's LENMODS).
func isLenMod(c byte) bool {
	switch c {
	case 'h', 'j', 'l', 'L', 't', 'z':
		return true
	}
	return false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// spec is one conversion specification: the text between % and the
// conversion character without length modifiers, plus the values taken
// from the arguments for '*'.
type spec struct {
	text         string // e.g. "-08.3" (flags, width, precision as written)
	conv         byte
	haveWidth    bool // width was '*'
	width        int
	havePrec     bool // precision was '*'
	prec         int
	precHasDigit bool // precision written with digits
}

func (p *printer) run(format string) int {
	if format == "" {
		return 0
	}
	for {
		p.tw = 0
		if st, done := p.pass(format); done {
			return st
		}
		if p.overflow {
			return 1
		}
		if !(p.ai < len(p.args) && p.ai != 0) {
			break
		}
	}
	if p.convErr {
		return 1
	}
	return 0
}

// pass formats the whole format once. done is set when printf must stop
// with status st.
func (p *printer) pass(format string) (st int, done bool) {
	n := len(format)
	for i := 0; i < n; i++ {
		if p.overflow {
			return 1, true
		}
		c := format[i]
		if c == '\\' {
			var tmp [16]byte
			k, m, _ := p.escape(format[i+1:], tmp[:], false)
			for _, b := range tmp[:m] {
				p.putByte(b)
			}
			i += k
			continue
		}
		if c != '%' {
			// Copy the run of literal text at once.
			j := i + 1
			for j < n && format[j] != '%' && format[j] != '\\' {
				j++
			}
			p.putString(format[i:j])
			i = j - 1
			continue
		}
		start := i
		i++
		if i < n && format[i] == '%' {
			p.putByte('%')
			continue
		}
		var sp spec
		for i < n && isFlag(format[i]) {
			i++
		}
		if i < n && format[i] == '*' {
			i++
			sp.haveWidth = true
			sp.width = p.getInt()
		} else {
			for i < n && isDigit(format[i]) {
				i++
			}
		}
		if i < n && format[i] == '.' {
			i++
			if i < n && format[i] == '*' {
				i++
				sp.havePrec = true
				sp.prec = p.getInt()
			} else {
				if i < n && format[i] == '-' {
					i++
				}
				for i < n && isDigit(format[i]) {
					sp.precHasDigit = true
					i++
				}
			}
		}
		modStart := i
		for i < n && isLenMod(format[i]) {
			i++
		}
		if i >= n {
			p.errorf("`" + format[start:] + "': missing format character")
			return 1, true
		}
		sp.text = format[start+1 : modStart]
		sp.conv = format[i]
		switch sp.conv {
		case 'c':
			var ch byte
			if p.ai < len(p.args) {
				if a := p.args[p.ai]; a != "" {
					ch = a[0]
				}
				p.ai++
			}
			p.buf = append(p.buf[:0], ch)
			p.cfmt(&sp, p.buf)
		case 's':
			p.cfmt(&sp, []byte(p.getStr()))
		case '(':
			j := i + 1
			depth := 1
			for j < n {
				if format[j] == '(' {
					depth++
				} else if format[j] == ')' {
					depth--
				}
				if depth == 0 {
					break
				}
				j++
			}
			tfmt := format[i+1 : j]
			var next byte // bash reads past the end of an unclosed format
			if j+1 < n {
				next = format[j+1]
			}
			if j >= n || next != 'T' {
				p.warnf("`" + string(next) + "': invalid time format specification")
				p.putByte('%')
				i = start
				continue
			}
			i = j + 1
			if tfmt == "" {
				tfmt = "%X"
			}
			secs := int64(-1)
			if p.ai < len(p.args) {
				secs = p.getIntmax()
			}
			p.printStr(&sp, p.strftime(tfmt, secs))
		case 'n':
			name := p.getStr()
			if name != "" {
				if !validName(name) {
					p.errorf("`" + name + "': not a valid identifier")
					return 1, true
				}
				if p.opts.Assign != nil {
					p.opts.Assign(name, strconv.Itoa(p.tw))
				}
			}
		case 'b':
			arg := p.getStr()
			expanded, sawC := p.expandB(arg)
			p.printStr(&sp, expanded)
			if sawC {
				return 0, true
			}
		case 'q', 'Q':
			arg := p.getStr()
			// bash 5.2 applies a precision in digits to the argument
			// before quoting, and ignores a '*' precision.
			if sp.conv == 'Q' && (sp.havePrec || sp.precHasDigit) {
				if sp.precHasDigit {
					if pr := precisionOf(sp.text); pr >= 0 && pr < len(arg) {
						arg = arg[:pr]
					}
				}
				sp.havePrec = false
				sp.text = stripPrecision(sp.text)
			}
			p.printStr(&sp, p.quote(arg))
		case 'd', 'i':
			p.formatSigned(&sp, p.getIntmax())
		case 'o', 'u', 'x', 'X':
			p.formatUnsigned(&sp, p.getUintmax())
		case 'e', 'E', 'f', 'F', 'g', 'G', 'a', 'A':
			p.formatFloat(&sp, p.getFloat())
		default:
			p.errorf("`" + string(sp.conv) + "': invalid format character")
			return 1, true
		}
	}
	return 0, false
}

// validName reports whether s is a shell identifier.
func validName(s string) bool {
	if s == "" || isDigit(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// precisionOf returns the written precision of a spec text, -1 if none.
func precisionOf(text string) int {
	for i := 0; i < len(text); i++ {
		if text[i] == '.' {
			v, ok := atoiClamp(text[i+1:])
			if !ok {
				return -1
			}
			return v
		}
	}
	return -1
}

// stripPrecision removes ".digits" from a spec text.
func stripPrecision(text string) string {
	for i := 0; i < len(text); i++ {
		if text[i] == '.' {
			return text[:i]
		}
	}
	return text
}

// atoiClamp parses the leading digits of s; ok is false when there are
// none or the value does not fit in an int32.
func atoiClamp(s string) (v int, ok bool) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		if v > (1<<31-1-int(s[i]-'0'))/10 {
			return 0, false
		}
		v = v*10 + int(s[i]-'0')
		i++
	}
	return v, i > 0
}

// getStr consumes the next argument as a string.
func (p *printer) getStr() string {
	if p.ai >= len(p.args) {
		return ""
	}
	p.ai++
	return p.args[p.ai-1]
}
