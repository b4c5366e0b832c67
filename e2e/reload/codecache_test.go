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
    compiles.push({ stream: true, url: r.url ? new URL(r.url).pathname : '', ms: performance.now() - t0 });
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
	Stream bool    `json:"stream"` // by compileStreaming
	URL    string  `json:"url"`    // path of the Response's URL (compileStreaming; "" for none)
	Size   int     `json:"size"`   // size of the bytes (compile)
	MS     float64 `json:"ms"`
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

// times returns the time the visit took to compile the core (the first
// compileStreaming: of its URL on a first visit, of the loader's Cache API
// copy, which has none, on later ones) and python3 (the largest module
// compiled from bytes), and the path of the core's Response URL.
func (v visitResult) times() (coreMS, pythonMS float64, coreURL string, ok bool) {
	size := 0
	for _, c := range v.Compiles {
		if c.Stream && !ok {
			coreMS, coreURL, ok = c.MS, c.URL, true
		}
		if c.Size > size {
			size, pythonMS = c.Size, c.MS
		}
	}
	return coreMS, pythonMS, coreURL, ok && size > 0
}

// TestCodeCacheCompile follows the product across page loads in headless
// Chromium — each visit a new browser process on one profile, so only the
// disk caches carry over — and reports what V8's WebAssembly code cache
// does for it. A first visit compiles the core by
// WebAssembly.compileStreaming of its URL (served here with Cache-Control:
// max-age, so the HTTP cache keeps it without revalidating); the loader
// then keeps a copy in the Cache API, and later visits compile that copy,
// by compileStreaming of a Response without a URL. Tool modules such as
// python3 are compiled by WebAssembly.compile of the bytes the sandbox
// instrumented (kept in the Cache API too). It checks that path, and logs
// the compile times of the first visit and the median of later ones, as
// ratios, and V8.WasmCodeCaching from chrome://histograms.
//
// What an earlier version of this test found (Chromium 156.0.8078.79,
// Debian), when later visits still compiled the core by URL: they did not
// reuse compiled code, and a hit would have saved little.
//
//   - Chromium keeps V8's code only for a Response with a URL, from the
//     network (HTTP cache) or a Cache API entry whose response has one
//     (v8_wasm_response_extensions.cc: StreamFromResponseCallback takes the
//     body's cached-metadata handler; WasmCodeCachingCallback sends the code
//     to the CodeCacheHost keyed by response URL). A module the page makes
//     — python3 instrumented in the page, kept as new Response(bytes) in
//     the Cache API — comes back from cache.match with url "" and is
//     counted as V8.WasmCodeCaching "no cache handler": it can never be
//     cached, short of a service worker answering for a URL. The same now
//     holds for the core's copy.
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
//     visit was a miss. With --js-flags=--wasm-caching-timeout-ms=0 later
//     visits hit.
//   - Even a hit saved little: with lazy compilation (the default)
//     compileStreaming only decodes and validates, and a hit still
//     streams and hashes the wire bytes (Chromium checks their SHA-256).
//     Here, on a shared 2-core machine, the core (by URL) compiled in
//     130–300 ms with a miss and 85–320 ms with a hit (no steady gain);
//     python3's 9 MB instrumented module in 20–130 ms from bytes, and no
//     faster from a Cache API copy by compileStreaming (30–80 ms).
//
// What did cost was reading the core's 11 MB out of the HTTP cache, about
// 220 ms here against 80 ms from the Cache API (TestStartupTimings in
// e2e/browser), which is why the loader keeps the core there and gives up
// V8's code cache for it, which the defaults never filled.
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

	// Four visits on a new profile.
	profile := t.TempDir()
	var vs []visitResult
	for k := range 4 {
		name := fmt.Sprintf("visit %d", k+1)
		v := visit(t, path, profile, srv.URL+"/", name)
		coreMS, pythonMS, coreURL, ok := v.times()
		if !ok {
			t.Fatalf("%s: the page did not compile the core by compileStreaming and python3 from bytes: %+v", name, v.Compiles)
		}
		t.Logf("%s: core %.0f ms, python3 %.0f ms; V8.WasmCodeCaching %v", name, coreMS, pythonMS, v.Caching)
		lookups := v.Caching[cacheMiss] + v.Caching[cacheHit] + v.Caching[cacheInvalid]
		switch {
		case k == 0 && coreURL != "/wasmsand/wasmsand.wasm":
			t.Errorf("%s: the core was compiled from %q, want its URL", name, coreURL)
		case k == 0 && lookups == 0:
			t.Errorf("%s: Chromium looked up no code cache for the core: V8.WasmCodeCaching %v", name, v.Caching)
		case k > 0 && coreURL != "":
			t.Errorf("%s: the core was compiled from %q, want the Cache API copy (no URL)", name, coreURL)
		case k > 0 && (lookups != 0 || v.Caching[cacheNoHandler] == 0):
			t.Errorf("%s: V8.WasmCodeCaching %v, want only \"no cache handler\" (the Cache API copy)", name, v.Caching)
		}
		vs = append(vs, v)
	}
	var cores, pythons []float64
	for _, v := range vs[1:] {
		c, p, _, _ := v.times()
		cores, pythons = append(cores, c), append(pythons, p)
	}
	slices.Sort(cores)
	slices.Sort(pythons)
	c0, p0, _, _ := vs[0].times()
	t.Logf("later visits compiled the core %.2f× and python3 %.2f× as fast as the first",
		c0/cores[len(cores)/2], p0/pythons[len(pythons)/2])
}

// visit opens url in a new headless Chromium on profile, runs python3
// there (pythonVisit), waits for the browser to write its caches, and
// reads the renderer's V8.WasmCodeCaching histogram.
func visit(t *testing.T, path, profile, url, name string) visitResult {
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
