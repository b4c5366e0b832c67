package bc

import (
	"fmt"
	"strings"
)

// Token kinds.
const (
	tEOF = iota
	tNewline
	tNum
	tIdent
	tString
	tOp // operators and punctuation, in tok.s
	tKeyword
)

type token struct {
	kind int
	s    string
	line int
}

var keywords = map[string]bool{
	"if": true, "else": true, "while": true, "for": true, "break": true, "continue": true,
	"define": true, "auto": true, "return": true, "quit": true, "halt": true, "print": true,
	"length": true, "scale": true, "sqrt": true, "ibase": true, "obase": true, "last": true,
	"limits": true, "read": true, "warranty": true,
}

// lexer splits bc source into tokens.
type lexer struct {
	src  string
	pos  int
	line int
}

func (l *lexer) next() (token, error) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			l.pos++
		case c == '\\' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '\n':
			l.pos += 2
			l.line++
		case c == '#':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
		case c == '/' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '*':
			end := strings.Index(l.src[l.pos+2:], "*/")
			if end < 0 {
				l.pos = len(l.src)
				return token{}, fmt.Errorf("comment end not found")
			}
			l.line += strings.Count(l.src[l.pos:l.pos+2+end], "\n")
			l.pos += end + 4
		default:
			goto tok
		}
	}
	return token{kind: tEOF, line: l.line}, nil
tok:
	c := l.src[l.pos]
	start := l.pos
	switch {
	case c == '\n':
		l.pos++
		l.line++
		return token{kind: tNewline, s: "\n", line: l.line - 1}, nil
	case c >= '0' && c <= '9' || c >= 'A' && c <= 'F' || c == '.' && l.pos+1 < len(l.src) && isDigit(l.src[l.pos+1]):
		var b strings.Builder
		dot := false
		for l.pos < len(l.src) {
			c := l.src[l.pos]
			if c == '\\' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '\n' {
				l.pos += 2
				l.line++
				continue
			}
			if isDigit(c) || c >= 'A' && c <= 'F' || c == '.' && !dot {
				if c == '.' {
					dot = true
				}
				b.WriteByte(c)
				l.pos++
				continue
			}
			break
		}
		return token{kind: tNum, s: b.String(), line: l.line}, nil
	case c == '.':
		l.pos++
		return token{kind: tKeyword, s: "last", line: l.line}, nil
	case c >= 'a' && c <= 'z' || c == '_':
		for l.pos < len(l.src) && (l.src[l.pos] >= 'a' && l.src[l.pos] <= 'z' || isDigit(l.src[l.pos]) || l.src[l.pos] == '_') {
			l.pos++
		}
		w := l.src[start:l.pos]
		if keywords[w] {
			return token{kind: tKeyword, s: w, line: l.line}, nil
		}
		return token{kind: tIdent, s: w, line: l.line}, nil
	case c == '"':
		end := strings.IndexByte(l.src[l.pos+1:], '"')
		if end < 0 {
			l.pos = len(l.src)
			return token{}, fmt.Errorf("string end not found")
		}
		s := l.src[l.pos+1 : l.pos+1+end]
		l.line += strings.Count(s, "\n")
		l.pos += end + 2
		return token{kind: tString, s: s, line: l.line}, nil
	}
	for _, op := range []string{"^=", "*=", "/=", "%=", "+=", "-=", "==", "<=", ">=", "!=", "++", "--", "&&", "||"} {
		if strings.HasPrefix(l.src[l.pos:], op) {
			l.pos += 2
			return token{kind: tOp, s: op, line: l.line}, nil
		}
	}
	if strings.IndexByte("+-*/%^=<>!(){}[];,", c) >= 0 {
		l.pos++
		return token{kind: tOp, s: string(c), line: l.line}, nil
	}
	l.pos++
	return token{}, fmt.Errorf("illegal character: %c", c)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// Node kinds of the syntax tree.
const (
	nNum = iota
	nVar
	nElem    // array element: name, index in a
	nArray   // whole array (as a call argument): name
	nSpecial // scale, ibase, obase, last
	nUnary   // op, a
	nBinary  // op, a, b
	nAssign  // op ("=", "+="...), a (lvalue), b
	nIncDec  // op ("++"/"--"), pre, a
	nCall    // name, args
	nBuiltin // name (length, scale, sqrt), a
	nRead
)

type node struct {
	kind  int
	op    string
	name  string
	num   Num // nNum: the converted constant, cached for ibase
	ibase int
	pre   bool
	a, b  *node
	args  []*node
}

// Statement kinds.
const (
	sExpr = iota
	sString
	sPrint
	sIf
	sWhile
	sFor
	sBreak
	sContinue
	sReturn
	sHalt
	sBlock
	sDefine
	sQuit
	sEmpty
	sLimits
	sWarranty
	sNewline // end of an input line: run what came before
)

type stmt struct {
	kind       int
	expr       *node
	init, post *node
	body, els  *stmt
	list       []*stmt
	items      []*node // print: strings are nNum nodes with op "str"
	str        string
	fn         *function
}

type function struct {
	name   string
	params []param
	autos  []param
	body   []*stmt
}

type param struct {
	name  string
	array bool
}

// parser reads statements one at a time so the caller can run each
// top-level statement as soon as it is complete, as bc does.
type parser struct {
	lx    *lexer
	tok   token
	peekd bool
	inFn  bool
	loops int
}

type syntaxError struct{ msg string }

func (p *parser) fail(format string, a ...any) {
	panic(syntaxError{fmt.Sprintf(format, a...)})
}

func (p *parser) peek() token {
	if !p.peekd {
		t, err := p.lx.next()
		if err != nil {
			p.fail("%s", err.Error())
		}
		p.tok, p.peekd = t, true
	}
	return p.tok
}

func (p *parser) take() token {
	t := p.peek()
	p.peekd = false
	return t
}

func (p *parser) is(s string) bool {
	t := p.peek()
	return (t.kind == tOp || t.kind == tKeyword) && t.s == s
}

func (p *parser) accept(s string) bool {
	if p.is(s) {
		p.take()
		return true
	}
	return false
}

func (p *parser) expect(s string) {
	if !p.accept(s) {
		p.fail("syntax error")
	}
}

func (p *parser) skipNewlines() {
	for p.peek().kind == tNewline {
		p.take()
	}
}

// statement parses one statement; it returns nil at end of input.
func (p *parser) statement() *stmt {
	t := p.peek()
	switch t.kind {
	case tEOF:
		return nil
	case tNewline:
		p.take()
		return &stmt{kind: sNewline}
	case tString:
		p.take()
		return &stmt{kind: sString, str: t.s}
	case tOp:
		switch t.s {
		case ";":
			p.take()
			return &stmt{kind: sEmpty}
		case "{":
			p.take()
			var list []*stmt
			for {
				for p.peek().kind == tNewline || p.is(";") {
					p.take()
				}
				if p.accept("}") {
					break
				}
				if p.peek().kind == tEOF {
					p.fail("syntax error")
				}
				list = append(list, p.statement())
			}
			return &stmt{kind: sBlock, list: list}
		}
	case tKeyword:
		switch t.s {
		case "quit":
			p.take()
			return &stmt{kind: sQuit}
		case "halt":
			p.take()
			return &stmt{kind: sHalt}
		case "limits":
			p.take()
			return &stmt{kind: sLimits}
		case "warranty":
			p.take()
			return &stmt{kind: sWarranty}
		case "break", "continue":
			p.take()
			if p.loops == 0 {
				p.fail("%s outside a for/while", t.s)
			}
			if t.s == "break" {
				return &stmt{kind: sBreak}
			}
			return &stmt{kind: sContinue}
		case "return":
			p.take()
			if !p.inFn {
				p.fail("return outside a function")
			}
			s := &stmt{kind: sReturn}
			if p.peek().kind != tNewline && !p.is(";") && !p.is("}") && p.peek().kind != tEOF {
				s.expr = p.expr()
			}
			return s
		case "print":
			p.take()
			s := &stmt{kind: sPrint}
			for {
				if p.peek().kind == tString {
					s.items = append(s.items, &node{kind: nNum, op: "str", name: p.take().s})
				} else {
					s.items = append(s.items, p.expr())
				}
				if !p.accept(",") {
					break
				}
			}
			return s
		case "if":
			p.take()
			p.expect("(")
			c := p.expr()
			p.expect(")")
			p.skipNewlines()
			s := &stmt{kind: sIf, expr: c, body: p.statement()}
			// "else" may follow on a later line.
			save := *p.lx
			saveTok, savePeek := p.tok, p.peekd
			p.skipNewlines()
			if p.accept("else") {
				p.skipNewlines()
				s.els = p.statement()
			} else {
				*p.lx = save
				p.tok, p.peekd = saveTok, savePeek
			}
			return s
		case "while":
			p.take()
			p.expect("(")
			c := p.expr()
			p.expect(")")
			p.skipNewlines()
			p.loops++
			body := p.statement()
			p.loops--
			return &stmt{kind: sWhile, expr: c, body: body}
		case "for":
			p.take()
			p.expect("(")
			s := &stmt{kind: sFor}
			if !p.is(";") {
				s.init = p.expr()
			}
			p.expect(";")
			if !p.is(";") {
				s.expr = p.expr()
			}
			p.expect(";")
			if !p.is(")") {
				s.post = p.expr()
			}
			p.expect(")")
			p.skipNewlines()
			p.loops++
			s.body = p.statement()
			p.loops--
			return s
		case "define":
			p.take()
			return &stmt{kind: sDefine, fn: p.define()}
		}
	}
	return &stmt{kind: sExpr, expr: p.expr()}
}

func (p *parser) define() *function {
	name := p.take()
	if name.kind != tIdent {
		p.fail("syntax error")
	}
	f := &function{name: name.s}
	p.expect("(")
	if !p.is(")") {
		f.params = p.paramList()
	}
	p.expect(")")
	p.skipNewlines()
	p.expect("{")
	p.inFn = true
	defer func() { p.inFn = false }()
	for {
		for p.peek().kind == tNewline || p.is(";") {
			p.take()
		}
		if p.accept("auto") {
			f.autos = append(f.autos, p.paramList()...)
			continue
		}
		break
	}
	for {
		for p.peek().kind == tNewline || p.is(";") {
			p.take()
		}
		if p.accept("}") {
			break
		}
		if p.peek().kind == tEOF {
			p.fail("syntax error")
		}
		f.body = append(f.body, p.statement())
	}
	return f
}

func (p *parser) paramList() []param {
	var ps []param
	for {
		p.accept("*")
		t := p.take()
		if t.kind != tIdent {
			p.fail("syntax error")
		}
		pr := param{name: t.s}
		if p.accept("[") {
			p.expect("]")
			pr.array = true
		}
		ps = append(ps, pr)
		if !p.accept(",") {
			return ps
		}
	}
}

// Expression grammar, lowest precedence first: || && ! relational
// assignment + - * / % ^ unary ++/--.
func (p *parser) expr() *node { return p.or() }

func (p *parser) or() *node {
	n := p.and()
	for p.accept("||") {
		n = &node{kind: nBinary, op: "||", a: n, b: p.and()}
	}
	return n
}

func (p *parser) and() *node {
	n := p.not()
	for p.accept("&&") {
		n = &node{kind: nBinary, op: "&&", a: n, b: p.not()}
	}
	return n
}

func (p *parser) not() *node {
	if p.accept("!") {
		return &node{kind: nUnary, op: "!", a: p.not()}
	}
	return p.rel()
}

func (p *parser) rel() *node {
	n := p.assign()
	for {
		t := p.peek()
		if t.kind == tOp && (t.s == "<" || t.s == "<=" || t.s == ">" || t.s == ">=" || t.s == "==" || t.s == "!=") {
			p.take()
			n = &node{kind: nBinary, op: t.s, a: n, b: p.assign()}
			continue
		}
		return n
	}
}

func isLvalue(n *node) bool {
	return n.kind == nVar || n.kind == nElem || n.kind == nSpecial
}

func (p *parser) assign() *node {
	n := p.additive()
	t := p.peek()
	if t.kind == tOp && (t.s == "=" || t.s == "+=" || t.s == "-=" || t.s == "*=" || t.s == "/=" || t.s == "%=" || t.s == "^=") {
		if !isLvalue(n) {
			p.fail("syntax error")
		}
		p.take()
		return &node{kind: nAssign, op: t.s, a: n, b: p.assign()}
	}
	return n
}

func (p *parser) additive() *node {
	n := p.multiplicative()
	for {
		if p.accept("+") {
			n = &node{kind: nBinary, op: "+", a: n, b: p.multiplicative()}
		} else if p.accept("-") {
			n = &node{kind: nBinary, op: "-", a: n, b: p.multiplicative()}
		} else {
			return n
		}
	}
}

func (p *parser) multiplicative() *node {
	n := p.power()
	for {
		t := p.peek()
		if t.kind == tOp && (t.s == "*" || t.s == "/" || t.s == "%") {
			p.take()
			n = &node{kind: nBinary, op: t.s, a: n, b: p.power()}
			continue
		}
		return n
	}
}

func (p *parser) power() *node {
	n := p.unary()
	if p.accept("^") {
		return &node{kind: nBinary, op: "^", a: n, b: p.power()}
	}
	return n
}

func (p *parser) unary() *node {
	if p.accept("-") {
		return &node{kind: nUnary, op: "-", a: p.power()}
	}
	if p.accept("++") || p.is("--") {
		op := "++"
		if p.accept("--") {
			op = "--"
		}
		a := p.postfix()
		if !isLvalue(a) {
			p.fail("syntax error")
		}
		return &node{kind: nIncDec, op: op, pre: true, a: a}
	}
	return p.postfix()
}

func (p *parser) postfix() *node {
	n := p.primary()
	if isLvalue(n) {
		if p.accept("++") {
			return &node{kind: nIncDec, op: "++", a: n}
		}
		if p.accept("--") {
			return &node{kind: nIncDec, op: "--", a: n}
		}
	}
	return n
}

func (p *parser) primary() *node {
	t := p.take()
	switch t.kind {
	case tNum:
		// Constants are converted when run, with the ibase of that time.
		return &node{kind: nNum, name: t.s}
	case tIdent:
		if p.accept("(") {
			n := &node{kind: nCall, name: t.s}
			if !p.is(")") {
				for {
					// name[] passes a whole array.
					if q := p.peek(); q.kind == tIdent {
						save := *p.lx
						p.take()
						if p.accept("[") && p.accept("]") {
							n.args = append(n.args, &node{kind: nArray, name: q.s})
							if !p.accept(",") {
								break
							}
							continue
						}
						*p.lx = save
						p.tok, p.peekd = q, true
					}
					n.args = append(n.args, p.expr())
					if !p.accept(",") {
						break
					}
				}
			}
			p.expect(")")
			return n
		}
		if p.accept("[") {
			idx := p.expr()
			p.expect("]")
			return &node{kind: nElem, name: t.s, a: idx}
		}
		return &node{kind: nVar, name: t.s}
	case tKeyword:
		switch t.s {
		case "scale", "ibase", "obase", "last":
			if t.s == "scale" && p.is("(") {
				p.take()
				a := p.expr()
				p.expect(")")
				return &node{kind: nBuiltin, name: "scale", a: a}
			}
			return &node{kind: nSpecial, name: t.s}
		case "length", "sqrt":
			p.expect("(")
			a := p.expr()
			p.expect(")")
			return &node{kind: nBuiltin, name: t.s, a: a}
		case "read":
			p.expect("(")
			p.expect(")")
			return &node{kind: nRead}
		}
	case tOp:
		if t.s == "(" {
			n := p.expr()
			p.expect(")")
			return n
		}
	}
	p.fail("syntax error")
	return nil
}
