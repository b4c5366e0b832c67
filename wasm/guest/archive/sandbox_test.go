package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

var (
	toolsOnce sync.Once
	toolsPath string
	toolsErr  error
)

// toolsDir builds the archive, awk and jq modules, and coreutils for the
// commands the cases pipe through, for wasip1, so a broken sibling module
// does not stop these tests.
func toolsDir(t testing.TB) string {
	t.Helper()
	toolsOnce.Do(func() {
		dir, err := guesttest.TempDir("archive-tools")
		if err != nil {
			toolsErr = err
			return
		}
		manifest := map[string][]string{}
		for _, mod := range []string{"archive", "awk", "jq", "coreutils"} {
			out := filepath.Join(dir, mod+".wasm")
			cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, "../"+mod)
			cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
			if b, err := cmd.CombinedOutput(); err != nil {
				toolsErr = fmt.Errorf("go build %s: %v\n%s", mod, err, b)
				return
			}
			lc := exec.Command("go", "run", "../"+mod)
			lc.Env = append(os.Environ(), "WASMSAND_LIST_COMMANDS=1")
			list, err := lc.Output()
			if err != nil {
				toolsErr = fmt.Errorf("listing %s: %v", mod, err)
				return
			}
			manifest[mod+".wasm"] = strings.Fields(string(list))
		}
		m, _ := json.Marshal(manifest)
		toolsErr = os.WriteFile(filepath.Join(dir, "manifest.json"), m, 0o644)
		toolsPath = dir
	})
	if toolsErr != nil {
		t.Fatal(toolsErr)
	}
	return toolsPath
}

func newSandbox(t testing.TB, opts sandbox.Options) *sandbox.Sandbox {
	t.Helper()
	opts.ToolsDir = toolsDir(t)
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	opts.CacheDir = filepath.Join(cache, "wasmsand-test", "modules")
	sb, err := sandbox.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	return sb
}

// sandboxCases run inside the sandbox; each gets a fresh working tree.
var sandboxCases = []struct {
	cmd, stdout string
	code        int
}{
	// awk, including commands started through the sandbox's shell
	{"printf 'a 1\\nb 2\\n' | awk '{s+=$2} END{print s}'", "3\n", 0},
	{"awk -F: -v x=1 '{print $2 x}' <<< 'a:b'", "b1\n", 0},
	{"FOO=bar awk 'BEGIN{print ENVIRON[\"FOO\"]}'", "bar\n", 0},
	{"echo 'héllo' | awk '{print length($0), toupper($0)}'", "5 HÉLLO\n", 0},
	{"awk 'BEGIN{system(\"echo from sh\"); print \"after\"}'", "from sh\nafter\n", 0},
	{"awk 'BEGIN{r = system(\"exit 3\"); print r}'", "3\n", 0},
	{"awk 'BEGIN{\"echo a b\" | getline; print $2}'", "b\n", 0},
	{"awk 'BEGIN{while ((\"seq 3\" | getline n) > 0) s += n; print s}'", "6\n", 0},
	{"printf 'b\\na\\n' | awk '{print | \"sort\"} END{close(\"sort\"); print \"end\"}'", "a\nb\nend\n", 0},
	{"printf 'x\\n' > f && awk '{print FILENAME, $0}' f && awk 'BEGIN{getline l < \"f\"; print l}'", "f x\nx\n", 0},
	{"awk 'BEGIN{print \"o\" > \"out\"; close(\"out\"); getline x < \"out\"; print x}'", "o\n", 0},
	{"awk 'BEGIN{exit 4}'", "", 4},
	{"awk 'BEGIN{'", "", 1},
	// jq
	{"echo '{\"a\":[1,2,3]}' | jq -c '.a | map(. * 2)'", "[2,4,6]\n", 0},
	{"echo '{\"b\":1,\"a\":2}' | jq -S -c .", "{\"a\":2,\"b\":1}\n", 0},
	{"jq -n -r --arg x hi '$x + \"!\"'", "hi!\n", 0},
	{"jq -n -c '$ARGS.positional' --args a b", "[\"a\",\"b\"]\n", 0},
	{"echo '[1,2]' > n.json && jq -c --slurpfile s n.json -n '$s'", "[[1,2]]\n", 0},
	{"echo null | jq -e .", "null\n", 1},
	{"echo 1 | jq .a", "", 5},
	{"jq -n '1 +'", "", 3},
	{"printf '1 2 3' | jq -s -c .", "[1,2,3]\n", 0},
	{"printf 'a\\nb\\n' | jq -R -c .", "\"a\"\n\"b\"\n", 0},
	// tar
	{"mkdir -p d/s && echo hi > d/s/f && tar -czf a.tgz d && tar -tzf a.tgz", "d/\nd/s/\nd/s/f\n", 0},
	{"mkdir -p d && echo hi > d/f && tar -cf a.tar d && mkdir o && tar -xf a.tar -C o && cat o/d/f", "hi\n", 0},
	{"mkdir -p d && echo hi > d/f && tar -cf - d | tar -xOf - d/f", "hi\n", 0},
	{"mkdir -p d/s && echo x > d/s/f && tar -cf a.tar d && mkdir o && tar -xf a.tar -C o --strip-components=2 && cat o/f", "x\n", 0},
	{"mkdir -p ev/in && echo evil > ev/x && cd ev/in && tar -cPf /tmp/evil.tar ../x /home/user/ev/x && cd /tmp && mkdir o && tar -xf evil.tar -C o 2>/dev/null; echo $?; ls o /tmp; cat o/home/user/ev/x", "2\n/tmp:\nevil.tar\no\n\no:\nhome\nevil\n", 0},
	{"mkdir s && for n in 0 511 512 513 65536 65537 200000; do head -c $n /dev/zero | tr '\\0' x > s/f$n; done && " +
		"n=$(printf 'n%.0s' $(seq 101)) && echo long > s/$n && tar -czf a.tgz s && mkdir o && tar -xzf a.tgz -C o && " +
		"[ \"$(cat s/*)\" = \"$(cat o/s/*)\" ] && tar -tvzf a.tgz | awk '{print $1, $3}' | sort | uniq -c | awk '{print $1, $2, $3}'",
		"1 -rw-r--r-- 0\n1 -rw-r--r-- 200000\n1 -rw-r--r-- 5\n1 -rw-r--r-- 511\n1 -rw-r--r-- 512\n1 -rw-r--r-- 513\n1 -rw-r--r-- 65536\n1 -rw-r--r-- 65537\n1 drwxr-xr-x 0\n", 0},
	// gzip, gunzip, zcat
	{"echo hello > f && gzip f && ls && zcat f.gz && gunzip f.gz && cat f", "f.gz\nhello\nhello\n", 0},
	{"seq 1000 | gzip -9 | gunzip | awk 'END{print}'", "1000\n", 0},
	{"echo x > f && gzip -k f && gzip f", "", 2},
	{"echo abc > f && gzip -c f | gzip -t && echo ok", "ok\n", 0},
	{"zcat nope", "", 1},
	// zip, unzip
	{"mkdir -p d && echo hi > d/f && zip -qr a.zip d && unzip -l a.zip | awk 'NR>3 && NF==4 {print $1, $4}'", "0 d/\n3 d/f\n", 0},
	{"mkdir -p d && echo hi > d/f && zip -qr a.zip d && mkdir o && unzip -q a.zip -d o && cat o/d/f", "hi\n", 0},
	{"echo hi > f && zip -q a.zip f && unzip -p a.zip f", "hi\n", 0},
	{"mkdir -p ev/in && echo evil > ev/x && cd ev/in && zip -q /tmp/e.zip ../x && cd /tmp && mkdir o && unzip -q e.zip -d o 2>/dev/null; ls /tmp o", "/tmp:\ne.zip\no\n\no:\nx\n", 0},
}

func TestInSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("builds wasm modules")
	}
	for _, c := range sandboxCases {
		t.Run(c.cmd, func(t *testing.T) {
			sb := newSandbox(t, sandbox.Options{})
			res, err := sb.Run(context.Background(), c.cmd)
			if err != nil {
				t.Fatal(err)
			}
			if string(res.Stdout) != c.stdout || res.ExitCode != c.code {
				t.Errorf("got (%q, %d), want (%q, %d); stderr %q", res.Stdout, res.ExitCode, c.stdout, c.code, res.Stderr)
			}
		})
	}
}

// TestGzipBomb checks that a decompression bomb ends with ENOSPC from the
// VFS limit rather than growing the host's memory.
func TestGzipBomb(t *testing.T) {
	if testing.Short() {
		t.Skip("builds wasm modules")
	}
	sb := newSandbox(t, sandbox.Options{FSLimit: 8 << 20})
	// 64 MiB of zeros compress to about 64 KiB; the limit is 8 MiB.
	res, err := sb.Run(context.Background(), "head -c 67108864 /dev/zero | gzip -c > /tmp/bomb.gz && gunzip /tmp/bomb.gz; echo status $?; ls /tmp")
	if err != nil {
		t.Fatal(err)
	}
	out, errOut := string(res.Stdout), string(res.Stderr)
	if !strings.Contains(out, "status 1") || !strings.Contains(errOut, "No space left on device") {
		t.Fatalf("stdout %q stderr %q", out, errOut)
	}
	if strings.Contains(out, "bomb\n") {
		t.Errorf("partial output left behind: %q", out)
	}
	res, err = sb.Run(context.Background(), "echo x > /tmp/f && gzip /tmp/f && zcat /tmp/f.gz && echo ok")
	if err != nil || string(res.Stdout) != "x\nok\n" {
		t.Fatalf("sandbox unusable after the bomb: %v %q", err, res.Stdout)
	}
}
