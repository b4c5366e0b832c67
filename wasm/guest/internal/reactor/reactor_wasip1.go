//go:build wasip1

package reactor

import (
	"os"
	"runtime"
	"strings"
	"syscall"
	"unsafe"
)

//go:wasmimport wasi_snapshot_preview1 args_sizes_get
//go:noescape
func argsSizesGet(argc, argvBufLen *uint32) uint32

//go:wasmimport wasi_snapshot_preview1 args_get
//go:noescape
func argsGet(argv *uint32, argvBuf *byte) uint32

//go:wasmimport wasi_snapshot_preview1 environ_sizes_get
//go:noescape
func environSizesGet(envc, envBufLen *uint32) uint32

//go:wasmimport wasi_snapshot_preview1 environ_get
//go:noescape
func environGet(env *uint32, envBuf *byte) uint32

// readList reads a NUL-separated list with sizes and get, the shape of
// args_get and environ_get. The strings share one allocation.
func readList(sizes func(n, size *uint32) uint32, get func(ptrs *uint32, buf *byte) uint32) []string {
	var n, size uint32
	if sizes(&n, &size) != 0 || n == 0 || size == 0 {
		return nil
	}
	ptrs := make([]uint32, n)
	buf := make([]byte, size)
	if get(&ptrs[0], &buf[0]) != 0 {
		return nil
	}
	base := uint32(uintptr(unsafe.Pointer(&buf[0])))
	all := string(buf)
	out := make([]string, n)
	for i, p := range ptrs {
		if p-base >= size {
			continue
		}
		s := all[p-base:]
		if j := strings.IndexByte(s, 0); j >= 0 {
			s = s[:j]
		}
		out[i] = s
	}
	return out
}

// Reset makes the process state Go read during initialisation current:
// os.Args, the environment, the working directory ($PWD, as Go's syscall
// package takes it) and the non-blocking flag Go sets on the standard
// files.
func Reset() {
	os.Args = readList(argsSizesGet, argsGet)
	env := readList(environSizesGet, environGet)
	syscall.Clearenv()
	pwd := ""
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		syscall.Setenv(k, v)
		if k == "PWD" {
			pwd = v
		}
	}
	for fd := range 3 {
		syscall.SetNonblock(fd, true)
	}
	if pwd != "" {
		if wd, _ := syscall.Getwd(); wd != pwd {
			syscall.Chdir(pwd)
		}
	}
}

// heapRoom is the free heap an image starts its processes with.
const heapRoom = 256 << 10

// Reserve grows the Go heap by heapRoom and frees it again, so that the
// image's memory holds that much free heap. Without it, the runtime ends
// initialisation with its heap arenas full, and every process grows its
// memory (by a 512 KiB arena and its metadata, 9 pages) before it does
// anything: a memory.grow in every process, and a memory the JS engine
// cannot recycle (a grown memory cannot shrink back to the image's size).
// 256 KiB is enough for true, tr, cat, seq and the like to run without
// growing; the image is as large as a process grew to before.
// The image's entry file calls it from the last init of package main.
func Reserve() {
	// Larger than any stack variable may be: it is allocated on the heap.
	room := make([]byte, heapRoom)
	runtime.KeepAlive(room)
	runtime.GC()
}
