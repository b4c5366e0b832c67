// Package reload measures what a page reload costs before the first
// python3 runs in headless Chromium, without and with the module store
// (instrumented modules kept in the Cache API across page loads), and
// checks createWasmSandbox's WebAssembly text in the same page.
package reload

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
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
// the module store in the Cache API or without.
const firstRun = `(async (caching) => {
  W.configure({ caching });
  const t0 = performance.now();
  const sb = await W.Sandbox.create({});
  const r = await sb.run('python3 -c "print(6 * 7)"');
  const ms = performance.now() - t0;
  sb.destroy();
  let cached = 0;
  for (const name of ['wasmsand-modules-v1']) {
    if (await caches.has(name)) cached += (await (await caches.open(name)).keys()).length;
  }
  return { ms, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, cached };
})`

type result struct {
	MS       float64 `json:"ms"`
	ExitCode int     `json:"exitCode"`
	Stdout   string  `json:"stdout"`
	Stderr   string  `json:"stderr"`
	Cached   int     `json:"cached"`
	// TaskMS is the renderer main thread's busy time during the run (the
	// Performance domain's TaskDuration), less sensitive than MS to a busy
	// machine.
	TaskMS float64 `json:"-"`
}

// taskDuration returns the Performance domain's TaskDuration in ms.
func taskDuration(ctx context.Context) (float64, error) {
	r, err := chromedp.Call(ctx, performance.GetMetrics, cdp.Empty{})
	if err != nil {
		return 0, err
	}
	for _, m := range r.Metrics {
		if m.Name == "TaskDuration" {
			return m.Value * 1000, nil
		}
	}
	return 0, nil
}

func TestReloadPython(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the npm package and loads python3 in Chromium")
	}
	path, pkg := cguestPackage(t, map[string][]string{"python3.wasm": {"python3", "python"}, "wat2wasm.wasm": {"wat2wasm"}})

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
		if _, err := chromedp.Call(ctx, performance.Enable, performance.EnableParams{}); err != nil {
			t.Fatalf("%s: Performance.enable: %v", name, err)
		}
		t0, err := taskDuration(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var r result
		arg := "false"
		if store {
			arg = "true"
		}
		if err := chrome.Eval(ctx, firstRun+"("+arg+")", &r); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, console())
		}
		t1, err := taskDuration(ctx)
		if err != nil {
			t.Fatal(err)
		}
		r.TaskMS = t1 - t0
		if r.ExitCode != 0 || r.Stdout != "42\n" {
			t.Fatalf("%s: python3 gave exit %d, stdout %q, stderr %q", name, r.ExitCode, r.Stdout, r.Stderr)
		}
		t.Logf("%-28s first python3 %6.0f ms, main thread busy %6.0f ms (Cache API entries: %d)", name, r.MS, r.TaskMS, r.Cached)
		return r
	}
	load("first load, no store", false)
	fill := load("reload, store filling", true)
	if fill.Cached != 3 {
		t.Errorf("Cache API entries after a load with caching: %d, want 3 (python3's instrumented module, its files and its description, kept by its digest)", fill.Cached)
	}
	// Reloads without and with the caches, alternated so that the
	// machine's load affects both alike; the medians are the figures.
	var before, after, beforeTask, afterTask []float64
	for range 3 {
		r := load("reload, no store", false)
		before, beforeTask = append(before, r.MS), append(beforeTask, r.TaskMS)
		r = load("reload, store warm", true)
		after, afterTask = append(after, r.MS), append(afterTask, r.TaskMS)
		if r.Cached != fill.Cached {
			t.Errorf("a warm reload changed the Cache API entries: %d, was %d", r.Cached, fill.Cached)
		}
	}
	checkWAT(t, ctx)
	for _, s := range [][]float64{before, after, beforeTask, afterTask} {
		slices.Sort(s)
	}
	t.Logf("first python3 after a reload, median of 3: %.0f ms without the store, %.0f ms with it; main thread busy %.0f ms without, %.0f ms with",
		before[1], after[1], beforeTask[1], afterTask[1])
}

// watCheck loads WebAssembly text into createWasmSandbox in the page: a
// module that adds, and one with a mistake on line 4.
const watCheck = `(async () => {
  const ws = await W.createWasmSandbox();
  const ok = ws.create({ eventTimestamp: 1700000000000 });
  await ws.load(ok, '(module\n  (func (export "add") (param i32 i32) (result i32)\n    (i32.add (local.get 0) (local.get 1))))');
  const r = await ws.execute(ok, 'add', [40, 2]);
  const bad = ws.create({ eventTimestamp: 1700000000000 });
  let code = '', message = '';
  try {
    await ws.load(bad, '(module\n  (func (result i32)\n    i32.const 1\n    i32.bogus))');
  } catch (err) {
    code = err.code;
    message = err.message;
  }
  return { value: r.value, code, message };
})()`

func checkWAT(t *testing.T, ctx context.Context) {
	t.Helper()
	var r struct {
		Value   int    `json:"value"`
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	if err := chrome.Eval(ctx, watCheck, &r); err != nil {
		t.Fatalf("WebAssembly text in the page: %v", err)
	}
	if r.Value != 42 || r.Code != "INVALID_MODULE" || !strings.Contains(r.Message, "line 4, column 5") {
		t.Errorf("WebAssembly text in the page: %+v", r)
	}
	t.Logf("WebAssembly text in Chromium: add gave %d; the mistake: %s", r.Value, r.Message)
}

// cguestPackage finds Chromium and builds the npm package with the C
// guest modules of manifest (module file → commands), linked from the C
// guests' build. Without Chromium, or without the C guests outside CI, it
// skips t; under CI=true missing C guests fail it.
func cguestPackage(t *testing.T, manifest map[string][]string) (chromium, pkg string) {
	t.Helper()
	chromium, err := chrome.Find()
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
	for file := range manifest {
		if err := os.Symlink(filepath.Join(cdir, file), filepath.Join(tools, file)); err != nil {
			t.Fatal(err)
		}
	}
	m, err := json.Marshal(manifest)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tools, "manifest.json"), m, 0o644); err != nil {
		t.Fatal(err)
	}
	pkg = filepath.Join(t.TempDir(), "npm")
	build := exec.Command("go", "run", "./web/mkpackage", "-o", pkg, "-tools", tools)
	build.Dir = filepath.Join("..", "..")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the npm package: %v\n%s", err, b)
	}
	return chromium, pkg
}
