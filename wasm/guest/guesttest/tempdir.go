package guesttest

import (
	"errors"
	"os"
	"sync"
	"testing"
)

// Builds shared by all the tests of a package (a native binary, a tools
// directory) are made once per test binary, so t.TempDir, which goes with
// one test, cannot hold them; os.MkdirTemp alone leaves them behind, a
// few hundred megabytes a run. TempDir makes them, and Main removes them.

var (
	tempMu   sync.Mutex
	tempDirs []string
	inMain   bool
)

// errNoMain is TempDir's error in a package whose TestMain does not call
// Main: its directories would never be removed.
var errNoMain = errors.New("guesttest.TempDir: the package's TestMain must call guesttest.Main, which removes the directory when the tests end")

// TempDir makes a new directory (os.MkdirTemp with pattern) that lives
// until the test binary's tests end; Main then removes it. It is an error
// to call it outside Main.
func TempDir(pattern string) (string, error) {
	tempMu.Lock()
	defer tempMu.Unlock()
	if !inMain {
		return "", errNoMain
	}
	dir, err := os.MkdirTemp("", pattern)
	if err == nil {
		tempDirs = append(tempDirs, dir)
	}
	return dir, err
}

// Main runs the tests, removes every directory TempDir made and exits
// with the tests' status. Call it from TestMain:
//
//	func TestMain(m *testing.M) { guesttest.Main(m) }
func Main(m *testing.M) {
	tempMu.Lock()
	inMain = true
	tempMu.Unlock()
	code := m.Run()
	tempMu.Lock()
	for _, d := range tempDirs {
		os.RemoveAll(d)
	}
	tempDirs = nil
	tempMu.Unlock()
	os.Exit(code)
}
