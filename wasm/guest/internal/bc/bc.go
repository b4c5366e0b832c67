// Package bc implements bc: an arbitrary-precision calculator language
// (POSIX bc with GNU's extensions: print, else, ||, &&, !, comments with
// #, read(), halt), with numbers of unbounded size held as scaled
// math/big integers, and -l's math library (s c a l e j) computed with
// guard digits and truncated to scale.
package bc

import (
	"bufio"
	"fmt"
	"io"
	"math/big"
	"os"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'i', Long: "interactive"},
		{Short: 'l', Long: "mathlib"},
		{Short: 'q', Long: "quiet"},
		{Short: 's', Long: "standard"},
		{Short: 'w', Long: "warn"},
	},
	Help: `usage: bc [options] [file ...]
  -h  --help         print this usage and exit
  -i  --interactive  force interactive mode
  -l  --mathlib      use the predefined math routines
  -q  --quiet        don't print initial banner
  -s  --standard     non-standard bc constructs are errors
  -w  --warn         warn about non-standard bc constructs
  -v  --version      print version information and exit
`}

// Main runs bc.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	in := newInterp(env)
	for _, f := range flags {
		if f.Name == "l" {
			in.mathlib = true
			in.scale = 20
		}
	}
	if ll := env.Env("BC_LINE_LENGTH"); ll != "" {
		if n, err := strconv.Atoi(ll); err == nil && n >= 0 {
			in.lineLen = n
			if n == 1 {
				in.lineLen = 70
			}
		}
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			env.Errorf("File %s is unavailable.", name)
			return 1
		}
		if in.run(name, string(data)) {
			return in.status
		}
	}
	data, err := io.ReadAll(env.Stdin)
	if err != nil {
		env.Errorf("%s", tool.Strerror(err))
		return 1
	}
	in.stdinRest = nil
	in.run("(standard_in)", string(data))
	return in.status
}

type array struct{ v []Num }

func (a *array) get(i int) Num {
	if i < len(a.v) {
		return a.v[i]
	}
	return zero()
}

func (a *array) set(i int, n Num) {
	for len(a.v) <= i {
		a.v = append(a.v, zero())
	}
	a.v[i] = n
}

func (a *array) clone() *array { return &array{append([]Num(nil), a.v...)} }

type interp struct {
	env                 *tool.Env
	out                 *bufio.Writer
	vars                map[string]Num
	arrays              map[string]*array
	funcs               map[string]*function
	scale, ibase, obase int
	last                Num
	mathlib             bool
	lineLen             int
	status              int
	stdinRest           []byte
	file                string
	depth               int
}

func newInterp(env *tool.Env) *interp {
	return &interp{
		env: env, out: env.Out(),
		vars: map[string]Num{}, arrays: map[string]*array{}, funcs: map[string]*function{},
		ibase: 10, obase: 10, last: zero(), lineLen: 70,
	}
}

// Control flow is carried by panics of these types.
type (
	breakSignal    struct{}
	continueSignal struct{}
	returnSignal   struct{ v Num }
	haltSignal     struct{}
	runtimeError   struct{ msg string }
)

// run parses and runs src statement by statement; it reports whether bc
// should stop (quit or halt).
func (in *interp) run(name, src string) (stop bool) {
	in.file = name
	p := &parser{lx: &lexer{src: src, line: 1}}
	var pending []*stmt
	for {
		var s *stmt
		line := p.lx.line
		ok := func() (ok bool) {
			defer func() {
				if r := recover(); r != nil {
					se, isSyntax := r.(syntaxError)
					if !isSyntax {
						panic(r)
					}
					in.out.Flush()
					fmt.Fprintf(in.env.Stderr, "%s %d: %s\n", name, p.lx.line, se.msg)
					// Skip the rest of the line.
					for p.lx.pos < len(p.lx.src) && p.lx.src[p.lx.pos] != '\n' {
						p.lx.pos++
					}
					p.peekd = false
					ok = false
				}
			}()
			s = p.statement()
			return true
		}()
		_ = line
		if !ok {
			continue
		}
		if s == nil {
			return in.flushLine(pending)
		}
		if s.kind == sQuit || containsQuit(s) {
			return true
		}
		pending = append(pending, s)
		if s.kind == sNewline {
			if in.flushLine(pending) {
				return true
			}
			pending = pending[:0]
		}
	}
}

// flushLine runs the statements of one input line: bc reads a whole line
// before running it, so a quit anywhere on the line stops it first.
func (in *interp) flushLine(line []*stmt) bool {
	for _, s := range line {
		if in.exec(s) {
			return true
		}
	}
	return false
}

func containsQuit(s *stmt) bool {
	if s == nil {
		return false
	}
	switch s.kind {
	case sQuit:
		return true
	case sBlock:
		for _, c := range s.list {
			if containsQuit(c) {
				return true
			}
		}
	case sIf:
		return containsQuit(s.body) || containsQuit(s.els)
	case sWhile, sFor:
		return containsQuit(s.body)
	}
	return false
}

// exec runs one top-level statement; it reports a halt.
func (in *interp) exec(s *stmt) (halted bool) {
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case haltSignal:
				halted = true
			case runtimeError:
				in.out.Flush()
				fmt.Fprintf(in.env.Stderr, "Runtime error (func=(main), adr=0): %s\n", e.msg)
			case breakSignal, continueSignal, returnSignal:
			default:
				panic(r)
			}
		}
	}()
	in.stmt(s)
	return false
}

func (in *interp) fail(format string, a ...any) {
	panic(runtimeError{fmt.Sprintf(format, a...)})
}

func (in *interp) stmt(s *stmt) {
	switch s.kind {
	case sEmpty, sNewline:
	case sExpr:
		v := in.eval(s.expr)
		if s.expr.kind != nAssign {
			in.print(v)
			in.out.WriteByte('\n')
			in.last = v
		}
	case sString:
		in.out.WriteString(s.str)
	case sPrint:
		for _, it := range s.items {
			if it.op == "str" && it.kind == nNum {
				in.out.WriteString(unescape(it.name))
				continue
			}
			v := in.eval(it)
			in.print(v)
			in.last = v
		}
	case sBlock:
		for _, c := range s.list {
			in.stmt(c)
		}
	case sIf:
		if !in.eval(s.expr).isZero() {
			in.stmt(s.body)
		} else if s.els != nil {
			in.stmt(s.els)
		}
	case sWhile:
		for !in.eval(s.expr).isZero() {
			if in.loopBody(s.body) {
				break
			}
		}
	case sFor:
		if s.init != nil {
			in.eval(s.init)
		}
		for s.expr == nil || !in.eval(s.expr).isZero() {
			if in.loopBody(s.body) {
				break
			}
			if s.post != nil {
				in.eval(s.post)
			}
		}
	case sBreak:
		panic(breakSignal{})
	case sContinue:
		panic(continueSignal{})
	case sReturn:
		v := zero()
		if s.expr != nil {
			v = in.eval(s.expr)
		}
		panic(returnSignal{v})
	case sHalt:
		panic(haltSignal{})
	case sDefine:
		in.funcs[s.fn.name] = s.fn
	case sLimits:
		fmt.Fprintf(in.out, "BC_BASE_MAX     = 2147483647\nBC_DIM_MAX      = 16777215\nBC_SCALE_MAX    = 2147483647\nBC_STRING_MAX   = 2147483647\nMAX Exponent    = 9223372036854775807\nNumber of vars  = 32767\n")
	case sWarranty:
		in.out.WriteString("This bc is part of wasmsand and comes with ABSOLUTELY NO WARRANTY.\n")
	}
}

// loopBody runs one iteration and reports a break.
func (in *interp) loopBody(s *stmt) (brk bool) {
	defer func() {
		if r := recover(); r != nil {
			switch r.(type) {
			case breakSignal:
				brk = true
			case continueSignal:
			default:
				panic(r)
			}
		}
	}()
	in.stmt(s)
	return false
}

// print writes v in obase, splitting long lines with a backslash.
func (in *interp) print(v Num) {
	s := format(v, in.obase)
	if in.lineLen > 2 {
		for len(s) > in.lineLen-1 {
			in.out.WriteString(s[:in.lineLen-2])
			in.out.WriteString("\\\n")
			s = s[in.lineLen-2:]
		}
	}
	in.out.WriteString(s)
}

func unescape(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'q':
			b.WriteByte('"')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'e':
			b.WriteByte('\\')
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func boolNum(b bool) Num {
	if b {
		return intNum(1)
	}
	return zero()
}

func (in *interp) eval(n *node) Num {
	switch n.kind {
	case nNum:
		if n.ibase != in.ibase || n.num.V == nil {
			n.num, n.ibase = parseNumber(n.name, in.ibase), in.ibase
		}
		return n.num
	case nVar:
		if v, ok := in.vars[n.name]; ok {
			return v
		}
		return zero()
	case nElem:
		return in.arrayOf(n.name).get(in.index(n.a))
	case nSpecial:
		switch n.name {
		case "scale":
			return intNum(int64(in.scale))
		case "ibase":
			return intNum(int64(in.ibase))
		case "obase":
			return intNum(int64(in.obase))
		}
		return in.last
	case nUnary:
		v := in.eval(n.a)
		if n.op == "!" {
			return boolNum(v.isZero())
		}
		return Num{new(big.Int).Neg(v.V), v.Scale}
	case nBinary:
		return in.binary(n)
	case nAssign:
		v := in.eval(n.b)
		if n.op != "=" {
			v = in.arith(n.op[:1], in.eval(n.a), v)
		}
		in.store(n.a, v)
		return v
	case nIncDec:
		old := in.eval(n.a)
		var nv Num
		if n.op == "++" {
			nv = add(old, intNum(1))
		} else {
			nv = sub(old, intNum(1))
		}
		in.store(n.a, nv)
		if n.pre {
			return nv
		}
		return old
	case nBuiltin:
		v := in.eval(n.a)
		switch n.name {
		case "length":
			return intNum(int64(length(v)))
		case "scale":
			return intNum(int64(v.Scale))
		}
		r, ok := sqrtNum(v, in.scale)
		if !ok {
			in.fail("Square root of a negative number")
		}
		return r
	case nCall:
		return in.call(n)
	case nRead:
		return in.read()
	}
	return zero()
}

func (in *interp) read() Num {
	in.fail("read() is not supported")
	return zero()
}

func (in *interp) binary(n *node) Num {
	switch n.op {
	case "&&":
		return boolNum(!in.eval(n.a).isZero() && !in.eval(n.b).isZero())
	case "||":
		return boolNum(!in.eval(n.a).isZero() || !in.eval(n.b).isZero())
	}
	a, b := in.eval(n.a), in.eval(n.b)
	switch n.op {
	case "<":
		return boolNum(cmp(a, b) < 0)
	case "<=":
		return boolNum(cmp(a, b) <= 0)
	case ">":
		return boolNum(cmp(a, b) > 0)
	case ">=":
		return boolNum(cmp(a, b) >= 0)
	case "==":
		return boolNum(cmp(a, b) == 0)
	case "!=":
		return boolNum(cmp(a, b) != 0)
	}
	return in.arith(n.op, a, b)
}

func (in *interp) arith(op string, a, b Num) Num {
	switch op {
	case "+":
		return add(a, b)
	case "-":
		return sub(a, b)
	case "*":
		return mul(a, b, in.scale)
	case "/":
		r, ok := div(a, b, in.scale)
		if !ok {
			in.fail("Divide by zero")
		}
		return r
	case "%":
		r, ok := mod(a, b, in.scale)
		if !ok {
			in.fail("Modulo by zero")
		}
		return r
	case "^":
		if b.Scale > 0 && b.rescale(0).rescale(b.Scale).V.Cmp(b.V) != 0 {
			in.out.Flush()
			fmt.Fprintf(in.env.Stderr, "Runtime warning (func=(main), adr=0): non-zero scale in exponent\n")
		}
		e := b.rescale(0).V
		if !e.IsInt64() || e.Int64() > 1<<24 || e.Int64() < -(1<<24) {
			in.fail("exponent too large in raise")
		}
		r, ok := power(a, e.Int64(), in.scale)
		if !ok {
			in.fail("Divide by zero")
		}
		return r
	}
	return zero()
}

func (in *interp) index(n *node) int {
	v := toInt64(in.eval(n))
	if v < 0 || v > 16777215 {
		in.fail("Array index out of range")
	}
	return int(v)
}

func (in *interp) arrayOf(name string) *array {
	a, ok := in.arrays[name]
	if !ok {
		a = &array{}
		in.arrays[name] = a
	}
	return a
}

func (in *interp) store(n *node, v Num) {
	switch n.kind {
	case nVar:
		in.vars[n.name] = v
	case nElem:
		in.arrayOf(n.name).set(in.index(n.a), v)
	case nSpecial:
		i := toInt64(v)
		switch n.name {
		case "scale":
			if i < 0 {
				in.fail("negative scale")
			}
			in.scale = int(min(i, 1<<20))
		case "ibase":
			in.ibase = int(max(2, min(i, 16)))
		case "obase":
			if i < 2 {
				in.fail("Invalid output base")
			}
			in.obase = int(min(i, 1<<20))
		case "last":
			in.last = v
		}
	}
}

// call runs a user function or, with -l, a math library function.
// Parameters and autos are dynamically scoped, as in bc.
func (in *interp) call(n *node) (result Num) {
	f, ok := in.funcs[n.name]
	if !ok {
		if in.mathlib {
			if v, ok := in.mathCall(n); ok {
				return v
			}
		}
		in.fail("Function %s not defined.", n.name)
	}
	if len(n.args) != len(f.params) {
		in.fail("Parameter number mismatch")
	}
	in.depth++
	if in.depth > 10000 {
		in.depth = 0
		in.fail("function call nesting too deep")
	}
	// Evaluate arguments before binding anything.
	vals := make([]Num, len(n.args))
	arrs := make([]*array, len(n.args))
	for i, a := range n.args {
		if f.params[i].array {
			if a.kind != nArray {
				in.fail("Parameter type mismatch")
			}
			arrs[i] = in.arrayOf(a.name).clone()
		} else {
			if a.kind == nArray {
				in.fail("Parameter type mismatch")
			}
			vals[i] = in.eval(a)
		}
	}
	type savedVar struct {
		v  Num
		ok bool
	}
	savedVars := map[string]savedVar{}
	savedArrs := map[string]*array{}
	bind := func(p param) {
		if p.array {
			if _, done := savedArrs[p.name]; !done {
				savedArrs[p.name] = in.arrays[p.name]
			}
			return
		}
		if _, done := savedVars[p.name]; !done {
			v, ok := in.vars[p.name]
			savedVars[p.name] = savedVar{v, ok}
		}
	}
	for _, p := range f.params {
		bind(p)
	}
	for _, p := range f.autos {
		bind(p)
	}
	for i, p := range f.params {
		if p.array {
			in.arrays[p.name] = arrs[i]
		} else {
			in.vars[p.name] = vals[i]
		}
	}
	for _, p := range f.autos {
		if p.array {
			in.arrays[p.name] = &array{}
		} else {
			in.vars[p.name] = zero()
		}
	}
	defer func() {
		in.depth--
		for k, s := range savedVars {
			if s.ok {
				in.vars[k] = s.v
			} else {
				delete(in.vars, k)
			}
		}
		for k, a := range savedArrs {
			if a == nil {
				delete(in.arrays, k)
			} else {
				in.arrays[k] = a
			}
		}
		if r := recover(); r != nil {
			rs, ok := r.(returnSignal)
			if !ok {
				panic(r)
			}
			result = rs.v
		}
	}()
	for _, s := range f.body {
		in.stmt(s)
	}
	return zero()
}
