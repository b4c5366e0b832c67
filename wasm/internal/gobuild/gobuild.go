// Package gobuild builds small Go programs for GOOS=wasip1 in tests: the
// one place the wasm packages' tests get a module compiled by Go.
package gobuild

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var builds = struct {
	sync.Mutex
	bins map[string][]byte
}{bins: map[string][]byte{}}

// Wasip1 builds a main package made of the one file src with GOOS=wasip1,
// once per test binary, and returns the module. It skips the test when the
// go command cannot build it (no Go toolchain on PATH).
func Wasip1(t testing.TB, src string) []byte {
	t.Helper()
	builds.Lock()
	defer builds.Unlock()
	if bin, ok := builds.bins[src]; ok {
		return bin
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module guest\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-o", "guest.wasm", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "GOFLAGS=", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		if _, lookErr := exec.LookPath("go"); lookErr != nil {
			t.Skipf("cannot build a Go wasip1 guest: %v", lookErr)
		}
		t.Fatalf("go build: %v: %s", err, out)
	}
	bin, err := os.ReadFile(filepath.Join(dir, "guest.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	builds.bins[src] = bin
	return bin
}
