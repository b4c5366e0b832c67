// Package expr implements expr: evaluate expressions, with GNU expr's
// grammar, arbitrary-precision integers and exit statuses (0 for a
// non-null, non-zero result, 1 for null or zero, 2 for a bad expression, 3
// for an error such as a bad regular expression).
package expr

import (
	"fmt"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/posixre"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const help = `Usage: expr EXPRESSION
  or:  expr OPTION

      --help        display this help and exit
      --version     output version information and exit

Print the value of EXPRESSION to standard output.  A blank line below
separates increasing precedence groups.  EXPRESSION may be:

  ARG1 | ARG2       ARG1 if it is neither null nor 0, otherwise ARG2

  ARG1 & ARG2       ARG1 if neither argument is null or 0, otherwise 0

  ARG1 < ARG2       ARG1 is less than ARG2
  ARG1 <= ARG2      ARG1 is less than or equal to ARG2
  ARG1 = ARG2       ARG1 is equal to ARG2
  ARG1 != ARG2      ARG1 is unequal to ARG2
  ARG1 >= ARG2      ARG1 is greater than or equal to ARG2
  ARG1 > ARG2       ARG1 is greater than ARG2

  ARG1 + ARG2       arithmetic sum of ARG1 and ARG2
  ARG1 - ARG2       arithmetic difference of ARG1 and ARG2

  ARG1 * ARG2       arithmetic product of ARG1 and ARG2
  ARG1 / ARG2       arithmetic quotient of ARG1 divided by ARG2
  ARG1 % ARG2       arithmetic remainder of ARG1 divided by ARG2

  STRING : REGEXP   anchored pattern match of REGEXP in STRING

  match STRING REGEXP        same as STRING : REGEXP
  substr STRING POS LENGTH   substring of STRING, POS counted from 1
  index STRING CHARS         index in STRING where any CHARS is found, or 0
  length STRING              length of STRING
  + TOKEN                    interpret TOKEN as a string, even if it is a
                               keyword like 'match' or an operator like '/'

  ( EXPRESSION )             value of EXPRESSION

Beware that many operators need to be escaped or quoted for shells.
Comparisons are arithmetic if both ARGs are numbers, else lexicographical.
Pattern matches return the string matched between \( and \) or null; if
\( and \) are not used, they return the number of characters matched or 0.

Exit status is 0 if EXPRESSION is neither null nor 0, 1 if EXPRESSION is null
or 0, 2 if EXPRESSION is syntactically invalid, and 3 if an error occurred.
`

// failure ends evaluation: code 2 for syntax and arithmetic errors, 3 for
// others.
type failure struct {
	code int
	msg  string
}

// Main runs expr.
func Main(env *tool.Env) (status int) {
	args := env.Args[1:]
	if len(args) == 1 {
		switch args[0] {
		case "--help":
			return env.Help(help)
		case "--version":
			return env.PrintVersion()
		}
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return env.Usage(2, "missing operand")
	}
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(failure)
			if !ok {
				panic(r)
			}
			env.Errorf("%s", f.msg)
			status = f.code
		}
	}()
	p := &parser{args: args}
	v := p.or(true)
	if p.pos < len(args) {
		p.syntax("unexpected argument %s", tool.Quote(args[p.pos]))
	}
	w := env.Out()
	w.WriteString(v.String())
	w.WriteByte('\n')
	if v.null() {
		return 1
	}
	return 0
}

// value is a string or an integer.
type value struct {
	s     string
	i     *big.Int // non-nil for an integer result
	isInt bool
}

func str(s string) value { return value{s: s} }

func integer(i *big.Int) value { return value{i: i, isInt: true} }

func boolean(b bool) value {
	if b {
		return integer(big.NewInt(1))
	}
	return integer(new(big.Int))
}

func (v value) String() string {
	if v.isInt {
		return v.i.String()
	}
	return v.s
}

// null reports whether v is the empty string or an integer zero.
func (v value) null() bool {
	if v.isInt {
		return v.i.Sign() == 0
	}
	if v.s == "" {
		return true
	}
	if i, ok := toInt(v.s); ok {
		return i.Sign() == 0
	}
	return false
}

// toInt parses s as expr's integers: an optional '-' and decimal digits.
func toInt(s string) (*big.Int, bool) {
	d := strings.TrimPrefix(s, "-")
	if d == "" {
		return nil, false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return nil, false
		}
	}
	i, ok := new(big.Int).SetString(s, 10)
	return i, ok
}

func (v value) asInt() (*big.Int, bool) {
	if v.isInt {
		return v.i, true
	}
	return toInt(v.s)
}

type parser struct {
	args []string
	pos  int
}

func (p *parser) syntax(format string, a ...any) {
	panic(failure{2, "syntax error: " + fmt.Sprintf(format, a...)})
}

func (p *parser) next(s string) bool {
	if p.pos < len(p.args) && p.args[p.pos] == s {
		p.pos++
		return true
	}
	return false
}

func (p *parser) or(eval bool) value {
	l := p.and(eval)
	for p.next("|") {
		r := p.and(eval && l.null())
		if l.null() {
			if r.null() {
				l = integer(new(big.Int))
			} else {
				l = r
			}
		}
	}
	return l
}

func (p *parser) and(eval bool) value {
	l := p.compare(eval)
	for p.next("&") {
		r := p.compare(eval && !l.null())
		if l.null() || r.null() {
			l = integer(new(big.Int))
		}
	}
	return l
}

func (p *parser) compare(eval bool) value {
	l := p.additive(eval)
	for {
		var op string
		switch {
		case p.next("<"):
			op = "<"
		case p.next("<="):
			op = "<="
		case p.next("="), p.next("=="):
			op = "="
		case p.next("!="):
			op = "!="
		case p.next(">="):
			op = ">="
		case p.next(">"):
			op = ">"
		default:
			return l
		}
		r := p.additive(eval)
		if !eval {
			l = boolean(false)
			continue
		}
		var c int
		li, lok := l.asInt()
		ri, rok := r.asInt()
		if lok && rok {
			c = li.Cmp(ri)
		} else {
			c = strings.Compare(l.String(), r.String())
		}
		switch op {
		case "<":
			l = boolean(c < 0)
		case "<=":
			l = boolean(c <= 0)
		case "=":
			l = boolean(c == 0)
		case "!=":
			l = boolean(c != 0)
		case ">=":
			l = boolean(c >= 0)
		default:
			l = boolean(c > 0)
		}
	}
}

func arith(eval bool, op string, l, r value) value {
	if !eval {
		return integer(new(big.Int))
	}
	a, ok1 := l.asInt()
	b, ok2 := r.asInt()
	if !ok1 || !ok2 {
		panic(failure{2, "non-integer argument"})
	}
	z := new(big.Int)
	switch op {
	case "+":
		z.Add(a, b)
	case "-":
		z.Sub(a, b)
	case "*":
		z.Mul(a, b)
	case "/", "%":
		if b.Sign() == 0 {
			panic(failure{2, "division by zero"})
		}
		if op == "/" {
			z.Quo(a, b)
		} else {
			z.Rem(a, b)
		}
	}
	return integer(z)
}

func (p *parser) additive(eval bool) value {
	l := p.multiplicative(eval)
	for {
		switch {
		case p.next("+"):
			l = arith(eval, "+", l, p.multiplicative(eval))
		case p.next("-"):
			l = arith(eval, "-", l, p.multiplicative(eval))
		default:
			return l
		}
	}
}

func (p *parser) multiplicative(eval bool) value {
	l := p.match(eval)
	for {
		var op string
		switch {
		case p.next("*"):
			op = "*"
		case p.next("/"):
			op = "/"
		case p.next("%"):
			op = "%"
		default:
			return l
		}
		l = arith(eval, op, l, p.match(eval))
	}
}

func (p *parser) match(eval bool) value {
	l := p.unary(eval)
	for p.next(":") {
		r := p.unary(eval)
		if eval {
			l = match(l.String(), r.String())
		}
	}
	return l
}

func (p *parser) unary(eval bool) value {
	switch {
	case p.next("+"):
		if p.pos >= len(p.args) {
			p.syntax("missing argument after %s", tool.Quote("+"))
		}
		p.pos++
		return str(p.args[p.pos-1])
	case p.next("length"):
		v := p.unary(eval)
		return integer(big.NewInt(int64(utf8.RuneCountInString(v.String()))))
	case p.next("match"):
		s := p.unary(eval)
		re := p.unary(eval)
		if !eval {
			return integer(new(big.Int))
		}
		return match(s.String(), re.String())
	case p.next("index"):
		s := p.unary(eval).String()
		chars := p.unary(eval).String()
		n := 0
		for _, r := range s {
			n++
			if strings.ContainsRune(chars, r) {
				return integer(big.NewInt(int64(n)))
			}
		}
		return integer(new(big.Int))
	case p.next("substr"):
		s := p.unary(eval).String()
		posv := p.unary(eval)
		lenv := p.unary(eval)
		pos, ok1 := posv.asInt()
		n, ok2 := lenv.asInt()
		runes := []rune(s)
		if !ok1 || !ok2 || pos.Sign() <= 0 || n.Sign() <= 0 || !pos.IsInt64() || pos.Int64() > int64(len(runes)) {
			return str("")
		}
		start := int(pos.Int64()) - 1
		end := len(runes)
		if n.IsInt64() && n.Int64() < int64(end-start) {
			end = start + int(n.Int64())
		}
		return str(string(runes[start:end]))
	}
	return p.primary(eval)
}

func (p *parser) primary(eval bool) value {
	if p.pos >= len(p.args) {
		p.syntax("missing argument after %s", tool.Quote(p.args[p.pos-1]))
	}
	if p.next("(") {
		v := p.or(eval)
		if p.pos >= len(p.args) {
			p.syntax("expecting ')' after %s", tool.Quote(p.args[p.pos-1]))
		}
		if !p.next(")") {
			p.syntax("expecting ')' instead of %s", tool.Quote(p.args[p.pos]))
		}
		return v
	}
	if p.next(")") {
		p.syntax("unexpected ')'")
	}
	p.pos++
	return str(p.args[p.pos-1])
}

// match is STRING : REGEXP, the regexp a POSIX BRE anchored at the start.
func match(s, pattern string) value {
	re, err := posixre.Compile([]string{pattern}, posixre.Options{Anchored: true})
	if err != nil {
		panic(failure{2, err.Error()})
	}
	caps := make([]int, 2*(re.NumSubexp()+1))
	ok, err := re.FindSubmatch([]byte(s), caps)
	if err != nil {
		panic(failure{2, err.Error()})
	}
	if re.NumSubexp() > 0 {
		if !ok || caps[2] < 0 {
			return str("")
		}
		return str(s[caps[2]:caps[3]])
	}
	if !ok {
		return integer(new(big.Int))
	}
	return integer(big.NewInt(int64(utf8.RuneCountInString(s[:caps[1]]))))
}
