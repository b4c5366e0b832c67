package shell

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// scriptGen writes random bash scripts from a small grammar of the
// language: commands, lists, pipelines, compound commands, functions,
// redirections and every kind of expansion.
type scriptGen struct {
	r     *rand.Rand
	depth int
}

func (g *scriptGen) pick(options ...string) string { return options[g.r.Intn(len(options))] }

func (g *scriptGen) name() string {
	return g.pick("a", "b", "x", "arr", "m", "i", "IFS", "n", "_", "1")
}

func (g *scriptGen) varName() string { return g.pick("a", "b", "x", "arr", "m", "i", "n") }

func (g *scriptGen) word() string {
	if g.depth > 4 {
		return g.pick("lit", "'q w'", `"$x"`, "$a", "7", "*")
	}
	g.depth++
	defer func() { g.depth-- }()
	switch g.r.Intn(16) {
	case 0:
		if g.r.Intn(3) == 0 {
			return "${" + g.name() + g.pick("@Q", ":1:2", "@a", "@U", ":0", "") + "}"
		}
		return "${" + g.varName() + g.pick(":-", "-", ":=", ":+", "#", "##", "%", "%%", "/", "//", "^^", ",") + g.word() + "}"
	case 1:
		return "$((" + g.arith() + "))"
	case 2:
		return "$( " + g.list() + " )"
	case 3:
		return `"` + g.pick("$x", "${arr[@]}", "$*", "$@", "${#arr[@]}", "${!arr[*]}", "text") + `"`
	case 4:
		return g.pick("{a,b,c}", "{1..3}", "{z..x..2}", "~", "~/f", "*.txt", "?", "[ab]*", "@(a|b)")
	case 5:
		return "<(" + g.list() + ")"
	case 6:
		return "$'" + g.pick(`\t`, `\x41`, `\u00e9`, `\n`, `\'`) + "'"
	case 7:
		return "${arr[" + g.arith() + "]}"
	case 8:
		return "${!" + g.pick("x", "arr[@]", "a*", "b@") + "}"
	default:
		return g.pick("foo", "bar", "-n", "--", "1", "0", "a=b", "''", `""`, "\\$", "$?", "$#", "$$", "$RANDOM", "$LINENO")
	}
}

func (g *scriptGen) arith() string {
	if g.depth > 4 {
		return g.pick("1", "x", "i", "0")
	}
	g.depth++
	defer func() { g.depth-- }()
	switch g.r.Intn(6) {
	case 0:
		return g.arith() + g.pick("+", "-", "*", "/", "%", "**", "<<", "&&", "||", "==", ",", "?1:") + g.arith()
	case 1:
		return g.pick("i++", "--x", "!x", "~i", "-i")
	case 2:
		return g.varName() + g.pick("=", "+=", "*=", "<<=") + g.arith()
	case 3:
		return "( " + g.arith() + " )"
	default:
		return g.pick("0", "1", "42", "0x1f", "2#101", "x", "arr[1]", "$x", "'1'")
	}
}

func (g *scriptGen) command() string {
	if g.depth > 4 {
		return g.pick("true", "false", "echo x", ":")
	}
	g.depth++
	defer func() { g.depth-- }()
	switch g.r.Intn(23) {
	case 0:
		return "if " + g.list() + "; then " + g.list() + "; else " + g.list() + "; fi"
	case 1:
		return "while " + g.list() + "; do " + g.list() + "; break; done"
	case 2:
		return "for v in " + g.word() + " " + g.word() + "; do " + g.list() + "; done"
	case 3:
		return "case " + g.word() + " in " + g.word() + ") " + g.list() + " ;; *) " + g.list() + " ;& esac"
	case 4:
		return "f" + g.pick("", "2") + "() { " + g.list() + "; }"
	case 5:
		return "( " + g.list() + " )"
	case 6:
		return "{ " + g.list() + "; }"
	case 7:
		return "(( " + g.arith() + " ))"
	case 8:
		return "[[ " + g.word() + " " + g.pick("==", "!=", "=~", "<", "-eq", "-lt") + " " + g.word() + " ]]"
	case 9:
		return g.varName() + "=" + g.word()
	case 10:
		return "arr=(" + g.word() + " " + g.word() + ")"
	case 11:
		return g.pick("declare -A m", "declare -i n", "local y", "readonly r=1", "export x", "unset x", "declare -n ref=x", "declare -p x")
	case 12:
		return "echo " + g.word() + " " + g.word() + g.pick("", " >/tmp/o", " 2>&1", " >>/tmp/o", " <<< hi", " >&3", " {fd}>/tmp/p", " 3>&-")
	case 13:
		return "read " + g.pick("-r", "-a arr", "-d :", "-n 2", "-t 0") + " x <<< " + g.word()
	case 14:
		return "printf " + g.pick("'%s\\n'", "'%d'", "'%q'", "%b", "'%*s'") + " " + g.word()
	case 15:
		return "trap '" + g.pick("echo t", "false", "exit 2") + "' " + g.pick("EXIT", "ERR", "RETURN", "USR1", "INT")
	case 16:
		return g.pick("set -e", "set +e", "set -u", "set -o pipefail", "shopt -s extglob", "shopt -s nullglob", "set -x", "set -f")
	case 17:
		return g.pick("kill -USR1 $$", "wait", "jobs", "eval '"+g.pick("x=1", "echo e", "(")+"'", "source /nonexistent", "exec 3>/tmp/e", "cd /tmp", "shift", "return 3", "exit 4")
	case 18:
		return "{ " + g.command() + " & }"
	case 19:
		return "f " + g.word()
	case 20:
		return "mapfile -t arr <<< " + g.word()
	case 21:
		// what bash parses and mvdan's parser needs repair.go for
		return brokenConstructs[g.r.Intn(len(brokenConstructs))]
	default:
		return "echo " + g.word()
	}
}

func (g *scriptGen) list() string {
	n := 1 + g.r.Intn(3)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = g.command()
		if g.r.Intn(4) == 0 {
			parts[i] += g.pick(" | ", " && ", " || ", " |& ") + g.command()
		}
	}
	return strings.Join(parts, "; ")
}

// TestGrammarScripts runs random scripts from the grammar: none may
// panic out of the shell or run past its deadline.
func TestGrammarScripts(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 50
	}
	g := &scriptGen{r: rand.New(rand.NewSource(grammarSeed))}
	ran := 0
	for i := 0; i < n; i++ {
		src := g.list() + "\n" + g.list()
		if _, _, _, err := parseRepaired(src, ""); err != nil {
			if testing.Verbose() && i < 40 {
				t.Logf("skipped (%v): %s", err, src)
			}
			continue
		}
		ran++
		fsys := vfs.New(vfs.Options{MaxBytes: 1 << 20})
		fsys.MkdirAll("/tmp", 0o777)
		h := &testHost{}
		h.max.Store(16)
		sh, err := New(Config{Host: h, FS: fsys, Dir: "/tmp", Limits: Limits{MaxStringBytes: 1 << 16, MaxWords: 1 << 12, MaxDepth: 64}})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		sh.SetStdio(strings.NewReader("in\n"), &out, &out)
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("panic %v running:\n%s", p, src)
				}
			}()
			sh.RunCommand(ctx, src)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("ran past its deadline:\n%s", src)
		}
		cancel()
		if strings.Contains(out.String(), "internal error") {
			t.Errorf("internal error running:\n%s\n%s", src, out.String())
		}
	}
	if ran < n/2 {
		t.Fatalf("only %d of %d generated scripts parsed", ran, n)
	}
	t.Logf("%d random scripts ran", ran)
	_ = fmt.Sprint()
}

// grammarSeed is the generator's seed; change it to explore.
var grammarSeed int64 = 1
