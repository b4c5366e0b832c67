package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

func newSandbox(t *testing.T, opts sandbox.Options) *sandbox.Sandbox {
	t.Helper()
	if testing.Short() {
		t.Skip("builds every guest module")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	opts.ToolsDir = guesttest.Dir(t)
	opts.CacheDir = filepath.Join(cache, "wasmsand-test", "modules")
	sb, err := sandbox.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	return sb
}

// TestDiffSandbox runs the corpus through the sandbox's node (the js.wasm
// guest) and through the real Node: stdout and the exit status must agree.
func TestDiffSandbox(t *testing.T) {
	bin := realNode(t)
	snippets := corpus(t)
	sb := newSandbox(t, sandbox.Options{Timeout: 20 * time.Second})
	dir := t.TempDir()
	ctx := context.Background()
	checked := 0
	for i, code := range snippets {
		if _, ok := knownDifferences[code]; ok {
			continue
		}
		want := runReal(t, bin, dir, code)
		res, err := sb.Run(ctx, `node -e "$SNIPPET"`, sandbox.WithEnv("SNIPPET="+code))
		if err != nil {
			t.Fatal(err)
		}
		checked++
		if string(res.Stdout) != want.stdout || res.ExitCode != want.code {
			t.Errorf("snippet %d: %s\n--- node (status %d):\n%s--- sandbox (status %d):\n%s--- stderr:\n%s", i, code, want.code, want.stdout, res.ExitCode, res.Stdout, res.Stderr)
		}
	}
	if checked < 100 {
		t.Errorf("only %d snippets compared; the corpus needs at least 100", checked)
	}
}

// commandCases run in one sandbox; stdout (and the status) must match.
var commandCases = []struct {
	name, cmd, stdout string
	status            int
	stderr            string // a substring of stderr, if set
}{
	{"eval", `node -e 'console.log(6*7)'`, "42\n", 0, ""},
	{"js name", `js -e 'console.log("js")'`, "js\n", 0, ""},
	{"print", `node -p '[1,2].map(x => x * 3)'`, "[ 3, 6 ]\n", 0, ""},
	{"print string", `node -p '"raw"'`, "raw\n", 0, ""},
	{"eval args", `node -e 'console.log(process.argv.slice(1))' a b`, "[ 'a', 'b' ]\n", 0, ""},
	{"script args", `echo 'console.log(process.argv.slice(2).join(","), __filename, require.main === module)' > s.js; node s.js x y`, "x,y /home/user/s.js true\n", 0, ""},
	{"argv0", `echo 'console.log(process.argv[0], process.argv[1])' > a.js; node a.js`, "/usr/bin/node /home/user/a.js\n", 0, ""},
	{"stdin script", `echo 'console.log("from stdin")' | node`, "from stdin\n", 0, ""},
	{"stdin dash", `echo 'console.log(process.argv.length)' | node - q`, "2\n", 0, ""},
	{"shebang", `printf '#!/usr/bin/env node\nconsole.log("bang")\n' > b.js; chmod +x b.js; ./b.js`, "bang\n", 0, ""},
	{"shebang path", `printf '#!/usr/bin/node\nconsole.log(process.argv.length)\n' > c.js; chmod +x c.js; ./c.js 1 2`, "4\n", 0, ""},
	{"module require", `mkdir -p lib; echo 'module.exports = { sq: x => x * x }' > lib/m.js; echo '{"v": 3}' > lib/d.json; node -e 'const m = require("./lib/m"); console.log(m.sq(require("./lib/d.json").v))'`, "9\n", 0, ""},
	{"node_modules", `mkdir -p node_modules/pkg; echo '{"main": "main.js"}' > node_modules/pkg/package.json; echo 'exports.hi = "hi from pkg"' > node_modules/pkg/main.js; node -e 'console.log(require("pkg").hi)'`, "hi from pkg\n", 0, ""},
	{"stderr", `node -e 'console.error("E"); console.warn("W"); console.log("O")' 2>/dev/null`, "O\n", 0, ""},
	{"exit code", `node -e 'process.exit(3)'; echo $?`, "3\n", 0, ""},
	{"exitCode", `node -e 'process.exitCode = 4'; echo $?`, "4\n", 0, ""},
	{"uncaught", `node -e 'throw new Error("boom")'`, "", 1, "Error: boom"},
	{"unhandled rejection", `node -e 'Promise.reject(new Error("rej"))'`, "", 1, "Error: rej"},
	{"syntax error", `node -e 'let = ;'`, "", 1, "SyntaxError"},
	{"esm import", `node -e 'import fs from "fs"'`, "", 1, "ES module syntax (import/export) is not supported"},
	{"http", `node -e 'require("http")'`, "", 1, "the http module is not available in wasmsand's node"},
	{"fetch denied", `node -e 'fetch("https://example.com").catch(e => console.log(e.name, e.code))'`, "TypeError ERR_WASMSAND_NETWORK_DENIED\n", 0, ""},
	{"bad option", `node --frobnicate`, "", 9, "bad option: --frobnicate"},
	{"process.stdin", `printf 'a\nb\n' | node -e 'let d = ""; process.stdin.on("data", c => d += c); process.stdin.on("end", () => console.log(JSON.stringify(d)))'`, "\"a\\nb\\n\"\n", 0, ""},
	{"stdin readFileSync", `printf '3 4' | node -e 'const [a, b] = require("fs").readFileSync(0, "utf8").split(" ").map(Number); console.log(a * b)'`, "12\n", 0, ""},
	{"readline", `printf 'x\ny\nz' | node -e 'const rl = require("readline").createInterface({ input: process.stdin }); const l = []; rl.on("line", s => l.push(s)); rl.on("close", () => console.log(l.join("|")))'`, "x|y|z\n", 0, ""},
	{"pipe", `seq 3 | node -e 'console.log(require("fs").readFileSync("/dev/stdin", "utf8").trim().split("\n").map(Number).reduce((a, b) => a + b))' | cat`, "6\n", 0, ""},
	{"fs shared", `echo 'from shell' > shared.txt; node -e 'const fs = require("fs"); fs.writeFileSync("out.txt", fs.readFileSync("shared.txt", "utf8").toUpperCase())'; cat out.txt`, "FROM SHELL\n", 0, ""},
	{"fs sync api", `node -e '
const fs = require("fs");
fs.mkdirSync("d1/d2", { recursive: true });
fs.writeFileSync("d1/d2/f", "abc");
fs.appendFileSync("d1/d2/f", "def");
console.log(fs.readFileSync("d1/d2/f", "utf8"), fs.existsSync("d1/d2/f"), fs.statSync("d1/d2/f").size, fs.statSync("d1").isDirectory());
console.log(fs.readdirSync("d1"), fs.readdirSync("d1", { withFileTypes: true })[0].isDirectory());
fs.renameSync("d1/d2/f", "d1/g"); fs.copyFileSync("d1/g", "d1/h"); fs.unlinkSync("d1/g");
console.log(fs.readdirSync("d1").sort());
fs.rmSync("d1", { recursive: true }); console.log(fs.existsSync("d1"));
'`, "abcdef true 6 true\n[ 'd2' ] true\n[ 'd2', 'h' ]\nfalse\n", 0, ""},
	{"fs promises", `node -e '
const fsp = require("fs/promises");
(async () => {
  await fsp.mkdir("p1", { recursive: true });
  await fsp.writeFile("p1/a", "1");
  await fsp.appendFile("p1/a", "2");
  console.log(await fsp.readFile("p1/a", "utf8"), (await fsp.readdir("p1")).length, (await fsp.stat("p1/a")).isFile());
  await fsp.unlink("p1/a");
  try { await fsp.readFile("p1/a") } catch (e) { console.log(e.code) }
})()'`, "12 1 true\nENOENT\n", 0, ""},
	{"execSync", `node -e 'console.log(require("child_process").execSync("seq 3 | wc -l").toString().trim())'`, "3\n", 0, ""},
	{"execSync shell state", `echo data > f.txt; node -e 'console.log(require("child_process").execSync("cat f.txt", { encoding: "utf8" }))'`, "data\n\n", 0, ""},
	{"execSync fail", `node -e 'try { require("child_process").execSync("echo bad >&2; exit 7", { stdio: "pipe" }) } catch (e) { console.log(e.status, e.stderr.toString().trim()) }'`, "7 bad\n", 0, ""},
	{"execSync inherit", `node -e 'require("child_process").execSync("echo inherited", { stdio: "inherit" }); console.log("after")'`, "inherited\nafter\n", 0, ""},
	{"spawnSync", `node -e 'const r = require("child_process").spawnSync("grep", ["b"], { input: "a\nb\nc\n", encoding: "utf8" }); console.log(r.status, JSON.stringify(r.stdout))'`, "0 \"b\\n\"\n", 0, ""},
	{"spawnSync missing", `node -e 'const r = require("child_process").spawnSync("no-such-cmd"); console.log(r.error.code, r.status)'`, "ENOENT null\n", 0, ""},
	{"exec callback", `node -e 'require("child_process").exec("echo async", (err, out) => console.log(err, out.trim()))'`, "null async\n", 0, ""},
	{"node in node", `node -e 'console.log(require("child_process").execSync("node -p 1+1").toString().trim())'`, "2\n", 0, ""},
	{"env", `FOO=bar node -e 'console.log(process.env.FOO, process.env.HOME, process.cwd())'`, "bar /home/user /home/user\n", 0, ""},
	{"cd", `mkdir -p sub; cd sub; node -e 'console.log(process.cwd(), require("path").resolve("x"))'`, "/home/user/sub /home/user/sub/x\n", 0, ""},
	{"timers order", `node -e 'setTimeout(() => console.log(3), 30); setTimeout(() => console.log(2), 10); setImmediate(() => console.log(1)); console.log(0)'`, "0\n1\n2\n3\n", 0, ""},
	{"version", `node --version | cut -c1-3`, "v26\n", 0, ""},
	{"loop timeout", `node -e 'while (true) {}'`, "", 124, "timed out"},
}

func TestCommands(t *testing.T) {
	sb := newSandbox(t, sandbox.Options{Timeout: 3 * time.Second})
	ctx := context.Background()
	for _, c := range commandCases {
		t.Run(c.name, func(t *testing.T) {
			res, err := sb.Run(ctx, c.cmd)
			if err != nil {
				t.Fatal(err)
			}
			if string(res.Stdout) != c.stdout || res.ExitCode != c.status {
				t.Errorf("%s\n got (status %d) %q\nwant (status %d) %q\nstderr: %s", c.cmd, res.ExitCode, res.Stdout, c.status, c.stdout, res.Stderr)
			}
			if c.stderr != "" && !strings.Contains(string(res.Stderr), c.stderr) {
				t.Errorf("stderr %q does not contain %q", res.Stderr, c.stderr)
			}
		})
	}
}

// TestLimits checks that fuel, memory and the virtual clock bind node.
func TestLimits(t *testing.T) {
	ctx := context.Background()
	t.Run("fuel", func(t *testing.T) {
		sb := newSandbox(t, sandbox.Options{Fuel: 50_000_000})
		res, err := sb.Run(ctx, `node -e 'for (;;) {}'`)
		if err != nil {
			t.Fatal(err)
		}
		if res.ExitCode != 137 {
			t.Errorf("status %d, want 137; stderr %s", res.ExitCode, res.Stderr)
		}
	})
	t.Run("memory", func(t *testing.T) {
		sb := newSandbox(t, sandbox.Options{MemoryLimit: 96 << 20, Timeout: 20 * time.Second})
		res, err := sb.Run(ctx, `node -e 'const a = []; for (;;) a.push(new Array(1e5).fill(1.5))'; echo "status $?"; echo still works`)
		if err != nil {
			t.Fatal(err)
		}
		out := string(res.Stdout)
		if strings.Contains(out, "status 0") || !strings.HasSuffix(out, "still works\n") {
			t.Errorf("stdout %q stderr %.300s", out, res.Stderr)
		}
	})
	t.Run("virtual clock", func(t *testing.T) {
		start := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
		sb := newSandbox(t, sandbox.Options{Clock: func() time.Time { return start }})
		res, err := sb.Run(ctx, `node -e 'const t = Date.now(); console.log(new Date(t).toISOString()); setTimeout(() => console.log("waited", Date.now() - t >= 0), 300)'`)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(res.Stdout); got != "2030-01-02T03:04:05.000Z\nwaited true\n" {
			t.Errorf("stdout %q stderr %s", got, res.Stderr)
		}
	})
}
