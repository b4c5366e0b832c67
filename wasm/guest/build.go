// Package guest builds the guest tool modules: Go programs compiled with
// GOOS=wasip1 GOARCH=wasm that the sandbox runs as WASI commands. Each
// module is a multi-call binary; manifest.json maps module files to the
// command names they answer to.
package guest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// Module is one guest module: a main package and the file it builds to.
type Module struct {
	File    string // e.g. "coreutils.wasm"
	Package string // import path of the main package
}

// modulePrefix is the import path of this package; modules live below it.
const modulePrefix = "github.com/wasmsand/wasmsand/wasm/guest/"

// notModules are directories beside this file that hold no module.
var notModules = map[string]bool{"cmd": true, "internal": true, "guesttest": true, "testdata": true}

// Modules lists every guest module Build produces: each directory beside
// this file with a main.go (coreutils/ gives coreutils.wasm). Every module
// is a multi-call binary that lists its command names (tool.Multicall).
func Modules() ([]Module, error) {
	entries, err := os.ReadDir(SourceDir())
	if err != nil {
		return nil, err
	}
	var mods []Module
	for _, e := range entries {
		if !e.IsDir() || notModules[e.Name()] {
			continue
		}
		if _, err := os.Stat(filepath.Join(SourceDir(), e.Name(), "main.go")); err != nil {
			continue
		}
		mods = append(mods, Module{File: e.Name() + ".wasm", Package: modulePrefix + e.Name()})
	}
	return mods, nil
}

// SourceDir is the directory holding this package's sources (see
// Sources); Build runs the go command there. When they cannot be found
// it is the compiled-in directory, and building there fails saying so.
func SourceDir() string {
	if dir, err := Sources(); err == nil {
		return dir
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// Build compiles every guest module into dir (coreutils.wasm ...) and
// writes dir/manifest.json {"coreutils.wasm": ["cat", ...]}. It runs
// `go build` with GOOS=wasip1 GOARCH=wasm -trimpath -ldflags="-s -w", then
// asks a native build of each module for its command list.
//
// Each module is written as a pre-initialised image (see buildImage and
// package wasm/preinit): a WASI command whose Go runtime and package
// initialisation already ran, so a process starts in main. A module that
// cannot be built so is built as a plain command, with a note on stderr;
// $WASMSAND_PREINIT=0 builds every module plainly.
func Build(ctx context.Context, dir string) error {
	// go build runs in the source directory: make dir independent of it.
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	src := SourceDir()
	manifest := map[string][]string{}
	mods, err := Modules()
	if err != nil {
		return err
	}
	// Two builds at a time keep both cores busy through the link steps.
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		errs []error
		sem  = make(chan struct{}, 2)
	)
	for _, m := range mods {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			names, err := buildModule(ctx, src, dir, m)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
				return
			}
			manifest[m.File] = names
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	owner := map[string]string{}
	for file, names := range manifest {
		for _, n := range names {
			if other, ok := owner[n]; ok {
				return fmt.Errorf("guest: command %q is in both %s and %s; each command belongs to one module", n, other, file)
			}
			owner[n] = file
		}
	}
	data, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "manifest.json"), append(data, '\n'), 0o644)
}

// buildModule builds one module into dir and returns its command names.
func buildModule(ctx context.Context, src, dir string, m Module) ([]string, error) {
	out := filepath.Join(dir, m.File)
	tmp := out + ".tmp"
	if err := buildImage(ctx, src, tmp, m); err != nil {
		// Not every program can be pre-initialised: build it as a plain
		// command, as before.
		if Preinit() {
			fmt.Fprintf(os.Stderr, "%v; building %s as a plain command\n", err, m.File)
		}
		if err := BuildWasm(ctx, m.Package, tmp); err != nil {
			os.Remove(tmp)
			return nil, fmt.Errorf("guest: building %s: %v", m.File, err)
		}
	}
	if err := os.Rename(tmp, out); err != nil {
		return nil, err
	}
	names, err := listCommands(ctx, src, m.Package)
	if err != nil {
		return nil, fmt.Errorf("guest: listing commands of %s: %w", m.File, err)
	}
	return names, nil
}

// goBuild runs go build for m with GOOS=wasip1, the given extra flags
// before the package, writing out.
func goBuild(ctx context.Context, src, out string, m Module, flags []string) error {
	args := append([]string{"build", "-trimpath", "-ldflags=-s -w", "-o", out}, flags...)
	cmd := exec.CommandContext(ctx, goTool(), append(args, m.Package)...)
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		os.Remove(out)
		return fmt.Errorf("guest: building %s: %v\n%s", m.File, err, b)
	}
	return nil
}

// BuildWasm builds the main package pkg (an import path below this
// package) for wasip1 into out. A module directory with an _overlay
// directory is built from a scratch copy of the sources with its
// dependencies vendored, each file _overlay/PATH overlaid on vendor/PATH:
// that is how a dependency that lacks a file for wasip1 gets one of ours
// (go build -overlay may not replace files in the module cache). Nothing
// vendored is kept.
func BuildWasm(ctx context.Context, pkg, out string) error {
	out, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	src := SourceDir()
	overlay := filepath.Join(src, strings.TrimPrefix(pkg, modulePrefix), "_overlay")
	args := []string{"build", "-trimpath", "-ldflags=-s -w", "-o", out}
	dir := src
	if _, err := os.Stat(overlay); err == nil {
		scratch, err := os.MkdirTemp("", "wasmsand-vendor-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(scratch)
		ov, err := vendorScratch(ctx, src, pkg, overlay, scratch)
		if err != nil {
			return err
		}
		args = append(args, "-mod=vendor", "-overlay="+ov)
		dir = scratch
	}
	cmd := exec.CommandContext(ctx, goTool(), append(args, pkg)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0", "GOFLAGS=")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v\n%s", err, b)
	}
	return nil
}

// vendorScratch copies the module's go.mod, go.sum and the sources of pkg
// (and of the packages extra, which a further overlay will import) into
// scratch, runs go mod vendor there and writes the overlay file mapping
// vendor/PATH to overlay/PATH. It returns the overlay file's name.
func vendorScratch(ctx context.Context, src, pkg, overlay, scratch string, extra ...string) (string, error) {
	root := filepath.Join(src, "..", "..")
	for _, f := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(scratch, f), b, 0o644); err != nil {
			return "", err
		}
	}
	// The main module's packages pkg needs, with their non-test files.
	list := exec.CommandContext(ctx, goTool(), append([]string{"list", "-deps", "-f", "{{if .Module}}{{if .Module.Main}}{{.Dir}}{{end}}{{end}}", pkg}, extra...)...)
	list.Dir = src
	list.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "GOFLAGS=")
	dirs, err := list.Output()
	if err != nil {
		return "", fmt.Errorf("go list: %v", err)
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	for _, d := range strings.Fields(string(dirs)) {
		rel, err := filepath.Rel(absRoot, d)
		if err != nil {
			return "", err
		}
		if err := os.MkdirAll(filepath.Join(scratch, rel), 0o755); err != nil {
			return "", err
		}
		entries, err := os.ReadDir(d)
		if err != nil {
			return "", err
		}
		for _, e := range entries {
			n := e.Name()
			if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
				continue
			}
			b, err := os.ReadFile(filepath.Join(d, n))
			if err != nil {
				return "", err
			}
			if err := os.WriteFile(filepath.Join(scratch, rel, n), b, 0o644); err != nil {
				return "", err
			}
		}
	}
	cmd := exec.CommandContext(ctx, goTool(), "mod", "vendor")
	cmd.Dir = scratch
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "GOFLAGS=")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go mod vendor: %v\n%s", err, b)
	}
	replace := map[string]string{}
	err = filepath.WalkDir(overlay, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(overlay, p)
		replace[filepath.Join(scratch, "vendor", rel)] = p
		return nil
	})
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return "", err
	}
	ov := filepath.Join(scratch, "overlay.json")
	return ov, os.WriteFile(ov, b, 0o644)
}

// listCommands runs the module natively with WASMSAND_LIST_COMMANDS set,
// which makes it print its command names (see tool.Multicall).
func listCommands(ctx context.Context, src, pkg string) ([]string, error) {
	cmd := exec.CommandContext(ctx, goTool(), "run", pkg)
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOOS=", "GOARCH=", "GOFLAGS=", "WASMSAND_LIST_COMMANDS=1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%v\n%s", err, errOut.Bytes())
	}
	names := strings.Fields(out.String())
	sort.Strings(names)
	return names, nil
}

// goTool finds the go command on PATH. Under "go run", "go test" and
// "go generate" that is the go command running this program, which puts its
// own GOROOT/bin first on PATH. If there is none, it returns "go" so that
// running it fails with exec's "not found in $PATH" error.
func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return "go"
}
