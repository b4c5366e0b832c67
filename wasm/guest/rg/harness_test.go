package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/difftest"
)

// The differential cases run in a fresh copy of the fixture, once with
// this module's rg first on PATH and once with ripgrep's.
var suite = &difftest.Suite{
	Commands: Names(),
	Fixture:  fixture,
	Modules:  []string{"rg", "coreutils", "sed"},
}

// fixture builds the test tree: r is a git repository (ripgrep only needs
// its .git), plain has a .gitignore but is no repository. It uses only
// mkdir and printf so that it runs the same in bash and in the sandbox.
const fixture = `
mkdir -p r/.git r/src/sub r/docs r/.hidden r/build r/node_modules/pkg r/logs r/deep/a/b/c plain/sub
printf 'build/\n*.log\nnode_modules\n!keep.log\n/top.txt\n' > r/.gitignore
printf 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("Hello, World")\n}\n' > r/src/main.go
printf 'package sub\n\n// TODO: fix this\nfunc Helper() int { return 42 }\nfunc helper2() {}\n' > r/src/sub/util.go
printf 'def hello():\n    print("hello world")\n\nclass Foo:\n    pass\n' > r/src/app.py
printf 'const x = "hello";\nlet y = x + 1;\n' > r/src/index.ts
printf '# Title\n\nSome TODO text\nhello again\n' > r/docs/README.md
printf 'notes: hello\nfoo-bar baz\nfoo_bar\nfoobar\n' > r/docs/notes.txt
printf 'hidden hello\n' > r/.hidden/secret.txt
printf 'hello build\n' > r/build/out.txt
printf 'hello module\n' > r/node_modules/pkg/index.js
printf 'error: hello\n' > r/logs/app.log
printf 'kept hello\n' > r/logs/keep.log
printf 'top hello\n' > r/top.txt
printf 'top hello\n' > r/docs/top.txt
printf 'x\0hello\n' > r/data.bin
printf 'line1\nline2 hello\nline3\nline4\nline5\nline6 hello\nline7\nline8\nline9\nline10 hello\n' > r/ctx.txt
printf 'in dotignore\n' > r/dotign.txt
printf 'dotign.txt\n' > r/.ignore
printf 'a.b\naxb\na\\b\n[x]\n$HOME\nfoo(bar)\n' > r/special.txt
printf 'Caf\303\251 na\303\257ve\nCAF\303\211\n' > r/utf.txt
printf 'no newline hello' > r/nonl.txt
printf '{"k": "hello"}\n' > r/data.json
printf 'k: hello\n' > r/conf.yaml
printf 'deep hello\n' > r/deep/a/b/c/d.txt
printf 'Makefile hello\n' > r/Makefile
printf 'tab\there\n"quoted" hello\n' > r/esc.txt
printf 'ign.txt\n' > plain/.gitignore
printf 'plain hello\n' > plain/ign.txt
printf 'plain hello\n' > plain/sub/kept.txt
printf 'apple\nbanana\ncherry\napple pie\n' > fruits
printf 'hello\nHELLO\nHello\nhElLo\n' > cases
`

func oracleAvailable(t *testing.T) {
	if _, err := exec.LookPath("rg"); err != nil {
		t.Skip("ripgrep not installed (apt-get install ripgrep)")
	}
	if out, _ := exec.Command("rg", "--version").Output(); !bytes.HasPrefix(out, []byte("ripgrep 13.")) {
		t.Skipf("the oracle is ripgrep 13, found %q", firstLine(string(out)))
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// TestDifferential runs every case with this module's rg and with
// ripgrep's and compares stdout, the exit status and, where asked, stderr.
func TestDifferential(t *testing.T) {
	oracleAvailable(t)
	suite.Differential(t, cases)
}

// TestSandbox runs the cases marked for it inside the sandbox and compares
// the answers with ripgrep's on this machine.
func TestSandbox(t *testing.T) {
	oracleAvailable(t)
	suite.InSandbox(t, cases)
}
