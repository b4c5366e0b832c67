// Package cguest builds the C guest modules — CPython 3.11 (python3.wasm,
// with its standard library inside), the SQLite shell (sqlite3.wasm),
// wabt's wat2wasm (wat2wasm.wasm) and GNU awk (gawk.wasm) — for
// wasm32-wasi from Debian's source packages, with Debian's clang, lld,
// wasi-libc, libc++ and compiler-rt.
//
// The recipe (recipe/build.sh, its patches and C files) is embedded in
// this package. A build is cached in the user cache directory under a key
// that hashes the recipe and the versions of the toolchain packages, so it
// runs once per machine and again only when either changes; nothing built
// is committed. Build needs a Debian machine with the packages .ci/run
// installs and a deb-src entry for `apt-get source`.
package cguest

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

//go:embed all:recipe
var recipe embed.FS

// Modules maps each module file a build produces to the commands it
// provides, as a tools manifest does. A command here replaces a Go tool
// of the same name (MergeManifest): awk is GNU awk wherever the C guests
// are installed, and GoAWK (the awk module) where they are not.
var Modules = map[string][]string{
	"python3.wasm":  {"python", "python3", "python3.11"},
	"sqlite3.wasm":  {"sqlite3"},
	"wat2wasm.wasm": {"wat2wasm"},
	"gawk.wasm":     {"awk", "gawk"},
}

// Toolchain lists the Debian packages whose versions are part of the key.
var Toolchain = []string{"clang-16", "lld-16", "llvm-16", "wasi-libc", "libclang-rt-16-dev-wasm32",
	"libc++-16-dev-wasm32", "libc++abi-16-dev-wasm32", "python3.11"}

// ErrNoToolchain reports that the machine lacks the toolchain (or is not
// Debian): no build can be made or found here.
var ErrNoToolchain = errors.New("cguest: the wasm32-wasi toolchain is not installed (clang-16 lld-16 llvm-16 wasi-libc libclang-rt-16-dev-wasm32 libc++-16-dev-wasm32 libc++abi-16-dev-wasm32 python3.11; see .ci/run)")

// Key returns the content hash naming a build: the recipe's files and the
// toolchain's package versions.
func Key() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(recipe, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := recipe.ReadFile(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", p, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", err
	}
	args := append([]string{"-W", "-f", "${Package} ${Version} ${db:Status-Abbrev}\n"}, Toolchain...)
	out, err := exec.Command("dpkg-query", args...).Output()
	if err != nil {
		return "", fmt.Errorf("%w: dpkg-query: %v", ErrNoToolchain, err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f := strings.Fields(line); len(f) < 3 || !strings.HasPrefix(f[2], "ii") {
			return "", fmt.Errorf("%w: %q", ErrNoToolchain, line)
		}
	}
	h.Write(out)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// root is the directory holding builds and downloads.
func root() (string, error) {
	if d := os.Getenv("WASMSAND_CGUEST_CACHE"); d != "" {
		return d, nil
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(c, "wasmsand-cguest"), nil
}

// Dir returns the directory where the build for the current key lives,
// whether or not it exists yet.
func Dir() (string, error) {
	key, err := Key()
	if err != nil {
		return "", err
	}
	r, err := root()
	if err != nil {
		return "", err
	}
	return filepath.Join(r, "build-"+key[:16]), nil
}

// Cached returns the directory of the current build if it exists. If
// $WASMSAND_CGUEST_DIR is set, that directory is used as is: a way to
// test modules built elsewhere (for example while the recipe is edited).
func Cached() (string, bool) {
	dir, err := Dir()
	if d := os.Getenv("WASMSAND_CGUEST_DIR"); d != "" {
		dir, err = d, nil
	}
	if err != nil {
		return "", false
	}
	for m := range Modules {
		if _, err := os.Stat(filepath.Join(dir, m)); err != nil {
			return "", false
		}
	}
	return dir, true
}

// Options configure Build.
type Options struct {
	Log  io.Writer // the recipe's progress and errors; nil for os.Stderr
	Jobs int       // parallel compile jobs; 0 for every core
}

// Build returns the directory of the current build, making it first if
// the cache has none. A cold build takes minutes: it fetches the sources
// with apt-get source and compiles zlib, SQLite and CPython.
func Build(ctx context.Context, opts Options) (string, error) {
	if dir, ok := Cached(); ok {
		return dir, nil
	}
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	r := filepath.Dir(dir)
	if err := os.MkdirAll(r, 0o755); err != nil {
		return "", err
	}
	logw := opts.Log
	if logw == nil {
		logw = os.Stderr
	}
	// The recipe runs from a copy of the embedded files; the work
	// directory is per key, so a failed build resumes where it stopped.
	src, err := os.MkdirTemp(r, "recipe-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(src)
	if err := os.CopyFS(src, recipe); err != nil {
		return "", err
	}
	work := dir + ".work"
	out, err := os.MkdirTemp(r, "out-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(out)
	cmd := exec.CommandContext(ctx, "bash", filepath.Join(src, "recipe", "build.sh"), work, out)
	cmd.Stdout, cmd.Stderr = logw, logw
	cmd.Env = append(os.Environ(), "CGUEST_DL="+filepath.Join(r, "dl"))
	if opts.Jobs > 0 {
		cmd.Env = append(cmd.Env, fmt.Sprintf("JOBS=%d", opts.Jobs))
	}
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("cguest: the build failed (work directory %s): %w", work, err)
	}
	if err := os.Rename(out, dir); err != nil {
		if _, ok := Cached(); ok {
			return dir, nil // another build won the race
		}
		return "", err
	}
	os.RemoveAll(work)
	// Builds for older recipes or toolchains are never used again.
	if old, err := filepath.Glob(filepath.Join(r, "build-*")); err == nil {
		for _, o := range old {
			if o != dir && !strings.HasPrefix(o, dir) {
				os.RemoveAll(o)
			}
		}
	}
	return dir, nil
}

// Install copies the modules of build directory dir into the tools
// directory tools and adds their commands to its manifest.json.
func Install(dir, tools string) error {
	if err := os.MkdirAll(tools, 0o755); err != nil {
		return err
	}
	for m := range Modules {
		b, err := os.ReadFile(filepath.Join(dir, m))
		if err != nil {
			return err
		}
		tmp := filepath.Join(tools, m+".tmp")
		if err := os.WriteFile(tmp, b, 0o644); err != nil {
			return err
		}
		if err := os.Rename(tmp, filepath.Join(tools, m)); err != nil {
			return err
		}
	}
	return MergeManifest(tools)
}

// MergeManifest adds the C guests' commands to tools/manifest.json,
// creating it if needed. Other entries are kept, less the commands a C
// guest provides (the C guest's replace them); a module left with no
// command goes, its file too (the awk module, once gawk is in).
func MergeManifest(tools string) error {
	p := filepath.Join(tools, "manifest.json")
	manifest := map[string][]string{}
	if b, err := os.ReadFile(p); err == nil {
		if err := json.Unmarshal(b, &manifest); err != nil {
			return fmt.Errorf("cguest: %s: %w", p, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	ours := map[string]bool{}
	for _, cmds := range Modules {
		for _, c := range cmds {
			ours[c] = true
		}
	}
	for m, cmds := range manifest {
		if _, isC := Modules[m]; isC {
			continue
		}
		kept := cmds[:0]
		for _, c := range cmds {
			if !ours[c] {
				kept = append(kept, c)
			}
		}
		if len(kept) > 0 || len(cmds) == 0 {
			manifest[m] = kept
			continue
		}
		delete(manifest, m)
		if err := os.Remove(filepath.Join(tools, m)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	for m, cmds := range Modules {
		manifest[m] = append([]string(nil), cmds...)
		sort.Strings(manifest[m])
	}
	b, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(p, append(b, '\n'), 0o644)
}
