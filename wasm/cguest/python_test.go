package cguest_test

import (
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox"
)

// TestPython runs python3 the ways the shell and agents use it.
func TestPython(t *testing.T) {
	sb := newSandbox(t, sandbox.Options{})
	if err := sb.WriteFile("/home/user/data.csv", []byte("name,score\nann,3\nbob,5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := sb.WriteFile("/home/user/script.py", []byte("import sys\nprint('args', sys.argv[1:])\nsys.exit(int(sys.argv[1]))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, cmd  string
		wantOut    string
		wantErrHas string
		wantCode   int
	}{
		{"dash c", `python3 -c 'print(6*7)'`, "42\n", "", 0},
		{"python alias", `python -c 'import sys; print(sys.version_info[:2])'`, "(3, 11)\n", "", 0},
		{"script args exit", `python3 script.py 4 x`, "args ['4', 'x']\n", "", 4},
		{"stdin pipe", `printf 'b\na\n' | python3 -c 'import sys; print(sorted(sys.stdin.read().split()))'`, "['a', 'b']\n", "", 0},
		{"heredoc", "python3 - one <<'EOF'\nimport sys\nprint(sys.argv)\nEOF", "['-', 'one']\n", "", 0},
		{"json.tool", `echo '{"b": [1, 2]}' | python3 -m json.tool --compact`, "{\"b\":[1,2]}\n", "", 0},
		{"pipeline out", `python3 -c 'for i in range(5): print(i)' | tail -n 2`, "3\n4\n", "", 0},
		{"env and cwd", `(cd /tmp && FOO=bar python3 -c 'import os; print(os.environ["FOO"], os.getcwd())')`, "bar /tmp\n", "", 0},
		{"file from shell", `python3 -c 'import csv; print(sum(int(r["score"]) for r in csv.DictReader(open("data.csv"))))'`, "8\n", "", 0},
		{"file to shell", `python3 -c 'open("out.txt", "w").write("from python\n")' && cat out.txt`, "from python\n", "", 0},
		{"exception", `python3 -c 'raise ValueError("nope")'`, "", "ValueError: nope", 1},
		{"sys.exit", `python3 -c 'import sys; sys.exit(3)'`, "", "", 3},
		{"shebang", "printf '#!/usr/bin/env python3\\nprint(\"shebang ok\")\\n' > s.py && chmod +x s.py && ./s.py", "shebang ok\n", "", 0},
		{"shebang usr/bin argv", "printf '#!/usr/bin/python3\\nimport sys\\nprint(sys.argv)\\n' > t.py && chmod +x t.py && ./t.py a 'b c'", "['./t.py', 'a', 'b c']\n", "", 0},
		{"shebang on PATH", "mkdir -p bin && printf '#!/usr/bin/env python3\\nimport sys\\nprint(sys.argv[0])\\n' > bin/u.py && chmod +x bin/u.py && PATH=$PWD/bin:$PATH u.py", "/home/user/bin/u.py\n", "", 0},
		{"subprocess shell check", `python3 -c '
import subprocess
print(subprocess.run("echo $((6*7)) | tr 4 x", shell=True, capture_output=True, text=True).stdout, end="")
try:
    subprocess.run(["sh", "-c", "echo oops >&2; exit 5"], check=True, capture_output=True)
except subprocess.CalledProcessError as e:
    print(e.returncode, e.stderr)'`, "x2\n5 b'oops\\n'\n", "", 0},
		{"popen pipes text", `python3 -c '
import subprocess
p = subprocess.Popen(["tr", "a-z", "A-Z"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
out, _ = p.communicate("hello\n")
print(out, p.returncode, end="")'`, "HELLO\n 0", "", 0},
		{"os.popen", `python3 -c 'import os; f = os.popen("seq 3 | wc -l"); print(f.read().strip(), f.close())'`, "3 None\n", "", 0},
		{"sys.executable", `python3 -c 'import sys, subprocess; print(sys.executable); print(subprocess.run([sys.executable, "-c", "print(6*7)"], capture_output=True, text=True).stdout, end="")'`, "/usr/bin/python3\n42\n", "", 0},
		{"no module names executable", `python3 -m nosuchmodule`, "", "/usr/bin/python3: No module named nosuchmodule\n", 1},
		{"subprocess", `python3 -c 'import subprocess; print(subprocess.run(["sort"], input="b\na\n", capture_output=True, text=True).stdout, end="")'`, "a\nb\n", "", 0},
		{"os.system", `python3 -c 'import os, sys; sys.stdout.flush(); print(os.system("exit 7") >> 8)'`, "7\n", "", 0},
		{"sqlite3 module", `python3 -c 'import sqlite3; print(sqlite3.connect(":memory:").execute("select 2+3").fetchone()[0])'`, "5\n", "", 0},
		{"communicate", `python3 -c 'import subprocess; p = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE); o, _ = p.communicate(b"x" * 200000); print(len(o), p.returncode)'`, "200000 0\n", "", 0},
		{"subprocess timeout", `python3 -c '
import subprocess
try:
    subprocess.run(["sleep", "5"], timeout=0.2)
except subprocess.TimeoutExpired:
    print("TimeoutExpired")'`, "TimeoutExpired\n", "", 0},
		{"subprocess env without PATH", `python3 -c 'import subprocess; print(subprocess.run(["printenv", "A"], env={"A": "1"}, capture_output=True, text=True).stdout, end="")'`, "1\n", "", 0},
		{"no network", `python3 -c 'import urllib.request; urllib.request.urlopen("http://example.com/")'`, "", "wasmsand: network access to http://example.com/ is not allowed", 1},
		{"no threads", `python3 -c 'import threading; threading.Thread(target=print).start()'`, "", "RuntimeError", 1},
		{"no sockets", `python3 -c 'import socket; socket.create_connection(("example.com", 80))'`, "", "Error", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, sb, tt.cmd)
			if string(res.Stdout) != tt.wantOut || res.ExitCode != tt.wantCode || !strings.Contains(string(res.Stderr), tt.wantErrHas) {
				t.Errorf("%s\n got stdout %q exit %d stderr %q\nwant stdout %q exit %d stderr containing %q",
					tt.cmd, res.Stdout, res.ExitCode, res.Stderr, tt.wantOut, tt.wantCode, tt.wantErrHas)
			}
		})
	}
}

// TestPythonLimits: timeouts stop tight loops, memory caps end in
// MemoryError inside the guest, and runs repeat with the seed and clock.
func TestPythonLimits(t *testing.T) {
	t.Run("timeout", func(t *testing.T) {
		sb := newSandbox(t, sandbox.Options{Timeout: 2 * time.Second})
		run(t, sb, "python3 -c pass") // places the library outside the timed run
		start := time.Now()
		res := run(t, sb, `python3 -c 'while True: pass'`)
		if res.ExitCode != 124 || time.Since(start) > 10*time.Second {
			t.Errorf("exit %d after %v, want 124 at the timeout", res.ExitCode, time.Since(start))
		}
	})
	t.Run("memory", func(t *testing.T) {
		sb := newSandbox(t, sandbox.Options{MemoryLimit: 64 << 20})
		res := run(t, sb, `python3 -c '
l = []
try:
    while True: l.append(bytearray(1 << 20))
except MemoryError:
    print("MemoryError", len(l) < 64)
'`)
		if string(res.Stdout) != "MemoryError True\n" || res.ExitCode != 0 {
			t.Errorf("got %q exit %d stderr %q", res.Stdout, res.ExitCode, res.Stderr)
		}
		// An uncaught MemoryError is Python's to report, not the
		// sandbox's (which replaces only the Go runtime's crash report).
		res = run(t, sb, `python3 -c 'x = [bytearray(1 << 20) for _ in range(100)]'`)
		if !strings.HasPrefix(string(res.Stderr), "Traceback (most recent call last):\n") ||
			!strings.HasSuffix(string(res.Stderr), "\nMemoryError\n") || res.ExitCode != 1 {
			t.Errorf("uncaught MemoryError: got stderr %q exit %d, want Python's traceback and 1", res.Stderr, res.ExitCode)
		}
	})
	t.Run("deterministic", func(t *testing.T) {
		clock := func() time.Time { return time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC) }
		var outs []string
		for range 2 {
			sb := newSandbox(t, sandbox.Options{Seed: 7, Clock: clock})
			res := run(t, sb, `python3 -c '
import random, time, datetime, os
print(random.random(), os.urandom(4).hex(), time.time(), datetime.datetime.now(datetime.timezone.utc))'`)
			outs = append(outs, string(res.Stdout))
		}
		if outs[0] != outs[1] || !strings.Contains(outs[0], "2030-01-02 03:04:05") {
			t.Errorf("runs differ or ignore the clock:\n%s%s", outs[0], outs[1])
		}
	})
	t.Run("fuel", func(t *testing.T) {
		sb := newSandbox(t, sandbox.Options{Fuel: 1_000_000})
		res := run(t, sb, `python3 -c 'while True: pass'`)
		if res.ExitCode != 137 {
			t.Errorf("exit %d, want 137 (fuel exhausted); stderr %q", res.ExitCode, res.Stderr)
		}
	})
}

// TestPythonLazyLibrary: a sandbox holds Python's library only after
// Python ran in it.
func TestPythonLazyLibrary(t *testing.T) {
	sb := newSandbox(t, sandbox.Options{FSLimit: 1 << 20})
	if _, err := sb.Stat("/usr/lib/python3.11/os.py"); err == nil {
		t.Fatal("the library is there before Python ran")
	}
	res := run(t, sb, `python3 -c 'import json; print(json.dumps([1]))'`)
	if string(res.Stdout) != "[1]\n" {
		t.Fatalf("got %q, stderr %q", res.Stdout, res.Stderr)
	}
	if _, err := sb.Stat("/usr/lib/python3.11/json/__init__.py"); err != nil {
		t.Fatal(err)
	}
	// The library does not count against the user's 1 MiB.
	res = run(t, sb, `head -c 900000 /dev/zero > big && echo ok`)
	if string(res.Stdout) != "ok\n" {
		t.Fatalf("got %q, stderr %q", res.Stdout, res.Stderr)
	}
}
