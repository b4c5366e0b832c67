package reload

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/wasmsand/wasmsand/e2e/internal/chrome"
)

// timedPage is the test page: before the package loads, it wraps
// WebAssembly.compileStreaming and WebAssembly.compile so that every
// compile the product does is logged in window.compiles, with the path of
// the response's URL (streaming) or the size of the bytes, and the time it
// took.
const timedPage = `<!doctype html>
<meta charset="utf-8">
<title>wasmsand code cache</title>
<script>
  window.compiles = [];
  const stream = WebAssembly.compileStreaming, bytes = WebAssembly.compile;
  WebAssembly.compileStreaming = async (src) => {
    const r = await src;
    const t0 = performance.now();
    const m = await stream.call(WebAssembly, r);
    compiles.push({ url: r.url ? new URL(r.url).pathname : '', ms: performance.now() - t0 });
    return m;
  };
  WebAssembly.compile = async (b) => {
    const t0 = performance.now();
    const m = await bytes.call(WebAssembly, b);
    compiles.push({ size: b.byteLength, ms: performance.now() - t0 });
    return m;
  };
</script>
<script type="module">
  import * as wasmsand from './wasmsand/browser.mjs';
  window.W = wasmsand;
</script>
`

// pythonVisit runs python3 once in a new sandbox, as a page would, and
// returns the compiles the page logged.
const pythonVisit = `(async () => {
  const sb = await W.Sandbox.create({});
  const r = await sb.run('python3 -c "import json; print(sum(json.loads(json.dumps(list(range(20000))))))"');
  sb.destroy();
  return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, compiles };
})()`

type compileLog struct {
	URL  string  `json:"url"`  // path of the Response's URL (compileStreaming)
	Size int     `json:"size"` // size of the bytes (compile)
	MS   float64 `json:"ms"`
}

type visitResult struct {
	ExitCode int          `json:"exitCode"`
	Stdout   string       `json:"stdout"`
	Stderr   string       `json:"stderr"`
	Compiles []compileLog `json:"compiles"`
	// Caching counts the V8.WasmCodeCaching samples of the visit's
	// renderer by value (see codeCaching).
	Caching map[int]int `json:"-"`
}

// The values of Chromium's V8.WasmCodeCaching histogram, recorded once
// for each compileStreaming (v8_wasm_response_extensions.cc).
const (
	cacheMiss      = 0 // a cache handler, no code kept for the URL
	cacheHit       = 1 // V8 got its code from the cache
	cacheInvalid   = 2 // code kept, but V8 refused it
	cacheNoHandler = 3 // a Response Chromium cannot keep code for
)

// times returns the time the visit took to compile the core
// (wasmsand.wasm, by compileStreaming of its URL) and python3 (the largest
// module compiled from bytes).
func (v visitResult) times() (coreMS, pythonMS float64, ok bool) {
	size := 0
	for _, c := range v.Compiles {
		if strings.HasSuffix(c.URL, "/wasmsand.wasm") {
			coreMS, ok = c.MS, true
		}
		if c.Size > size {
			size, pythonMS = c.Size, c.MS
		}
	}
	return coreMS, pythonMS, ok && size > 0
}

// TestCodeCacheCompile follows the product across page loads in headless
// Chromium — each visit a new browser process on one profile, so only the
// disk caches carry over — and reports what V8's WebAssembly code cache
// does for it: the core is compiled by WebAssembly.compileStreaming of its
// URL (served here with Cache-Control: max-age, so the HTTP cache keeps it
// without revalidating), tool modules such as python3 by
// WebAssembly.compile of the bytes the sandbox instrumented. It logs the
// compile times of the first visit and the median of later ones, as
// ratios, and V8.WasmCodeCaching from chrome://histograms.
//
// What it found (Chromium 156.0.8078.79, Debian): later visits do not
// reuse compiled code, and nothing a page can do changes that.
//
//   - Chromium keeps V8's code only for a Response with a URL, from the
//     network (HTTP cache) or a Cache API entry whose response has one
//     (v8_wasm_response_extensions.cc: StreamFromResponseCallback takes the
//     body's cached-metadata handler; WasmCodeCachingCallback sends the code
//     to the CodeCacheHost keyed by response URL). A module the page makes
//     — python3 instrumented in the page, kept as new Response(bytes) in
//     the Cache API — comes back from cache.match with url "" and is
//     counted as V8.WasmCodeCaching "no cache handler": it can never be
//     cached, short of a service worker answering for a URL.
//   - For a module with a URL (the core), V8 only offers code for caching
//     with dynamic tiering on (the default): once wasm_caching_threshold
//     (1000) bytes of TurboFan code exist and no new TurboFan code has
//     come for wasm_caching_timeout_ms (2000), or at once after
//     wasm_caching_hard_threshold (1,000,000) bytes
//     (module-compiler.cc: TriggerOutstandingCallbacks,
//     TriggerCachingAfterTimeout). Liftoff code is never cached. With
//     those defaults no visit here serialized the core (no
//     V8.WasmSerializationTimeMilliSeconds samples, even 60 s after
//     python3 ended, with the page's main thread idle), so every later
//     visit is a miss. With --js-flags=--wasm-caching-timeout-ms=0 V8
//     serializes each 1000-byte chunk of TurboFan code at once (31 chunks
//     read 3 s after the run, 33 in another run read after 15 s), and a
//     9 KB module that runs a hot loop and then idles was cached with the
//     defaults (checked by hand): the likeliest reason, not pinned down, is
//     TurboFan code for the core still arriving after the run, which puts
//     the 2 s off. With that flag later visits hit, with Cache-Control
//     max-age as here and also with no-cache (a 304 revalidation keeps the
//     code): the test runs it too, to prove the product's path is one
//     Chromium can cache.
//   - Even a hit saves little: with lazy compilation (the default)
//     compileStreaming only decodes and validates, and a hit still
//     streams and hashes the wire bytes (Chromium checks their SHA-256).
//     Here, on a shared 2-core machine, the core (by URL) compiled in
//     130–300 ms with a miss and 85–320 ms with a hit (no steady gain);
//     python3's 9 MB instrumented module in 20–130 ms from bytes, and no
//     faster from a Cache API copy by compileStreaming (30–80 ms).
//
// So the product keeps what can be kept — the instrumented module in the
// Cache API (TestReloadPython), the core by URL in the HTTP cache — and
// compiles python3 from bytes.
func TestCodeCacheCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the npm package and runs python3 in Chromium")
	}
	path, pkg := cguestPackage(t, map[string][]string{"python3.wasm": {"python3"}})

	files := http.StripPrefix("/wasmsand/", http.FileServer(http.Dir(pkg)))
	mux := http.NewServeMux()
	mux.HandleFunc("/wasmsand/", func(w http.ResponseWriter, r *http.Request) {
		// As a deployment of a versioned package would: the HTTP cache
		// answers later visits without asking the server.
		w.Header().Set("Cache-Control", "max-age=3600")
		files.ServeHTTP(w, r)
	})
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(timedPage))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	// visits loads the page visits times on a new profile, with V8 flags
	// jsFlags, and returns what each visit saw.
	visits := func(jsFlags string, n int) []visitResult {
		t.Helper()
		profile := t.TempDir()
		var out []visitResult
		for k := range n {
			name := fmt.Sprintf("visit %d (js-flags %q)", k+1, jsFlags)
			v := visit(t, path, profile, jsFlags, srv.URL+"/", name)
			coreMS, pythonMS, ok := v.times()
			if !ok {
				t.Fatalf("%s: the page did not compile the core by URL and python3 from bytes: %+v", name, v.Compiles)
			}
			t.Logf("%s: core %.0f ms, python3 %.0f ms; V8.WasmCodeCaching %v", name, coreMS, pythonMS, v.Caching)
			if v.Caching[cacheMiss]+v.Caching[cacheHit]+v.Caching[cacheInvalid] == 0 {
				t.Errorf("%s: Chromium looked up no code cache for the core: V8.WasmCodeCaching %v", name, v.Caching)
			}
			out = append(out, v)
		}
		return out
	}
	ratios := func(vs []visitResult) (core, python float64) {
		var cores, pythons []float64
		for _, v := range vs[1:] {
			c, p, _ := v.times()
			cores, pythons = append(cores, c), append(pythons, p)
		}
		slices.Sort(cores)
		slices.Sort(pythons)
		c0, p0, _ := vs[0].times()
		return c0 / cores[len(cores)/2], p0 / pythons[len(pythons)/2]
	}

	defaults := visits("", 4)
	hits := 0
	for _, v := range defaults[1:] {
		hits += v.Caching[cacheHit]
	}
	core, python := ratios(defaults)
	t.Logf("V8's defaults: later visits compiled the core %.2f× and python3 %.2f× as fast as the first; %d of %d later visits reused the core's code",
		core, python, hits, len(defaults)-1)

	// With no wait after the last TurboFan code, V8 offers the core's
	// code at once: later visits must get it from the cache.
	eager := visits("--wasm-caching-timeout-ms=0", 2)
	if eager[1].Caching[cacheHit] == 0 {
		t.Errorf("with --wasm-caching-timeout-ms=0 the second visit did not reuse the core's code: V8.WasmCodeCaching %v", eager[1].Caching)
	}
	core, python = ratios(eager)
	t.Logf("caching at once: the second visit compiled the core %.2f× and python3 %.2f× as fast as the first", core, python)
}

// visit opens url in a new headless Chromium on profile, runs python3
// there (pythonVisit), waits for the browser to write its caches, and
// reads the renderer's V8.WasmCodeCaching histogram.
func visit(t *testing.T, path, profile, jsFlags, url, name string) visitResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
	}
	if jsFlags != "" {
		opts = append(opts, chromedp.Flag("js-flags", jsFlags))
	}
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	console := chrome.Console(bctx)
	if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("%s: opening the page: %v", name, err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`window.W !== undefined`, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("%s: waiting for the API: %v\n%s", name, err, console())
	}
	var v visitResult
	if err := chrome.Eval(bctx, pythonVisit, &v); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, console())
	}
	if v.ExitCode != 0 || v.Stdout != "199990000\n" {
		t.Fatalf("%s: python3 gave exit %d, stdout %q, stderr %q", name, v.ExitCode, v.Stdout, v.Stderr)
	}
	// V8 offers code for caching wasm_caching_timeout_ms (2 s) after the
	// last TurboFan code; give it and the browser time to write it.
	if err := chromedp.Do(bctx, chromedp.Sleep(4*time.Second)); err != nil {
		t.Fatal(err)
	}
	caching, err := codeCaching(bctx)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	v.Caching = caching
	return v
}

// histogramBucket is a bucket line of chrome://histograms: the value, a
// bar, then the count.
var histogramBucket = regexp.MustCompile(`^\s*(\d+)\s+-*O\s+\((\d+) =`)

// codeCaching reads V8.WasmCodeCaching from chrome://histograms in the
// tab, with the renderers' histograms included, as counts by value.
func codeCaching(ctx context.Context) (map[int]int, error) {
	if err := chromedp.Do(ctx, chromedp.Navigate("chrome://histograms/")); err != nil {
		return nil, fmt.Errorf("opening chrome://histograms: %w", err)
	}
	var text string
	err := chrome.Eval(ctx, `(async () => {
  const wait = (ms) => new Promise((r) => setTimeout(r, ms));
  await wait(500);
  for (const c of document.querySelectorAll('input[type=checkbox]')) if (!c.checked) c.click();
  await wait(1000);
  for (const b of document.querySelectorAll('button')) if (b.textContent.includes('Refresh')) b.click();
  await wait(2000);
  return document.body.innerText;
})()`, &text)
	if err != nil {
		return nil, fmt.Errorf("reading chrome://histograms: %w", err)
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if !strings.Contains(l, "Histogram: V8.WasmCodeCaching ") {
			continue
		}
		counts := map[int]int{}
		for _, b := range lines[i+1:] {
			if strings.Contains(b, "Histogram:") {
				break
			}
			if m := histogramBucket.FindStringSubmatch(b); m != nil {
				v, _ := strconv.Atoi(m[1])
				n, _ := strconv.Atoi(m[2])
				if n > 0 {
					counts[v] = n
				}
			}
		}
		return counts, nil
	}
	return nil, fmt.Errorf("chrome://histograms has no V8.WasmCodeCaching (%d lines): Chromium recorded no compileStreaming, or the page changed", len(lines))
}
