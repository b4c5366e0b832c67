package reload

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/wasmsand/wasmsand/e2e/internal/chrome"
	"github.com/wasmsand/wasmsand/wasm/cguest"
	"github.com/wasmsand/wasmsand/wasm/coalesce"
	"github.com/wasmsand/wasmsand/wasm/instrument"
)

// compileOnce compiles the module at /m.wasm, kept in the Cache API,
// one way: through WebAssembly.compileStreaming of the cached Response
// (which carries a URL, so V8 may use its code cache) or through
// WebAssembly.compile of its bytes (which never can). A page that finds
// the cache empty fills it first.
// A page whose origin the browser would not let keep the module (its
// storage quota, which shrinks as the disk fills, is too small) says so
// instead, with the quota and usage it was given.
const compileOnce = `(async (streaming, size) => {
  const c = await caches.open('wasmsand-codecache-test');
  let r = await c.match('/m.wasm');
  const hit = !!r;
  const { quota, usage } = await navigator.storage.estimate();
  if (!r) {
    if (quota - usage < 2 * size) return { noRoom: true, quota, usage };
    await c.put('/m.wasm', await fetch('/m.wasm'));
    r = await c.match('/m.wasm');
  }
  const bytes = streaming ? null : await r.arrayBuffer();
  const t0 = performance.now();
  const m = streaming ? await WebAssembly.compileStreaming(r) : await WebAssembly.compile(bytes);
  return { hit, quota, usage, ms: performance.now() - t0, exports: WebAssembly.Module.exports(m).length };
})`

// TestCodeCacheCompile measures, in headless Chromium, how long compiling
// python3's instrumented module takes on a first visit and on later ones,
// each in a new browser process on one profile (so only the disk caches
// carry over): from the Cache API by compileStreaming and from bytes by
// compile, alternated. It logs the medians; it checks that every load
// compiles the module and that later visits find it in the Cache API.
func TestCodeCacheCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles python3 in Chromium")
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
	raw, err := os.ReadFile(filepath.Join(cdir, "python3.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	// As the sandbox instruments every tool module.
	bin, err := instrument.Instrument(raw, instrument.Options{Fuel: true, MemoryLimitPages: 4096})
	if err != nil {
		t.Fatal(err)
	}
	bin = coalesce.Data(bin)

	mux := http.NewServeMux()
	mux.HandleFunc("/m.wasm", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/wasm")
		w.Write(bin)
	})
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<!doctype html><title>code cache</title>"))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	profile := t.TempDir()

	type outcome struct {
		NoRoom  bool    `json:"noRoom"`
		Quota   float64 `json:"quota"`
		Usage   float64 `json:"usage"`
		Hit     bool    `json:"hit"`
		MS      float64 `json:"ms"`
		Exports int     `json:"exports"`
	}
	visit := func(streaming bool) outcome {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		actx, acancel := chromedp.NewExecAllocator(ctx,
			chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
			chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.UserDataDir(profile))
		defer acancel()
		bctx, bcancel := chromedp.NewContext(actx)
		defer bcancel()
		console := chrome.Console(bctx)
		if err := chromedp.Do(bctx, chromedp.Navigate(srv.URL+"/")); err != nil {
			t.Fatalf("opening the page: %v", err)
		}
		var o outcome
		arg := "false"
		if streaming {
			arg = "true"
		}
		if err := chrome.Eval(bctx, fmt.Sprintf("%s(%s, %d)", compileOnce, arg, len(bin)), &o); err != nil {
			t.Fatalf("compiling: %v\n%s", err, console())
		}
		if o.NoRoom {
			// Chromium keeps ~1 GB of the disk free and grants origins
			// storage from what is left; this is the machine's state, not
			// the sandbox's.
			t.Skipf("Chromium grants the page %.0f MB of storage (%.0f MB used), too little to keep the %d MB module: the disk of %s is nearly full",
				o.Quota/1e6, o.Usage/1e6, len(bin)>>20, profile)
		}
		if o.Exports == 0 {
			t.Fatal("the compiled module has no exports")
		}
		// Let the browser write its caches before it is closed.
		_ = chromedp.Do(bctx, chromedp.Sleep(2*time.Second))
		return o
	}
	first := visit(true)
	if first.Hit {
		t.Fatal("the first visit found the module in a fresh profile's Cache API")
	}
	t.Logf("first visit: compileStreaming %.0f ms (storage quota %.0f MB)", first.MS, first.Quota/1e6)
	var streaming, bytes []float64
	for range 3 {
		for _, s := range []bool{true, false} {
			o := visit(s)
			if !o.Hit {
				t.Fatal("a later visit did not find the module in the Cache API")
			}
			if s {
				streaming = append(streaming, o.MS)
			} else {
				bytes = append(bytes, o.MS)
			}
		}
	}
	t.Logf("later visits: compileStreaming %.0f ms, compile of the bytes %.0f ms (each %v, %v)",
		median(streaming), median(bytes), streaming, bytes)
}

func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}
