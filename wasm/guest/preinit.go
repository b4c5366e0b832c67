package guest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/preinit"
)

// PreinitEnv is the environment variable that, set to "0", makes Build
// write plain WASI commands instead of pre-initialised images.
const PreinitEnv = "WASMSAND_PREINIT"

// Preinit reports whether Build writes pre-initialised images (see
// buildImage): unless $WASMSAND_PREINIT is "0".
func Preinit() bool { return os.Getenv(PreinitEnv) != "0" }

// entrySource is the file buildImage adds to a module's main package: the
// export a pre-initialised image's _start calls. reactor.Reset reads again
// what initialisation read from its process; main then runs as in a
// command.
const entrySource = `//go:build wasip1

package main

import wasmsandreactor "` + modulePrefix + `internal/reactor"

// The last init of package main: the image starts with free heap.
func init() { wasmsandreactor.Reserve() }

//go:wasmexport ` + preinit.EntryName + `
func wasmsandPreinitMain() {
	wasmsandreactor.Reset()
	main()
}
`

// buildImage builds m as a WASI reactor with an entry export (added to its
// main package through an overlay, so modules need nothing of their own)
// and writes to out the pre-initialised image of it: a WASI command whose
// Go runtime and package initialisation are already done, so a process
// starts in main. It fails if Preinit is off or m cannot be built so.
func buildImage(ctx context.Context, src, out string, m Module) error {
	if !Preinit() {
		return fmt.Errorf("guest: %s is %q", PreinitEnv, os.Getenv(PreinitEnv))
	}
	pkgDir := filepath.Join(src, strings.TrimPrefix(m.Package, modulePrefix))
	tmp, err := os.MkdirTemp("", "wasmsand-preinit-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	entry := filepath.Join(tmp, "entry.go")
	if err := os.WriteFile(entry, []byte(entrySource), 0o644); err != nil {
		return err
	}
	replace := map[string]string{}
	dir, flags := src, []string{"-buildmode=c-shared"}
	if own := filepath.Join(pkgDir, "_overlay"); isDir(own) {
		// The module's own overlay needs a vendored copy of the sources
		// (see BuildWasm), and go build takes one -overlay: the entry
		// joins the module's overlay there.
		scratch := filepath.Join(tmp, "src")
		if err := os.Mkdir(scratch, 0o755); err != nil {
			return err
		}
		ov, err := vendorScratch(ctx, src, m.Package, own, scratch, modulePrefix+"internal/reactor")
		if err != nil {
			return err
		}
		var theirs struct{ Replace map[string]string }
		if b, err := os.ReadFile(ov); err != nil {
			return err
		} else if err := json.Unmarshal(b, &theirs); err != nil {
			return err
		}
		replace = theirs.Replace
		root, err := filepath.Abs(filepath.Join(src, "..", ".."))
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, pkgDir)
		if err != nil {
			return err
		}
		pkgDir, dir = filepath.Join(scratch, rel), scratch
		flags = append(flags, "-mod=vendor")
	}
	replace[filepath.Join(pkgDir, "zz_wasmsand_preinit.go")] = entry
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": replace})
	if err != nil {
		return err
	}
	ovFile := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovFile, overlay, 0o644); err != nil {
		return err
	}
	reactor := filepath.Join(tmp, "reactor.wasm")
	if err := goBuild(ctx, dir, reactor, m, append(flags, "-overlay", ovFile)); err != nil {
		return err
	}
	bin, err := os.ReadFile(reactor)
	if err != nil {
		return err
	}
	name := strings.TrimSuffix(m.File, ".wasm")
	img, err := preinit.Image(ctx, bin, preinit.Options{Args: []string{name}})
	if err != nil {
		return fmt.Errorf("guest: pre-initialising %s: %w", m.File, err)
	}
	return os.WriteFile(out, img, 0o644)
}

func isDir(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.IsDir()
}
