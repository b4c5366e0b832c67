package sandbox

import (
	"context"
	"io/fs"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
	"github.com/wasmsand/wasmsand/wasm"
)

// WASI preview1 has no permission bits and no statfs. Tools that need them
// (chmod, ls -l, stat, find -perm, test -x, df) call these functions of the
// "wasmsand" host module, all returning a WASI errno:
//
//	path_chmod(path, path_len, mode, follow: i32) -> errno
//	path_mode(path, path_len, follow, mode_out: i32) -> errno     permission bits, 0o7777
//	fs_usage(out: i32) -> errno        u64 × 4: byte limit, bytes used, inode limit, inodes used
//	mem_limit(out: i32) -> errno       u64: the cap on the caller's linear memory, bytes
//	path_mkfifo(path, path_len, mode: i32) -> errno   a named pipe, mode less the umask
//
// (mem_limit lets a tool that holds its input, such as sort, stop with
// "memory exhausted" before the Go runtime's own allocation fails: that
// failure is a fatal error no guest can catch.)
//
// Relative paths resolve against the caller's working directory.
func hostFSFuncs() []wasm.HostFunc {
	i32 := wasm.I32
	return []wasm.HostFunc{
		{Name: "path_chmod", Params: []wasm.ValueType{i32, i32, i32, i32}, Results: []wasm.ValueType{i32}, Fn: pathChmod, NonBlocking: true},
		{Name: "path_mode", Params: []wasm.ValueType{i32, i32, i32, i32}, Results: []wasm.ValueType{i32}, Fn: pathMode, NonBlocking: true},
		{Name: "fs_usage", Params: []wasm.ValueType{i32}, Results: []wasm.ValueType{i32}, Fn: fsUsage, NonBlocking: true},
		{Name: "mem_limit", Params: []wasm.ValueType{i32}, Results: []wasm.ValueType{i32}, Fn: memLimit, NonBlocking: true},
		{Name: "path_mkfifo", Params: []wasm.ValueType{i32, i32, i32}, Results: []wasm.ValueType{i32}, Fn: pathMkfifo, NonBlocking: true},
	}
}

// guestPath reads a path argument and makes it absolute for the caller.
func guestPath(ctx context.Context, mem wasm.Memory, ptr, n uint32) (*guestProc, string, error) {
	g, _ := ctx.Value(guestKey{}).(*guestProc)
	if g == nil {
		return nil, "", vfs.ENOTSUP
	}
	b, ok := mem.Read(ptr, n)
	if !ok {
		return nil, "", efault
	}
	if len(b) == 0 {
		return nil, "", vfs.ENOENT
	}
	return g, g.run.s.abs(g.dir, string(b)), nil
}

func pathChmod(ctx context.Context, mem wasm.Memory, stack []uint64) {
	g, p, err := guestPath(ctx, mem, uint32(stack[0]), uint32(stack[1]))
	if err == nil {
		err = g.run.s.fs.Chmod(vfs.RootIno, p, fs.FileMode(uint32(stack[2])&0o7777), uint32(stack[3]) != 0)
	}
	errnoResult(stack, err)
}

func pathMkfifo(ctx context.Context, mem wasm.Memory, stack []uint64) {
	g, p, err := guestPath(ctx, mem, uint32(stack[0]), uint32(stack[1]))
	if err == nil {
		err = g.run.s.fs.Mkfifo(vfs.RootIno, p, fs.FileMode(uint32(stack[2])&0o777&^g.umask))
	}
	errnoResult(stack, err)
}

func pathMode(ctx context.Context, mem wasm.Memory, stack []uint64) {
	g, p, err := guestPath(ctx, mem, uint32(stack[0]), uint32(stack[1]))
	if err != nil {
		errnoResult(stack, err)
		return
	}
	st, err := g.run.s.fs.Stat(vfs.RootIno, p, uint32(stack[2]) != 0)
	if err != nil {
		errnoResult(stack, err)
		return
	}
	if !mem.WriteUint32Le(uint32(stack[3]), uint32(st.Mode&0o7777)) {
		errnoResult(stack, efault)
		return
	}
	errnoResult(stack, nil)
}

func fsUsage(ctx context.Context, mem wasm.Memory, stack []uint64) {
	g, _ := ctx.Value(guestKey{}).(*guestProc)
	if g == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	maxBytes, maxInodes := g.run.s.fs.Limits()
	used, inodes := g.run.s.fs.Usage()
	out := uint32(stack[0])
	for i, v := range []uint64{uint64(maxBytes), uint64(used), uint64(maxInodes), uint64(inodes)} {
		if !mem.WriteUint64Le(out+uint32(8*i), v) {
			errnoResult(stack, efault)
			return
		}
	}
	errnoResult(stack, nil)
}

func memLimit(ctx context.Context, mem wasm.Memory, stack []uint64) {
	g, _ := ctx.Value(guestKey{}).(*guestProc)
	if g == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	if !mem.WriteUint64Le(uint32(stack[0]), uint64(g.run.s.memPages)*65536) {
		errnoResult(stack, efault)
		return
	}
	errnoResult(stack, nil)
}
