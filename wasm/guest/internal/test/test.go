// Package test implements test and [: evaluate conditional expressions,
// with GNU coreutils' grammar and messages. The shell keeps its own
// builtins; these programs serve find -exec, xargs and env.
package test

import (
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/fsx"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const help = `Usage: test EXPRESSION
  or:  test
  or:  [ EXPRESSION ]
  or:  [ ]
  or:  [ OPTION
Exit with the status determined by EXPRESSION.

      --help        display this help and exit
      --version     output version information and exit

An omitted EXPRESSION defaults to false.  Otherwise,
EXPRESSION is true or false and sets exit status.  It is one of:

  ( EXPRESSION )               EXPRESSION is true
  ! EXPRESSION                 EXPRESSION is false
  EXPRESSION1 -a EXPRESSION2   both EXPRESSION1 and EXPRESSION2 are true
  EXPRESSION1 -o EXPRESSION2   either EXPRESSION1 or EXPRESSION2 is true

  -n STRING            the length of STRING is nonzero
  STRING               equivalent to -n STRING
  -z STRING            the length of STRING is zero
  STRING1 = STRING2    the strings are equal
  STRING1 != STRING2   the strings are not equal

  INTEGER1 -eq INTEGER2   INTEGER1 is equal to INTEGER2
  INTEGER1 -ge INTEGER2   INTEGER1 is greater than or equal to INTEGER2
  INTEGER1 -gt INTEGER2   INTEGER1 is greater than INTEGER2
  INTEGER1 -le INTEGER2   INTEGER1 is less than or equal to INTEGER2
  INTEGER1 -lt INTEGER2   INTEGER1 is less than INTEGER2
  INTEGER1 -ne INTEGER2   INTEGER1 is not equal to INTEGER2

  FILE1 -ef FILE2   FILE1 and FILE2 have the same device and inode numbers
  FILE1 -nt FILE2   FILE1 is newer (modification date) than FILE2
  FILE1 -ot FILE2   FILE1 is older than FILE2

  -b FILE     FILE exists and is block special
  -c FILE     FILE exists and is character special
  -d FILE     FILE exists and is a directory
  -e FILE     FILE exists
  -f FILE     FILE exists and is a regular file
  -g FILE     FILE exists and is set-group-ID
  -G FILE     FILE exists and is owned by the effective group ID
  -h FILE     FILE exists and is a symbolic link (same as -L)
  -k FILE     FILE exists and has its sticky bit set
  -L FILE     FILE exists and is a symbolic link (same as -h)
  -N FILE     FILE exists and has been modified since it was last read
  -O FILE     FILE exists and is owned by the effective user ID
  -p FILE     FILE exists and is a named pipe
  -r FILE     FILE exists and the user has read access
  -s FILE     FILE exists and has a size greater than zero
  -S FILE     FILE exists and is a socket
  -t FD       file descriptor FD is opened on a terminal
  -u FILE     FILE exists and is set-user-ID
  -w FILE     FILE exists and the user has write access
  -x FILE     FILE exists and the user has execute (or search) access

Except for -h and -L, all FILE-related tests dereference symbolic links.
Beware that parentheses need to be escaped (e.g., by backslashes) for shells.
INTEGER may also be -l STRING, which evaluates to the length of STRING.
`

// syntaxError ends evaluation with exit status 2.
type syntaxError string

// Main runs test.
func Main(env *tool.Env) int { return run(env, env.Args[1:]) }

// Bracket runs [, which wants "]" as its last argument.
func Bracket(env *tool.Env) int {
	args := env.Args[1:]
	if len(args) == 1 {
		switch args[0] {
		case "--help":
			return env.Help(help)
		case "--version":
			return env.PrintVersion()
		}
	}
	if len(args) == 0 || args[len(args)-1] != "]" {
		env.Errorf("missing %s", tool.Quote("]"))
		return 2
	}
	return run(env, args[:len(args)-1])
}

func run(env *tool.Env, args []string) (status int) {
	if len(args) == 0 {
		return 1
	}
	p := &parser{args: args}
	defer func() {
		if r := recover(); r != nil {
			msg, ok := r.(syntaxError)
			if !ok {
				panic(r)
			}
			env.Errorf("%s", string(msg))
			status = 2
		}
	}()
	v := p.posix(len(args))
	if p.pos != len(args) {
		p.fail("extra argument %s", tool.Quote(args[p.pos]))
	}
	if v {
		return 0
	}
	return 1
}

type parser struct {
	args []string
	pos  int
}

func (p *parser) fail(format string, a ...any) {
	panic(syntaxError(fmt.Sprintf(format, a...)))
}

func (p *parser) beyond() {
	p.fail("missing argument after %s", tool.Quote(p.args[len(p.args)-1]))
}

func (p *parser) advance(need bool) {
	p.pos++
	if need && p.pos >= len(p.args) {
		p.beyond()
	}
}

func (p *parser) posix(n int) bool {
	switch n {
	case 1:
		return p.one()
	case 2:
		return p.two()
	case 3:
		return p.three()
	case 4:
		if p.args[p.pos] == "!" {
			p.advance(true)
			return !p.three()
		}
		if p.args[p.pos] == "(" && p.args[len(p.args)-1] == ")" {
			p.advance(false)
			v := p.two()
			p.advance(false)
			return v
		}
	}
	return p.expr()
}

func (p *parser) one() bool {
	v := p.args[p.pos] != ""
	p.pos++
	return v
}

func (p *parser) two() bool {
	a := p.args[p.pos]
	switch {
	case a == "!":
		p.advance(false)
		return !p.one()
	case len(a) == 2 && a[0] == '-':
		return p.unary()
	}
	p.beyond()
	return false
}

func (p *parser) three() bool {
	switch {
	case binop(p.args[p.pos+1]):
		return p.binary(false)
	case p.args[p.pos] == "!":
		p.advance(true)
		return !p.two()
	case p.args[p.pos] == "(" && p.args[p.pos+2] == ")":
		p.advance(false)
		v := p.one()
		p.advance(false)
		return v
	case p.args[p.pos+1] == "-a" || p.args[p.pos+1] == "-o":
		return p.expr()
	}
	p.fail("%s: binary operator expected", tool.Quote(p.args[p.pos+1]))
	return false
}

func (p *parser) expr() bool {
	if p.pos >= len(p.args) {
		p.beyond()
	}
	return p.or()
}

func (p *parser) or() bool {
	v := false
	for {
		v = p.and() || v
		if p.pos >= len(p.args) || p.args[p.pos] != "-o" {
			return v
		}
		p.advance(false)
	}
}

func (p *parser) and() bool {
	v := true
	for {
		v = p.term() && v
		if p.pos >= len(p.args) || p.args[p.pos] != "-a" {
			return v
		}
		p.advance(false)
	}
}

func (p *parser) term() bool {
	if p.pos >= len(p.args) {
		p.beyond()
	}
	invert := false
	for p.pos < len(p.args) && p.args[p.pos] == "!" {
		p.advance(true)
		invert = !invert
	}
	var v bool
	a := p.args[p.pos]
	left := len(p.args) - p.pos
	switch {
	case a == "(":
		p.advance(true)
		n := 1
		for ; p.pos+n < len(p.args) && p.args[p.pos+n] != ")"; n++ {
			if n == 4 {
				n = len(p.args) - p.pos
				break
			}
		}
		v = p.posix(n)
		if p.pos >= len(p.args) {
			p.fail("%s expected", tool.Quote(")"))
		} else if p.args[p.pos] != ")" {
			p.fail("%s expected, found %s", tool.Quote(")"), tool.Quote(p.args[p.pos]))
		}
		p.advance(false)
	case left >= 4 && a == "-l" && binop(p.args[p.pos+2]):
		v = p.binary(true)
	case left >= 3 && binop(p.args[p.pos+1]):
		v = p.binary(false)
	case len(a) == 2 && a[0] == '-':
		v = p.unary()
	default:
		v = a != ""
		p.advance(false)
	}
	return v != invert
}

func binop(s string) bool {
	switch s {
	case "=", "!=", "==", "-nt", "-ot", "-ef", "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
		return true
	}
	return false
}

func (p *parser) binary(leftLen bool) bool {
	if leftLen {
		p.advance(false)
	}
	op := p.pos + 1
	if op+1 >= len(p.args) {
		p.beyond()
	}
	rightLen := false
	if p.args[op+1] == "-l" && op+2 < len(p.args) {
		rightLen = true
		p.advance(false)
	}
	l, o, r := p.args[op-1], p.args[op], p.args[op+1]
	if rightLen {
		o, r = p.args[op+1], p.args[op+2]
		l = p.args[op]
	}
	p.pos += 3
	switch o {
	case "=", "==":
		return l == r
	case "!=":
		return l != r
	case "-nt", "-ot":
		lt, lok := mtime(l)
		rt, rok := mtime(r)
		if o == "-ot" {
			lt, lok, rt, rok = rt, rok, lt, lok
		}
		return lok && (!rok || lt.After(rt))
	case "-ef":
		a, err1 := os.Stat(l)
		b, err2 := os.Stat(r)
		return err1 == nil && err2 == nil && os.SameFile(a, b)
	}
	var li, ri string
	if leftLen {
		li = fmt.Sprint(len(l))
	} else {
		li = p.integer(l)
	}
	if rightLen {
		ri = fmt.Sprint(len(r))
	} else {
		ri = p.integer(r)
	}
	c := compareInts(li, ri)
	switch o {
	case "-eq":
		return c == 0
	case "-ne":
		return c != 0
	case "-lt":
		return c < 0
	case "-le":
		return c <= 0
	case "-gt":
		return c > 0
	default: // -ge
		return c >= 0
	}
}

// integer checks s is an integer as test accepts it (blanks around, an
// optional sign) and returns it without blanks or '+'.
func (p *parser) integer(s string) string {
	t := strings.Trim(s, " \t\n\v\f\r")
	d := t
	if d != "" && (d[0] == '-' || d[0] == '+') {
		d = d[1:]
	}
	if d == "" || strings.Trim(d, "0123456789") != "" {
		p.fail("invalid integer %s", tool.Quote(s))
	}
	if t[0] == '+' {
		return t[1:]
	}
	return t
}

// compareInts compares decimal integers of any length.
func compareInts(a, b string) int {
	an, bn := strings.HasPrefix(a, "-"), strings.HasPrefix(b, "-")
	a = strings.TrimLeft(strings.TrimPrefix(a, "-"), "0")
	b = strings.TrimLeft(strings.TrimPrefix(b, "-"), "0")
	if a == "" {
		an = false
	}
	if b == "" {
		bn = false
	}
	if an != bn {
		if an {
			return -1
		}
		return 1
	}
	c := len(a) - len(b)
	if c == 0 {
		c = strings.Compare(a, b)
	}
	if an {
		c = -c
	}
	return c
}

func mtime(name string) (time.Time, bool) {
	fi, err := os.Stat(name)
	if err != nil {
		return time.Time{}, false
	}
	return fi.ModTime(), true
}

func (p *parser) unary() bool {
	op := p.args[p.pos]
	if strings.IndexByte("bcdefgGhkLNOprsStuwxzn", op[1]) < 0 {
		p.fail("%s: unary operator expected", tool.Quote(op))
	}
	p.advance(true)
	arg := p.args[p.pos]
	p.pos++
	switch op[1] {
	case 'z':
		return arg == ""
	case 'n':
		return arg != ""
	case 't':
		// A sandbox has no terminal.
		p.integer(arg)
		return false
	case 'h', 'L':
		fi, err := os.Lstat(arg)
		return err == nil && fi.Mode()&fs.ModeSymlink != 0
	}
	fi, err := os.Stat(arg)
	if err != nil {
		return false
	}
	m := fi.Mode()
	switch op[1] {
	case 'e', 'O', 'G':
		// Every file in the sandbox belongs to the one user.
		return true
	case 'f':
		return m.IsRegular()
	case 'd':
		return m.IsDir()
	case 's':
		return fi.Size() > 0
	case 'b':
		return m&fs.ModeDevice != 0 && m&fs.ModeCharDevice == 0
	case 'c':
		return m&fs.ModeCharDevice != 0
	case 'p':
		return m&fs.ModeNamedPipe != 0
	case 'S':
		return m&fs.ModeSocket != 0
	case 'N':
		return fi.ModTime().After(accessTime(fi))
	}
	perm, err := fsx.Perm(arg, true)
	if err != nil {
		return false
	}
	switch op[1] {
	case 'g':
		return perm&fs.ModeSetgid != 0
	case 'u':
		return perm&fs.ModeSetuid != 0
	case 'k':
		return perm&fs.ModeSticky != 0
	case 'r':
		return perm&0o444 != 0
	case 'w':
		return perm&0o222 != 0
	default: // 'x'
		return perm&0o111 != 0
	}
}
