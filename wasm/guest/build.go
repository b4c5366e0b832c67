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

// SourceDir is the directory holding this package's sources, found from
// the compiled-in file name; Build runs the go command there.
func SourceDir() string {
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
		if err := goBuild(ctx, src, tmp, m, nil); err != nil {
			return nil, err
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
