package shell

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// testFixtureScript creates, in the current directory, the files that
// newTestMapEnv describes.
const testFixtureScript = `
printf hello > f; : > e; chmod 600 e; mkdir d; ln -s f l; ln -s nowhere bl
printf '#!/bin/sh\n' > x; chmod 755 x; mkfifo p; chmod 644 p
ln f hl; touch su sg; chmod 4755 su; chmod 2755 sg; mkdir st; chmod 1777 st; chmod 644 f
touch -d '2020-01-01 00:00:00' old; touch -d '2022-01-01 00:00:00' new; touch -d '2021-01-01 00:00:00' f
touch -a -d '2020-01-01' mod; touch -m -d '2021-01-01' mod
`

// testShellState is the shell state of the test cases, in bash.
const testShellState = "x=1; arr=(1); declare -n ref=x; set -- p1\n"

// testMapEnv is a testEnv over maps. Its shell state is testShellState;
// no file descriptor is a terminal.
type testMapEnv struct {
	files   map[string]testFileInfo
	links   map[string]string // symbolic links: name -> target
	vars    map[string]bool
	refs    map[string]bool
	options map[string]bool
}

func (e *testMapEnv) testStat(name string, follow bool) (testFileInfo, error) {
	for range 10 {
		target, ok := e.links[name]
		if !ok {
			break
		}
		if !follow {
			return testFileInfo{Mode: fs.ModeSymlink | 0o777}, nil
		}
		name = target
	}
	if fi, ok := e.files[name]; ok {
		return fi, nil
	}
	return testFileInfo{}, fs.ErrNotExist
}

func (e *testMapEnv) testVarSet(name string) bool  { return e.vars[name] }
func (e *testMapEnv) testNameref(name string) bool { return e.refs[name] }
func (e *testMapEnv) testTerminal(fd int) bool     { return false }
func (e *testMapEnv) testOption(name string) (on, known bool) {
	on, known = e.options[name]
	return on, known
}

// newTestMapEnv returns the files of testFixtureScript and the state of
// testShellState.
func newTestMapEnv() *testMapEnv {
	day := func(year int) time.Time { return time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC) }
	now := day(2024)
	file := func(ino uint64, mode fs.FileMode, size int64, mtime time.Time) testFileInfo {
		return testFileInfo{Mode: mode, Size: size, ModTime: mtime, ATime: mtime, Dev: 1, Ino: ino}
	}
	f := file(1, 0o644, 5, day(2021))
	mod := file(13, 0o644, 0, day(2021))
	mod.ATime = day(2020)
	return &testMapEnv{
		files: map[string]testFileInfo{
			"f": f, "hl": f,
			"e":         file(2, 0o600, 0, now),
			"d":         file(3, fs.ModeDir|0o755, 4096, now),
			"x":         file(4, 0o755, 10, now),
			"p":         file(5, fs.ModeNamedPipe|0o644, 0, now),
			"su":        file(6, fs.ModeSetuid|0o755, 0, now),
			"sg":        file(7, fs.ModeSetgid|0o755, 0, now),
			"st":        file(8, fs.ModeDir|fs.ModeSticky|0o777, 4096, now),
			"old":       file(9, 0o644, 0, day(2020)),
			"new":       file(10, 0o644, 0, day(2022)),
			"mod":       mod,
			"/dev/null": {Mode: fs.ModeDevice | fs.ModeCharDevice | 0o666, Dev: 2, Ino: 1},
		},
		links:   map[string]string{"l": "f", "bl": "nowhere"},
		vars:    map[string]bool{"x": true, "arr": true, "arr[0]": true, "ref": true, "1": true},
		refs:    map[string]bool{"ref": true},
		options: map[string]bool{"hashall": true, "braceexpand": true, "errexit": false, "noclobber": false},
	}
}

// testBuiltinTests were checked against bash 5.2.15, with the files of
// testFixtureScript and the state of testShellState: the exit status and
// the diagnostic without the "bash: line N: " prefix.
var testBuiltinTests = []struct {
	name   string
	args   []string
	status int
	msg    string
}{
	{"test", []string{}, 1, ""},
	{"[", []string{}, 2, "[: missing `]'"},
	{"[", []string{"]"}, 1, ""},
	{"[", []string{"a"}, 2, "[: missing `]'"},
	{"[", []string{"a", "]"}, 0, ""},
	{"[", []string{"", "]"}, 1, ""},
	{"test", []string{"a"}, 0, ""},
	{"test", []string{""}, 1, ""},
	{"test", []string{"-n"}, 0, ""},
	{"test", []string{"-z"}, 0, ""},
	{"test", []string{"!"}, 0, ""},
	{"test", []string{"("}, 0, ""},
	{"test", []string{")"}, 0, ""},
	{"test", []string{"-a"}, 0, ""},
	{"test", []string{"-o"}, 0, ""},
	{"test", []string{"]"}, 0, ""},
	{"[", []string{"]", "]"}, 0, ""},
	{"[", []string{"(", "]"}, 0, ""},
	{"test", []string{"-n", ""}, 1, ""},
	{"test", []string{"-n", "a"}, 0, ""},
	{"test", []string{"-z", ""}, 0, ""},
	{"test", []string{"-z", "a"}, 1, ""},
	{"test", []string{"!", ""}, 0, ""},
	{"test", []string{"!", "a"}, 1, ""},
	{"test", []string{"!", "!"}, 1, ""},
	{"test", []string{"a", "b"}, 2, "test: a: unary operator expected"},
	{"[", []string{"a", "b", "]"}, 2, "[: a: unary operator expected"},
	{"test", []string{"-q", "a"}, 2, "test: -q: unary operator expected"},
	{"test", []string{"-", "a"}, 2, "test: -: unary operator expected"},
	{"test", []string{"--", "a"}, 2, "test: --: unary operator expected"},
	{"test", []string{"-nt", "a"}, 2, "test: -nt: unary operator expected"},
	{"test", []string{"(", "a"}, 2, "test: (: unary operator expected"},
	{"test", []string{"a", "="}, 2, "test: a: unary operator expected"},
	{"test", []string{"a", "-eq"}, 2, "test: a: unary operator expected"},
	{"test", []string{"-t", "x"}, 1, ""},
	{"test", []string{"-t", "1"}, 1, ""},
	{"test", []string{"-t", "99999999999"}, 1, ""},
	{"test", []string{"a", "=", "a"}, 0, ""},
	{"test", []string{"a", "=", "b"}, 1, ""},
	{"test", []string{"a", "==", "a"}, 0, ""},
	{"test", []string{"a", "!=", "a"}, 1, ""},
	{"test", []string{"a", "!=", "b"}, 0, ""},
	{"test", []string{"a", "<", "b"}, 0, ""},
	{"test", []string{"b", "<", "a"}, 1, ""},
	{"test", []string{"B", "<", "a"}, 0, ""},
	{"test", []string{"a", ">", "B"}, 0, ""},
	{"test", []string{"ab", ">", "a"}, 0, ""},
	{"test", []string{"", "<", "a"}, 0, ""},
	{"test", []string{"\u00e9", ">", "z"}, 0, ""},
	{"test", []string{"a", "=~", "a"}, 2, "test: =~: binary operator expected"},
	{"test", []string{"a", "!~", "a"}, 2, "test: !~: binary operator expected"},
	{"test", []string{"a", "b", "c"}, 2, "test: b: binary operator expected"},
	{"test", []string{"-n", "-n", "-n"}, 2, "test: -n: binary operator expected"},
	{"test", []string{"a", "-a", "b"}, 0, ""},
	{"test", []string{"a", "-a", ""}, 1, ""},
	{"test", []string{"", "-o", ""}, 1, ""},
	{"test", []string{"", "-o", "a"}, 0, ""},
	{"test", []string{"!", "-o", "x"}, 0, ""},
	{"test", []string{"(", "a", ")"}, 0, ""},
	{"test", []string{"(", "", ")"}, 1, ""},
	{"test", []string{"(x", "a", ")y"}, 0, ""},
	{"test", []string{"(x", "", ")y"}, 1, ""},
	{"test", []string{"(", "=", ")"}, 1, ""},
	{"test", []string{"(", "-a", ")"}, 0, ""},
	{"test", []string{"(", "!", ")"}, 0, ""},
	{"test", []string{"!", "-n", "a"}, 1, ""},
	{"test", []string{"!", "a", "b"}, 2, "test: a: unary operator expected"},
	{"test", []string{"=", "=", "="}, 0, ""},
	{"test", []string{"-a", "=", "-a"}, 0, ""},
	{"test", []string{"(", ")", "x"}, 2, "test: ): binary operator expected"},
	{"test", []string{"x", "-a", "("}, 0, ""},
	{"test", []string{"-t", "1", "x"}, 2, "test: 1: binary operator expected"},
	{"test", []string{"a", "-eq", "b"}, 2, "test: a: integer expression expected"},
	{"test", []string{"1", "-eq", "b"}, 2, "test: b: integer expression expected"},
	{"test", []string{"1", "-eq", "1"}, 0, ""},
	{"test", []string{" 1", "-eq", "1"}, 0, ""},
	{"test", []string{"1 ", "-eq", "1"}, 0, ""},
	{"test", []string{"\t1\t", "-eq", "1"}, 0, ""},
	{"test", []string{"\n1", "-eq", "1"}, 0, ""},
	{"test", []string{"1\n", "-eq", "1"}, 2, "test: 1\n: integer expression expected"},
	{"test", []string{"\u000b1", "-eq", "1"}, 0, ""},
	{"test", []string{"", "-eq", "0"}, 2, "test: : integer expression expected"},
	{"test", []string{" ", "-eq", "0"}, 2, "test:  : integer expression expected"},
	{"test", []string{"-1", "-lt", "0"}, 0, ""},
	{"test", []string{"+1", "-eq", "1"}, 0, ""},
	{"test", []string{"+-1", "-eq", "1"}, 2, "test: +-1: integer expression expected"},
	{"test", []string{"-", "-eq", "0"}, 2, "test: -: integer expression expected"},
	{"test", []string{"010", "-eq", "10"}, 0, ""},
	{"test", []string{"0x10", "-eq", "16"}, 2, "test: 0x10: integer expression expected"},
	{"test", []string{"1x", "-eq", "1"}, 2, "test: 1x: integer expression expected"},
	{"test", []string{"9223372036854775807", "-gt", "-9223372036854775808"}, 0, ""},
	{"test", []string{"9223372036854775808", "-gt", "0"}, 2, "test: 9223372036854775808: integer expression expected"},
	{"test", []string{"-9223372036854775809", "-lt", "0"}, 2, "test: -9223372036854775809: integer expression expected"},
	{"test", []string{"1", "-ne", "2"}, 0, ""},
	{"test", []string{"2", "-le", "2"}, 0, ""},
	{"test", []string{"3", "-ge", "4"}, 1, ""},
	{"test", []string{"5", "-gt", "4"}, 0, ""},
	{"test", []string{"5", "-lt", "4"}, 1, ""},
	{"test", []string{"!", "a", "=", "a"}, 1, ""},
	{"test", []string{"!", "!", "a"}, 0, ""},
	{"test", []string{"!", "!", "!", "a"}, 1, ""},
	{"test", []string{"(", "a", ")", "b"}, 2, "test: too many arguments"},
	{"test", []string{"(", "-n", "a", ")"}, 0, ""},
	{"test", []string{"(", "a", "b", ")"}, 2, "test: a: unary operator expected"},
	{"test", []string{"(", "a", "=", ")"}, 2, "test: a: unary operator expected"},
	{"test", []string{"(", "(", "a", ")"}, 2, "test: (: unary operator expected"},
	{"test", []string{"(", "!", "a", ")"}, 1, ""},
	{"test", []string{"(", "!", "", ")"}, 0, ""},
	{"test", []string{"!", "(", "a", ")"}, 1, ""},
	{"test", []string{"!", "a", "-a", "b"}, 1, ""},
	{"test", []string{"a", "-a", "!", "b"}, 1, ""},
	{"test", []string{"!", "!", "=", "!"}, 1, ""},
	{"test", []string{"1", "-eq", "1", "-a"}, 2, "test: argument expected"},
	{"test", []string{"1", "=", "1", "-x"}, 2, "test: syntax error: `-x' unexpected"},
	{"test", []string{"1", "=", "1", "x"}, 2, "test: too many arguments"},
	{"[", []string{"1", "=", "1", "-", "]"}, 2, "[: syntax error: `-' unexpected"},
	{"test", []string{"a", "b", "c", "d"}, 2, "test: too many arguments"},
	{"test", []string{"(", "a", "-a", "b"}, 2, "test: `)' expected"},
	{"[", []string{"(", "a", "-a", "b", "]"}, 2, "[: `)' expected, found ]"},
	{"test", []string{"-n", "a", "b", "c"}, 2, "test: too many arguments"},
	{"test", []string{"(", "a", "b", "c", ")"}, 2, "test: `)' expected, found b"},
	{"test", []string{"(", "a", "=", "a", ")"}, 0, ""},
	{"test", []string{"a", "-o", "b", "-a", "c"}, 0, ""},
	{"test", []string{"(", "a", ")", "-a", "(", "b", ")"}, 0, ""},
	{"test", []string{"(", "-n", ")", "-a", "a"}, 2, "test: `)' expected"},
	{"[", []string{"(", "-n", ")", "-a", "a", "]"}, 2, "[: `)' expected, found ]"},
	{"test", []string{"-e", "=", "-e", "-a", "x"}, 0, ""},
	{"test", []string{"(", "a", "-o", "", ")", "-a", ""}, 1, ""},
	{"test", []string{"x", "-a", "y", "-a", "-n"}, 0, ""},
	{"test", []string{"x", "-a", "y", "-a", "-t"}, 0, ""},
	{"test", []string{"x", "-a", "-t", "-a", "y"}, 1, ""},
	{"test", []string{"x", "-a", "-t", "1", "-a", "y"}, 1, ""},
	{"test", []string{"-z", "-a", "-z", "-a", "-z"}, 2, "test: syntax error: `-z' unexpected"},
	{"test", []string{"!", "-z", "-a", "!", "!", "-n", "x"}, 2, "test: too many arguments"},
	{"test", []string{"(", "a", "-a", "b", ")", ")"}, 2, "test: too many arguments"},
	{"test", []string{"a", "-o", "b", "c", "d"}, 2, "test: too many arguments"},
	{"test", []string{"!", "!", "!", "!", "a"}, 0, ""},
	{"test", []string{"!", "!", "!", "!"}, 1, ""},
	{"test", []string{"a", "=", "b", "=", "c"}, 2, "test: too many arguments"},
	{"test", []string{"a", "=", "a", "-o"}, 2, "test: argument expected"},
	{"test", []string{"x", "-a", "(", "a", "b", ")"}, 2, "test: `)' expected, found b"},
	{"test", []string{"x", "-a", "(", "a"}, 2, "test: `)' expected"},
	{"test", []string{"", "-a", "a", "-eq", "b", "-a", "x"}, 2, "test: a: integer expression expected"},
	{"test", []string{"!", "(", "a", "-o", "b", ")", "-a", "c"}, 1, ""},
	{"test", []string{"(", "(", "a", "=", "b", ")", "-o", "x", ")"}, 0, ""},
	{"test", []string{"x", "-a", "!"}, 0, ""},
	{"test", []string{"x", "-a", "y", "-a", "!"}, 2, "test: argument expected"},
	{"test", []string{"x", "-a", "y", "-a", "("}, 2, "test: argument expected"},
	{"test", []string{"x", "-o", "(", "(", ")", ")"}, 2, "test: `)' expected"},
	{"test", []string{"-v", "x"}, 0, ""},
	{"test", []string{"-v", "y"}, 1, ""},
	{"test", []string{"-v", "arr"}, 0, ""},
	{"test", []string{"-v", "arr[0]"}, 0, ""},
	{"test", []string{"-v", "arr[1]"}, 1, ""},
	{"test", []string{"-v", "1"}, 0, ""},
	{"test", []string{"-v", "2"}, 1, ""},
	{"test", []string{"-R", "ref"}, 0, ""},
	{"test", []string{"-R", "x"}, 1, ""},
	{"test", []string{"-o", "hashall"}, 0, ""},
	{"test", []string{"-o", "errexit"}, 1, ""},
	{"test", []string{"-o", "bogus"}, 1, ""},
	{"test", []string{"-o", "x", "-a", "-o", "hashall"}, 1, ""},
	{"test", []string{"-e", "f"}, 0, ""},
	{"test", []string{"-a", "f"}, 0, ""},
	{"test", []string{"-e", "missing"}, 1, ""},
	{"test", []string{"-e", ""}, 1, ""},
	{"test", []string{"-f", "f"}, 0, ""},
	{"test", []string{"-f", "d"}, 1, ""},
	{"test", []string{"-f", "l"}, 0, ""},
	{"test", []string{"-f", "bl"}, 1, ""},
	{"test", []string{"-d", "d"}, 0, ""},
	{"test", []string{"-d", "f"}, 1, ""},
	{"test", []string{"-s", "f"}, 0, ""},
	{"test", []string{"-s", "e"}, 1, ""},
	{"test", []string{"-h", "l"}, 0, ""},
	{"test", []string{"-L", "bl"}, 0, ""},
	{"test", []string{"-L", "f"}, 1, ""},
	{"test", []string{"-h", ""}, 1, ""},
	{"test", []string{"-e", "bl"}, 1, ""},
	{"test", []string{"-p", "p"}, 0, ""},
	{"test", []string{"-p", "f"}, 1, ""},
	{"test", []string{"-c", "/dev/null"}, 0, ""},
	{"test", []string{"-b", "/dev/null"}, 1, ""},
	{"test", []string{"-S", "f"}, 1, ""},
	{"test", []string{"-r", "f"}, 0, ""},
	{"test", []string{"-w", "e"}, 0, ""},
	{"test", []string{"-x", "f"}, 1, ""},
	{"test", []string{"-x", "x"}, 0, ""},
	{"test", []string{"-x", "d"}, 0, ""},
	{"test", []string{"-r", "missing"}, 1, ""},
	{"test", []string{"-u", "su"}, 0, ""},
	{"test", []string{"-u", "f"}, 1, ""},
	{"test", []string{"-g", "sg"}, 0, ""},
	{"test", []string{"-g", "f"}, 1, ""},
	{"test", []string{"-k", "st"}, 0, ""},
	{"test", []string{"-k", "d"}, 1, ""},
	{"test", []string{"-O", "f"}, 0, ""},
	{"test", []string{"-G", "d"}, 0, ""},
	{"test", []string{"-O", "missing"}, 1, ""},
	{"test", []string{"-N", "mod"}, 0, ""},
	{"test", []string{"-N", "f"}, 1, ""},
	{"test", []string{"new", "-nt", "old"}, 0, ""},
	{"test", []string{"old", "-nt", "new"}, 1, ""},
	{"test", []string{"f", "-nt", "missing"}, 0, ""},
	{"test", []string{"missing", "-nt", "f"}, 1, ""},
	{"test", []string{"missing", "-nt", "missing2"}, 1, ""},
	{"test", []string{"old", "-ot", "new"}, 0, ""},
	{"test", []string{"missing", "-ot", "f"}, 0, ""},
	{"test", []string{"f", "-ot", "missing"}, 1, ""},
	{"test", []string{"missing", "-ot", "missing2"}, 1, ""},
	{"test", []string{"f", "-nt", "f"}, 1, ""},
	{"test", []string{"f", "-ef", "f"}, 0, ""},
	{"test", []string{"f", "-ef", "l"}, 0, ""},
	{"test", []string{"f", "-ef", "hl"}, 0, ""},
	{"test", []string{"f", "-ef", "e"}, 1, ""},
	{"test", []string{"missing", "-ef", "missing"}, 1, ""},
	{"test", []string{"", "-ef", ""}, 1, ""},
	{"test", []string{"l", "-nt", "old"}, 0, ""},
	{"test", []string{"-f", "f", "-a", "-d", "d"}, 0, ""},
	{"test", []string{"-f", "f", "-a", "-d", "f"}, 1, ""},
}

func TestTestBuiltin(t *testing.T) {
	env := newTestMapEnv()
	for _, tt := range testBuiltinTests {
		status, msg := testBuiltin(env, tt.name, tt.args)
		if status != tt.status || msg != tt.msg {
			t.Errorf("%s %q = %d, %q; want %d, %q", tt.name, tt.args, status, msg, tt.status, tt.msg)
		}
	}
}

func TestTestUnary(t *testing.T) {
	env := newTestMapEnv()
	env.files["dev/sda"] = testFileInfo{Mode: fs.ModeDevice | 0o660}
	env.files["sock"] = testFileInfo{Mode: fs.ModeSocket | 0o755}
	env.files["wo"] = testFileInfo{Mode: 0o200}
	for _, tt := range []struct {
		op, x string
		want  bool
	}{
		{"-b", "dev/sda", true}, {"-c", "dev/sda", false}, {"-b", "/dev/null", false}, {"-c", "/dev/null", true},
		{"-S", "sock", true}, {"-S", "p", false}, {"-p", "p", true},
		{"-r", "wo", false}, {"-w", "wo", true}, {"-x", "wo", false}, {"-r", "x", true}, {"-x", "x", true},
		{"-e", "l", true}, {"-e", "bl", false}, {"-h", "bl", true}, {"-L", "l", true}, {"-h", "f", false},
		{"-d", "st", true}, {"-k", "st", true}, {"-u", "su", true}, {"-g", "su", false}, {"-g", "sg", true},
		{"-s", "d", true}, {"-s", "e", false}, {"-N", "mod", true}, {"-N", "old", false},
		{"-O", "e", true}, {"-G", "e", true}, {"-O", "", false}, {"-G", "nowhere", false},
		{"-n", "", false}, {"-z", "", true}, {"-v", "arr[0]", true}, {"-v", "nope", false},
		{"-o", "hashall", true}, {"-o", "errexit", false}, {"-o", "nope", false},
		{"-R", "ref", true}, {"-R", "x", false}, {"-t", "1", false}, {"-t", "x", false},
		{"-q", "f", false}, {"e", "f", false}, {"-ee", "f", false},
	} {
		if got := testUnary(env, tt.op, tt.x); got != tt.want {
			t.Errorf("testUnary(%q, %q) = %v, want %v", tt.op, tt.x, got, tt.want)
		}
	}
}

// testTTYEnv is a testMapEnv whose file descriptors 0 to 2 are terminals.
type testTTYEnv struct{ *testMapEnv }

func (testTTYEnv) testTerminal(fd int) bool { return 0 <= fd && fd <= 2 }

func TestTestTerminal(t *testing.T) {
	env := testTTYEnv{newTestMapEnv()}
	for _, tt := range []struct {
		args   []string
		status int
	}{
		{[]string{"-t"}, 0},        // one argument: a non-empty string
		{[]string{"-t", "0"}, 0},   // fd 0
		{[]string{"-t", " 2 "}, 0}, // blanks around the number are allowed
		{[]string{"-t", "3"}, 1},
		{[]string{"-t", "4294967296"}, 1}, // wraps to 0 in a C int; bash refuses it
		{[]string{"-t", "x"}, 1},
		{[]string{"x", "-a", "-t", "-a", "y"}, 1}, // -t takes no operand that is not a number
		{[]string{"x", "-a", "-t", "1", "-a", "y"}, 0},
	} {
		if status, msg := testBuiltin(env, "test", tt.args); status != tt.status || msg != "" {
			t.Errorf("test %q = %d, %q; want %d", tt.args, status, msg, tt.status)
		}
	}
}

func TestTestBinary(t *testing.T) {
	env := newTestMapEnv()
	for _, tt := range []struct {
		op, x, y string
		want     bool
		err      string
	}{
		{"=", "a", "a", true, ""}, {"==", "a", "b", false, ""}, {"!=", "a", "b", true, ""},
		{"<", "a", "b", true, ""}, {">", "a", "b", false, ""}, {"<", "Z", "a", true, ""},
		{"<", "\xff", "a", false, ""}, {">", "é", "z", true, ""}, // byte order, not collation
		{"-eq", " 7", "7\t", true, ""}, {"-lt", "-9223372036854775808", "9223372036854775807", true, ""},
		{"-eq", "1", "0x1", false, "0x1: integer expression expected"},
		{"-eq", "a", "b", false, "a: integer expression expected"},
		{"-ge", "9223372036854775808", "1", false, "9223372036854775808: integer expression expected"},
		{"-nt", "new", "old", true, ""}, {"-ot", "new", "old", false, ""}, {"-ef", "l", "hl", true, ""},
		{"=~", "a", "a", false, "=~: binary operator expected"},
		{"-a", "a", "a", false, "-a: binary operator expected"},
	} {
		got, err := testBinary(env, tt.op, tt.x, tt.y)
		var msg string
		if err != nil {
			msg = err.Error()
		}
		if got != tt.want || msg != tt.err {
			t.Errorf("testBinary(%q, %q, %q) = %v, %q; want %v, %q", tt.op, tt.x, tt.y, got, msg, tt.want, tt.err)
		}
	}
	for _, tt := range []struct {
		op   string
		x, y int64
		want bool
	}{
		{"-eq", 1, 1, true}, {"-ne", 1, 1, false}, {"-lt", -1, 0, true}, {"-le", 0, 0, true},
		{"-gt", 0, -1, true}, {"-ge", -1, 0, false}, {"=", 1, 1, false},
	} {
		if got := testIntCompare(tt.op, tt.x, tt.y); got != tt.want {
			t.Errorf("testIntCompare(%q, %d, %d) = %v, want %v", tt.op, tt.x, tt.y, got, tt.want)
		}
	}
}

// testOSEnv is a testEnv over the real file system, relative to dir, with
// the shell state of testMapEnv.
type testOSEnv struct {
	*testMapEnv
	dir string
}

func (e *testOSEnv) testStat(name string, follow bool) (testFileInfo, error) {
	if !filepath.IsAbs(name) {
		name = e.dir + "/" + name // not Join, which would drop a final slash
	}
	stat := os.Lstat
	if follow {
		stat = os.Stat
	}
	fi, err := stat(name)
	if err != nil {
		return testFileInfo{}, err
	}
	info := testFileInfo{Mode: fi.Mode(), Size: fi.Size(), ModTime: fi.ModTime()}
	// The device, inode and access time are in the system's stat
	// structure; read them without depending on package syscall's
	// per-system types.
	sys := reflect.ValueOf(fi.Sys())
	if sys.Kind() != reflect.Pointer || sys.Elem().Kind() != reflect.Struct {
		return testFileInfo{}, errors.New("no stat structure")
	}
	st := sys.Elem()
	dev, ino, atim := st.FieldByName("Dev"), st.FieldByName("Ino"), st.FieldByName("Atim")
	if !dev.IsValid() || !ino.IsValid() || !atim.IsValid() {
		return testFileInfo{}, errors.New("no Dev, Ino or Atim in the stat structure")
	}
	info.Dev, info.Ino = dev.Convert(reflect.TypeFor[uint64]()).Uint(), ino.Convert(reflect.TypeFor[uint64]()).Uint()
	sec, nsec := atim.FieldByName("Sec").Int(), atim.FieldByName("Nsec").Int()
	info.ATime = time.Unix(sec, nsec)
	return info, nil
}

// testBashCase is one command for the differential tests.
type testBashCase struct {
	name string
	args []string
}

// testBash runs the commands in bash, in a new directory where
// testFixtureScript has run, and compares their status and diagnostics
// with testBuiltin's over a testOSEnv of that directory.
func testBash(t *testing.T, cases []testBashCase) {
	t.Helper()
	bash := testRequireBash(t)
	dir := t.TempDir()
	setup := exec.Command(bash, "-c", testFixtureScript)
	setup.Dir = dir
	if out, err := setup.CombinedOutput(); err != nil {
		t.Skipf("cannot create the test files: %v\n%s", err, out)
	}
	env := &testOSEnv{newTestMapEnv(), dir}
	if _, err := env.testStat("f", true); err != nil {
		t.Skipf("cannot stat the test files: %v", err)
	}
	var script strings.Builder
	script.WriteString(testShellState)
	for _, c := range cases {
		script.WriteString("{ " + c.name)
		for _, a := range c.args {
			script.WriteString(" " + testShellQuote(a))
		}
		script.WriteString("; } 2>&1; printf '\\001%s\\000' $?\n")
	}
	cmd := exec.Command(bash, "-s")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(script.String())
	cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	parts := strings.Split(string(out), "\x00")
	if len(parts) != len(cases)+1 {
		t.Fatalf("bash printed %d results for %d commands", len(parts)-1, len(cases))
	}
	failed := 0
	for i, c := range cases {
		msg, st, _ := strings.Cut(parts[i], "\x01")
		want := fmt.Sprintf("%s %q", st, strings.TrimSuffix(testBashPrefix.ReplaceAllString(msg, ""), "\n"))
		status, msg := testBuiltin(env, c.name, c.args)
		if got := fmt.Sprintf("%d %q", status, msg); got != want {
			t.Errorf("%s %q = %s; bash: %s", c.name, c.args, got, want)
			if failed++; failed == 30 {
				t.Fatal("too many differences")
			}
		}
	}
}

// TestTestBash compares the table, every operator on every kind of file,
// and random argument lists with bash.
func TestTestBash(t *testing.T) {
	var cases []testBashCase
	for _, tt := range testBuiltinTests {
		cases = append(cases, testBashCase{tt.name, tt.args})
	}
	names := []string{"f", "hl", "e", "d", "l", "bl", "x", "p", "su", "sg", "st", "old", "new", "mod", "missing", "", "d/", "f/", "./f", "l/", "/dev/null", "/"}
	if os.Geteuid() != 0 {
		// -O and -G are true for all files in the sandbox, but not here.
		names = names[:len(names)-2]
	}
	for _, op := range []string{"-a", "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k", "-p", "-r", "-s", "-u", "-w", "-x", "-G", "-L", "-N", "-O", "-S"} {
		for _, name := range names {
			cases = append(cases, testBashCase{"test", []string{op, name}})
		}
	}
	for _, op := range []string{"-nt", "-ot", "-ef"} {
		for _, x := range names[:16] {
			for _, y := range names[:16] {
				cases = append(cases, testBashCase{"test", []string{x, op, y}})
			}
		}
	}
	operands := []string{"0", "1", "01", "-1", "+1", " 2", "2 ", "\t2\n", "\n2", "", "a", "A", "1a", "0x1", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "-", "é"}
	for _, op := range []string{"=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge"} {
		for _, x := range operands {
			for _, y := range operands {
				cases = append(cases, testBashCase{"[", []string{x, op, y, "]"}})
			}
		}
	}
	cases = append(cases, testRandomCases(3000)...)
	testBash(t, cases)
}

// testRandomCases returns n random invocations of test and [ made of
// operators, parentheses and operands.
func testRandomCases(n int) []testBashCase {
	r := rand.New(rand.NewPCG(3, 4))
	pool := []string{"!", "!", "(", "(", ")", ")", "-a", "-a", "-o", "-o", "-n", "-z", "-t", "-f", "-d", "-e", "-v", "-q", "-",
		"=", "==", "!=", "<", "-eq", "-lt", "-nt", "-ef", "=~", "a", "b", "", "1", "2", "x", "f", "d", "missing", "hashall", "]", "(x", ")y"}
	cases := make([]testBashCase, n)
	for i := range cases {
		args := make([]string, r.IntN(8))
		for j := range args {
			args[j] = pool[r.IntN(len(pool))]
		}
		name := "test"
		if r.IntN(2) == 0 {
			name = "["
			if r.IntN(10) != 0 {
				args = append(args, "]")
			}
		}
		cases[i] = testBashCase{name, args}
	}
	return cases
}
