package vfs

import (
	"strings"
	"testing"
)

// TestErrnoNames: every errno the VFS uses has a symbolic name, which
// names it back; the JS API's error codes and Node's host adapter use
// them.
func TestErrnoNames(t *testing.T) {
	for e, text := range errnoText {
		name := e.Name()
		if !strings.HasPrefix(name, "E") {
			t.Errorf("errno %d (%s): name %q", e, text, name)
		}
		if back, ok := ErrnoNamed(name); !ok || back != e {
			t.Errorf("ErrnoNamed(%q) = %d, %v; want %d", name, back, ok, e)
		}
	}
	if ENOENT.Name() != "ENOENT" || Errno(999).Name() != "" {
		t.Errorf("ENOENT.Name() = %q, Errno(999).Name() = %q", ENOENT.Name(), Errno(999).Name())
	}
	if _, ok := ErrnoNamed("ENOSUCH"); ok {
		t.Error("ErrnoNamed(ENOSUCH) found one")
	}
}
