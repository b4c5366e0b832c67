package browser

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"

	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// startupPage imports the ES module build, makes a sandbox and runs echo
// hi, recording when the output arrived (ms since navigation began).
const startupPage = `<!doctype html>
<meta charset="utf-8">
<title>wasmsand: start-up timings</title>
<script type="module">
  const W = await import('./wasmsand/browser.mjs');
  const sb = await W.Sandbox.create();
  let first = 0;
  const r = await sb.run('echo hi', { onStdout: () => { first ||= performance.now(); } });
  window.sb = sb;
  window.startup = { firstOutput: first, stdout: r.stdout };
</script>
`

// TestStartupTimings measures, in Chromium, the time from navigation to
// the first output of echo hi with an empty HTTP cache and Cache API, and
// then with warm ones (where the loader compiles the core from its Cache
// API copy), and a 200-step loop of "echo a | tr a b" (the per-process
// cost). It logs
// the figures and checks only the outputs: timings on a shared machine
// are no pass/fail criterion.
func TestStartupTimings(t *testing.T) {
	s := buildSite(t)
	page := filepath.Join(s.dir, "startup.html")
	if err := os.WriteFile(page, []byte(startupPage), 0o644); err != nil {
		t.Fatal(err)
	}
	base := serveSite(t, s)
	url := base + "startup.html"
	ctx := newTab(t)
	// Empty the HTTP cache, and the Cache API where the loader keeps the
	// core (tests before this one may have filled both).
	if _, err := chromedp.Call(ctx, network.ClearBrowserCache, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, storage.ClearDataForOrigin, storage.ClearDataForOriginParams{Origin: strings.TrimSuffix(base, "/"), StorageTypes: "cache_storage"}); err != nil {
		t.Fatal(err)
	}
	load := func() float64 {
		t.Helper()
		st := loadStartup(t, ctx, url)
		if st.Stdout != "hi\n" || st.FirstOutput <= 0 {
			t.Fatalf("echo hi: %+v", st)
		}
		return st.FirstOutput
	}
	cold := load()
	// The loader keeps the core in the Cache API once the page is idle.
	if keys := storedCores(t, ctx, coreKey(t, s)); len(keys) != 1 {
		t.Fatalf("the core cache holds %v after the first load", keys)
	}
	var warm []float64
	for range 4 {
		warm = append(warm, load())
	}
	slices.Sort(warm)
	t.Logf("Chromium: first output of echo hi %.0f ms after navigation with an empty HTTP cache; warm cache %.0f ms (median of %v)", cold, warm[len(warm)/2], warm)

	// The loop runs six times: V8 first runs the core's Go code as Liftoff
	// code and moves the hot functions to TurboFan as they run, so the
	// first passes are the per-process cost of a fresh page and the last
	// that of a warm one.
	var runs []struct {
		Ms     float64 `json:"ms"`
		Stdout string  `json:"stdout"`
		Exit   int     `json:"exit"`
	}
	eval(t, ctx, `(async () => {
		await sb.run('echo a | tr a b');
		const runs = [];
		for (let k = 0; k < 6; k++) {
			const t = performance.now();
			const r = await sb.run('for i in $(seq 200); do echo a | tr a b; done | uniq -c');
			runs.push({ ms: performance.now() - t, stdout: r.stdout, exit: r.exitCode });
		}
		return runs;
	})()`, &runs)
	var steps []string
	for _, r := range runs {
		if r.Exit != 0 || r.Stdout != "    200 b\n" {
			t.Fatalf("tr loop: %+v", r)
		}
		steps = append(steps, fmt.Sprintf("%.2f", r.Ms/200))
	}
	t.Logf("Chromium: 200-step loop of echo a | tr a b, six times: %s ms a step", strings.Join(steps, ", "))
	if os.Getenv("WASMSAND_STARTUP_DEBUG") != "" {
		for _, cmd := range []string{"for i in $(seq 50); do true; done", "for i in $(seq 50); do /bin/true; done", "for i in $(seq 50); do echo a | /bin/true; done"} {
			var ms float64
			eval(t, ctx, `(async () => { const t = performance.now(); await sb.run(`+jsString(cmd)+`); return performance.now() - t; })()`, &ms)
			t.Logf("%s: %.1f ms", cmd, ms)
		}
	}
}

// startup is what startupPage reports: when echo hi's output came, the
// output, and whether the page fetched wasmsand.wasm.
type startup struct {
	FirstOutput float64 `json:"firstOutput"`
	Stdout      string  `json:"stdout"`
	Fetched     bool    `json:"fetched"`
}

// loadStartup navigates ctx to url, a startupPage, and returns what it
// reported.
func loadStartup(t *testing.T, ctx context.Context, url string) startup {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("loading %s: %v", url, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.startup !== undefined`, chromedp.WithPollingTimeout(time.Minute))); err != nil {
		t.Fatalf("waiting for echo hi on %s: %v", url, err)
	}
	var st startup
	eval(t, ctx, `({ ...window.startup,
		fetched: performance.getEntriesByType('resource').some((e) => e.name.endsWith('/wasmsand.wasm')) })`, &st)
	return st
}

// coreKey is the path under which the loader keeps the site's core in the
// Cache API.
func coreKey(t *testing.T, s site) string {
	t.Helper()
	core, err := os.ReadFile(filepath.Join(s.dir, "wasmsand", "wasmsand.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(core)
	return "/.wasmsand-core/" + hex.EncodeToString(sum[:]) + ".wasm"
}

// storedCores waits (up to 60 s, for a loaded machine) until the page's core cache holds the
// core, byte for byte, under key and nothing else, and returns the keys it
// holds: the loader stores the core once the page is idle.
func storedCores(t *testing.T, ctx context.Context, key string) []string {
	t.Helper()
	var keys []string
	eval(t, ctx, `(async () => {
		const digest = async (b) => Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', b)), (x) => x.toString(16).padStart(2, '0')).join('');
		const want = `+jsString(key)+`;
		let keys = [];
		for (const end = Date.now() + 60e3; Date.now() < end;) {
			// The entry first, then the keys: the loader stores the entry,
			// then deletes the others.
			const c = await caches.open('wasmsand-core-v1');
			const r = await c.match(want);
			keys = (await c.keys()).map((r) => new URL(r.url).pathname);
			if (r && keys.length === 1 && keys[0] === want && '/.wasmsand-core/' + await digest(await r.arrayBuffer()) + '.wasm' === want) break;
			await new Promise((res) => setTimeout(res, 20));
		}
		return keys;
	})()`, &keys)
	return keys
}

// TestCoreCache checks that the loader keeps the core in the Cache API
// under the SHA-256 the package build wrote into it, and compiles it from
// there on the next page load without fetching wasmsand.wasm; that a
// corrupt copy is replaced from the network, with the page still working;
// and that storing the core deletes the copies of other versions.
func TestCoreCache(t *testing.T) {
	s := buildSite(t)
	page := filepath.Join(s.dir, "startup.html")
	if err := os.WriteFile(page, []byte(startupPage), 0o644); err != nil {
		t.Fatal(err)
	}
	key := coreKey(t, s)
	url := serveSite(t, s) + "startup.html"
	ctx := newTab(t)

	if l := loadStartup(t, ctx, url); l.Stdout != "hi\n" {
		t.Fatalf("first load: %+v", l)
	}
	eval(t, ctx, `caches.delete('wasmsand-core-v1')`, nil)
	if l := loadStartup(t, ctx, url); l.Stdout != "hi\n" || !l.Fetched {
		t.Fatalf("load with no cached core: %+v; want hi, and wasmsand.wasm fetched", l)
	}
	if keys := storedCores(t, ctx, key); len(keys) != 1 || keys[0] != key {
		t.Fatalf("the core cache holds %v, want only %s", keys, key)
	}
	if l := loadStartup(t, ctx, url); l.Stdout != "hi\n" || l.Fetched {
		t.Fatalf("load with the core cached: %+v; want hi, and wasmsand.wasm not fetched", l)
	}

	// A corrupt copy, and the copy of another version.
	eval(t, ctx, `(async () => {
		const c = await caches.open('wasmsand-core-v1');
		await c.put(`+jsString(key)+`, new Response(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 99]), { headers: { 'Content-Type': 'application/wasm' } }));
		await c.put('/.wasmsand-core/0000.wasm', new Response('old', { headers: { 'Content-Type': 'application/wasm' } }));
	})()`, nil)
	if l := loadStartup(t, ctx, url); l.Stdout != "hi\n" || !l.Fetched {
		t.Fatalf("load with a corrupt cached core: %+v; want hi, and wasmsand.wasm fetched", l)
	}
	if keys := storedCores(t, ctx, key); len(keys) != 1 || keys[0] != key {
		t.Fatalf("after a corrupt copy, the core cache holds %v, want only %s", keys, key)
	}
	if l := loadStartup(t, ctx, url); l.Stdout != "hi\n" || l.Fetched {
		t.Fatalf("load after the corrupt copy was replaced: %+v; want hi, and wasmsand.wasm not fetched", l)
	}
}

// TestToolByDigest checks that after a page load that ran tr, the next
// one runs it from the module store without downloading coreutils.wasm:
// the package's tools/sha256.json gives the digest the store is searched
// by. It checks the same of a tool that carries files (as python3.wasm
// carries its library), whose files the store keeps beside its module
// (guesttest.WriteFilesTools).
func TestToolByDigest(t *testing.T) {
	s := buildSite(t)
	if err := os.WriteFile(filepath.Join(s.dir, "startup.html"), []byte(startupPage), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := guesttest.WriteFilesTools(s.tools, filepath.Join(s.dir, "filetools")); err != nil {
		t.Fatal(err)
	}
	base := serveSite(t, s)
	ctx := newTab(t)
	type result struct {
		Stdout  string `json:"stdout"`
		Fetched bool   `json:"fetched"` // the package's coreutils.wasm
		// The output of tr and cat with the tools folder filetools, and
		// whether its coreutils.wasm was fetched.
		FilesStdout  string `json:"filesStdout"`
		FilesFetched bool   `json:"filesFetched"`
	}
	tr := func() result {
		t.Helper()
		if st := loadStartup(t, ctx, base+"startup.html"); st.Stdout != "hi\n" {
			t.Fatalf("echo hi: %+v", st)
		}
		var r result
		eval(t, ctx, `(async () => {
			const r = await sb.run('echo a | tr a b');
			const W = await import('./wasmsand/browser.mjs');
			const withFiles = await W.Sandbox.create({ tools: new URL('filetools/', location.href).href });
			const f = await withFiles.run('echo a | tr a c; cat `+guesttest.FilesToolsFile+`');
			const fetched = (dir) => performance.getEntriesByType('resource').some((e) => e.name.endsWith(dir + '/coreutils.wasm'));
			return { stdout: r.stdout + r.stderr, fetched: fetched('/tools'),
				filesStdout: f.stdout + f.stderr, filesFetched: fetched('/filetools') };
		})()`, &r)
		return r
	}
	if _, err := chromedp.Call(ctx, storage.ClearDataForOrigin, storage.ClearDataForOriginParams{Origin: strings.TrimSuffix(base, "/"), StorageTypes: "cache_storage"}); err != nil {
		t.Fatal(err)
	}
	const filesWant = "c\n" + guesttest.FilesToolsText
	if r := tr(); r.Stdout != "b\n" || !r.Fetched || r.FilesStdout != filesWant || !r.FilesFetched {
		t.Fatalf("first load: %+v; want b and %q, and both coreutils.wasm fetched", r, filesWant)
	}
	if r := tr(); r.Stdout != "b\n" || r.Fetched || r.FilesStdout != filesWant || r.FilesFetched {
		t.Fatalf("second load: %+v; want b and %q, and neither coreutils.wasm fetched", r, filesWant)
	}
}
