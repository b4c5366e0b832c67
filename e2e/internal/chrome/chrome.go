// Package chrome starts the headless Chromium the end-to-end tests drive
// through chromedp, with the flags it needs on the build machines, and
// evaluates JavaScript in its pages.
package chrome

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"

	"github.com/chromedp/chromedp"
)

// Candidates are the executables Find looks for, in order.
var Candidates = []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"}

// ErrNotFound is returned by Find when no Chromium is installed.
var ErrNotFound = errors.New("chrome: Chromium is not installed (Debian: apt-get install -y chromium)")

// Find returns the path of the first installed Chromium in Candidates.
func Find() (string, error) {
	for _, name := range Candidates {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNotFound
}

// Start launches the headless Chromium at path with a fresh profile and
// opens a tab. Run chromedp actions on the returned context; call the
// returned function to close the browser and remove its profile.
func Start(parent context.Context, path string) (context.Context, context.CancelFunc, error) {
	dir, err := os.MkdirTemp("", "wasmsand-chromium-")
	if err != nil {
		return nil, nil, err
	}
	actx, acancel := chromedp.NewExecAllocator(parent,
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		// Without these Chromium floods a closed network with requests.
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(dir),
	)
	ctx, cancel := chromedp.NewContext(actx)
	stop := func() {
		cancel()
		acancel()
		os.RemoveAll(dir)
	}
	if err := chromedp.Do(ctx); err != nil { // start the browser and the tab
		stop()
		return nil, nil, err
	}
	return ctx, stop, nil
}

// Eval evaluates a JavaScript expression in the tab, awaiting it if it is
// a Promise, and decodes its JSON value into out (which may be nil).
func Eval(ctx context.Context, expr string, out any) error {
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise))
	if err != nil || out == nil {
		return err
	}
	return json.Unmarshal(raw, out)
}
