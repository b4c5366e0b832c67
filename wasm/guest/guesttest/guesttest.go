// Package guesttest gives tests a directory of built guest tool modules.
// The build runs once per test binary and is cached on disk under the
// user cache directory, keyed by a hash of the guest sources, so it is
// redone only when they change.
package guesttest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest"
)

var (
	once   sync.Once
	dir    string
	dirErr error
)

// Dir returns a directory holding the built guest modules and their
// manifest.json, building them if the cache has none for the current
// sources. It fails tb if the build fails.
//
// If $WASMSAND_TOOLS_DIR is set, it is used as is: a way to test against
// tools built elsewhere (for example from a clean checkout while guest
// sources are being edited).
func Dir(tb testing.TB) string {
	tb.Helper()
	if d := os.Getenv("WASMSAND_TOOLS_DIR"); d != "" {
		return d
	}
	once.Do(func() { dir, dirErr = build() })
	if dirErr != nil {
		tb.Fatalf("guesttest: %v", dirErr)
	}
	return dir
}

func build() (string, error) {
	hash, err := sourceHash(guest.SourceDir())
	if err != nil {
		return "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	out := filepath.Join(cache, "wasmsand-test", "tools-"+hash[:16])
	if _, err := os.Stat(filepath.Join(out, "manifest.json")); err == nil {
		return out, nil
	}
	// Build beside the final place, then rename, so concurrent test
	// binaries never see a half-built directory.
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(out), "build-")
	if err != nil {
		return "", err
	}
	if err := guest.Build(context.Background(), tmp); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	if err := os.Rename(tmp, out); err != nil {
		os.RemoveAll(tmp)
		if _, serr := os.Stat(filepath.Join(out, "manifest.json")); serr == nil {
			return out, nil // another process won the race
		}
		return "", err
	}
	return out, nil
}

// sourceHash hashes every Go file and go.mod/go.sum that the guest build
// depends on, plus the Go version.
func sourceHash(src string) (string, error) {
	h := sha256.New()
	fmt.Fprintln(h, runtime.Version(), guest.Preinit())
	var files []string
	// The image transform and the decoder it uses shape the output too.
	walk := func(root string) error {
		return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			// Embedded sources (the js module's prelude) count as well.
			if !d.IsDir() && (strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") || strings.HasSuffix(p, ".js") && !strings.Contains(p, "testdata")) {
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

// Records returns n lines of realistic tabular text, the data of the
// tools' benchmarks natively and in the sandbox, "date region amount
// code", as sort, uniq, cut and friends meet in logs and CSV exports:
//
//	2024-03-17 north 48213 K7Q2
//
// The same n gives the same bytes every time.
func Records(n int) []byte {
	regions := []string{"north", "south", "east", "west", "central", "xray", "island", "metro"}
	var b bytes.Buffer
	b.Grow(n * 30)
	x := uint32(2463534242)
	next := func() uint32 { // xorshift32
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		return x
	}
	for range n {
		r := next()
		fmt.Fprintf(&b, "2024-%02d-%02d %s %d %c%d%c%d\n",
			1+r%12, 1+(r>>4)%28, regions[(r>>9)%uint32(len(regions))], next()%100000,
			'A'+byte(r>>12)%26, (r>>17)%10, 'A'+byte(r>>21)%26, (r>>26)%10)
	}
	return b.Bytes()
}
