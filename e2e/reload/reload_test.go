// Package reload measures what a page reload costs before the first
// python3 runs in headless Chromium, without and with the module store
// (instrumented modules kept in the Cache API across page loads).
package reload

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/wasmsand/wasmsand/e2e/internal/chrome"
	"github.com/wasmsand/wasmsand/wasm/cguest"
)

const page = `<!doctype html>
<meta charset="utf-8">
<title>wasmsand reload</title>
<script type="module">
  import * as wasmsand from './wasmsand/browser.mjs';
  window.W = wasmsand;
</script>
`

// firstRun times Sandbox.create and the first python3 in the page, with
// the default module store or none (null).
const firstRun = `(async (store) => {
  const t0 = performance.now();
  const sb = await W.Sandbox.create(store ? {} : { moduleStore: null });
  const r = await sb.run('python3 -c "print(6 * 7)"');
  const ms = performance.now() - t0;
  sb.destroy();
  const cached = (await caches.has('wasmsand-modules-v1'))
    ? (await (await caches.open('wasmsand-modules-v1')).keys()).length : 0;
  return { ms, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, cached };
})`

type result struct {
	MS       float64 `json:"ms"`
	ExitCode int     `json:"exitCode"`
	Stdout   string  `json:"stdout"`
	Stderr   string  `json:"stderr"`
	Cached   int     `json:"cached"`
}

func TestReloadPython(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the npm package and loads python3 in Chromium")
	}
	path, err := chrome.Find()
	if err != nil {
		t.Skip(err)
	}
	cdir, ok := cguest.Cached()
	if !ok {
		if os.Getenv("CI") == "true" {
			t.Fatal("the C guests are not built: CI must run `make cguests` (see .ci/run)")
		}
		t.Skip("the C guests are not built here (make cguests)")
	}
	tools := t.TempDir()
	if err := os.Symlink(filepath.Join(cdir, "python3.wasm"), filepath.Join(tools, "python3.wasm")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tools, "manifest.json"), []byte(`{"python3.wasm": ["python3", "python"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Join(t.TempDir(), "npm")
	build := exec.Command("go", "run", "./web/mkpackage", "-o", pkg, "-tools", tools)
	build.Dir = filepath.Join("..", "..")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the npm package: %v\n%s", err, b)
	}

	mux := http.NewServeMux()
	mux.Handle("/wasmsand/", http.StripPrefix("/wasmsand/", http.FileServer(http.Dir(pkg))))
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ctx, stop, err := chrome.Start(ctx, path)
	if err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	defer stop()
	console := chrome.Console(ctx)

	load := func(name string, store bool) result {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
			t.Fatalf("%s: opening the page: %v\n%s", name, err, console())
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.W !== undefined`, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
			t.Fatalf("%s: waiting for the API: %v\n%s", name, err, console())
		}
		var r result
		arg := "false"
		if store {
			arg = "true"
		}
		if err := chrome.Eval(ctx, firstRun+"("+arg+")", &r); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, console())
		}
		if r.ExitCode != 0 || r.Stdout != "42\n" {
			t.Fatalf("%s: python3 gave exit %d, stdout %q, stderr %q", name, r.ExitCode, r.Stdout, r.Stderr)
		}
		t.Logf("%-28s first python3 %6.0f ms (Cache API entries: %d)", name, r.MS, r.Cached)
		return r
	}
	load("first load, no store", false)
	before := load("reload, no store", false)
	fill := load("reload, store filling", true)
	after := load("reload, store warm", true)
	if before.Cached != 0 || fill.Cached == 0 || after.Cached != fill.Cached {
		t.Errorf("Cache API entries: %d without the store, %d after filling it, %d after a warm reload",
			before.Cached, fill.Cached, after.Cached)
	}
	t.Logf("reload before %.0f ms, after %.0f ms", before.MS, after.MS)
}
