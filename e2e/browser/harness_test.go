package browser

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// root is the module root, relative to this package.
const root = "../.."

// chromiumPath finds Chromium, or skips the test when none is installed.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("Chromium is not installed (Debian: apt-get install -y chromium); skipping the browser tests")
	return ""
}

// site is what the tests serve: the demo folder (page, vendor/, the npm
// package under wasmsand/) plus the bare test pages and a tools folder
// holding a malformed module.
type site struct {
	dir   string // served folder
	pkg   string // the npm package folder
	tools string // the guest tools the package was built with
}

var (
	siteOnce sync.Once
	theSite  site
	siteErr  error
	siteRoot string // the temporary directory holding the site
)

// buildSite builds the package and the demo once per test binary.
func buildSite(t *testing.T) site {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the npm package and runs Chromium; not in -short mode")
	}
	tools := guesttest.Dir(t)
	siteOnce.Do(func() { theSite, siteErr = makeSite(tools) })
	if siteErr != nil {
		t.Fatal(siteErr)
	}
	return theSite
}

func makeSite(tools string) (site, error) {
	tmp, err := os.MkdirTemp("", "wasmsand-browser-e2e-")
	if err != nil {
		return site{}, err
	}
	siteRoot = tmp // TestMain removes it
	s := site{dir: filepath.Join(tmp, "site"), pkg: filepath.Join(tmp, "npm"), tools: tools}
	prefix, err := filepath.Abs(filepath.Join(root, "build", "web"))
	if err != nil {
		return site{}, err
	}
	for _, args := range [][]string{
		{"run", "./web/mkpackage", "-o", s.pkg, "-tools", tools, "-version", "0.0.0-e2e"},
		{"run", "./web/mkdemo", "-pkg", s.pkg, "-o", s.dir, "-npm-prefix", prefix},
	} {
		cmd := exec.Command("go", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return site{}, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	for _, page := range []string{"script.html", "esm.html"} {
		b, err := os.ReadFile(filepath.Join("testdata", page))
		if err != nil {
			return site{}, err
		}
		if err := os.WriteFile(filepath.Join(s.dir, page), b, 0o644); err != nil {
			return site{}, err
		}
	}
	// badtools: the real modules, plus one that is not WebAssembly.
	bad := filepath.Join(s.dir, "badtools")
	if err := os.CopyFS(bad, os.DirFS(tools)); err != nil {
		return site{}, err
	}
	var manifest map[string][]string
	mb, err := os.ReadFile(filepath.Join(bad, "manifest.json"))
	if err != nil {
		return site{}, err
	}
	if err := json.Unmarshal(mb, &manifest); err != nil {
		return site{}, err
	}
	manifest["broken.wasm"] = []string{"broken"}
	if mb, err = json.Marshal(manifest); err != nil {
		return site{}, err
	}
	if err := os.WriteFile(filepath.Join(bad, "manifest.json"), mb, 0o644); err != nil {
		return site{}, err
	}
	if err := os.WriteFile(filepath.Join(bad, "broken.wasm"), []byte("\x00asm\x01\x00\x00\x00this is not a module"), 0o644); err != nil {
		return site{}, err
	}
	return s, nil
}

// serveSite serves the site with net/http/httptest.
func serveSite(t *testing.T, s site) string {
	t.Helper()
	srv := httptest.NewServer(http.FileServer(http.Dir(s.dir)))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// serveWithCLI serves the site with "wasmsand serve" and returns its URL.
func serveWithCLI(t *testing.T, s site) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "wasmsand")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/wasmsand")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the CLI: %v\n%s", err, out)
	}
	srv := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--dir", s.dir)
	stdout, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- srv.Wait() }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			srv.Process.Kill()
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("wasmsand serve printed no URL: %v", err)
	}
	i := strings.Index(line, "http://")
	if i < 0 {
		t.Fatalf("wasmsand serve printed %q, want a URL", line)
	}
	go io.Copy(io.Discard, stdout)
	return strings.TrimSpace(line[i:])
}

var (
	allocOnce   sync.Once
	allocCtx    context.Context
	allocCancel context.CancelFunc
	userDataDir string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if siteRoot != "" {
		os.RemoveAll(siteRoot)
	}
	if allocCancel != nil {
		allocCancel()
	}
	if userDataDir != "" {
		os.RemoveAll(userDataDir)
	}
	os.Exit(code)
}

// newTab opens a fresh tab in the shared headless Chromium. Console output
// and uncaught exceptions of the page go to the test log.
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
			chromedp.WindowSize(1280, 800),
		)
	})
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelTimeout)
	if err := chromedp.Do(ctx); err != nil { // start the browser and the tab
		t.Fatalf("starting Chromium: %v", err)
	}
	console := chromedp.Events(ctx, runtime.ConsoleAPICalled)
	exceptions := chromedp.Events(ctx, runtime.ExceptionThrown)
	logf := func(format string, args ...any) {
		defer func() { recover() }() // the test may have ended
		t.Logf(format, args...)
	}
	go func() {
		for ev, err := range console {
			if err != nil {
				return
			}
			var parts []string
			for _, a := range ev.Args {
				if a.Value != nil {
					parts = append(parts, strings.Trim(string(a.Value), `"`))
				} else {
					parts = append(parts, a.Description)
				}
			}
			logf("console.%s: %s", ev.Type, strings.Join(parts, " "))
		}
	}()
	go func() {
		for ev, err := range exceptions {
			if err != nil {
				return
			}
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			logf("page exception: %s", msg)
		}
	}()
	return ctx
}

// open navigates to url and waits until window.W (the wasmsand API) is set.
func open(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("opening %s: %v", url, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.W !== undefined`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("waiting for the wasmsand API on %s: %v", url, err)
	}
}

// eval evaluates a JavaScript expression, awaiting it if it is a Promise,
// and decodes its JSON value into out (which may be nil).
func eval(t *testing.T, ctx context.Context, expr string, out any) {
	t.Helper()
	if err := evalErr(ctx, expr, out); err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
}

func evalErr(ctx context.Context, expr string, out any) error {
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise))
	if err != nil || out == nil {
		return err
	}
	return json.Unmarshal(raw, out)
}

// runResult is Sandbox.run's result.
type runResult struct {
	ExitCode        int     `json:"exitCode"`
	Stdout          string  `json:"stdout"`
	Stderr          string  `json:"stderr"`
	ExecutionTimeMs float64 `json:"executionTimeMs"`
	Metrics         struct {
		FuelUsed        float64 `json:"fuelUsed"`
		PeakMemoryBytes float64 `json:"peakMemoryBytes"`
		Processes       int     `json:"processes"`
		TimedOut        bool    `json:"timedOut"`
	} `json:"metrics"`
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
