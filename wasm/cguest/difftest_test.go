package cguest_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/sandbox"
)

// snippet is one program of a differential test file.
type snippet struct {
	name string
	code string
}

// readSnippets splits a test file into snippets: each line starting with
// marker begins one and names it; lines before the first are comments.
func readSnippets(t *testing.T, file, marker string) []snippet {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []snippet
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, marker); ok {
			out = append(out, snippet{name: strings.TrimSpace(name)})
			continue
		}
		if len(out) > 0 {
			out[len(out)-1].code += line + "\n"
		}
	}
	return out
}

// knownDifferences lists snippets whose output differs on purpose, with
// the reason (testdata/known-differences.txt: "name: reason").
func knownDifferences(t *testing.T) map[string]string {
	b, err := os.ReadFile("testdata/known-differences.txt")
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if name, reason, ok := strings.Cut(line, ":"); ok && !strings.HasPrefix(line, "#") {
			m[strings.TrimSpace(name)] = strings.TrimSpace(reason)
		}
	}
	return m
}

type outcome struct {
	stdout, stderr string
	code           int
}

func (o outcome) String() string {
	return fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", o.code, o.stdout, o.stderr)
}

// oracle runs argv natively in a fresh directory with stdin and env, and
// returns its outcome with the directory's path replaced by "<dir>".
func oracle(t *testing.T, stdin string, env []string, argv ...string) outcome {
	return oracleWith(t, nil, stdin, env, argv...)
}

// oracleWith is oracle with files written into the directory first.
func oracleWith(t *testing.T, files map[string]string, stdin string, env []string, argv ...string) outcome {
	dir := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=/usr/bin:/bin", "HOME=" + dir, "LANG=C.UTF-8", "TMPDIR=" + dir}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	code := 0
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("%v: %v", argv, err)
		}
		code = ee.ExitCode()
	}
	return outcome{strings.ReplaceAll(out.String(), dir, "<dir>"), strings.ReplaceAll(errb.String(), dir, "<dir>"), code}
}

// inSandbox runs cmd in a fresh directory of sb.
func inSandbox(t *testing.T, sb *sandbox.Sandbox, i int, stdin, cmd string, files map[string]string, env []string) outcome {
	dir := fmt.Sprintf("/home/user/case%03d", i)
	if err := sb.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := sb.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := run(t, sb, cmd, sandbox.WithCwd(dir), sandbox.WithStdin(strings.NewReader(stdin)),
		sandbox.WithEnv(append([]string{"HOME=" + dir, "TMPDIR=" + dir}, env...)...))
	return outcome{strings.ReplaceAll(string(res.Stdout), dir, "<dir>"), strings.ReplaceAll(string(res.Stderr), dir, "<dir>"), res.ExitCode}
}

func needOracle(t *testing.T, path string) {
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("oracle %s missing: .ci/run installs it", path)
		}
		t.Skipf("oracle %s missing", path)
	}
}

// TestPythonDifferential runs every snippet of testdata/python.txt under
// the machine's python3.11 (Debian's, the same 3.11.2) and under python3
// in the sandbox, with the same argv, stdin and environment.
func TestPythonDifferential(t *testing.T) {
	sb := newSandbox(t, sandbox.Options{})
	const native = "/usr/bin/python3.11"
	needOracle(t, native)
	snippets := readSnippets(t, "testdata/python.txt", "### ")
	if len(snippets) < 100 {
		t.Fatalf("%d snippets, want at least 100", len(snippets))
	}
	known := knownDifferences(t)
	env := []string{"PYTHONHASHSEED=0", "SNIPPET_VAR=value"}
	const stdin = "line one\nline two\n"
	for i, s := range snippets {
		t.Run(s.name, func(t *testing.T) {
			if reason, ok := known["python/"+s.name]; ok {
				t.Skip(reason)
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "snippet.py"), []byte(s.code), 0o644); err != nil {
				t.Fatal(err)
			}
			want := oracle(t, stdin, env, native, filepath.Join(dir, "snippet.py"), "a1", "b 2")
			want.stdout = strings.ReplaceAll(want.stdout, dir, "<dir>")
			want.stderr = strings.ReplaceAll(want.stderr, dir, "<dir>")
			got := inSandbox(t, sb, i, stdin, `python3 "$PWD/snippet.py" a1 "b 2"`, map[string]string{"snippet.py": s.code}, env)
			if got != want {
				t.Errorf("%s\n=== python3.11 on the host:\n%v\n=== python3 in the sandbox:\n%v", s.code, want, got)
			}
		})
	}
}

// TestSQLiteDifferential feeds every script of testdata/sql.txt to the
// machine's sqlite3 and to sqlite3 in the sandbox.
func TestSQLiteDifferential(t *testing.T) {
	sb := newSandbox(t, sandbox.Options{})
	const native = "/usr/bin/sqlite3"
	needOracle(t, native)
	scripts := readSnippets(t, "testdata/sql.txt", "-- ### ")
	if len(scripts) < 100 {
		t.Fatalf("%d scripts, want at least 100", len(scripts))
	}
	known := knownDifferences(t)
	for i, s := range scripts {
		t.Run(s.name, func(t *testing.T) {
			if reason, ok := known["sql/"+s.name]; ok {
				t.Skip(reason)
			}
			want := oracle(t, s.code, nil, native)
			got := inSandbox(t, sb, 1000+i, s.code, "sqlite3", nil, nil)
			if got != want {
				t.Errorf("%s\n=== sqlite3 on the host:\n%v\n=== sqlite3 in the sandbox:\n%v", s.code, want, got)
			}
		})
	}
}

// awkFiles are written next to each awk program, on both sides.
var awkFiles = map[string]string{
	"data.txt": "alice 30 paris\nbob 25 london\ncarol 35 tokyo\n\ndave 40 naïve\némile 28 café\n",
	"more.txt": "x:1:one\ny:2:two\nz:3:three\n",
	"tabs.tsv": "name\tage\tcity\nann\t31\tnew york\nben\t\t\n",
	"lib.awk":  "function double(x) { return 2 * x }\n",
}

// TestGawkDifferential runs every program of testdata/awk.txt under the
// machine's gawk (Debian's, the same 5.2.1), called awk, and under awk in
// the sandbox, with the same argv, files, stdin and environment.
func TestGawkDifferential(t *testing.T) {
	sb := newSandbox(t, sandbox.Options{})
	const native = "/usr/bin/gawk"
	needOracle(t, native)
	snippets := readSnippets(t, "testdata/awk.txt", "### ")
	if len(snippets) < 120 {
		t.Fatalf("%d snippets, want at least 120", len(snippets))
	}
	known := knownDifferences(t)
	bin := t.TempDir() // awk, a link to gawk, so that messages say "awk:"
	if err := os.Symlink(native, filepath.Join(bin, "awk")); err != nil {
		t.Fatal(err)
	}
	env := []string{"LANG=C.UTF-8", "TZ=UTC", "SNIPPET_VAR=value"}
	const stdin = "from stdin\nsecond line\n"
	for i, s := range snippets {
		t.Run(s.name, func(t *testing.T) {
			if reason, ok := known["awk/"+s.name]; ok {
				t.Skip(reason)
			}
			files := map[string]string{"prog.awk": s.code}
			for name, data := range awkFiles {
				files[name] = data
			}
			want := oracleWith(t, files, stdin, append(env, "PATH="+bin+":/usr/bin:/bin"),
				filepath.Join(bin, "awk"), "-v", "greeting=hello", "-f", "prog.awk", "data.txt")
			got := inSandbox(t, sb, 2000+i, stdin, "awk -v greeting=hello -f prog.awk data.txt", files, env)
			if got != want {
				t.Errorf("%s\n=== gawk on the host:\n%v\n=== awk in the sandbox:\n%v", s.code, want, got)
			}
		})
	}
}
