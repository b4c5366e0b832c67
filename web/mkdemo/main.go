// Command mkdemo builds the browser demo into a folder ready to serve: the
// page (web/demo), the npm package built by mkpackage (under wasmsand/) and
// xterm.js from npm (under vendor/). Run it from the module root:
//
//	go run ./web/mkpackage -o build/npm
//	go run ./web/mkdemo -pkg build/npm -o build/demo
//	go run ./cmd/wasmsand serve --dir build/demo
//
// xterm.js is installed with npm into the -npm-prefix folder the first
// time (node_modules is never committed); later builds reuse it.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// The xterm.js packages the demo uses, at exact versions.
const (
	xtermPackage = "@xterm/xterm@6.0.0"
	fitPackage   = "@xterm/addon-fit@0.11.0"
)

// vendorFiles maps files under node_modules to their place in vendor/.
var vendorFiles = map[string]string{
	"@xterm/xterm/lib/xterm.mjs":             "xterm.mjs",
	"@xterm/xterm/lib/xterm.mjs.map":         "xterm.mjs.map",
	"@xterm/xterm/css/xterm.css":             "xterm.css",
	"@xterm/xterm/LICENSE":                   "xterm.LICENSE",
	"@xterm/addon-fit/lib/addon-fit.mjs":     "addon-fit.mjs",
	"@xterm/addon-fit/lib/addon-fit.mjs.map": "addon-fit.mjs.map",
}

func main() {
	out := flag.String("o", "build/demo", "output folder (replaced)")
	pkg := flag.String("pkg", "build/npm", "the npm package folder built by web/mkpackage")
	src := flag.String("src", "web/demo", "folder of the demo page")
	prefix := flag.String("npm-prefix", "build/web", "where npm installs xterm.js")
	flag.Parse()
	if err := build(*out, *pkg, *src, *prefix); err != nil {
		fmt.Fprintln(os.Stderr, "mkdemo:", err)
		os.Exit(1)
	}
}

func build(out, pkg, src, prefix string) error {
	if _, err := os.Stat(filepath.Join(pkg, "browser.mjs")); err != nil {
		return fmt.Errorf("%s holds no built package (run go run ./web/mkpackage -o %s first): %w", pkg, pkg, err)
	}
	modules := filepath.Join(prefix, "node_modules")
	if err := installXterm(prefix, modules); err != nil {
		return err
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.CopyFS(out, os.DirFS(src)); err != nil {
		return fmt.Errorf("copying the page: %w", err)
	}
	if err := os.CopyFS(filepath.Join(out, "wasmsand"), os.DirFS(pkg)); err != nil {
		return fmt.Errorf("copying the package: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(out, "vendor"), 0o755); err != nil {
		return err
	}
	for from, to := range vendorFiles {
		if err := copyFile(filepath.Join(modules, filepath.FromSlash(from)), filepath.Join(out, "vendor", to)); err != nil {
			return err
		}
	}
	return nil
}

// installXterm runs npm install unless every vendored file is there.
func installXterm(prefix, modules string) error {
	missing := false
	for from := range vendorFiles {
		if _, err := os.Stat(filepath.Join(modules, filepath.FromSlash(from))); err != nil {
			missing = true
		}
	}
	if !missing {
		return nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return fmt.Errorf("npm is needed once to fetch xterm.js (%s): %w", xtermPackage, err)
	}
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", prefix, xtermPackage, fitPackage)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm install %s %s: %w\n%s", xtermPackage, fitPackage, err, b)
	}
	return nil
}

func copyFile(from, to string) error {
	r, err := os.Open(from)
	if err != nil {
		return err
	}
	defer r.Close()
	w, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, r); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
