package guest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"
)

// CacheRoot is the directory Cached keeps its builds in by default:
// wasmsand in the user cache directory (or the temporary directory where
// there is none).
func CacheRoot() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "wasmsand")
}

// Cached returns a directory below root holding every guest module and
// its manifest.json, built from this module's own sources by Build the
// first time and found again by a hash of those sources (and the Go
// version) afterwards: root/tools-HASH. Before building it writes one
// line to log (if not nil), since a first build takes minutes. Builds by
// concurrent processes never see each other's half-built directories.
func Cached(ctx context.Context, root string, log io.Writer) (string, error) {
	src, err := Sources()
	if err != nil {
		return "", err
	}
	hash, err := sourceHash(src)
	if err != nil {
		return "", fmt.Errorf("guest: hashing the sources in %s: %w", src, err)
	}
	out := filepath.Join(root, "tools-"+hash[:16])
	if _, err := os.Stat(filepath.Join(out, manifestFile)); err == nil {
		markUsed(out)
		return out, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	if log != nil {
		fmt.Fprintf(log, "wasmsand: building the guest tools from %s into %s (once for these sources; a few minutes)\n", src, out)
	}
	tmp, err := os.MkdirTemp(root, "build-")
	if err != nil {
		return "", err
	}
	if err := Build(ctx, tmp); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	if err := os.Rename(tmp, out); err != nil {
		os.RemoveAll(tmp)
		if _, serr := os.Stat(filepath.Join(out, manifestFile)); serr == nil {
			return out, nil // another process won the race
		}
		return "", err
	}
	removeStale(root, out)
	return out, nil
}

// Builds of other sources stay in the cache, for other checkouts and
// versions, until removeStale finds more than keepBuilds of them and
// some unused for staleAfter.
const (
	keepBuilds = 3
	staleAfter = 24 * time.Hour
)

// markUsed renews the modification time of a build directory found in
// the cache (at most hourly), which removeStale reads as its last use.
func markUsed(dir string) {
	info, err := os.Stat(dir)
	if err != nil || time.Since(info.ModTime()) < time.Hour {
		return
	}
	now := time.Now()
	_ = os.Chtimes(dir, now, now)
}

// removeStale removes the builds in root other than keep, beyond the
// keepBuilds most recently used, that have not been used for staleAfter,
// and half-built directories as old: each build is about a hundred
// megabytes, and every change to the sources makes a new one.
func removeStale(root, keep string) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return
	}
	type build struct {
		path string
		used time.Time
	}
	var builds []build
	for _, e := range ents {
		p := filepath.Join(root, e.Name())
		info, err := e.Info()
		if err != nil || !e.IsDir() || p == keep {
			continue
		}
		switch {
		case strings.HasPrefix(e.Name(), "tools-"):
			builds = append(builds, build{p, info.ModTime()})
		case strings.HasPrefix(e.Name(), "build-") && time.Since(info.ModTime()) > staleAfter:
			os.RemoveAll(p)
		}
	}
	sort.Slice(builds, func(i, j int) bool { return builds[i].used.After(builds[j].used) })
	for i, b := range builds {
		if i >= keepBuilds && time.Since(b.used) > staleAfter {
			os.RemoveAll(b.path)
		}
	}
}

// manifestFile maps module files to their commands in a tools directory.
const manifestFile = "manifest.json"

// thisModule is the module path of this repository.
const thisModule = "github.com/wasmsand/wasmsand"

var (
	sourcesOnce sync.Once
	sourcesDir  string
	sourcesErr  error
)

// Sources returns the directory of this package's sources, which Build
// compiles: where they were compiled from (a checkout, a replace
// directive's directory, the module cache), or, in a program built with
// -trimpath, the module cache's copy of the version the program was
// built with (go mod download).
func Sources() (string, error) {
	sourcesOnce.Do(func() { sourcesDir, sourcesErr = findSources() })
	return sourcesDir, sourcesErr
}

func findSources() (string, error) {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Dir(file)
	if _, err := os.Stat(filepath.Join(dir, "build.go")); err == nil {
		return dir, nil
	}
	version := ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		mods := append([]*debug.Module{&bi.Main}, bi.Deps...)
		for _, m := range mods {
			if m.Path != thisModule {
				continue
			}
			if m.Replace != nil {
				if m.Replace.Version == "" {
					return "", fmt.Errorf("guest: the program was built with -trimpath and %s replaced by the directory %s: build the tools with `go run %s/wasm/guest/cmd/buildtools -o DIR` there and use DIR as the tools directory", thisModule, m.Replace.Path, thisModule)
				}
				m = m.Replace
			}
			version = m.Version
		}
	}
	if version == "" || version == "(devel)" {
		return "", errors.New("guest: cannot find the guest tools' sources (the program was built with -trimpath from a checkout): build them with `go run " + thisModule + "/wasm/guest/cmd/buildtools -o DIR` and use DIR as the tools directory")
	}
	cmd := exec.Command(goTool(), "mod", "download", "-json", thisModule+"@"+version)
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	cmd.Dir = os.TempDir() // outside any module
	b, err := cmd.Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(b, &info); jerr == nil && info.Error != "" {
		err = errors.New(info.Error)
	}
	if err != nil || info.Dir == "" {
		return "", fmt.Errorf("guest: finding the sources of %s@%s with go mod download: %v (is the go command on $PATH?)", thisModule, version, err)
	}
	return filepath.Join(info.Dir, "wasm", "guest"), nil
}

// sourceHash hashes every Go file, profile (default.pgo) and go.mod/go.sum
// that the guest build depends on, plus the Go version.
func sourceHash(src string) (string, error) {
	h := sha256.New()
	fmt.Fprintln(h, runtime.Version(), Preinit())
	var files []string
	// The image transform and the decoder it uses shape the output too.
	walk := func(root string) error {
		return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			// Embedded sources (the js module's prelude) count as well,
			// and so do the profiles go build optimises by (default.pgo).
			if !d.IsDir() && (strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") || strings.HasSuffix(p, ".js") && !strings.Contains(p, "testdata") || filepath.Base(p) == "default.pgo") {
				files = append(files, p)
			}
			return nil
		})
	}
	for _, dir := range []string{src, filepath.Join(src, "..", "preinit"), filepath.Join(src, "..", "binary")} {
		if err := walk(dir); err != nil {
			return "", err
		}
	}
	root := filepath.Join(src, "..", "..")
	files = append(files, filepath.Join(root, "go.mod"), filepath.Join(root, "go.sum"))
	sort.Strings(files)
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return "", err
		}
		fmt.Fprintln(h, strings.TrimPrefix(p, root))
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
