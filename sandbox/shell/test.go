package shell

import (
	"errors"
	"io/fs"
	"strconv"
	"time"
)

// This file implements the operators of the test and [ builtins and of
// [[ ]], and the parser of test's arguments, as bash 5.2 does.

// testEnv is what the conditional operators need from the interpreter.
type testEnv interface {
	// testStat returns information about the named file of the sandbox's
	// file system, following a final symbolic link if follow is set, or
	// an error if there is no such file. A name that ends in a slash must
	// name a directory or a link to one, as in POSIX. bash treats /dev/fd/N
	// as the open file descriptor N; the interpreter should do the same
	// here. testStat is never called with the empty name.
	testStat(name string, follow bool) (testFileInfo, error)
	// testVarSet reports whether the shell variable NAME is set, for -v.
	// NAME may be an array element a[sub] or a positional parameter
	// number: bash's -v 1 tests $1, -v a tests a[0] for an array a.
	testVarSet(name string) bool
	// testNameref reports whether NAME is a set variable with the nameref
	// attribute, for -R.
	testNameref(name string) bool
	// testOption reports whether the set -o option NAME is on, and whether
	// NAME is an option at all, for -o.
	testOption(name string) (on, known bool)
	// testTerminal reports whether the file descriptor fd is open and
	// refers to a terminal, for -t.
	testTerminal(fd int) bool
}

// testFileInfo describes a file for the file operators. Everything in the
// sandbox belongs to the sandbox user (uid 1000, gid 1000), so -O and -G
// are true for every file that exists and -r, -w and -x look at the
// owner's permission bits only.
type testFileInfo struct {
	// Mode holds the file type and the permission, set-user-ID,
	// set-group-ID and sticky bits, as io/fs reports them.
	Mode    fs.FileMode
	Size    int64
	ModTime time.Time // for -nt, -ot and -N
	ATime   time.Time // the time of last access, for -N
	// Dev and Ino identify the file, for -ef.
	Dev, Ino uint64
}

// testUnary evaluates a unary operator of test or [[ ]]: one of -a -b -c -d
// -e -f -g -h -k -n -o -p -r -s -t -u -v -w -x -z -G -L -N -O -R -S. It
// returns false for any other op.
func testUnary(env testEnv, op, x string) bool {
	if len(op) != 2 || op[0] != '-' {
		return false
	}
	switch op[1] {
	case 'n':
		return x != ""
	case 'z':
		return x == ""
	case 'o':
		on, known := env.testOption(x)
		return on && known
	case 'v':
		return env.testVarSet(x)
	case 'R':
		return env.testNameref(x)
	case 't':
		n, ok := testParseInt(x)
		return ok && n == int64(int32(n)) && env.testTerminal(int(n))
	case 'h', 'L':
		fi, ok := testStat(env, x, false)
		return ok && fi.Mode&fs.ModeSymlink != 0
	}
	fi, ok := testStat(env, x, true)
	if !ok {
		return false
	}
	switch op[1] {
	case 'a', 'e', 'O', 'G':
		return true
	case 'f':
		return fi.Mode.IsRegular()
	case 'd':
		return fi.Mode.IsDir()
	case 'b':
		return fi.Mode&fs.ModeDevice != 0 && fi.Mode&fs.ModeCharDevice == 0
	case 'c':
		return fi.Mode&fs.ModeCharDevice != 0
	case 'p':
		return fi.Mode&fs.ModeNamedPipe != 0
	case 'S':
		return fi.Mode&fs.ModeSocket != 0
	case 's':
		return fi.Size > 0
	case 'r':
		return fi.Mode&0o400 != 0
	case 'w':
		return fi.Mode&0o200 != 0
	case 'x':
		return fi.Mode&0o100 != 0
	case 'u':
		return fi.Mode&fs.ModeSetuid != 0
	case 'g':
		return fi.Mode&fs.ModeSetgid != 0
	case 'k':
		return fi.Mode&fs.ModeSticky != 0
	case 'N':
		return fi.ModTime.After(fi.ATime)
	}
	return false
}

// testStat looks a file up; the empty name never exists.
func testStat(env testEnv, name string, follow bool) (testFileInfo, bool) {
	if name == "" {
		return testFileInfo{}, false
	}
	fi, err := env.testStat(name, follow)
	return fi, err == nil
}

// testBinary evaluates a binary operator of the test and [ builtins:
//
//	= == != < >                 string comparisons, byte by byte
//	-eq -ne -lt -le -gt -ge     comparisons of decimal integers
//	-nt -ot -ef                 comparisons of files
//
// The operands of the integer comparisons may have blanks around them and
// a sign; anything else is an error whose text is bash's, such as
// "abc: integer expression expected". Any other op is an error
// "OP: binary operator expected".
//
// [[ ]] uses testBinary for < > -nt -ot -ef, which behave the same there
// in the C locale, and testIntCompare for the integer comparisons, whose
// operands it evaluates as arithmetic expressions. Its = == and != match
// patterns and its =~ matches a regular expression, which is for the
// interpreter to do.
func testBinary(env testEnv, op, x, y string) (bool, error) {
	switch op {
	case "=", "==":
		return x == y, nil
	case "!=":
		return x != y, nil
	case "<":
		return x < y, nil
	case ">":
		return x > y, nil
	case "-nt", "-ot", "-ef":
		return testCompareFiles(env, op, x, y), nil
	case "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
		m, ok := testParseInt(x)
		if !ok {
			return false, errors.New(x + ": integer expression expected")
		}
		n, ok := testParseInt(y)
		if !ok {
			return false, errors.New(y + ": integer expression expected")
		}
		return testIntCompare(op, m, n), nil
	}
	return false, errors.New(op + ": binary operator expected")
}

// testIntCompare evaluates the integer comparison op (-eq -ne -lt -le -gt
// -ge) on evaluated operands, as [[ ]] does after evaluating both operands
// as arithmetic expressions. It returns false for any other op.
func testIntCompare(op string, x, y int64) bool {
	switch op {
	case "-eq":
		return x == y
	case "-ne":
		return x != y
	case "-lt":
		return x < y
	case "-le":
		return x <= y
	case "-gt":
		return x > y
	case "-ge":
		return x >= y
	}
	return false
}

// testCompareFiles evaluates -nt, -ot and -ef. A file that exists is newer
// than one that does not; -ef needs both files to exist.
func testCompareFiles(env testEnv, op, x, y string) bool {
	fx, okx := testStat(env, x, true)
	fy, oky := testStat(env, y, true)
	switch op {
	case "-nt":
		return okx && !oky || okx && fx.ModTime.After(fy.ModTime)
	case "-ot":
		return !okx && oky || oky && okx && fx.ModTime.Before(fy.ModTime)
	}
	return okx && oky && fx.Dev == fy.Dev && fx.Ino == fy.Ino
}

// testParseInt parses a decimal integer the way bash's test does: blanks
// and other white space before it, an optional sign, at least one digit,
// then only spaces and tabs. Values out of the range of int64 are invalid.
func testParseInt(s string) (int64, bool) {
	i := 0
	for i < len(s) && testIsSpace(s[i]) {
		i++
	}
	start := i
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := i
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	if i == digits {
		return 0, false
	}
	n, err := strconv.ParseInt(s[start:i], 10, 64)
	if err != nil {
		return 0, false
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return n, i == len(s)
}

// testIsSpace reports whether c is white space in the C locale.
func testIsSpace(c byte) bool {
	return c == ' ' || '\t' <= c && c <= '\r'
}

// testIsUnaryOp reports whether s is an operator that testUnary evaluates.
func testIsUnaryOp(s string) bool {
	if len(s) != 2 || s[0] != '-' {
		return false
	}
	switch s[1] {
	case 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'k', 'n', 'o', 'p', 'r',
		's', 't', 'u', 'v', 'w', 'x', 'z', 'G', 'L', 'N', 'O', 'R', 'S':
		return true
	}
	return false
}

// testIsBinaryOp reports whether s is an operator that testBinary
// evaluates.
func testIsBinaryOp(s string) bool {
	switch s {
	case "=", "==", "!=", "<", ">", "-nt", "-ot", "-ef", "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
		return true
	}
	return false
}

// testBuiltin runs the test builtin (name "test") or the [ builtin (name
// "[", whose last argument must be "]") on the already-expanded arguments
// that follow the command name. It returns the exit status, 0 for true, 1
// for false and 2 for an error, and the error message, which is empty
// unless the status is 2.
//
// The message starts with the name of the builtin, as in
// "[: a: integer expression expected", and has no newline. The caller
// prints it after its usual prefix for builtins, which for bash -c is
// "bash: line N: ", and a newline:
//
//	bash: line 1: [: a: integer expression expected
//
// The arguments are read as POSIX says for up to four of them, and with
// bash's grammar beyond that: -o binds less tightly than -a, ! negates
// the next term, and ( ) group.
func testBuiltin(env testEnv, name string, args []string) (status int, msg string) {
	p := &testParser{env: env, argv: append([]string{name}, args...)}
	p.argc = len(p.argv)
	if name == "[" {
		p.argc--
		if p.argv[p.argc] != "]" {
			return 2, "[: missing `]'"
		}
		p.bracket = true
	}
	p.pos = 1
	if p.pos >= p.argc {
		return 1, ""
	}
	v, err := p.posix()
	if err == nil && p.pos != p.argc {
		if arg := p.argv[p.pos]; arg != "" && arg[0] == '-' {
			err = errors.New("syntax error: `" + arg + "' unexpected")
		} else {
			err = errors.New("too many arguments")
		}
	}
	if err != nil {
		return 2, name + ": " + err.Error()
	}
	if v {
		return 0, ""
	}
	return 1, ""
}

// testParser parses the arguments of test. argv[0] is the command name and
// the arguments are argv[1:argc]; for [ argv[argc] is the closing "]".
type testParser struct {
	env     testEnv
	argv    []string
	argc    int
	pos     int
	bracket bool
}

// testMissingArgument returns the error for an operator or ( at the end of
// the arguments.
func testMissingArgument() error { return errors.New("argument expected") }

// advance moves to the next argument; if need is set, there must be one.
func (p *testParser) advance(need bool) error {
	p.pos++
	if need && p.pos >= p.argc {
		return testMissingArgument()
	}
	return nil
}

// posix chooses the grammar by the number of arguments.
func (p *testParser) posix() (bool, error) {
	switch p.argc - 1 {
	case 1:
		p.pos = p.argc
		return p.argv[1] != "", nil
	case 2:
		v, err := p.two()
		p.pos = p.argc
		return v, err
	case 3:
		return p.three()
	case 4:
		if p.argv[p.pos] == "!" {
			p.pos++
			v, err := p.three()
			return !v, err
		}
		if p.argv[p.pos] == "(" && p.argv[p.argc-1] == ")" {
			p.pos++
			v, err := p.two()
			p.pos = p.argc
			return v, err
		}
	}
	return p.expr()
}

// two evaluates the two arguments at pos: "! X" or "-OP X".
func (p *testParser) two() (bool, error) {
	arg := p.argv[p.pos]
	if arg == "!" {
		return p.argv[p.pos+1] == "", nil
	}
	if testIsUnaryOp(arg) {
		return p.unary()
	}
	return false, errors.New(arg + ": unary operator expected")
}

// three evaluates the three arguments at pos.
func (p *testParser) three() (bool, error) {
	a, op, b := p.argv[p.pos], p.argv[p.pos+1], p.argv[p.pos+2]
	var v bool
	var err error
	switch {
	case testIsBinaryOp(op):
		v, err = p.binary()
	case op == "-a":
		v = a != "" && b != ""
	case op == "-o":
		v = a != "" || b != ""
	case a == "!":
		p.pos++
		v, err = p.two()
		v = !v
	case a != "" && a[0] == '(' && b != "" && b[0] == ')':
		// bash checks only the first characters.
		v = op != ""
	default:
		return false, errors.New(op + ": binary operator expected")
	}
	p.pos = p.argc
	return v, err
}

// expr parses an expression of -o, -a, !, ( ) and operators.
func (p *testParser) expr() (bool, error) {
	if p.pos >= p.argc {
		return false, testMissingArgument()
	}
	return p.or()
}

// or parses and [-o or]. Both sides are always evaluated.
func (p *testParser) or() (bool, error) {
	v, err := p.and()
	if err != nil || p.pos >= p.argc || p.argv[p.pos] != "-o" {
		return v, err
	}
	p.pos++
	w, err := p.or()
	return v || w, err
}

// and parses term [-a and]. Both sides are always evaluated.
func (p *testParser) and() (bool, error) {
	v, err := p.term()
	if err != nil || p.pos >= p.argc || p.argv[p.pos] != "-a" {
		return v, err
	}
	p.pos++
	w, err := p.and()
	return v && w, err
}

// term parses ! term, ( expr ), a binary or unary operator with its
// operands, or a single string.
func (p *testParser) term() (bool, error) {
	if p.pos >= p.argc {
		return false, testMissingArgument()
	}
	if p.argv[p.pos] == "!" {
		negate := false
		for p.pos < p.argc && p.argv[p.pos] == "!" {
			if err := p.advance(true); err != nil {
				return false, err
			}
			negate = !negate
		}
		v, err := p.term()
		return v != negate, err
	}
	if p.argv[p.pos] == "(" {
		if err := p.advance(true); err != nil {
			return false, err
		}
		v, err := p.expr()
		if err != nil {
			return false, err
		}
		switch {
		case p.pos < p.argc && p.argv[p.pos] == ")":
			p.pos++
			return v, nil
		case p.pos < p.argc:
			return false, errors.New("`)' expected, found " + p.argv[p.pos])
		case p.bracket:
			// bash looks at the "]" that ends the arguments of [.
			return false, errors.New("`)' expected, found ]")
		}
		return false, errors.New("`)' expected")
	}
	if p.pos+3 <= p.argc && testIsBinaryOp(p.argv[p.pos+1]) {
		return p.binary()
	}
	if p.pos+2 <= p.argc && testIsUnaryOp(p.argv[p.pos]) {
		return p.unary()
	}
	v := p.argv[p.pos] != ""
	p.pos++
	return v, nil
}

// binary evaluates the binary operator at pos+1 on its operands.
func (p *testParser) binary() (bool, error) {
	v, err := testBinary(p.env, p.argv[p.pos+1], p.argv[p.pos], p.argv[p.pos+2])
	p.pos += 3
	return v, err
}

// unary evaluates the unary operator at pos on its operand. -t takes an
// operand only if it is a number, and tests the standard output if there
// is no operand at all.
func (p *testParser) unary() (bool, error) {
	op := p.argv[p.pos]
	if op == "-t" {
		p.pos++
		if p.pos >= p.argc {
			return p.env.testTerminal(1), nil
		}
		if n, ok := testParseInt(p.argv[p.pos]); ok {
			p.pos++
			return n == int64(int32(n)) && p.env.testTerminal(int(n)), nil
		}
		return false, nil
	}
	if err := p.advance(true); err != nil {
		return false, err
	}
	v := testUnary(p.env, op, p.argv[p.pos])
	p.pos++
	return v, nil
}
