package fsx

import (
	"io/fs"
	"testing"
)

// TestModeBits checks the conversion between POSIX permission bits and
// fs.FileMode that the wasip1 build uses to talk to the host module.
func TestModeBits(t *testing.T) {
	tests := []struct {
		bits uint32
		mode fs.FileMode
	}{
		{0, 0},
		{0o644, 0o644},
		{0o755, 0o755},
		{0o4755, fs.ModeSetuid | 0o755},
		{0o2750, fs.ModeSetgid | 0o750},
		{0o1777, fs.ModeSticky | 0o777},
		{0o7000, fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky},
	}
	for _, tc := range tests {
		if got := toMode(tc.bits); got != tc.mode {
			t.Errorf("toMode(%#o) = %v, want %v", tc.bits, got, tc.mode)
		}
		if got := fromMode(tc.mode); got != tc.bits {
			t.Errorf("fromMode(%v) = %#o, want %#o", tc.mode, got, tc.bits)
		}
	}
	// Bits above the permission bits and file-type bits are dropped.
	if got := toMode(0o170644); got != 0o644 {
		t.Errorf("toMode(0o170644) = %v, want -rw-r--r--", got)
	}
	if got := fromMode(fs.ModeDir | fs.ModeSymlink | 0o700); got != 0o700 {
		t.Errorf("fromMode(dir|symlink|0o700) = %#o, want 0o700", got)
	}
}
