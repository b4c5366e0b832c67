package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/difftest"
)

// The differential cases run in a fresh copy of the fixture, once with
// this module's yq first on PATH and once with upstream's: yq v4.54.2's own
// main package, built natively from the same module (Debian's yq is
// another program, a jq wrapper). The sandbox cases compare the guest with
// upstream's native build.
var suite = &difftest.Suite{
	Commands:  Names(),
	Fixture:   fixture,
	Reference: upstream,
	Modules:   []string{"yq", "coreutils"},
}

// fixture holds the documents the cases read. It uses only mkdir and
// printf so that it runs the same in bash and in the sandbox.
const fixture = `
printf 'name: demo\nversion: 1.2\nitems:\n  - id: 1\n    tags: [a, b]\n  - id: 2\n    tags: [c]\nmeta:\n  owner: ann # the owner\n  empty: null\n  flag: true\n' > a.yaml
printf 'name: other\nextra: [1, 2, 3]\nmeta:\n  owner: bob\n' > b.yaml
printf '{"x": 1, "y": {"z": [1, 2]}, "s": "str"}\n' > c.json
printf -- '---\na: 1\n---\na: 2\n---\na: 3\n' > multi.yaml
printf 'name,age\nann,30\nbob,25\n' > p.csv
printf '<root><item id="1">one</item><item id="2">two</item></root>\n' > d.xml
printf '[server]\nhost = "localhost"\nport = 8080\n' > e.toml
printf 'key.one=1\nkey.two=two\n' > f.properties
printf 'a: &anchor\n  v: 1\nb: *anchor\nc:\n  <<: *anchor\n  w: 2\n' > anchors.yaml
printf 'list:\n  - 3\n  - 1\n  - 2\n' > nums.yaml
printf 'bad: [unclosed\n' > bad.yaml
`

var (
	upstreamOnce sync.Once
	upstreamDir  string
	upstreamErr  error
)

// upstream builds yq's own main package natively as "yq" in a directory
// of its own.
func upstream(t *testing.T) string {
	t.Helper()
	upstreamOnce.Do(func() {
		dir, err := guesttest.TempDir("yq-upstream")
		if err != nil {
			upstreamErr = err
			return
		}
		if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "yq"), "github.com/mikefarah/yq/v4").CombinedOutput(); err != nil {
			upstreamErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		upstreamDir = dir
	})
	if upstreamErr != nil {
		t.Fatal(upstreamErr)
	}
	return upstreamDir
}

// TestDifferential runs every case with this module's yq and with
// upstream's and compares stdout, the exit status and, where asked, stderr.
func TestDifferential(t *testing.T) { suite.Differential(t, cases) }

// TestSandbox runs the cases marked for it inside the sandbox and compares
// the answers with upstream's yq on this machine.
func TestSandbox(t *testing.T) { suite.InSandbox(t, cases) }
