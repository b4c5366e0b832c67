package shell

import "strings"

// This file evaluates shell arithmetic the way bash 5.2 does. The
// interpreter first expands the text of $(( )), (( )), the arguments of let,
// indexed array subscripts, assignments to integer variables and the
// operands of the arithmetic operators of [[ ]], and then hands the
// resulting string to arithEval.
//
// The evaluator reproduces bash's parser rather than a textbook grammar,
// because scripts observe its quirks: the lexer looks one token past every
// variable name (so x=… does not evaluate the old value of x, and a bad
// token after a name is reported before the name is evaluated), numbers are
// checked when they are read even where they are not evaluated (0 && 08 is an
// error), the third operand of ?: is a conditional expression rather than an
// assignment, and the error messages quote the rest of the expression from
// the token at which the error was found.

// arithVars is what arithmetic needs from the interpreter. Names are
// already validated identifiers; sub is the subscript text exactly as
// written between [ and ] (the interpreter decides whether it is an
// arithmetic index or an associative key), hasSub false for plain names.
//
// The evaluator does not look at set: an unset variable and an empty one
// are both 0, and set -u is for arithGet to enforce.
//
// An error returned by either method stops the evaluation and is returned
// by arithEval unchanged, so the interpreter can use its own error types
// (for example for set -u's "x: unbound variable" or "r: readonly
// variable"). Where bash prints a diagnostic and carries on with the value
// 0 (as for ${a[-9]} on a short array), arithGet should print it itself
// and return an empty value and a nil error.
type arithVars interface {
	arithGet(name, sub string, hasSub bool) (value string, set bool, err error)
	arithSet(name, sub string, hasSub bool, value int64) error
}

// arithIndexer may be implemented by an arithVars to make element updates
// evaluate their subscript once, as bash does: in ++a[i++], a[i++]--,
// a[i++]+=2 bash evaluates i++ when it reads the element and stores the
// result in that same element. When vars implements arithIndexer, the
// evaluator calls arithIndex before every arithGet of a subscripted name
// and passes the key it returns, instead of the subscript text, to
// arithGet and to the arithSet that writes the element back. arithIndex
// should evaluate the subscript of an indexed array and return the index
// in decimal, and return the subscript of an associative array unchanged.
//
// A plain assignment a[sub]=v still passes the subscript text to arithSet,
// after the right-hand side has been evaluated, as bash evaluates it then.
type arithIndexer interface {
	arithIndex(name, sub string) (key string, err error)
}

// arithNester must be implemented by an arithVars whose methods call
// arithEval themselves, typically to evaluate array subscripts. It returns
// the interpreter's arithStack, which nested evaluations share the way
// bash's evaluator shares one recursion counter: a value that refers to
// itself through a subscript (x='a[x]') then ends with bash's "expression
// recursion level exceeded" error. Without it, each arithEval call starts
// counting afresh and such a value recurses until the Go stack overflows,
// which kills the process.
type arithNester interface {
	arithStack() *arithStack
}

// arithStack is the evaluator state that nested evaluations share. The zero
// value is ready to use; it must not be shared between goroutines.
type arithStack struct {
	depth int          // expressions being evaluated (bash's expr_depth)
	nest  int          // recursive descent levels, bounded to protect the Go stack
	top   *arithParser // innermost expression, which bash names in errors
}

const (
	// arithMaxDepth is bash's MAX_EXPR_RECURSION_LEVEL: at most this many
	// expressions (the top-level one and the values of variables being
	// evaluated) can be active at once.
	arithMaxDepth = 1024
	// arithMaxNest bounds the nesting of parentheses, unary operators and
	// chained ?:, ** and assignments. bash has no limit and crashes with a
	// stack overflow somewhere below 100000 levels.
	arithMaxNest = 16384
)

// arithError is an error in an arithmetic expression. Its Error text is
// bash's, for example
//
//	1/0: division by 0 (error token is "0")
//
// and the interpreter prints it after its usual prefix, which in bash 5.2
// is "bash: line N: " for $(( )), array subscripts and assignments to
// integer variables, and "bash: line N: let: ", "bash: line N: ((: " (also
// for the arithmetic for loop), "bash: line N: [[: " or
// "bash: line N: declare: " within those commands.
type arithError struct {
	expr  string // the expression, without leading blanks
	msg   string // what is wrong
	token string // the rest of the expression from the offending token
}

func (e *arithError) Error() string {
	return e.expr + ": " + e.msg + ` (error token is "` + e.token + `")`
}

// arithToken is a token of an arithmetic expression.
type arithToken int

const (
	arithEOF      arithToken = iota
	arithNum                 // a number
	arithName                // a variable name, possibly with a subscript
	arithAssign              // =
	arithOpAssign            // *= /= %= += -= <<= >>= &= ^= |=
	arithEq                  // ==
	arithNe                  // !=
	arithLt                  // <
	arithLe                  // <=
	arithGt                  // >
	arithGe                  // >=
	arithAndAnd              // &&
	arithOrOr                // ||
	arithShl                 // <<
	arithShr                 // >>
	arithPlus                // +
	arithMinus               // -
	arithMul                 // *
	arithDiv                 // /
	arithMod                 // %
	arithPower               // **
	arithNot                 // !
	arithBitNot              // ~
	arithBitAnd              // &
	arithBitOr               // |
	arithBitXor              // ^
	arithLParen              // (
	arithRParen              // )
	arithQuestion            // ?
	arithColon               // :
	arithComma               // ,
	arithPreInc              // ++ before a name
	arithPreDec              // -- before a name
	arithPostInc             // ++ after a name
	arithPostDec             // -- after a name
)

// arithSingle maps the one-character operators to their tokens.
func arithSingle(c byte) (arithToken, bool) {
	switch c {
	case '=':
		return arithAssign, true
	case '<':
		return arithLt, true
	case '>':
		return arithGt, true
	case '+':
		return arithPlus, true
	case '-':
		return arithMinus, true
	case '*':
		return arithMul, true
	case '/':
		return arithDiv, true
	case '%':
		return arithMod, true
	case '!':
		return arithNot, true
	case '~':
		return arithBitNot, true
	case '&':
		return arithBitAnd, true
	case '|':
		return arithBitOr, true
	case '^':
		return arithBitXor, true
	case '(':
		return arithLParen, true
	case ')':
		return arithRParen, true
	case '?':
		return arithQuestion, true
	case ':':
		return arithColon, true
	case ',':
		return arithComma, true
	}
	return arithEOF, false
}

// arithLvalue remembers the variable a name token was last evaluated from,
// so that ++, -- and OP= store into the element that was read.
type arithLvalue struct {
	ok     bool
	name   string
	key    string // the subscript, or the key arithIndex returned for it
	hasSub bool
}

// arithState is the part of the parser that a look-ahead saves and
// restores.
type arithState struct {
	pos      int        // where the next token starts to be scanned
	tokStart int        // start of the last token read (end of input excluded)
	cur      arithToken // the current token
	last     arithToken // the token before it, or arithNum after an operation
	val      int64      // value of the current number or name token
	assignOp arithToken // the operator of an arithOpAssign token
	// The last name token read: name and subscript.
	name    string
	sub     string
	hasSub  bool
	hasName bool
	noeval  int // >0 while parsing operands that are not evaluated
	lval    arithLvalue
}

// arithParser evaluates one expression while parsing it.
type arithParser struct {
	expr  string
	vars  arithVars
	stack *arithStack
	arithState
}

// arithEval evaluates expr with bash 5.2's semantics and returns its value.
// An empty or blank expression is 0. Errors in the expression are
// *arithError values; errors from vars are returned unchanged.
func arithEval(expr string, vars arithVars) (int64, error) {
	var stack *arithStack
	if n, ok := vars.(arithNester); ok {
		stack = n.arithStack()
	}
	if stack == nil {
		stack = new(arithStack)
	}
	return arithSubexpr(expr, vars, stack)
}

// arithSubexpr evaluates expr as a complete expression: the top-level one
// or the value of a variable.
func arithSubexpr(expr string, vars arithVars, stack *arithStack) (int64, error) {
	if strings.TrimLeft(expr, " \t\n") == "" {
		return 0, nil
	}
	if stack.depth >= arithMaxDepth {
		if stack.top != nil {
			return 0, stack.top.fail("expression recursion level exceeded")
		}
		return 0, &arithError{expr: arithTrimBlanks(expr), msg: "expression recursion level exceeded", token: expr}
	}
	p := &arithParser{expr: expr, vars: vars, stack: stack}
	outer := stack.top
	stack.depth++
	stack.top = p
	defer func() {
		stack.depth--
		stack.top = outer
	}()
	if err := p.next(); err != nil {
		return 0, err
	}
	v, err := p.comma()
	if err != nil {
		return 0, err
	}
	if p.cur != arithEOF {
		return 0, p.fail("syntax error in expression")
	}
	return v, nil
}

// arithTrimBlanks removes the leading spaces and tabs that bash leaves out
// when it quotes an expression in an error.
func arithTrimBlanks(s string) string {
	return strings.TrimLeft(s, " \t")
}

// fail returns an error about the last token read.
func (p *arithParser) fail(msg string) error {
	return p.failAt(msg, p.tokStart)
}

// failAt returns an error whose error token starts at offset pos.
func (p *arithParser) failAt(msg string, pos int) error {
	return &arithError{expr: arithTrimBlanks(p.expr), msg: msg, token: p.expr[pos:]}
}

// nested calls parse for an operand that can nest without bound, such as
// the expression in parentheses or the operand of a unary operator, and
// fails when too many are nested.
func (p *arithParser) nested(parse func() (int64, error)) (int64, error) {
	if p.stack.nest >= arithMaxNest {
		return 0, p.fail("expression recursion level exceeded")
	}
	p.stack.nest++
	defer func() { p.stack.nest-- }()
	return parse()
}

// arithIsBlank reports whether c separates tokens: space, tab or newline.
func arithIsBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

func arithIsDigit(c byte) bool { return '0' <= c && c <= '9' }

func arithIsAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func arithIsNameStart(c byte) bool { return arithIsAlpha(c) || c == '_' }

func arithIsNameChar(c byte) bool { return arithIsAlpha(c) || arithIsDigit(c) || c == '_' }

// arithIsNumChar reports whether c can be part of a number token.
func arithIsNumChar(c byte) bool {
	return arithIsAlpha(c) || arithIsDigit(c) || c == '#' || c == '@' || c == '_'
}

// next reads the next token into p.cur.
func (p *arithParser) next() error {
	s := p.expr
	i := p.pos
	for i < len(s) && arithIsBlank(s[i]) {
		i++
	}
	if i == len(s) {
		p.last, p.cur, p.pos = p.cur, arithEOF, i
		return nil
	}
	p.tokStart = i
	c := s[i]
	switch {
	case arithIsNameStart(c):
		return p.readName(i)
	case arithIsDigit(c):
		j := i + 1
		for j < len(s) && arithIsNumChar(s[j]) {
			j++
		}
		v, msg := arithParseNumber(s[i:j])
		if msg != "" {
			// bash cuts the expression at the end of the bad number.
			return &arithError{expr: arithTrimBlanks(s[:j]), msg: msg, token: s[i:j]}
		}
		p.val = v
		p.last, p.cur, p.pos = p.cur, arithNum, j
		return nil
	}
	var c1 byte
	if i+1 < len(s) {
		c1 = s[i+1]
	}
	j := i + 2 // the end of a two-character operator
	var tok arithToken
	switch {
	case c == '<' && c1 == '=':
		tok = arithLe
	case c == '>' && c1 == '=':
		tok = arithGe
	case c == '=' && c1 == '=':
		tok = arithEq
	case c == '!' && c1 == '=':
		tok = arithNe
	case c == '>' && c1 == '>':
		tok = arithShr
	case c == '<' && c1 == '<':
		tok = arithShl
	case c == '&' && c1 == '&':
		tok = arithAndAnd
	case c == '|' && c1 == '|':
		tok = arithOrOr
	case c == '*' && c1 == '*':
		tok = arithPower
	case (c == '+' || c == '-') && c1 == c && p.cur == arithName:
		tok = arithPostInc
		if c == '-' {
			tok = arithPostDec
		}
	case (c == '+' || c == '-') && c1 == c && p.cur == arithNum &&
		(p.last == arithPreInc || p.last == arithPreDec):
		// ++x++ and the like.
		return p.fail(s[i:i+2] + ": assignment requires lvalue")
	case (c == '+' || c == '-') && c1 == c:
		k := j
		for k < len(s) && arithIsBlank(s[k]) {
			k++
		}
		if k < len(s) && arithIsNameStart(s[k]) {
			tok = arithPreInc
			if c == '-' {
				tok = arithPreDec
			}
		} else {
			// Two unary or binary operators, as in 1++2 or --5.
			tok, _ = arithSingle(c)
			j = i + 1
		}
	case c1 == '=' && strings.IndexByte("*/%+-&^|", c) >= 0:
		tok = arithOpAssign
		p.assignOp, _ = arithSingle(c)
	default:
		var ok bool
		tok, ok = arithSingle(c)
		if !ok {
			if p.cur == arithNum || p.cur == arithName {
				return p.fail("syntax error: invalid arithmetic operator")
			}
			return p.fail("syntax error: operand expected")
		}
		j = i + 1
	}
	if (tok == arithShl || tok == arithShr) && j < len(s) && s[j] == '=' {
		p.assignOp = tok
		tok = arithOpAssign
		j++
	}
	p.last, p.cur, p.pos = p.cur, tok, j
	return nil
}

// readName reads the name token that starts at offset i, with its subscript
// if one follows, and evaluates the variable unless the next token is =.
func (p *arithParser) readName(i int) error {
	s := p.expr
	j := i + 1
	for j < len(s) && arithIsNameChar(s[j]) {
		j++
	}
	p.name, p.sub, p.hasSub, p.hasName = s[i:j], "", false, true
	if j < len(s) && s[j] == '[' {
		k := arithSkipSubscript(s, j)
		if k < 0 {
			return p.fail("bad array subscript")
		}
		p.sub, p.hasSub = s[j+1:k], true
		j = k + 1
	}
	if p.lval.ok {
		// A new name token starts a new lvalue.
		p.lval = arithLvalue{}
	}
	p.last, p.cur, p.pos = p.cur, arithName, j

	// Look at the next token without evaluating anything: an assignment
	// does not need the variable's old value, which may not even be a
	// valid expression.
	saved := p.arithState
	p.noeval = 1
	err := p.next()
	peek := p.cur
	p.arithState = saved
	if err != nil {
		return err
	}
	p.val = 0
	if p.last == arithPreInc || p.last == arithPreDec || peek != arithAssign {
		v, err := p.evalName()
		if err != nil {
			return err
		}
		p.val = v
	}
	return nil
}

// evalName returns the value of the variable of the current name token,
// itself evaluated as an expression, and remembers it as the lvalue.
func (p *arithParser) evalName() (int64, error) {
	if p.noeval > 0 {
		return 0, nil
	}
	key := p.sub
	if p.hasSub {
		if ix, ok := p.vars.(arithIndexer); ok {
			var err error
			if key, err = ix.arithIndex(p.name, p.sub); err != nil {
				return 0, err
			}
		}
	}
	value, _, err := p.vars.arithGet(p.name, key, p.hasSub)
	if err != nil {
		return 0, err
	}
	var v int64
	if value != "" {
		if v, err = arithSubexpr(value, p.vars, p.stack); err != nil {
			return 0, err
		}
	}
	p.lval = arithLvalue{ok: true, name: p.name, key: key, hasSub: p.hasSub}
	return v, nil
}

// store writes v back into the variable the current lvalue was read from,
// or into the variable of the current name token if there is none.
func (p *arithParser) store(v int64) error {
	if p.noeval > 0 {
		return nil
	}
	if p.lval.ok {
		return p.vars.arithSet(p.lval.name, p.lval.key, p.lval.hasSub, v)
	}
	if !p.hasName {
		return nil
	}
	return p.vars.arithSet(p.name, p.sub, p.hasSub, v)
}

// arithSkipSubscript returns the offset of the ] that closes the [ at offset
// open in s, or -1 if there is none. Like bash it skips quoted strings,
// backslash-escaped characters, `…`, $(…) and ${…}, and counts nested
// brackets.
func arithSkipSubscript(s string, open int) int {
	depth := 1
	for i := open + 1; i < len(s); {
		switch c := s[i]; c {
		case '\\':
			i += 2
		case '[':
			depth++
			i++
		case ']':
			depth--
			if depth == 0 {
				return i
			}
			i++
		case '\'', '`':
			k := strings.IndexByte(s[i+1:], c)
			if k < 0 {
				return -1
			}
			i += k + 2
		case '"':
			i = arithSkipDoubleQuoted(s, i+1)
		case '$':
			if i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '{') {
				i = arithSkipGroup(s, i+1)
			} else {
				i++
			}
		default:
			i++
		}
		if i < 0 {
			return -1
		}
	}
	return -1
}

// arithSkipDoubleQuoted returns the offset after the " that closes a
// double-quoted string whose text starts at offset i, or -1.
func arithSkipDoubleQuoted(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case '\\':
			i += 2
		case '"':
			return i + 1
		case '`':
			k := strings.IndexByte(s[i+1:], '`')
			if k < 0 {
				return -1
			}
			i += k + 2
		case '$':
			if i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '{') {
				if i = arithSkipGroup(s, i+1); i < 0 {
					return -1
				}
			} else {
				i++
			}
		default:
			i++
		}
	}
	return -1
}

// arithSkipGroup returns the offset after the bracket that closes the ( or
// { at offset open, or -1.
func arithSkipGroup(s string, open int) int {
	closer := byte(')')
	if s[open] == '{' {
		closer = '}'
	}
	depth := 1
	for i := open + 1; i < len(s); {
		switch c := s[i]; c {
		case '\\':
			i += 2
		case '\'', '`':
			k := strings.IndexByte(s[i+1:], c)
			if k < 0 {
				return -1
			}
			i += k + 2
		case '"':
			if i = arithSkipDoubleQuoted(s, i+1); i < 0 {
				return -1
			}
		case s[open]:
			depth++
			i++
		case closer:
			depth--
			i++
			if depth == 0 {
				return i
			}
		default:
			i++
		}
	}
	return -1
}

// arithParseNumber converts a number token: decimal, 0NNN octal, 0xNNN
// hexadecimal or BASE#DIGITS. It returns bash's message for an invalid
// number. Overflow wraps around, as in bash.
func arithParseNumber(s string) (int64, string) {
	base := int64(10)
	foundBase := false
	i := 0
	if s[0] == '0' {
		if len(s) == 1 {
			return 0, ""
		}
		i = 1
		if s[1] == 'x' || s[1] == 'X' {
			base = 16
			i = 2
		} else {
			base = 8
		}
		foundBase = true
	}
	var v int64
	for ; i < len(s); i++ {
		c := s[i]
		if c == '#' {
			if foundBase {
				return 0, "invalid number"
			}
			if v < 2 || v > 64 {
				return 0, "invalid arithmetic base"
			}
			base, v, foundBase = v, 0, true
			if i+1 == len(s) || s[i+1] == '#' {
				return 0, "invalid integer constant"
			}
			continue
		}
		var d int64
		switch {
		case arithIsDigit(c):
			d = int64(c - '0')
		case 'a' <= c && c <= 'z':
			d = int64(c-'a') + 10
		case 'A' <= c && c <= 'Z':
			if base <= 36 {
				d = int64(c-'A') + 10
			} else {
				d = int64(c-'A') + 36
			}
		case c == '@':
			d = 62
		default: // '_'
			d = 63
		}
		if d >= base {
			return 0, "value too great for base"
		}
		v = v*base + d
	}
	return v, ""
}

// The rest of the parser follows bash's grammar, from the lowest
// precedence to the highest. Each method is called with the first token of
// its operand in p.cur and leaves the token after the operand there.

// comma parses expr , expr.
func (p *arithParser) comma() (int64, error) {
	v, err := p.assign()
	for err == nil && p.cur == arithComma {
		if err = p.next(); err == nil {
			v, err = p.assign()
		}
	}
	return v, err
}

// assign parses name = expr and name OP= expr, which group to the right.
func (p *arithParser) assign() (int64, error) {
	v, err := p.cond()
	if err != nil || (p.cur != arithAssign && p.cur != arithOpAssign) {
		return v, err
	}
	opAssign := p.cur == arithOpAssign
	if p.last != arithName {
		return 0, p.fail("attempted assignment to non-variable")
	}
	if !p.hasName {
		return 0, p.fail("syntax error in variable assignment")
	}
	op, old := p.assignOp, v
	name, sub, hasSub, lval := p.name, p.sub, p.hasSub, p.lval
	if err := p.next(); err != nil {
		return 0, err
	}
	if v, err = p.nested(p.assign); err != nil {
		return 0, err
	}
	if opAssign {
		if (op == arithDiv || op == arithMod) && v == 0 {
			if p.noeval == 0 {
				return 0, p.fail("division by 0")
			}
			v = 1
		}
		v = arithBinary(op, old, v)
	}
	if p.noeval == 0 {
		if opAssign && lval.ok {
			err = p.vars.arithSet(lval.name, lval.key, lval.hasSub, v)
		} else {
			err = p.vars.arithSet(name, sub, hasSub, v)
		}
		if err != nil {
			return 0, err
		}
	}
	p.lval = arithLvalue{}
	p.hasName = false
	return v, nil
}

// arithBinary applies a binary operator to two evaluated operands, with
// wraparound. The caller has checked for division by zero.
func arithBinary(op arithToken, x, y int64) int64 {
	switch op {
	case arithMul:
		return x * y
	case arithDiv:
		return x / y // Go, like bash, gives MinInt64 for MinInt64 / -1.
	case arithMod:
		return x % y
	case arithPlus:
		return x + y
	case arithMinus:
		return x - y
	case arithShl:
		return x << (uint64(y) & 63) // the count modulo 64, as on amd64
	case arithShr:
		return x >> (uint64(y) & 63)
	case arithBitAnd:
		return x & y
	case arithBitOr:
		return x | y
	case arithBitXor:
		return x ^ y
	case arithLt:
		return arithBool(x < y)
	case arithLe:
		return arithBool(x <= y)
	case arithGt:
		return arithBool(x > y)
	case arithGe:
		return arithBool(x >= y)
	case arithEq:
		return arithBool(x == y)
	case arithNe:
		return arithBool(x != y)
	}
	panic("arith: bad binary operator")
}

func arithBool(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// cond parses c ? expr : cond. Only the operand that is chosen is
// evaluated; the middle operand may be a comma expression and the last one
// may not contain an assignment, as in bash.
func (p *arithParser) cond() (int64, error) {
	c, err := p.logical(arithOrOr)
	if err != nil || p.cur != arithQuestion {
		return c, err
	}
	if c == 0 {
		p.noeval++
	}
	if err := p.next(); err != nil {
		return 0, err
	}
	if p.cur == arithEOF || p.cur == arithColon {
		return 0, p.fail("expression expected")
	}
	yes, err := p.nested(p.comma)
	if err != nil {
		return 0, err
	}
	if c == 0 {
		p.noeval--
	}
	if p.cur != arithColon {
		return 0, p.fail("`:' expected for conditional expression")
	}
	if c != 0 {
		p.noeval++
	}
	if err := p.next(); err != nil {
		return 0, err
	}
	if p.cur == arithEOF {
		return 0, p.fail("expression expected")
	}
	no, err := p.nested(p.cond)
	if err != nil {
		return 0, err
	}
	if c != 0 {
		p.noeval--
	}
	p.last = arithNum
	if c != 0 {
		return yes, nil
	}
	return no, nil
}

// logical parses x || y (op arithOrOr) and x && y (op arithAndAnd), which
// do not evaluate y when x decides the result.
func (p *arithParser) logical(op arithToken) (int64, error) {
	operand := func() (int64, error) { return p.logical(arithAndAnd) }
	if op == arithAndAnd {
		operand = func() (int64, error) { return p.binary(0) }
	}
	x, err := operand()
	for err == nil && p.cur == op {
		skip := (op == arithOrOr) == (x != 0)
		if skip {
			p.noeval++
		}
		if err = p.next(); err != nil {
			break
		}
		var y int64
		if y, err = operand(); err != nil {
			break
		}
		if skip {
			p.noeval--
		}
		if op == arithOrOr {
			x = arithBool(x != 0 || y != 0)
		} else {
			x = arithBool(x != 0 && y != 0)
		}
		p.last = arithNum
	}
	return x, err
}

// arithLevels is the number of precedence levels of the left-associative
// binary operators.
const arithLevels = 8

// arithLevel returns the precedence level of a left-associative binary
// operator, from 0 for | (the lowest) to 7 for * / %, or -1 for any other
// token.
func arithLevel(t arithToken) int {
	switch t {
	case arithBitOr:
		return 0
	case arithBitXor:
		return 1
	case arithBitAnd:
		return 2
	case arithEq, arithNe:
		return 3
	case arithLt, arithLe, arithGt, arithGe:
		return 4
	case arithShl, arithShr:
		return 5
	case arithPlus, arithMinus:
		return 6
	case arithMul, arithDiv, arithMod:
		return 7
	}
	return -1
}

// binary parses the operators of precedence level i and above.
func (p *arithParser) binary(i int) (int64, error) {
	if i == arithLevels {
		return p.power()
	}
	x, err := p.binary(i + 1)
	for err == nil && arithLevel(p.cur) == i {
		op := p.cur
		opEnd := p.pos
		if err = p.next(); err != nil {
			break
		}
		var y int64
		if y, err = p.binary(i + 1); err != nil {
			break
		}
		if (op == arithDiv || op == arithMod) && y == 0 {
			if p.noeval == 0 {
				// The error token is the divisor, without leading blanks.
				for opEnd < len(p.expr) && (p.expr[opEnd] == ' ' || p.expr[opEnd] == '\t') {
					opEnd++
				}
				return 0, p.failAt("division by 0", opEnd)
			}
			y = 1
		}
		x = arithBinary(op, x, y)
		p.last = arithNum
	}
	return x, err
}

// power parses x ** y, which groups to the right and binds less tightly
// than the unary operators: -2**2 is 4.
func (p *arithParser) power() (int64, error) {
	x, err := p.unary()
	if err != nil || p.cur != arithPower {
		return x, err
	}
	if err := p.next(); err != nil {
		return 0, err
	}
	y, err := p.nested(p.power)
	if err != nil {
		return 0, err
	}
	p.last = arithNum
	if y == 0 {
		return 1, nil
	}
	if y < 0 {
		// Even where the operand is not evaluated, as in 0 && 2**-1.
		return 0, p.fail("exponent less than 0")
	}
	return arithPow(x, y), nil
}

// arithPow returns x**y for y > 0, wrapping around.
func arithPow(x, y int64) int64 {
	r := int64(1)
	for y != 0 {
		if y&1 != 0 {
			r *= x
		}
		y >>= 1
		x *= x
	}
	return r
}

// unary parses ! ~ - + applied to an operand.
func (p *arithParser) unary() (int64, error) {
	op := p.cur
	if op != arithNot && op != arithBitNot && op != arithMinus && op != arithPlus {
		return p.primary()
	}
	if err := p.next(); err != nil {
		return 0, err
	}
	x, err := p.nested(p.unary)
	if err != nil {
		return 0, err
	}
	p.last = arithNum
	switch op {
	case arithNot:
		return arithBool(x == 0), nil
	case arithBitNot:
		return ^x, nil
	case arithMinus:
		return -x, nil
	}
	return x, nil
}

// primary parses a number, a variable with its optional ++ or --, ++ or --
// before a variable, or a parenthesized expression.
func (p *arithParser) primary() (int64, error) {
	switch p.cur {
	case arithPreInc, arithPreDec:
		delta := int64(1)
		if p.cur == arithPreDec {
			delta = -1
		}
		p.last = p.cur
		if err := p.next(); err != nil {
			return 0, err
		}
		if p.cur != arithName {
			return 0, p.fail("identifier expected after pre-increment or pre-decrement")
		}
		v := p.val + delta
		if err := p.store(v); err != nil {
			return 0, err
		}
		p.cur = arithNum // so that ++x++ and ++x=1 are errors
		return v, p.next()

	case arithLParen:
		if err := p.next(); err != nil {
			return 0, err
		}
		v, err := p.nested(p.comma)
		if err != nil {
			return 0, err
		}
		if p.cur != arithRParen {
			return 0, p.fail("missing `)'")
		}
		return v, p.next()

	case arithNum:
		return p.val, p.next()

	case arithName:
		v := p.val
		saved := p.arithState
		p.noeval = 1
		if err := p.next(); err != nil {
			return 0, err
		}
		if p.cur != arithPostInc && p.cur != arithPostDec {
			p.arithState = saved
			return v, p.next()
		}
		delta := int64(1)
		if p.cur == arithPostDec {
			delta = -1
		}
		// Keep the position after ++ but restore the variable.
		p.name, p.sub, p.hasSub, p.hasName = saved.name, saved.sub, saved.hasSub, saved.hasName
		p.noeval, p.lval = saved.noeval, saved.lval
		p.last = arithName
		if err := p.store(v + delta); err != nil {
			return 0, err
		}
		p.cur = arithNum // so that x++=1 is an error
		return v, p.next()
	}
	return 0, p.fail("syntax error: operand expected")
}
