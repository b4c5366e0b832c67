// Package testutil holds helpers for the guest commands' tests.
package testutil

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// WriteTree creates files (name → content; a name ending in "/" is a
// directory) under dir, all with modification time mtime, for tests.
func WriteTree(tb testing.TB, dir string, files map[string]string, mtime time.Time) {
	tb.Helper()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if name[len(name)-1] == '/' {
			if err := os.MkdirAll(p, 0o755); err != nil {
				tb.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			tb.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			tb.Fatal(err)
		}
	}
}
