package browser

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// terminalText is the text of the demo terminal's buffer, one line each.
const terminalText = `(() => {
	const b = demo.term.buffer.active;
	const lines = [];
	for (let i = 0; i < b.length; i++) lines.push(b.getLine(i).translateToString(true));
	return lines.join('\n').replace(/\n+$/, '');
})()`

// typeKeys types into the focused terminal as a user would. xterm.js
// takes a key from its keydown, except the space bar which it takes from
// the keypress (the char event); chromedp's SendKeys sends both for every
// printable key, so xterm.js would see most keys twice.
func typeKeys(t *testing.T, ctx context.Context, keys string) {
	t.Helper()
	eval(t, ctx, `demo.term.focus()`, nil)
	for _, r := range keys {
		for _, k := range kb.Encode(r) {
			if k.Type == kb.KeyChar && r != ' ' {
				continue
			}
			if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, *k); err != nil {
				t.Fatalf("typing %q: %v", keys, err)
			}
		}
	}
}

// waitState waits until the demo is in state (ready, running, ...).
func waitState(t *testing.T, ctx context.Context, state string, timeout time.Duration) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.state === `+jsString(state),
		chromedp.WithPollingTimeout(timeout))); err != nil {
		var text string
		evalErr(ctx, terminalText, &text)
		t.Fatalf("the demo did not become %s within %v: %v\nterminal:\n%s", state, timeout, err, text)
	}
}

// waitTerminal waits until the terminal's text satisfies ok.
func waitTerminal(t *testing.T, ctx context.Context, what string, ok func(string) bool) string {
	t.Helper()
	var text string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		eval(t, ctx, terminalText, &text)
		if ok(text) {
			return text
		}
	}
	t.Fatalf("the terminal never showed %s; it shows:\n%s", what, text)
	return ""
}

// TestDemo drives the demo page served by "wasmsand serve": typed
// commands with line editing and history, streamed output, Ctrl-C, file
// upload and download, the limits and metrics panel. It saves a
// screenshot in build/e2e-artifacts.
func TestDemo(t *testing.T) {
	s := buildSite(t)
	url := serveWithCLI(t, s)
	ctx := newTab(t)
	downloads := t.TempDir()
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: downloads,
	}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitState(t, ctx, "ready", 60*time.Second)

	var ctype string
	eval(t, ctx, `fetch('wasmsand/wasmsand.wasm', { method: 'HEAD' }).then((r) => r.headers.get('content-type'))`, &ctype)
	if ctype != "application/wasm" {
		t.Errorf("wasmsand serve gave the core as %q, want application/wasm", ctype)
	}

	// Line editing: backspace and the left arrow fix typos.
	typeKeys(t, ctx, "echo wrold"+strings.Repeat(kb.Backspace, 4)+"orld"+kb.Enter)
	waitState(t, ctx, "ready", 30*time.Second)
	typeKeys(t, ctx, "echo ac"+kb.ArrowLeft+"b"+kb.Enter)
	waitState(t, ctx, "ready", 30*time.Second)
	// History: the up arrow twice recalls "echo world".
	typeKeys(t, ctx, kb.ArrowUp+kb.ArrowUp+kb.Enter)
	waitState(t, ctx, "ready", 30*time.Second)
	// Tab completes command names.
	typeKeys(t, ctx, "se\tq 3 | wc -l"+kb.Enter)
	text := waitTerminal(t, ctx, "the pipeline's output", func(s string) bool {
		return strings.Contains(s, "$ seq 3 | wc -l\n3\n")
	})
	if strings.Count(text, "$ echo world\nworld\n") != 2 || !strings.Contains(text, "$ echo abc\nabc\n") {
		t.Errorf("line editing or history went wrong; the terminal shows:\n%s", text)
	}

	// Streamed output: the first line shows while the command still runs.
	typeKeys(t, ctx, "echo first; sleep 1.5; echo second"+kb.Enter)
	waitTerminal(t, ctx, "streamed output", func(s string) bool { return strings.HasSuffix(s, "echo second\nfirst") })
	var state string
	eval(t, ctx, `document.body.dataset.state`, &state)
	if state != "running" {
		t.Errorf("state %q while the command sleeps, want running", state)
	}
	waitState(t, ctx, "ready", 30*time.Second)

	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	artifacts := filepath.Join(root, "build", "e2e-artifacts")
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(artifacts, "demo-terminal.png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}

	// Ctrl-C aborts the running command.
	typeKeys(t, ctx, "sleep 20"+kb.Enter)
	waitState(t, ctx, "running", 10*time.Second)
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.KeyEvent("c", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
		t.Fatal(err)
	}
	waitState(t, ctx, "ready", 5*time.Second)
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Ctrl-C took %v to stop sleep 20", took)
	}
	metrics, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("metrics")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(metrics, "stopped with Ctrl-C") {
		t.Errorf("metrics panel after Ctrl-C: %q", metrics)
	}
	limits, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("limits")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(limits, "30 s per command") || !strings.Contains(limits, "64 MiB") {
		t.Errorf("limits panel: %q", limits)
	}

	// Upload a file, use it in the terminal, download a result.
	up := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(up, []byte("banana\napple\ncherry\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID("upload"), []string{up})); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById('file-message').textContent.includes('/home/user/notes.txt')`,
		chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Fatalf("the upload was not reported: %v", err)
	}
	typeKeys(t, ctx, "sort notes.txt > sorted.txt; cat sorted.txt"+kb.Enter)
	waitTerminal(t, ctx, "the uploaded file, sorted", func(s string) bool { return strings.Contains(s, "apple\nbanana\ncherry") })
	waitState(t, ctx, "ready", 10*time.Second)
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.ID("download-path"), "/home/user/sorted.txt"),
		chromedp.Click(chromedp.ID("download")),
	); err != nil {
		t.Fatal(err)
	}
	var got []byte
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if got, err = os.ReadFile(filepath.Join(downloads, "sorted.txt")); err == nil && len(got) > 0 {
			break
		}
	}
	if string(got) != "apple\nbanana\ncherry\n" {
		t.Errorf("downloaded sorted.txt holds %q", got)
	}
}
