package conformance

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/wasmsand/wasmsand/e2e/internal/chrome"
)

// page loads the package's browser build and exposes it as window.W.
const page = `<!doctype html>
<meta charset="utf-8">
<title>wasmsand conformance</title>
<script type="module">
  import * as wasmsand from './wasmsand/browser.mjs';
  window.W = wasmsand;
</script>
`

// runCases is run.mjs's loop, evaluated in the page with the cases and
// the options as arguments.
const runCases = `(async (cases, options) => {
  const out = [];
  for (const c of cases) {
    const sb = await W.Sandbox.create(options);
    try {
      const r = await sb.run(c.cmd, c.stdin === undefined ? {} : { stdin: c.stdin });
      out.push({ name: c.name, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr });
    } finally {
      sb.destroy();
    }
  }
  return out;
})`

// runChromium serves the npm package (with its tools) and a page that
// imports it, and runs every case through the page's Sandbox in headless
// Chromium.
func runChromium(t *testing.T, tools string, cases []testCase) []outcome {
	path, err := chrome.Find()
	if err != nil {
		t.Skipf("%v; skipping the Chromium runtime", err)
	}
	pkg := buildPackage(t, tools)
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
		t.Fatalf("starting Chromium at %s: %v", path, err)
	}
	defer stop()
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatalf("opening %s: %v", srv.URL, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.W !== undefined`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("waiting for the wasmsand API in the page: %v", err)
	}
	cj, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	var out []outcome
	if err := chrome.Eval(ctx, runCases+"("+string(cj)+", "+options()+")", &out); err != nil {
		t.Fatalf("running the cases in Chromium: %v", err)
	}
	return out
}
