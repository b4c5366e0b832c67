package jsbridge

import (
	"context"
	"fmt"
	"io/fs"
	"testing"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/sandbox/vfs"
	"github.com/wasmsand/wasmsand/wasm"
)

func TestErrCode(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&fs.PathError{Op: "open", Path: "/x", Err: vfs.ENOENT}, "ENOENT"},
		{&fs.PathError{Op: "write", Path: "/x", Err: vfs.ENOSPC}, "ENOSPC"},
		{fmt.Errorf("wrapped: %w", vfs.ENOTEMPTY), "ENOTEMPTY"},
		{fs.ErrNotExist, "ENOENT"},
		{fs.ErrPermission, "EACCES"},
		{sandbox.ErrClosed, "CLOSED"},
		{fmt.Errorf("x: %w", wasm.ErrInvalidModule), "INVALID_MODULE"},
		{errAborted, "ABORTED"},
		{argErrorf("bad"), "INVALID_ARGUMENT"},
		{&busyError{}, "EBUSY"},
		{context.Canceled, "INTERNAL"},
		{&sandbox.SnapshotError{Check: sandbox.CheckChecksum}, "SNAPSHOT_ERROR"},
		{&sandbox.StoreError{Op: "put", Name: "x", Err: fmt.Errorf("%w (disk full)", sandbox.ErrQuota)}, "QUOTA_EXCEEDED"},
		{&sandbox.StoreError{Op: "get", Name: "x", Err: fmt.Errorf("%w (%w)", sandbox.ErrNotFound, fs.ErrNotExist)}, "NOT_FOUND"},
		{sandbox.ErrBusy, "EBUSY"},
	}
	for _, tt := range tests {
		if got := errCode(tt.err); got != tt.want {
			t.Errorf("errCode(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

func TestIncompleteTail(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abc", 0},
		{"h\xc3\xa9", 0},    // é complete
		{"h\xc3", 1},        // é cut after its first byte
		{"\xe2\x82", 2},     // € cut after two of three
		{"\xe2\x82\xac", 0}, // € complete
		{"\xf0\x9f\x98", 3}, // 😀 cut after three of four
		{"\xf0\x9f\x98\x80", 0},
		{"a\x80", 0}, // a stray continuation byte is not held back
	}
	for _, tt := range tests {
		if got := incompleteTail([]byte(tt.in)); got != tt.want {
			t.Errorf("incompleteTail(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
