package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// sandboxCases are shell command lines run both inside the sandbox (with
// this module's sed) and by the host's bash with GNU sed; stdout, the exit
// status and the first line of stderr must agree.
var sandboxCases = []string{
	`printf 'hello world\n' | sed 's/o/0/g'`,
	`printf 'a\nb\nc\n' | sed -n '2p'`,
	`printf 'a\nb\nc\n' | sed -n '$p'`,
	`printf 'a\nb\nc\nd\n' | sed '2,3d'`,
	`printf 'one\ntwo\nthree\n' | sed -n '/two/,$p'`,
	`printf 'x\ny\nz\n' | sed '0,/y/d'`,
	`printf '1\n2\n3\n4\n5\n6\n' | sed -n '0~2p'`,
	`printf 'a b\n' | sed -E 's/(\w+) (\w+)/\2 \1/'`,
	`printf 'hello\n' | sed 's/.*/\U&/'`,
	`printf 'héllo wörld\n' | sed 's/./X/g'`,
	`printf 'héllo\n' | sed -n l`,
	`printf 'a\nb\nc\n' | sed ':a;N;$!ba;s/\n/,/g'`,
	`printf 'a\nb\nc\n' | sed '1!G;h;$!d'`,
	`printf 'a\nb\n' | sed '1i\
top'`,
	`printf 'a\nb\n' | sed '$a end'`,
	`printf 'a\nb\n' | sed '2c changed'`,
	`printf 'a\nb\nc\n' | sed 2q`,
	`printf 'a\nb\nc\n' | sed 2q5; echo "status $?"`,
	`printf 'a\nb\nc\n' | sed 2Q; echo "status $?"`,
	`printf 'a\nb\n' | sed =`,
	`printf 'abc\n' | sed 'y/abc/xyz/'`,
	`printf 'x\ny\n' | sed 's/x/X/;T;s/$/!/'`,
	`printf 'no newline' | sed p`,
	`printf 'a\000b\000' | sed -z 's/^/>/' | sed -z -n l`,
	`printf 'banana\n' > f; sed -i 's/a/A/g' f; cat f`,
	`printf 'banana\n' > f; sed -i.bak 's/a/A/' f; cat f f.bak`,
	`printf 'a\nb\n' > f1; printf 'c\nd\n' > f2; sed -s -n '$p' f1 f2`,
	`printf 'a\nb\n' > f1; printf 'c\nd\n' > f2; sed -n '$p;1F' f1 f2`,
	`printf 'a\nab\n' | sed -n '/a/w out'; cat out`,
	`printf 'INS\n' > ins; printf 'a\nb\n' | sed '1r ins'`,
	`printf 'p\n' > s.sed; printf 'a\n' | sed -f s.sed`,
	`sed p nosuch; echo "status $?"`,
	`echo x | sed 's/x/y'; echo "status $?"`,
	`echo x | sed -k; echo "status $?"`,
	`echo x | sed 'b nowhere'; echo "status $?"`,
	`echo x | sed --version | head -c 3`,
	`printf 'aaa bbb\n' | sed 's/\(a*\) \(b*\)/\2-\1/'`,
	`printf 'abab\n' | sed -E 's/(ab)\1/<&>/'`,
	`printf 'Hello\n' | sed 's/hello/bye/I'`,
	`printf 'a\nb\n' | sed 'N;s/^b/B/M'`,
	`seq 1 10 | sed -n '3,+2p'`,
	`seq 1 10 | sed -n '/4/,~4p'`,
	`seq 1 5 | sed -n '2!p'`,
	`seq 1 3 | sed 'n;d'`,
	`seq 1 4 | sed '$!N;P;D'`,
}

func TestInSandbox(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	if out, err := exec.Command("sed", "--version").Output(); err != nil || !bytes.Contains(out, []byte("GNU sed")) {
		t.Skip("GNU sed not installed")
	}
	if testing.Short() {
		t.Skip("builds every guest module")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	ctx := context.Background()
	for _, cmdline := range sandboxCases {
		t.Run(cmdline, func(t *testing.T) {
			sb, err := sandbox.New(ctx, sandbox.Options{
				ToolsDir: guesttest.Dir(t),
				CacheDir: filepath.Join(cache, "wasmsand-test", "modules"),
			})
			if err != nil {
				t.Fatal(err)
			}
			defer sb.Close()
			res, err := sb.Run(ctx, cmdline)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bash, "-c", cmdline)
			cmd.Dir = t.TempDir()
			cmd.Env = []string{"LC_ALL=C.UTF-8", "PATH=/usr/bin:/bin"}
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			code := 0
			if err := cmd.Run(); err != nil {
				ee, ok := err.(*exec.ExitError)
				if !ok {
					t.Fatal(err)
				}
				code = ee.ExitCode()
			}
			if got, want := string(res.Stdout), out.String(); got != want {
				t.Errorf("stdout:\n got %q\nwant %q", got, want)
			}
			if res.ExitCode != code {
				t.Errorf("exit: got %d want %d", res.ExitCode, code)
			}
			first := func(b []byte) string { l, _, _ := strings.Cut(string(b), "\n"); return l }
			if got, want := first(res.Stderr), first(errb.Bytes()); got != want {
				t.Errorf("stderr:\n got %q\nwant %q", got, want)
			}
		})
	}
}
