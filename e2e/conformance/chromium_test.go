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

// runCase is run.mjs's loop body, evaluated in the page once per case with
// the case and the options as arguments. One evaluation per case gives
// each its own deadline, so a case that hangs is named.
const runCase = `(async (c, options) => {
  const sb = await W.Sandbox.create(options);
  try {
    const r = await sb.run(c.cmd, c.stdin === undefined ? {} : { stdin: c.stdin });
    return { name: c.name, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr };
  } finally {
    sb.destroy();
  }
})`

// caseDeadline bounds one case in the page: far above any case's own
// timeout, so only a hang (a lost wake-up, a stuck promise) reaches it.
const caseDeadline = 2 * time.Minute

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

	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	ctx, stop, err := chrome.Start(ctx, path)
	if err != nil {
		t.Fatalf("starting Chromium at %s: %v", path, err)
	}
	defer stop()
	console := chrome.Console(ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatalf("opening %s: %v", srv.URL, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.W !== undefined`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("waiting for the wasmsand API in the page: %v", err)
	}
	if warmup != "" {
		wctx, cancel := context.WithTimeout(ctx, 2*warmupTimeoutMs*time.Millisecond)
		start := time.Now()
		var o outcome
		err := chrome.Eval(wctx, runCase+"("+mustJSON(t, testCase{Name: "warm-up", Cmd: warmup})+", "+warmupOptions()+")", &o)
		cancel()
		if err != nil || o.ExitCode != 0 {
			t.Fatalf("the warm-up in Chromium after %v: %v %+v\nthe page's console:\n%s", time.Since(start).Round(time.Millisecond), err, o, console())
		}
		t.Logf("warm-up in Chromium: %v", time.Since(start).Round(time.Millisecond))
	}
	var out []outcome
	for _, c := range cases {
		cj, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		cctx, cancel := context.WithTimeout(ctx, caseDeadline)
		var o outcome
		start := time.Now()
		err = chrome.Eval(cctx, runCase+"("+string(cj)+", "+options()+")", &o)
		cancel()
		if err != nil {
			t.Fatalf("case %q in Chromium after %v: %v\nthe page's console:\n%s", c.Name, time.Since(start).Round(time.Millisecond), err, console())
		}
		out = append(out, o)
	}
	return out
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
