// Package echo implements echo: print the arguments, GNU coreutils style
// (options -n, -e, -E; escapes off by default).
package echo

import (
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const help = `Usage: echo [SHORT-OPTION]... [STRING]...
  or:  echo LONG-OPTION
Echo the STRING(s) to standard output.

  -n             do not output the trailing newline
  -e             enable interpretation of backslash escapes
  -E             disable interpretation of backslash escapes (default)
      --help     display this help and exit
      --version  output version information and exit

If -e is in effect, the following sequences are recognized:

  \\      backslash
  \a      alert (BEL)
  \b      backspace
  \c      produce no further output
  \e      escape
  \f      form feed
  \n      new line
  \r      carriage return
  \t      horizontal tab
  \v      vertical tab
  \0NNN   byte with octal value NNN (1 to 3 digits)
  \xHH    byte with hexadecimal value HH (1 to 2 digits)
`

// Main runs echo.
func Main(env *tool.Env) int {
	args := env.Args[1:]
	if len(args) == 1 {
		switch args[0] {
		case "--help":
			return env.Help(help)
		case "--version":
			return env.PrintVersion()
		}
	}
	newline, escapes := true, false
	for len(args) > 0 && isOptionWord(args[0]) {
		for _, c := range args[0][1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	out := env.Out()
	for i, a := range args {
		if i > 0 {
			out.WriteByte(' ')
		}
		if !escapes {
			out.WriteString(a)
			continue
		}
		if stop := writeEscaped(out, a); stop {
			return 0
		}
	}
	if newline {
		out.WriteByte('\n')
	}
	return 0
}

func isOptionWord(s string) bool {
	if len(s) < 2 || s[0] != '-' {
		return false
	}
	for _, c := range s[1:] {
		if c != 'n' && c != 'e' && c != 'E' {
			return false
		}
	}
	return true
}

type byteWriter interface {
	WriteByte(byte) error
}

// writeEscaped writes s interpreting backslash escapes; it reports whether
// \c asked to stop all output.
func writeEscaped(w byteWriter, s string) (stop bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			w.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case '\\':
			w.WriteByte('\\')
		case 'a':
			w.WriteByte('\a')
		case 'b':
			w.WriteByte('\b')
		case 'c':
			return true
		case 'e':
			w.WriteByte(0x1b)
		case 'f':
			w.WriteByte('\f')
		case 'n':
			w.WriteByte('\n')
		case 'r':
			w.WriteByte('\r')
		case 't':
			w.WriteByte('\t')
		case 'v':
			w.WriteByte('\v')
		case '0':
			v := 0
			j := i + 1
			for ; j < len(s) && j < i+4 && s[j] >= '0' && s[j] <= '7'; j++ {
				v = v*8 + int(s[j]-'0')
			}
			w.WriteByte(byte(v))
			i = j - 1
		case 'x':
			v, j := 0, i+1
			for ; j < len(s) && j < i+3 && isHex(s[j]); j++ {
				v = v*16 + hexVal(s[j])
			}
			if j == i+1 {
				w.WriteByte('\\')
				w.WriteByte('x')
				continue
			}
			w.WriteByte(byte(v))
			i = j - 1
		default:
			w.WriteByte('\\')
			w.WriteByte(s[i])
		}
	}
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) int {
	switch {
	case c >= 'a':
		return int(c-'a') + 10
	case c >= 'A':
		return int(c-'A') + 10
	}
	return int(c - '0')
}
